#!/bin/sh
# The town's container: migrate, make the town key, then serve with CLOCKFORD_WORKERS workers
# (one per core when unset) on 0.0.0.0:7433 behind the proxy. Each step is idempotent, so a restart
# starts where the last one stopped.
set -eu
python manage.py migrate --noinput
python manage.py town_ready
python manage.py hall_ready
# The census: from CLOCKFORD_REGISTRY_URL (read by the settings, off the command line), else the demo.
python manage.py census ensure
exec python -m clockford.serve --host 0.0.0.0 --port 7433
