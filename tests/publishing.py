"""Tools written for the tests and run through the real desk, for the tests of holds and Safe Harbour.

- `PIN`, a publishing tool: its words are public, so every call of it waits for the agent's person; its
  handler keeps a note on the board, so that "ran exactly once" can be counted (`board()`).
- `hands(...)`, a read tool that hands its caller foreign words, which the desk records as handed: what
  Safe Harbour compares the caller's later writes with.
"""

import copy
from typing import Any

from django.utils import timezone
from pydantic import Field

from clockford.town.tooling import Args, Call, Part, Reply, Tool
from districts.post_office.models import Note


class PinArgs(Args):
    text: str = Field(min_length=1, max_length=280)
    request_id: str | None = Field(default=None, pattern=r"^[\w.-]{1,64}$")
    copies: int | None = Field(default=None, ge=1, le=9)


def _pin(call: Call, args: PinArgs) -> Reply:
    Note.objects.create(box="board", key=f"n{board()}", value=args.text, size=1, kept_at=timezone.now())
    return Reply("Pinned.", {"text": args.text}, [Part("text", "agent-written", own=True)])


PIN = Tool(
    name="pin_test",
    title="Pin.",
    description="A publishing tool for the tests.",
    args=PinArgs,
    handler=_pin,
    kind="write",
    words={"text": "public"},
    needs_yes=True,
    freezes=True,
)


def board() -> int:
    """How many notes the publishing tool has pinned."""
    return Note.objects.filter(box="board").count()


class HandArgs(Args):
    pass


def hands(name: str, say: str, fields: dict[str, Any], part: Part) -> Tool:
    """A read tool named `name` that answers `say` with `fields`, the words at `part` foreign ones."""
    # A copy a call: the reply's fields are the desk's to add to once it has them.
    return Tool(
        name=name,
        title="Hand.",
        description="Hands foreign words.",
        args=HandArgs,
        handler=lambda call, args: Reply(say, copy.deepcopy(fields), [part]),
        kind="read",
    )
