"""stdio's reader of standard input (clockford/face/stdio.py Lines), in process: a line over the limit is
never held whole, however long it is (tests/e2e/test_stdio.py sends such lines to a real process)."""

import io
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
        lines = stdio.Lines(raw, limit, "Too large.", 100, "Too deep.", "Invalid Request")  # type: ignore[arg-type]  # read1 is all it reads
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


def refused_ids(given: bytes, limit: int = 1000) -> list[Any]:
    """The ids the refusals of the lines in `given` name, standard input read as it comes."""

    async def run() -> list[Any]:
        lines = stdio.Lines(io.BytesIO(given), limit, "Too large.", 100, "Too deep.", "Invalid Request")
        written = Written()
        lines.answer_on(written)  # type: ignore[arg-type]  # send is all it writes
        assert [line async for line in lines] == []
        return [sent["id"] for sent in written.sent]

    return anyio.run(run)


def test_a_line_too_long_is_answered_for_the_id_its_start_names() -> None:
    def call(ident: str, pad: int) -> bytes:
        return b'{"jsonrpc": "2.0", "id": ' + ident.encode() + b', "params": {"v": "' + b"x" * pad + b'"}}\n'

    # Over the limit by a little (the line whole in hand) or by far (never whole): the id is named.
    assert refused_ids(call("7", 1000) + call('"seven"', 50 * stdio.CHUNK)) == [7, "seven"]
    # An id after the part that made the line too long, or one no reply could carry: null.
    late = b'{"params": {"v": "' + b"x" * 2000 + b'"}, "id": 8}\n'
    assert refused_ids(late + call("[8]", 1000) + call("true", 1000) + b"x" * 1001 + b"\n") == [None] * 4
    # An id cut where the first 1,000 bytes end is not read as its first digits.
    head = b'{"pad": "' + b"x" * (1000 - len(b'{"pad": "') - len(b'", "id": 12')) + b'", "id": 12'
    assert len(head) == 1000
    assert refused_ids(head + b'3456, "params": {}}\n') == [None]
    # Nor one that ends just where they end, since it may go on; one byte sooner, it is read.
    assert refused_ids(head + b', "params": {"v": "' + b"x" * 1000 + b'"}}\n') == [None]
    sooner = head.replace(b"xx", b"x", 1)
    assert refused_ids(sooner + b', "params": {"v": "' + b"x" * 1000 + b'"}}\n') == [12]


def lines_of(given: bytes, chunk: int) -> list[str]:
    """The lines the reader hands on from `given`, read `chunk` bytes at a time."""

    class Trickle(io.BytesIO):
        def read1(self, n: int = -1) -> bytes:
            return super().read1(min(n, chunk))

    async def run() -> list[str]:
        lines = stdio.Lines(Trickle(given), 1000, "Too large.", 100, "Too deep.", "Invalid Request")
        return [line async for line in lines]

    return anyio.run(run)


def test_a_byte_order_mark_that_opens_the_stream_is_dropped() -> None:
    """Some Windows shells and editors begin what they pipe with UTF-8's byte order mark, which JSON
    may ignore (RFC 8259, section 8.1): the first line read without it, however the bytes arrive, so
    its request is answered; a mark anywhere else is the line's own, and stays."""
    given = b'\xef\xbb\xbf{"a":1}\n\xef\xbb\xbf{"b":2}\n'
    for chunk in (1, 2, 3, 64):
        assert lines_of(given, chunk) == ['{"a":1}\n', '\ufeff{"b":2}\n'], chunk
    assert lines_of(b"\xef\xbb", 1) == ["\ufffd"]  # a mark cut short is no mark
    assert lines_of(b"", 1) == []


def test_a_request_whose_id_is_no_string_nor_integer_is_answered_here_with_a_null_id() -> None:
    """The SDK's parser takes such a request for a notification and answers nothing: it is answered
    here and never handed on. A notification, a response (however wrong) and a line that is no JSON
    are handed on, for the SDK to take or answer."""

    async def run() -> tuple[list[str], list[Any]]:
        given = [b'{"jsonrpc":"2.0","id":' + ident + b',"method":"ping"}\n' for ident in (b"true", b"1.5", b"null")]
        passed = [b'{"jsonrpc":"2.0","method":"ping"}\n', b'{"jsonrpc":"2.0","id":true,"result":{}}\n', b"{\n"]
        passed.append(b'{"jsonrpc":"2.0","id":"7","method":"ping"}\n')
        lines = stdio.Lines(
            io.BytesIO(b"".join(given + passed)), 1000, "Too large.", 100, "Too deep.", "Invalid Request"
        )
        written = Written()
        lines.answer_on(written)  # type: ignore[arg-type]  # send is all it writes
        return [line async for line in lines], written.sent

    got, sent = anyio.run(run)
    assert got == [
        '{"jsonrpc":"2.0","method":"ping"}\n',
        '{"jsonrpc":"2.0","id":true,"result":{}}\n',
        "{\n",
        '{"jsonrpc":"2.0","id":"7","method":"ping"}\n',
    ]
    assert sent == [{"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}] * 3


def test_a_blank_line_is_no_message_and_is_not_answered() -> None:
    """A blank line (a person pressing Enter, a client ending each message with a blank line) is skipped:
    the SDK answered each with a parse error of its own. A line of anything else is handed on."""
    given = b'\n\r\n  \t\n{"a":1}\n\n \n{"b":2}\n   '
    for chunk in (1, 3, 64):
        assert lines_of(given, chunk) == ['{"a":1}\n', '{"b":2}\n'], chunk
