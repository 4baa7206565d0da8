"""The town's ASGI app with timers on it, for `./town bench calls --phases` and `--cprofile`.

Only the bench serves this module. It wraps clockford.asgi's application in this process and changes
nothing the town answers: it times each /mcp request and each piece of work with the database (the
await, and the work apart, on a desk thread or on SQLite on the loop's own thread, with its CPU time),
and counts the SQL statements each runs. BENCH_CPROFILE=1 also runs
cProfile from the first /mcp request on: enabled on the event loop's thread, it sees the desk's
threads too (Python 3.12+ profiles through sys.monitoring, one profiler per process). GET
/bench/phases writes the timings to BENCH_PROFILE_OUT (JSON) and the profile beside it (.prof).
"""

import cProfile
import json
import os
import pstats
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

from clockford import asgi
from clockford.face import checks as face_checks
from clockford.face import http as face_http
from clockford.face import server as face_server
from clockford.postgresql import green
from clockford.town.tooling import Tool

OUT = Path(os.environ["BENCH_PROFILE_OUT"])
CPROFILE = os.environ.get("BENCH_CPROFILE", "")

# name -> seconds (or counts), one entry per occurrence
phases: dict[str, list[float]] = defaultdict(list)
statements: dict[str, list[str]] = {}  # one example of the SQL each hop runs, by hop name
lock = threading.Lock()
started = threading.Event()
local = threading.local()
profile = cProfile.Profile() if CPROFILE == "1" else None


current: ContextVar[dict[str, str]] = ContextVar("current", default={"what": "?"})  # noqa: B039


def note(name: str, value: float) -> None:
    with lock:
        phases[name].append(value)


def measured(name: str, where: str, fn: Callable[..., Any], *args: Any, cpu: bool = True, **kwargs: Any) -> Any:
    """fn(*args, **kwargs), noting its wall and CPU time `where` it ran (on the thread, on the loop, in a
    greenlet) and its SQL.
    Not the CPU time of work in a greenlet: the thread's clock counts every call that ran while it waited."""
    began, began_cpu = time.perf_counter(), time.thread_time()
    sql: list[str] = []

    def count(execute: Any, text: str, params: Any, many: bool, context: Any) -> Any:
        sql.append(text)
        return execute(text, params, many, context)

    try:
        # close_old_connections (inside fn) may open the connection, so wrap around it too.
        with connection.execute_wrapper(count):
            return fn(*args, **kwargs)
    finally:
        note(f"{name}: {where}", time.perf_counter() - began)
        if cpu:
            note(f"{name}: CPU {where}", time.thread_time() - began_cpu)
        note(f"{name}: SQL statements", len(sql))
        with lock:
            statements.setdefault(name, sql)


class TimedPool(ThreadPoolExecutor):
    """The desk's pool, timing each piece of work on its thread and counting its SQL."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        name = getattr(local, "hop", None) or "other"
        queued = time.perf_counter()

        def work() -> Any:
            note(f"{name}: wait for a thread", time.perf_counter() - queued)
            return measured(name, "on the thread", fn, *args, **kwargs)

        return super().submit(work)


# On SQLite a request's work runs on the loop's own thread (server.in_db): timed there the same way,
# inside the town's own wrapper, where Django's connection is the one the work uses.
_on_loop = face_server._on_loop


def timed_on_loop(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    name = getattr(local, "hop", None) or "other"
    return _on_loop(lambda *a: measured(name, "on the loop", fn, *a), args)


face_server._on_loop = timed_on_loop  # type: ignore[assignment]


class TimedCalls(green.Calls):
    """On PostgreSQL a request's work runs in a greenlet on the loop's thread (server.in_db): its wall
    time there, from its start to its end, waits for the server included."""

    async def run(self, fn: Any, args: tuple[Any, ...]) -> Any:
        name = getattr(local, "hop", None) or "other"
        return await super().run(lambda *a: measured(name, "in a greenlet", fn, *a, cpu=False), args)


if face_server.IN_GREENLETS is not None:
    face_server.IN_GREENLETS = TimedCalls(face_server.IN_GREENLETS.at_once)


# As many threads as the town's own pool (clockford/face/server.py): few on SQLite.
face_server._pool = TimedPool(
    max_workers=settings.CLOCKFORD["DESK_THREADS"], thread_name_prefix="desk", initializer=face_server._keep_for_life
)


def timed(road: Callable[..., Any]) -> Callable[..., Any]:
    """The face's road to the database (in_db, on_desk_thread), timed as the event loop sees it."""

    async def timed_road(fn: Any, *args: Any) -> Any:
        name = getattr(fn, "__qualname__", repr(fn))
        if getattr(fn, "__module__", "") == "clockford.town.desk":
            name = f"desk.{name}"
        if args and isinstance(args[0], Tool):  # the desk's run, or whatever runs a tool: name the tool
            name = f"{name}({args[0].name})"
        local.hop = name  # read by TimedPool.submit and timed_on_loop, on this same (loop) thread
        t0 = time.perf_counter()
        try:
            return await road(fn, *args)
        finally:
            note(f"{name}: await {road.__name__}", time.perf_counter() - t0)

    return timed_road


timed_in_db = timed(face_server.in_db)
face_http.in_db = timed_in_db
face_checks.in_db = timed_in_db
face_server.in_db = timed_in_db
asgi.on_desk_thread = timed(face_server.on_desk_thread)

_forward = asgi.face.forward


async def timed_forward(*args: Any, **kwargs: Any) -> Any:
    t0 = time.perf_counter()
    try:
        return await _forward(*args, **kwargs)
    finally:
        note(f"request {current.get()['what']}: in the SDK (face.forward, desk inside)", time.perf_counter() - t0)


asgi.face.forward = timed_forward  # type: ignore[method-assign]


def dump() -> None:
    running = profile is not None and started.is_set()
    if profile is not None and running:
        profile.disable()
    with lock:
        OUT.write_text(json.dumps({"phases": phases, "statements": statements}))
        if profile is not None and running:
            pstats.Stats(profile).dump_stats(OUT.with_suffix(".prof"))
    if profile is not None and running:
        profile.enable()


def _what(body: bytes) -> str:
    """The tool a tools/call names, or the JSON-RPC method: what a request's timings are filed under."""
    try:
        message = json.loads(body)
        if message.get("method") == "tools/call":
            return str(message["params"]["name"])
        return str(message.get("method"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return "?"


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and scope["path"] == "/bench/phases":
        dump()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    if scope["type"] != "http" or scope["path"] != "/mcp":
        return await asgi.application(scope, receive, send)
    if profile is not None and not started.is_set():  # on the event loop's thread, once
        started.set()
        profile.enable()
    t0 = time.perf_counter()
    request = {"what": "?"}
    current.set(request)

    async def timed_receive() -> Any:
        message = await receive()
        if message["type"] == "http.request" and request["what"] == "?":
            request["what"] = _what(message.get("body", b""))
        return message

    async def timed_send(message: dict[str, Any]) -> None:
        await send(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            note(f"request {request['what']}: until its reply is sent", time.perf_counter() - t0)

    try:
        await asgi.application(scope, timed_receive, timed_send)
    finally:
        note(f"request {request['what']}: until the app returns", time.perf_counter() - t0)
