"""The same town over stdio, for desktop agents: one process, one session, one passport.

Run by `./town stdio`. Nothing but MCP may reach standard output, so logs go to standard error.
"""

import os

import anyio
import django


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clockford.settings")
    django.setup()
    from django.utils import timezone
    from mcp.server.stdio import stdio_server

    from clockford.face import server
    from clockford.town.models import Passport
    from districts.registry import START_PLACE

    now = timezone.now()
    # Without sign-in, each session gets a new passport; over stdio the process is the session.
    passport = Passport.objects.create(issued_at=now, last_seen=now, place=START_PLACE)
    mcp_server = server.build_server(server.Visitor(passport=passport, session_id=None, kept=True))

    async def run() -> None:
        async with stdio_server() as (read, write):
            await mcp_server.run(read, write, mcp_server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main()
