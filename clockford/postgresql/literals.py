"""A statement's values written into its text, on PostgreSQL, faster than psycopg's adapters write them.

The town sends its statements through psycopg's client-side cursor, which writes each value into the
statement's text as a literal, so that several statements can go in one message (clockford/town/
several.py). psycopg writes each value through its adapters: a lookup of the value's dumper, the
dumper's bytes, libpq's escaping and a type cast, 1 to 3 microseconds a value, and 23 to 26 a statement
on a worker's hot path (a read's COMMIT message carries 21 values): as long as sending the statement,
and twice as long as reading its results (docs/scale.md, 2026-12-06, a second session).

The values the hot path sends are of four kinds, written here directly, byte for byte as psycopg
writes them: None (NULL), an int (its digits, a negative one after a space so that no "-" before it
makes a comment), ASCII text (quoted, each quote doubled; a backslash is left as it is, where psycopg
doubles it inside E'...', the same value) and an aware datetime (its ISO text, cast to timestamptz). A
statement with any other value (non-ASCII text, bytes, a bool, a float, a naive datetime, a dict, a
mapping of named values) is written by psycopg whole, as before; so is every statement on a
connection where standard_conforming_strings is off, the one setting under which a backslash inside
quotes would mean something (PostgreSQL's default has been on since 9.1). psycopg still parses the
statement's placeholders (its cache) and checks their count: only the writing of the values changes.
"""

from datetime import datetime
from typing import Any

from django.db.backends.postgresql.base import Cursor
from psycopg._queries import PostgresClientQuery


def literal(value: Any) -> bytes | None:
    """The value as a SQL literal, or None where psycopg must write it (a kind not written here)."""
    kind = type(value)
    if kind is str:
        if not value.isascii() or "\x00" in value:
            return None  # psycopg's own error for a NUL, and its encoding for the rest
        return b"'" + value.encode().replace(b"'", b"''") + b"'"
    if kind is int:
        return str(value).encode() if value >= 0 else b" " + str(value).encode()
    if value is None:
        return b"NULL"
    if kind is datetime and value.tzinfo is not None:
        return b"'" + str(value).encode() + b"'::timestamptz"
    return None


class _Query(PostgresClientQuery):
    """psycopg's client-side query, its values written by `literal` where each can be."""

    __slots__ = ()

    def dump(self, vars: Any) -> None:
        if type(vars) not in (list, tuple) or not _conforming(self._tx):
            super().dump(vars)
            return
        written = []
        for value in self.validate_and_reorder_params(self._parts, vars, self._order):
            text = literal(value)
            if text is None:
                super().dump(vars)
                return
            written.append(text)
        self.params = tuple(written)
        self.query = self.template % self.params


def _conforming(tx: Any) -> bool:
    connection = tx.connection
    return connection is not None and connection.pgconn.parameter_status(b"standard_conforming_strings") == b"on"


class LiteralCursor(Cursor):
    """Django's cursor for psycopg (its client-side cursor), with the town's values written by `literal`."""

    _query_cls = _Query


def adopt(connection: Any) -> None:
    """A new connection's cursors write the town's values by `literal` (set as the connection opens,
    where Django has set its own cursor class: a cursor that binds on the server, named in the
    settings, is left as it is)."""
    raw = connection.connection
    if raw.cursor_factory is Cursor:
        raw.cursor_factory = LiteralCursor
