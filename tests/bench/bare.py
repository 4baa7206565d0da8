"""The bench's yardstick: a bare mcp 2.3.0 server with one trivial tool, as an ASGI app.

Nothing of Clockford is imported here. The SDK's session manager starts at the lifespan's startup, or on the
first request for a server without lifespan (daphne), as the town's own ASGI app does. BENCH_BARE_STATELESS=1 serves it in
the SDK's stateless mode (the mode the town hands its requests to) instead of the default sessions.
"""

import contextlib
import os
from typing import Any

from mcp.server.mcpserver import MCPServer

server = MCPServer("bare", version="1.0.0")


@server.tool(name="ping", description="Answers pong.")
def ping() -> str:
    return "pong"


_app = server.streamable_http_app(
    stateless_http=os.environ.get("BENCH_BARE_STATELESS") == "1",
    host="127.0.0.1",
)


class Bare:
    def __init__(self) -> None:
        self.stack: contextlib.AsyncExitStack | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":  # servers that speak it (uvicorn): the manager starts here
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await self.start()
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    if self.stack is not None:
                        await self.stack.aclose()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        await self.start()
        if scope["path"] == "/status":  # how the bench knows the server is up
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
            await send({"type": "http.response.body", "body": b"ok"})
            return
        await _app(scope, receive, send)

    async def start(self) -> None:
        if self.stack is None:
            self.stack = contextlib.AsyncExitStack()
            await self.stack.enter_async_context(server.session_manager.run())


application = Bare()
