"""Django's SQLite backend, as the town runs it (ENGINE "clockford.sqlite", clockford/settings.py).

One change: a statement's placeholders ("%s", as Django writes them) become sqlite3's ("?") once per
text of the statement, not at every execution. Django's backend rewrites them with a regular expression
each time a statement runs; the town runs the same few statements on every call, and that rewrite was
3 to 4 per cent of a worker's CPU under load (py-spy, `look_around` from 32 clients at once).
"""

from functools import lru_cache
from typing import Any

from django.db.backends.sqlite3 import base


@lru_cache(maxsize=2048)
def _qmark(query: str) -> str:
    """Django's conversion from "format" style to "qmark" style (SQLiteCursorWrapper.convert_query)."""
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class SQLiteCursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query: str, *, param_names: Any = None) -> str:
        if param_names is None:
            return _qmark(query)
        return super().convert_query(query, param_names=param_names)


class DatabaseWrapper(base.DatabaseWrapper):
    def create_cursor(self, name: str | None = None) -> Any:
        return self.connection.cursor(factory=SQLiteCursorWrapper)
