# The town's image: built once (`docker compose build`), with the pinned packages of requirements.txt.
# The town, and the sweep beside it, run from this one image (docker-compose.yml).
FROM python:3.13-slim-bookworm

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CLOCKFORD_VAR=/town/var

WORKDIR /town
# PostgreSQL's client for manage.py backup and restore (pg_dump, psql); curl for the health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client curl \
    && rm -rf /var/lib/apt/lists/*
# The packages first, so that a change to the code does not install them again.
COPY requirements.txt ./
RUN pip install -r requirements.txt
COPY . .
RUN useradd --system --home /town --uid 7433 town && mkdir -p /town/var && chown town /town/var
USER town
EXPOSE 7433
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD curl -fsS -H "Host: localhost" http://127.0.0.1:7433/status || exit 1
CMD ["deploy/town-start.sh"]
