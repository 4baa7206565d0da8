#!/usr/bin/env python
"""Django's command line for Clockford."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clockford.settings")
    from clockford.startup import said_when_unopened, settings_readable

    if not settings_readable():
        sys.exit(2)
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except Exception as error:
        said = said_when_unopened(error)
        if said is None:
            raise
        sys.stderr.write(said + "\n")
        sys.exit(2)
