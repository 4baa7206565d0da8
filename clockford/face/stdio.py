"""The same town over stdio, for desktop agents: one process, one session, one passport.

Run by `./town stdio`. Nothing but MCP may reach standard output, so logs go to standard error.
"""

import abc
import asyncio
import io
import json
import os
import queue
import re
import signal
import sys
import threading
from collections import Counter
from types import TracebackType
from typing import Any, BinaryIO, Self, cast

import anyio
import django
import mcp_types as types
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.dispatcher import coerce_request_id
from mcp.shared.jsonrpc_dispatcher import cancelled_request_id_from_params
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from clockford.leaves import deeper_than

UNREADABLE = "Parse error: the town cannot read this line as JSON ({why}). Nothing was done."
NOT_A_REQUEST = "Invalid request: this is not a JSON-RPC 2.0 request ({why}). Nothing was done."
ONE_PER_LINE = "Invalid request: the town takes one JSON-RPC message per line, not a batch. Nothing was done."
# Said after answers.TOO_LARGE_WORDS, the 413's words over HTTP, of a line over the same limit.
TOO_LONG = "{too_large} A message is at most {limit} bytes, over stdio as over HTTP. Nothing was done."

# Standard input is read at most this much at a time.
CHUNK = 64 * 1024
# UTF-8's byte order mark, which some Windows shells and editors put before what they pipe.
BOM = b"\xef\xbb\xbf"

Unreadable = list[tuple[types.RequestId | None, types.ErrorData]]


def _unreadable(item: Exception) -> Unreadable:
    """The ids of the requests the SDK's reader could not read, and the error to answer each with; a
    null id when none can be read (garbage, 42, a request without a method), but never for a response.
    An id that can still be read is answered: Python's JSON takes a lone surrogate (\\ud800) where the
    SDK's parser does not (a parse error; a line nested too deep never gets here, Lines refuses it), a
    line that is JSON but no JSON-RPC 2.0 message (a "jsonrpc" of "1.0", a method that is a number)
    still names its id (an invalid request), and so does each request of a batch, which MCP no longer
    has (over HTTP: 400, "One message per request.")."""
    if not isinstance(item, ValidationError):
        return []
    errors = item.errors()
    invalid = next((e for e in errors if e.get("type") == "json_invalid"), None)
    if invalid is not None:
        line = invalid.get("input")
        try:
            message = json.loads(line) if isinstance(line, str) else None
        except (ValueError, RecursionError):  # not JSON at all, or nested past Python's own limit
            message = None
        code, said = (
            types.PARSE_ERROR,
            UNREADABLE.format(why=str(invalid.get("msg", "")).removeprefix("Invalid JSON: ")),
        )
    else:
        # The SDK's parser read the JSON, and each way it tried to take the message says why not,
        # some with the message itself as the input they refused: an object, or a batch's list (where
        # loc names only the type tried; a list deeper in is a field's, params: []).
        message = next((e["input"] for e in errors if _whole(e)), None)
        first: dict[str, Any] = dict(errors[0]) if errors else {}
        where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "the message"
        code, said = types.INVALID_REQUEST, NOT_A_REQUEST.format(why=f"{where}: {first.get('msg', 'unreadable')}")
    if isinstance(message, list):
        # A batch: the SDK's reader dropped the whole line, and each request in it waited for an
        # answer that never came.
        code, said = types.INVALID_REQUEST, ONE_PER_LINE
    else:
        message = [message]
    error = types.ErrorData(code=code, message=said)
    answered: Unreadable = [(ident, error) for m in message if (ident := _id_of(m)) is not None]
    if answered or any(_is_response(m) for m in message):
        # A response the client sent (to the town's own request) is never answered, however it is wrong.
        return answered
    # Nothing on the line names an id to answer: JSON-RPC answers with a null id then (section 5), as
    # HTTP answers the same body 400, so that no client waits for ever on a line nobody read.
    return [(None, error)]


