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
