"""The statements of the town's hot path, prepared once on each PostgreSQL connection.

PostgreSQL parses and plans a statement every time it comes as text: for the town's short statements
that planning costs more than running them (the request's count and its session's read took 0.33 ms as
text and 0.15 ms prepared, measured on loopback). psycopg prepares statements itself only when it binds
parameters on the server, and a cursor that binds on the server cannot send several statements in one
message (clockford/town/several.py), which is how a call's BEGIN, footstep and COMMIT share round trips.
So the town prepares its hot statements itself, in SQL: `PREPARE name AS ...` once on a connection,
then `EXECUTE name(...)` through the same client-side cursor, its values interpolated as any others.

A statement goes through `prepared(sql)` where it is sent. The first time a process meets a text it is
sent as it is, and wanted; it is prepared on a connection at that connection's next moment outside any
transaction (a call's first statement, its request's count, is sent at such a moment), because PREPARE
is undone with the transaction around it, and a name believed prepared must be. Each PREPARE is a
message of its own, once per statement and connection. A text the server will not prepare (its
parameters' types cannot be told from it) is sent as text on that connection, and logged once.

Off with CLOCKFORD_PG_PREPARE=0, for a connection pooler in transaction mode (PgBouncer's), which
hands a session's next transaction to a server connection that never saw its PREPARE. Left on there,
the first EXECUTE that finds its statement gone turns it off for the process (`lost`): that call is
answered busy, and the log says what to set.
"""

import logging
import re
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from clockford.town.several import sends_several

log = logging.getLogger(__name__)

# A process's hot statements are a few dozen fixed texts; one built from unbounded input (an IN list
# as long as a request's) must not make a name per length for ever.
MOST = 64

_PLACEHOLDER = re.compile(r"%[s%]")


@dataclass(frozen=True)
class _Statement:
    sql: str  # as the town writes it, with %s
    name: str
    body: str  # as PREPARE takes it, with $1, $2, ...
    execute: str  # what is sent in its place: EXECUTE name(%s, ...), its values as the text's were


@dataclass
class _Connection:
    """What one server connection has prepared: how many of the wanted statements it has tried (in
    order), and what to send for each text it has."""

    tried: int = 0
    ready: dict[str, str] = field(default_factory=dict)


_off = False  # set once a server lost a statement prepared here (lost): text from then on
_wanted: list[_Statement] = []
_known: set[str] = set()  # the texts in _wanted
_refused: set[str] = set()  # names a server would not prepare, logged once
_lock = threading.Lock()
_connections: "weakref.WeakKeyDictionary[Any, _Connection]" = weakref.WeakKeyDictionary()


def prepared(sql: str) -> str:
    """What to send for this statement on this thread's connection: EXECUTE of it where the connection
    has it prepared, else the statement itself (wanted, to be prepared at the next moment it can)."""
    db = connections[DEFAULT_DB_ALIAS]
    raw = db.connection
    if raw is None or _off or db.vendor != "postgresql" or not settings.CLOCKFORD["PG_PREPARE"]:
        return sql
    here = _connections.get(raw)
    if here is None:
        if not sends_several(raw.cursor_factory):
            return sql  # a cursor that binds on the server cannot send EXECUTE's values as text
        here = _Connection()
        with _lock:
            _connections[raw] = here
    if sql not in _known:
        _want(sql)
    if here.tried < len(_wanted) and _idle(db):
        _prepare(raw, here)
    return here.ready.get(sql, sql)


def _want(sql: str) -> None:
    """Add a text to the statements every connection prepares, numbered in the order met."""
    if "%(" in sql or len(_wanted) >= MOST:
        return  # named values (none of the town's hot statements), or the bound met: not rewritten again
    pieces = _PLACEHOLDER.split(sql)
    body, number = pieces[0], 0
    for mark, after in zip(_PLACEHOLDER.findall(sql), pieces[1:], strict=True):
        if mark == "%s":
            number += 1
            body += f"${number}"
        else:
            body += "%"  # %% is a percent sign in a text with values; PREPARE's has none
        body += after
    with _lock:
        if sql in _known or len(_wanted) >= MOST:
            return
        _known.add(sql)
        name = f"clockford_{len(_wanted)}"
        values = f"({', '.join(['%s'] * number)})" if number else ""
        _wanted.append(_Statement(sql, name, body, f"EXECUTE {name}{values}"))


def _idle(db: Any) -> bool:
    """Whether the connection is outside any transaction: Django's, and the server's."""
    from psycopg import pq

    return not db.in_atomic_block and db.connection.info.transaction_status == pq.TransactionStatus.IDLE


def _prepare(raw: Any, here: _Connection) -> None:
    """Prepare on this connection the wanted statements it has not tried yet, each in a message of its
    own (outside any transaction, each is its own). One the server refuses is sent as text there."""
    import psycopg

    with _lock:
        todo = _wanted[here.tried :]
    for statement in todo:
        here.tried += 1
        try:
            raw.execute(f"PREPARE {statement.name} AS {statement.body}", prepare=False)
        except psycopg.Error as error:
            if statement.name not in _refused:
                _refused.add(statement.name)
                log.warning("could not prepare a statement; it is sent as text: %s", error)
            continue
        here.ready[statement.sql] = statement.execute


def lost(error: BaseException) -> bool:
    """Whether a database error says that a statement prepared here is gone from its connection (a pooler
    in transaction mode hands the next transaction to another server connection; DISCARD ALL drops them).
    If so, this process sends every statement as text from now on, and the call that met it is answered
    busy, to be tried again: a town set up that way goes on, and says in its log what to set."""
    global _off
    cause = error.__cause__ or error
    if getattr(cause, "sqlstate", None) != _NO_SUCH_STATEMENT:
        return False
    if not _off:
        _off = True
        log.error(
            "a statement prepared on a PostgreSQL connection was gone from it (%s); statements go as text "
            "from now on. Behind a pooler in transaction mode, set CLOCKFORD_PG_PREPARE=0.",
            cause,
        )
    return True


_NO_SUCH_STATEMENT = "26000"  # invalid_sql_statement_name

_EXECUTE = re.compile(r"EXECUTE (clockford_\d+)")


def spelled(text: str) -> str:
    """A message as written before preparing, for reading it: each EXECUTE of a prepared statement shown
    as that statement, the values it was sent with left after it in parentheses."""
    with _lock:
        named = {s.name: s.sql for s in _wanted}
    return _EXECUTE.sub(lambda m: named.get(m.group(1), m.group(0)), text)
