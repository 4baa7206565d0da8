"""Several statements in one message to the database, where its driver sends them so.

On PostgreSQL a statement is a round trip, and the town sends a few statements that need no answer of
their own (BEGIN, a savepoint, a setting for the statement after it) in the message of the statement
they go with. psycopg's client-side cursor, the one Django's PostgreSQL backend uses unless told to bind
on the server (CLOCKFORD_PG_PREPARE), sends a query as text, which may hold several statements; a
cursor that binds on the server cannot, and neither can SQLite's.
"""

import functools
from typing import Any


def sends_several(cursor: Any) -> bool:
    """Whether this database cursor (or cursor class) sends a query as one text that may hold several
    statements."""
    several = _client_cursor()
    if several is None:
        return False
    return issubclass(cursor, several) if isinstance(cursor, type) else isinstance(cursor, several)


@functools.cache
def _client_cursor() -> type | None:
    """psycopg's client-side cursor class, looked up once (None where psycopg is not installed)."""
    try:
        from psycopg import ClientCursor
    except ImportError:
        return None
    return ClientCursor
