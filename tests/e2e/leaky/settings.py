"""The town's own settings, with the planted fault of tests/e2e/leaky installed."""

from clockford.settings import *  # noqa: F403
from clockford.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.e2e.leaky.apps.LeakyConfig"]