def _is_response(message: Any) -> bool:
    return isinstance(message, dict) and "method" not in message and ("result" in message or "error" in message)


def _whole(error: Any) -> bool:
    """Whether a validation error's input is the whole message the line held."""
    given = error.get("input")
    return isinstance(given, dict) or (isinstance(given, list) and len(error.get("loc", ())) <= 1)


def _id_of(message: Any) -> types.RequestId | None:
    """The id of a message that asks for something (it names a method), when it can be written back."""
    return _writable(message.get("id") if isinstance(message, dict) and "method" in message else None)


def _writable(ident: Any) -> types.RequestId | None:
    """An id as JSON read it, when it is one that can be written back."""
    if isinstance(ident, int) and not isinstance(ident, bool) and abs(ident) < 2**63:
        return ident
    if isinstance(ident, str) and len(ident) <= 256:
        try:
            ident.encode()
        except UnicodeEncodeError:  # an id that is itself a lone surrogate cannot be written back
            return None
        return ident
    return None


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _skip_space(text: str, at: int) -> int:
    found = _SPACE.match(text, at)
    return found.end() if found else at


def _head_id(head: bytes) -> types.RequestId | None:
    """The id of the message a line too long begins with, read from the start of the line (its first
    `limit` bytes), when "id" comes before whatever made the line too long (a client's SDK writes
    jsonrpc, id, method, then params). Each member of the object is read in turn; a value cut off
    where the head ends, or anything not JSON, ends the search with no id."""
    text = head.decode("utf-8", errors="replace")
    at = _skip_space(text, 0)
    if not text.startswith("{", at):
        return None
    at += 1
    try:
        while True:
            key, at = _DECODER.raw_decode(text, _skip_space(text, at))
            at = _skip_space(text, at)
            if not isinstance(key, str) or not text.startswith(":", at):
                return None
            value, at = _DECODER.raw_decode(text, _skip_space(text, at + 1))
            if at == len(text):  # a number or a name may go on past the head: 12 of 123
                return None
            if key == "id":
                return _writable(value)
            at = _skip_space(text, at)
            if not text.startswith(",", at):
                return None
            at += 1
    except (ValueError, RecursionError):  # cut off, or not JSON
        return None


# Of a line nested past Python's own limit, the id is looked for in this many bytes at its start
# (a client's SDK writes jsonrpc, id and method before params).
HEAD = 4096


def _an_id(ident: Any) -> bool:
    """Whether a request's id is one JSON-RPC takes: a string or an integer (as checks.well_formed asks
    over HTTP, and as the SDK's parser reads a request)."""
    return isinstance(ident, str | int) and not isinstance(ident, bool)


class Reader:
    """Standard input, read on a thread of its own, a chunk at a time as Lines asks. anyio's worker
    threads (anyio.wrap_file) cannot be left behind: a read waiting on a client that sends nothing
    held the process after Ctrl-C until the client wrote or closed its end, and the interpreter waits
    for them at exit. A read awaited here can be given up (Lines.stop): the thread, a daemon, is left
    blocked in it, and the process ends all the same."""

    def __init__(self, raw: BinaryIO) -> None:
        # What _claim_fd gives is buffered (os.fdopen's "rb", or sys.stdin.buffer), and so reads with
        # read1: no more than what the pipe holds, with no wait for the rest of a chunk.
        self.raw = cast(io.BufferedReader, raw)
        self.asked: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, asyncio.Future[bytes], int] | None] = (
            queue.SimpleQueue()
        )
        self.thread: threading.Thread | None = None

    async def read1(self, size: int) -> bytes:
        loop = asyncio.get_running_loop()
        got: asyncio.Future[bytes] = loop.create_future()
        if self.thread is None:
            self.thread = threading.Thread(target=self._serve, name="stdin", daemon=True)
            self.thread.start()
        self.asked.put((loop, got, size))
        return await got

    def close(self) -> None:
        """No more reads: the thread ends once it is done with the one in hand, if any."""
        self.asked.put(None)

    def _serve(self) -> None:
        while (asked := self.asked.get()) is not None:
            loop, got, size = asked
            try:
                chunk, error = self.raw.read1(size), None
            except Exception as failed:  # raised where the read is awaited, as anyio's thread raised it
                chunk, error = b"", failed
            try:
                loop.call_soon_threadsafe(_settle, got, chunk, error)
            except RuntimeError:  # the loop has closed: nobody waits for this read any more
                return


