"""Settings for in-process tests: the town's own, with a var folder of their own (never the one
`./town up` serves from)."""

import atexit
import os
import shutil
import tempfile

os.environ["CLOCKFORD_VAR"] = tempfile.mkdtemp(prefix="clockford-test-")
atexit.register(shutil.rmtree, os.environ["CLOCKFORD_VAR"], ignore_errors=True)
os.environ.pop("CLOCKFORD_KEY_FILE", None)
os.environ.pop("CLOCKFORD_SQLITE", None)

from clockford.settings import *  # noqa: E402,F403
