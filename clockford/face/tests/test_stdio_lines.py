"""stdio's reader of standard input (clockford/face/stdio.py Lines), in process: a line over the limit is
never held whole, however long it is (tests/e2e/test_stdio.py sends such lines to a real process)."""

import json
from typing import Any

import anyio
from mcp.shared.message import SessionMessage

from clockford.face import stdio


class Endless:
    """Standard input holding one line of `size` bytes, then `after`: made a chunk at a time as the reader
    asks, never as a whole; it notes the most the reader held between two reads."""

    def __init__(self, lines: stdio.Lines | None, size: int, after: bytes) -> None:
        self.lines = lines
        self.left = size
        self.after = after
        self.most_held = 0

    def read1(self, n: int) -> bytes:
        if self.lines is not None:
            self.most_held = max(self.most_held, len(self.lines.pending))
        if self.left > 0:
            chunk = b"x" * min(n, self.left)
            self.left -= len(chunk)
            return chunk
        rest, self.after = self.after[:n], self.after[n:]
        return rest


class Written:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send(self, item: SessionMessage) -> None:
        self.sent.append(json.loads(item.message.model_dump_json(by_alias=True, exclude_unset=True)))


def read_all(size: int, after: bytes, limit: int = 1000) -> tuple[list[str], list[Any], int]:
    async def run() -> tuple[list[str], list[Any], int]:
        raw = Endless(None, size, after)
        lines = stdio.Lines(raw, limit, "Too large.")  # type: ignore[arg-type]  # read1 is all it reads
        raw.lines = lines
        written = Written()
        lines.answer_on(written)  # type: ignore[arg-type]  # send is all it writes
        return [line async for line in lines], written.sent, raw.most_held

    return anyio.run(run)


def test_a_line_far_over_the_limit_is_never_held_whole() -> None:
    got, sent, most_held = read_all(50 * stdio.CHUNK, b'\n{"a":1}\n{"b":2}')
    assert got == ['{"a":1}\n', '{"b":2}']
    error = {"code": -32600, "message": "Too large."}
    assert sent == [{"jsonrpc": "2.0", "id": None, "error": error}]
    assert most_held <= 1000 + 1 + stdio.CHUNK


def test_lines_up_to_the_limit_are_read_with_or_without_a_carriage_return() -> None:
    assert read_all(1000, b"\n")[:2] == (["x" * 1000 + "\n"], [])
    assert read_all(1000, b"\r\n")[:2] == (["x" * 1000 + "\r\n"], [])
    assert read_all(1000, b"")[:2] == (["x" * 1000], [])  # the last line, with no newline after it
    too_large = [{"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Too large."}}]
    assert read_all(1001, b"\n")[:2] == ([], too_large)
    assert read_all(1001, b"\r\n")[:2] == ([], too_large)
    assert read_all(1001, b"")[:2] == ([], too_large)
    # Not UTF-8: replaced, as the SDK's reader does.
    assert read_all(0, b"\xff\n")[:2] == (["\ufffd\n"], [])