def _settle(got: "asyncio.Future[bytes]", chunk: bytes, error: Exception | None) -> None:
    if got.done():  # given up (Lines.stop): what was read goes to nobody
        return
    if error is not None:
        got.set_exception(error)
    else:
        got.set_result(chunk)


class Lines:
    """Standard input's lines, for the SDK's stdio server to parse, read CHUNK bytes at most at a time.
    The SDK's own reader takes a line whole however long it is, so one client could make the process
    hold as much as it sent. A line longer than `limit` (the limit of a body over HTTP) is never held:
    what was read of it is dropped and the rest skipped to its newline; it is answered with an
    Invalid Request for the id named in its first `limit` bytes (_head_id), or a null id when the id
    is not there, and the lines after it are served. A line ends at a newline; a carriage return before
    it is not counted. A byte order mark that opens the stream is dropped, as JSON allows (RFC 8259,
    section 8.1): the first request is answered, where the SDK's parser refused it unanswered. A line
    the SDK would take and should not (refusal_of) is answered here, and never reaches it."""

    def __init__(self, raw: BinaryIO, limit: int, refusal: str, levels: int, too_deep: str, invalid: str) -> None:
        self.raw = Reader(raw)
        self.reading: anyio.CancelScope | None = None  # around a read in hand, for stop to give it up
        self.limit = limit
        self.refusal = types.ErrorData(code=types.INVALID_REQUEST, message=refusal)
        self.levels = levels  # a message nested deeper is refused (refusal_of)
        self.too_deep = types.ErrorData(code=types.INVALID_REQUEST, message=too_deep)
        self.invalid = types.ErrorData(code=types.INVALID_REQUEST, message=invalid)
        self.pending = bytearray()  # read and not yet handed on: at most limit + 1 + CHUNK bytes
        self.skipping = False  # inside a line too long, until its newline
        self.ended = False
        self.stopped = False  # the client has gone (Output), or Ctrl-C (stop): no line read after is served
        self.opened = False  # whether the stream's first bytes were looked at for a byte order mark
        self.write: WriteStream[SessionMessage] | None = None
        self.writable = anyio.Event()

    def answer_on(self, write: WriteStream[SessionMessage]) -> None:
        """The stream the refusals go out on: the SDK's write stream, known once its server has started
        (and so after this reader has)."""
        self.write = write
        self.writable.set()

    def stop(self) -> None:
        """No line more is served, and a read waiting on the client is given up: the end of input,
        for the SDK, at once."""
        self.stopped = True
        if self.reading is not None:
            self.reading.cancel()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> str:
        while True:
            if self.stopped:
                self.raw.close()
                raise StopAsyncIteration
            if not self.opened and (self.ended or not BOM.startswith(self.pending)):
                self.opened = True
                if self.pending.startswith(BOM):
                    del self.pending[: len(BOM)]
            end = self.pending.find(b"\n") if self.opened else -1
            if self.skipping:
                if end < 0:
                    self.pending.clear()
                else:
                    del self.pending[: end + 1]
                    self.skipping = False
                    continue
            elif end >= 0 or (self.ended and self.pending):
                cut = end + 1 if end >= 0 else len(self.pending)  # the last line may have no newline
                line = bytes(self.pending[:cut])
                del self.pending[:cut]
                if len(line.removesuffix(b"\n").removesuffix(b"\r")) > self.limit:
                    await self.refuse(_head_id(line[: self.limit]))
                    continue
                if not line.strip():
                    # A blank line is no message: a client (or a person typing) that sends one is
                    # not answered a parse error for it, as JSON Lines readers skip one.
                    continue
                # As the SDK's reader decodes: a byte that is not UTF-8 becomes U+FFFD.
                text = line.decode("utf-8", errors="replace")
                refused = self.refusal_of(line, text)
                if refused is not None:
                    await self.refuse(*refused)
                    continue
                return text
            elif len(self.pending) > self.limit + 1:  # too long already, with or without a \r to come
                ident = _head_id(bytes(self.pending[: self.limit]))
                self.pending.clear()
                self.skipping = True
                await self.refuse(ident)
                continue
            if self.ended:
                self.raw.close()
                raise StopAsyncIteration
            with anyio.CancelScope() as self.reading:
                chunk = await self.raw.read1(CHUNK)
                self.ended = not chunk
                self.pending += chunk
            self.reading = None

    def refusal_of(self, line: bytes, text: str) -> tuple[types.RequestId | None, types.ErrorData] | None:
        """The id and the error to answer a line with that the SDK would take and should not, read
        with Python's JSON (a line that is no JSON is the SDK's to answer, a parse error; a response
        the client sent is never answered, _unreadable):
        - a message nested deeper than `levels`, refused with its id, as over HTTP
          (checks.shallow_enough): the SDK's parser reads about 200 levels and then answers a parse
          error without the id; one nested past Python's own limit has its id read from its head;
        - a request whose id is no string nor integer (true, 1.5, an object, a list, null): the SDK's
          parser took it for a notification, ran nothing and answered nothing, and its client waited
          for ever. JSON-RPC answers it Invalid Request with a null id (section 5), in the words HTTP
          answers the same body with (checks.well_formed)."""
        try:
            message = json.loads(text)
        except RecursionError:
            return _head_id(line[:HEAD]), self.too_deep
        except ValueError:
            return None
        if _is_response(message):
            return None
        # The walk only where it could be deep.
        if line.count(b"[") + line.count(b"{") > self.levels and deeper_than(message, self.levels):
            return _id_of(message), self.too_deep
        if isinstance(message, dict) and "method" in message and "id" in message and not _an_id(message["id"]):
            return None, self.invalid
        return None

    async def refuse(self, ident: types.RequestId | None, error: types.ErrorData | None = None) -> None:
        await self.writable.wait()
        assert self.write is not None  # set with writable
        said = error or self.refusal
        try:
            await self.write.send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident, error=said)))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the session has ended: nobody is left to tell


