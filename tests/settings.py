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

# In-process tests roll their checkpoints back after each test, so a head kept in a file across tests
# would say the next test's database is behind; the head's own tests name a file of their own.
CLOCKFORD["ARCHIVE_HEAD_FILE"] = None  # noqa: F405

# Registered apps' client secrets are hashed with Django's password hashers. PBKDF2's million rounds are
# what keep a stolen database from giving them up, at about 0.6 s a hash; the in-process tests register
# hundreds of apps and check that a secret is hashed and compared, not how slowly, so they hash with
# MD5. Live towns (tests/e2e, tests/browser) run the town's own settings and hashers.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
