"""The settings read before anything starts (manage.py, clockford/serve.py), so that one the town
cannot read is said in one line, not in a traceback.

Apart from clockford/settings.py because a module whose import failed is gone: the error's class has
to live where the caller can still name it.
"""

import importlib
import os
import sys


class SettingError(ValueError):
    """A setting the town cannot read: the town does not start, and says which setting and why."""


def settings_readable() -> bool:
    """Read the settings. When one cannot be read, say which on stderr and return False."""
    try:
        importlib.import_module(os.environ.get("DJANGO_SETTINGS_MODULE", "clockford.settings"))
    except SettingError as exc:
        sys.stderr.write(f"Clockford cannot start: {exc}.\n")
        return False
    return True


def said_when_unopened(error: BaseException) -> str | None:
    """One line for a database the town could not open (a PostgreSQL server that does not answer, a
    database or role that does not exist, a file that is not an SQLite database), told apart from
    every other error by the connection it never got; None for anything else, whose traceback stands.
    The address is said without its password."""
    from django.db import DatabaseError, connections

    db = connections["default"]
    if not isinstance(error, DatabaseError) or db.connection is not None:
        return None
    s = db.settings_dict
    where = (
        s["NAME"] if db.vendor == "sqlite" else f"{s.get('HOST') or 'localhost'}:{s.get('PORT') or 5432}/{s['NAME']}"
    )
    why = " ".join(line.strip() for line in str(error).splitlines() if line.strip())
    return f"Clockford cannot open its database ({where}): {why}" + ("" if why.endswith((".", "?")) else ".")