class Output:
    """Standard output, for the SDK's stdio server to write its messages on. A client that quits while a
    call runs closes its end of the pipe, and the SDK's writer died of the broken pipe: a traceback on
    standard error and status 1, the next reply's bytes still buffered. Here the session ends quietly
    instead: nothing more is written, and no line read after it is served (Lines.stopped), so nothing
    runs for a client that can no longer read what it did. Each message is written unbuffered, whole."""

    def __init__(self, fd: int, lines: Lines) -> None:
        self.fd = fd
        self.lines = lines
        self.gone = False

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    async def write(self, text: str) -> None:
        if self.gone:
            return
        try:
            await anyio.to_thread.run_sync(self._write_all, text.encode())
        except (BrokenPipeError, ConnectionResetError):
            self.gone = True
            self.lines.stopped = True

    async def flush(self) -> None:
        pass  # each write is whole on the pipe before it returns


class Unanswered:
    """The requests the SDK was handed and has not answered yet, by id (as the SDK's dispatcher counts
    them: "7" and 7 are one; a client may send one id twice, and gets two answers)."""

    def __init__(self) -> None:
        self.counts: Counter[types.RequestId] = Counter()
        self.settled = anyio.Event()

    def asked(self, ident: types.RequestId) -> None:
        self.counts[coerce_request_id(ident)] += 1

    def answered(self, ident: types.RequestId) -> None:
        """A reply went out, or the client cancelled the request (the SDK never answers a request its
        client cancelled); one the SDK has already answered is not counted twice."""
        key = coerce_request_id(ident)
        if self.counts[key] > 1:
            self.counts[key] -= 1
        else:
            self.counts.pop(key, None)
            if not self.counts:
                self.settled.set()

    async def all_answered(self) -> None:
        while self.counts:
            self.settled = anyio.Event()
            await self.settled.wait()


class _ClosedOnExit(abc.ABC):
    """A stream the SDK enters as an async context: leaving it closes the stream (aclose)."""

    @abc.abstractmethod
    async def aclose(self) -> None: ...

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        await self.aclose()
        return None


class Replies(_ClosedOnExit):
    """The SDK's write stream, for its dispatcher: what it sends goes on as ever, and each reply is
    counted answered (Unanswered) once the writer of standard output has taken it."""

    def __init__(self, inner: WriteStream[SessionMessage], unanswered: Unanswered) -> None:
        self.inner = inner
        self.unanswered = unanswered

    async def send(self, item: SessionMessage, /) -> None:
        await self.inner.send(item)
        if isinstance(item.message, types.JSONRPCResponse | types.JSONRPCError) and item.message.id is not None:
            self.unanswered.answered(item.message.id)

    async def aclose(self) -> None:
        await self.inner.aclose()


class Answering(_ClosedOnExit):
    """The SDK's read stream, answering the requests it cannot read. The SDK's stdio reader drops
    such a line, and a request dropped unanswered leaves its client waiting until it times out; here
    it gets a parse error or an invalid request for its id, as JSON-RPC asks, and nothing is done. (Over HTTP the same body
    is answered 400.) Like every protocol error, it leaves no footstep (spec 001, section 03).

    At the end of standard input the SDK ended the session at once and cancelled the calls still
    running: they had run, often committed, and their replies were lost, so a client that piped its
    requests and closed its input got only the first answers. Here the end of input reaches the SDK
    only once every request it was handed is answered (Unanswered), and its writer then writes the
    last reply before the process ends. (MCP's stdio shutdown has the client close standard input,
    wait for the server to exit, and only then send SIGTERM.)"""

    def __init__(
        self, inner: ReadStream[SessionMessage | Exception], write: WriteStream[SessionMessage], unanswered: Unanswered
    ) -> None:
        self.inner = inner
        self.write = write
        self.unanswered = unanswered

    @property
    def last_context(self) -> Any:
        # The SDK carries the sender's context on its own streams; pass it on.
        return getattr(self.inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        while True:
            try:
                item = await self.inner.receive()
            except anyio.EndOfStream:
                await self.unanswered.all_answered()
                raise
            if isinstance(item, SessionMessage):
                message = item.message
                if isinstance(message, types.JSONRPCRequest):
                    self.unanswered.asked(message.id)
                elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
                    cancelled = cancelled_request_id_from_params(message.params)
                    if cancelled is not None:
                        self.unanswered.answered(cancelled)
            unreadable = _unreadable(item) if isinstance(item, Exception) else []
            if not unreadable:
                return item
            for ident, error in unreadable:
                await self.write.send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident, error=error)))

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None


# The status a process ends with after Ctrl-C: 128 and SIGINT's number, as a shell reports a program
# the signal ended.
INTERRUPTED = 128 + signal.SIGINT


class Interrupts:
    """Ctrl-C (SIGINT), for a person running the town by hand. Python's own handling cancelled every
    task wherever it was and raised KeyboardInterrupt, which printed some 4 KB of traceback, and the
    process died by the signal (idle, only once the client wrote or closed its input). Here the first
    Ctrl-C ends standard input (Lines.stop): the calls in hand finish and are answered, and nothing
    more is read, as when the client closes its input. A second, while they finish, cancels them
    (`serving`), as a client that goes mid-call over HTTP does: a call's work still finishes, or its
    transaction is rolled back when the process ends first (clockford/postgresql/green.py); none is
    left half-done. Either way the process ends quietly with INTERRUPTED."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines
        self.serving = anyio.CancelScope()
        self.count = 0

    async def watch(self, *, task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        # The signal is taken on the loop, between its tasks, never inside a call's synchronous work
        # (Python's handler raised wherever the main thread was).
        with anyio.open_signal_receiver(signal.SIGINT) as signals:
            task_status.started()
            async for _ in signals:
                self.count += 1
                if self.count == 1:
                    self.lines.stop()
                else:
                    self.serving.cancel()


# Said on standard error, and the process ends with status 2, when it was started without standard
# input or output (a launcher that closed them, `./town stdio <&-`): Python has no sys.stdin or
# sys.stdout then, and the SDK's claim of them failed with a traceback, after a passport was made.
NO_PIPE = "./town stdio serves MCP on standard input and output, and this process was started without {which}."


def main() -> None:
    missing = [name for name, stream in (("standard input", sys.stdin), ("standard output", sys.stdout)) if not stream]
    if missing:
        if sys.stderr:
            print(NO_PIPE.format(which=" or ".join(missing)), file=sys.stderr)
        sys.exit(2)
    try:
        interrupted = serve()
    except KeyboardInterrupt:
        # Ctrl-C before Interrupts watches for it (the town still starting), or once it has stopped.
        interrupted = True
    if interrupted:
        sys.exit(INTERRUPTED)


def serve() -> bool:
    """Serve the process's one session until the end of standard input; whether Ctrl-C ended it."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clockford.settings")
    django.setup()
    from django.conf import settings
    from django.utils import timezone
    from mcp.server.stdio import _claim_fd, _open_stdin_diversion, _open_stdout_diversion, stdio_server

    from clockford.face import answers, checks, server
    from clockford.town.models import Passport
    from districts.registry import START_PLACE

    now = timezone.now()
    # Without sign-in, each session gets a new passport; over stdio the process is the session.
    passport = Passport.objects.create(issued_at=now, last_seen=now, place=START_PLACE)
    mcp_server = server.build_server(server.Visitor(passport=passport, session_id=None, kept=True))

    limit = settings.CLOCKFORD["MAX_BODY_BYTES"]
    too_long = TOO_LONG.format(too_large=answers.TOO_LARGE_WORDS, limit=limit)

    async def run() -> bool:
        # Standard input is read by Lines, not by the SDK, which would take a line of any length. The
        # SDK does not claim an input it is given, so it is claimed here with the SDK's own function
        # (private to its module; an upgrade that renames it fails at this import, and
        # tests/e2e/test_stdio.py with it): fd 0 then reads the null device, and nothing else in the
        # process can take the client's bytes. Standard output is claimed the same way (fd 1 then
        # writes to standard error), and written by Output, which outlives a client that has gone.
        raw, release = _claim_fd(0, sys.stdin, "rb", _open_stdin_diversion)
        wire, release_out = _claim_fd(1, sys.stdout, "wb", _open_stdout_diversion)
        try:
            lines = Lines(
                raw,
                limit,
                too_long,
                checks.MAX_LEVELS,
                answers.NESTED_TOO_DEEP.format(levels=checks.MAX_LEVELS),
                answers.INVALID_REQUEST_WORDS,
            )
            output = Output(wire.fileno(), lines)
            interrupts = Interrupts(lines)
            async with anyio.create_task_group() as watching:
                await watching.start(interrupts.watch)
                with interrupts.serving:
                    # The SDK only iterates what it is given as its input, for str lines, and only
                    # writes and flushes its output.
                    async with stdio_server(stdin=cast(Any, lines), stdout=cast(Any, output)) as (read, write):
                        lines.answer_on(write)
                        unanswered = Unanswered()
                        await mcp_server.run(
                            Answering(read, write, unanswered),
                            Replies(write, unanswered),
                            mcp_server.create_initialization_options(),
                        )
                watching.cancel_scope.cancel()
            return interrupts.count > 0
        finally:
            if release_out is not None:
                release_out()
            if release is not None:
                release()

    return anyio.run(run)


if __name__ == "__main__":
    main()
