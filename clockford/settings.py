"""Clockford's one settings module, read from the environment.

SQLite by default (the embedded town of `./town up`); DATABASE_URL names PostgreSQL, or a SQLite file
run with the default's settings. Every value an operator may set is read here and nowhere else, and a
value that cannot be read stops the town at start-up rather than later in a call.
"""

import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict
from urllib.parse import urlsplit, urlunsplit

import dj_database_url

from clockford.startup import SettingError

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def envbool(name: str, default: str = "0") -> bool:
    value = env(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise SettingError(f"{name} must be true or false, not {value!r}")


# The most a whole number setting may be, by the unit its name gives (seconds, hours, days, bytes). A time past ten years means
# "never" to a person and overflows Python's dates soon after (a session idle for 10**20 seconds made
# every new session a traceback); a size past a tebibyte is no limit on any machine; anything else is a
# count, which fits PostgreSQL's integer.
TEN_YEARS_OF = {"_SECONDS": 10 * 365 * 24 * 3600, "_HOURS": 10 * 365 * 24, "_DAYS": 10 * 365}
MOST_BYTES = 2**40
MOST_COUNT = 2**31 - 1


def envint(name: str, default: int, least: int = 0, most: int | None = None) -> int:
    """A whole number from the environment, at least `least`: no count, size or time of the town's is
    negative (a fold every -5 seconds was a fold without pause), and where 0 means nothing sensible
    (a pool of no threads, a session that ends as it begins) the setting asks for 1. At most `most`,
    where a larger number would spend the machine rather than serve it (a database connection per desk
    thread), and otherwise at most what its unit allows (TEN_YEARS_OF, MOST_BYTES, MOST_COUNT)."""
    value = env(name, str(default))
    try:
        number = int(value)
    except ValueError:
        raise SettingError(f"{name} must be a whole number, not {value!r}") from None
    if most is None:
        unit = next((longest for suffix, longest in TEN_YEARS_OF.items() if name.endswith(suffix)), None)
        most = unit or (MOST_BYTES if "_BYTES" in name else MOST_COUNT)
    if number < least:
        raise SettingError(f"{name} must be at least {least}, not {number}")
    if number > most:
        raise SettingError(f"{name} must be at most {most}, not {number}")
    return number


def envfloat(name: str, default: float) -> float:
    """A number of seconds from the environment, more than 0 (a deadline of none would refuse everything)."""
    value = env(name, str(default))
    try:
        number = float(value)
    except ValueError:
        raise SettingError(f"{name} must be a number of seconds, not {value!r}") from None
    if not 0 < number < float("inf"):
        raise SettingError(f"{name} must be more than 0 seconds, not {value}")
    return number


def envsecret(name: str, default: str = "") -> str:
    """A secret straight from the environment, or from the file named by NAME_FILE."""
    path = env(f"{name}_FILE")
    if path:
        try:
            return Path(path).read_text().strip()
        except (OSError, UnicodeDecodeError) as exc:
            why = getattr(exc, "strerror", None) or "it is not text"
            raise SettingError(f"{name}_FILE names {path}, which cannot be read ({why})") from None
    return env(name, default)


def envurl(name: str, default: str) -> str:
    """An address of the town's (CLOCKFORD_URL, CLOCKFORD_HALL_URL): http or https, a host and perhaps a
    port, nothing after them. The checks of Host and Origin, the passkeys' relying party and the tokens'
    audience are all made from it, so an address they cannot be made from stops the town here, not in
    Django's checks (in other words) or at the first request."""
    value = env(name, default)
    if not _an_address(value.rstrip("/")):
        raise SettingError(f"{name} must be an http or https address, such as https://town.example, not {value!r}")
    return value.rstrip("/")


def _an_address(value: str) -> bool:
    parts = urlsplit(value)
    try:
        parts.port  # noqa: B018 (read for its ValueError: a port that is not a number, or past 65535)
    except ValueError:
        return False
    nothing_else = parts.username is None and not (parts.path or parts.query or parts.fragment)
    return parts.scheme in ("http", "https") and bool(parts.hostname) and nothing_else


DEBUG = envbool("CLOCKFORD_DEBUG")
VAR_DIR = Path(env("CLOCKFORD_VAR", str(BASE_DIR / "var")))
# The town's own folder (its key, its secret, an SQLite database): its owner's alone when made here.
try:
    VAR_DIR.mkdir(parents=True, exist_ok=True, mode=0o700)
except OSError as _exc:
    raise SettingError(f"CLOCKFORD_VAR names {VAR_DIR}, a folder the town cannot make ({_exc.strerror})") from None

# The town's public address. The Host and Origin checks of /mcp and Django's ALLOWED_HOSTS are
# derived from it, so a request naming any other host is refused (a defence against DNS rebinding).
TOWN_HOST = env("CLOCKFORD_HOST", "127.0.0.1")
TOWN_PORT = envint("CLOCKFORD_PORT", 7433)
if not 0 < TOWN_PORT <= 65535:  # in the words the town script says it, which checks it first for ./town up
    raise SettingError(f"CLOCKFORD_PORT must be a port number from 1 to 65535, not {TOWN_PORT}")
TOWN_URL = envurl("CLOCKFORD_URL", f"http://{TOWN_HOST}:{TOWN_PORT}")
# A local town answers on every loopback name; a shared town names its public hosts.
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
EXTRA_HOSTS = [h for h in env("CLOCKFORD_ALLOWED_HOSTS").split(",") if h]
ALLOWED_HOSTS = [*LOCAL_HOSTS, *EXTRA_HOSTS] + ([TOWN_HOST] if TOWN_HOST not in LOCAL_HOSTS else [])
_url_host = urlsplit(TOWN_URL).hostname or ""
if _url_host and _url_host not in ALLOWED_HOSTS:
    # A town behind a proxy names its public address in CLOCKFORD_URL and answers to it.
    ALLOWED_HOSTS.append(_url_host)

# The hall's address. Browsers refuse an IP address as a passkey's relying party, so a town on a
# loopback address serves its hall at localhost; anywhere else the hall lives at the town's URL.
# HALL_RP_ID is the domain every passkey of this town is bound to: changing it orphans them all.
HALL_URL = envurl("CLOCKFORD_HALL_URL", TOWN_URL)
if urlsplit(HALL_URL).hostname in ("127.0.0.1", "::1"):
    _hall = urlsplit(HALL_URL)
    HALL_URL = urlunsplit(_hall._replace(netloc="localhost" + (f":{_hall.port}" if _hall.port else "")))
HALL_RP_ID = urlsplit(HALL_URL).hostname or "localhost"
if HALL_RP_ID not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(HALL_RP_ID)
HALL_NAME = env("CLOCKFORD_NAME", "Clockford")

_secret = envsecret("CLOCKFORD_SECRET_KEY")
if not _secret:
    # The embedded town keeps a random key of its own under var/, made once.
    key_path = VAR_DIR / "django-secret"
    if not key_path.exists():
        import secrets

        from clockford.keyfiles import write_new

        # Readable by its owner alone from the start, and whole or not at all (keyfiles).
        write_new(key_path, secrets.token_urlsafe(50).encode("ascii"))
    _secret = key_path.read_text().strip()
SECRET_KEY = _secret

# Every folder of districts/ with an apps.py is a district app: a new district is installed by being
# there, so opening one touches nothing outside its folder and districts/registry.py.
DISTRICT_APPS = sorted(f"districts.{p.parent.name}" for p in (BASE_DIR / "districts").glob("*/apps.py"))

INSTALLED_APPS = [
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "clockford.town",
    "clockford.metrics",
    *DISTRICT_APPS,
    "clockford.public",
    "hall",
    "oauth2_provider",
]

# A person is an Account of the hall, signed in with passkeys only: no password is ever kept.
AUTH_USER_MODEL = "hall.Account"
AUTHENTICATION_BACKENDS = ["hall.backends.PasskeyBackend"]
LOGIN_URL = "/hall/"

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Frames denied and the page's policy on every response, the refusals of the middleware below too.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # /api/: counted like every request of the town, reads only, open to every origin (docs/api.md);
    # around the door below, so that its refusals of the API's requests carry CORS too.
    "clockford.api.middleware.public_reads",
    # A NUL anywhere in a request is refused before any view or session reads it (clockford/nul.py).
    "clockford.nul.refuse_nul",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A sign-in to the hall ends unused for a while, and after a while in any case (hall/lifetime.py).
    "hall.lifetime.lasting",
]

ROOT_URLCONF = "clockford.urls"
# The one literal registry of tools (districts/registry.py): the face serves it, and the core reads it
# by this name (clockford.town.tooling.registry), never by importing a district.
CLOCKFORD_TOOLS = "districts.registry.TOOLS"
# The Bank (000 section 13, docs/bank.md): the desk draws every change from an hourly authority through
# this function, named here for the same reason. A passport may make CHANGES_PER_HOUR changes in a
# clock hour and an account CHANGES_PER_HOUR_PER_ACCOUNT across its agents; 0 turns the Bank off.
CLOCKFORD_BANK = "districts.bank.services.withdraw"
# Jobs (docs/jobs.md): the desk refuses a call naming a job its person ended, and counts each footstep
# that names a job, through this module (check and step), named here for the same reason.
CLOCKFORD_JOBS = "districts.jobs.services"
# The Switchboard's rule for a channel's name (000 section 08, DECISIONS 8): a function that returns the
# name or raises Refused in the Switchboard's words. A plan's step naming a channel no channel could
# have is refused by it at once (clockford/town/plans.py), named here for the same reason.
CLOCKFORD_CHANNEL_RULE = "districts.switchboard.common.check_name"
# The shape of the Switchboard's tracking numbers, for the same reason: whether a step's record could be
# one that its tool's record argument names (a parcel's, a beacon's).
CLOCKFORD_TRACKING_NUMBERS = "districts.switchboard.services.tracking_number_fits"
# Web Push (hall/push.py): the town's VAPID key, kept like the town key in var/ and never archived, and
# the contact a push service may write to when the hall is not served over https.
CLOCKFORD_VAPID_KEY_FILE = Path(env("CLOCKFORD_VAPID_KEY_FILE", str(VAR_DIR / "vapid.pem")))
CLOCKFORD_VAPID_SUBJECT = env("CLOCKFORD_VAPID_SUBJECT", "mailto:owner@clockford.invalid")
# The push services a subscription may name (scheme://host, "*." for any name under a domain): the
# browsers' own. Anything else is refused, so that no one can make the town send requests to an
# address of their choosing (an internal one above all). Tests add their service on loopback.
CLOCKFORD_PUSH_SERVICES = env(
    "CLOCKFORD_PUSH_SERVICES",
    "https://fcm.googleapis.com https://*.push.services.mozilla.com https://*.notify.windows.com "
    "https://*.push.apple.com",
).split()
CHANGES_PER_HOUR = envint("CLOCKFORD_CHANGES_PER_HOUR", 600)
CHANGES_PER_HOUR_PER_ACCOUNT = envint("CLOCKFORD_CHANGES_PER_HOUR_PER_ACCOUNT", 3000)
# The Embassies' visa (000 section 20, docs/embassies.md): on a reply that did not do what it asked, the
# desk asks this function for one more text block of plain next steps (None: no block).
CLOCKFORD_NEXT_STEPS = "districts.embassies.services.next_steps"
# The Dice House (000 section 23, docs/dice-house.md): every reply of a tool with dice=True is handed to
# this function, which labels it (and may make it misbehave) while the caller has a run open.
CLOCKFORD_DICE = "districts.dice_house.services.roll"
# The sweep (clockford/town/sweep.py, docs/retention.md): each district's own tidy (and the hall's), named
# here so the core calls them without importing a district or the hall. Each takes the time and returns
# what it removed per table.
CLOCKFORD_TIDY = [
    "districts.switchboard.services.tidy",
    "districts.tavern.services.tidy",
    "districts.bank.services.tidy",
    "hall.deed_proofs.recheck",
    "districts.embassies.services.tidy",
    "hall.tidy.tidy",
    "hall.push.tidy",
    "clockford.town.limits.tidy",
]
# Work each worker does ahead of the calls that will need it (clockford/asgi.py ahead_loop): on a desk
# thread as it starts and at every fold's turn after, named here so the core imports no district. Each
# takes nothing, reads what changed, and makes only what this process keeps in memory.
CLOCKFORD_AHEAD = [
    "districts.town_hall.services.build_ahead",
]
# Runs an agent asks for (docs/runs.md): each run district's RunSource, read by the hall's runs pages
# (a person's own runs, the public's rounded daily counts) without importing a district.
CLOCKFORD_RUNS: list[str] = [
    "districts.arena.services.RUNS",
    "districts.alley.services.RUNS",
    "districts.dice_house.services.RUNS",
    "districts.clinic.services.RUNS",
]
# How often `./town up` sweeps; 0 when the sweep runs as its own service (`manage.py sweep --every`).
CLOCKFORD_SWEEP_SECONDS = envint("CLOCKFORD_SWEEP_SECONDS", 300)
ASGI_APPLICATION = "clockford.asgi.application"


def witnesses(value: str) -> dict[str, str]:
    """CLOCKFORD_WITNESSES: `name=public key hex`, comma-separated: the witnesses whose co-signatures
    of the Archive's checkpoints the town shows (clockford/town/witness.py, docs/witness.md)."""
    out = {}
    for item in filter(None, (x.strip() for x in value.split(","))):
        name, _, key = item.partition("=")
        if not name.strip() or len(key.strip()) != 64 or any(c not in "0123456789abcdef" for c in key.strip()):
            raise SettingError(f"CLOCKFORD_WITNESSES names a witness as name=64 hex characters, not {item!r}")
        out[name.strip()] = key.strip()
    return out


CLOCKFORD_WITNESSES = witnesses(env("CLOCKFORD_WITNESSES"))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "hall.context.town",
            ]
        },
    }
]


# How long a call waits for a lock another transaction holds before it is answered "The clerk is busy."
# (001), in seconds: on SQLite the one write lock (busy_timeout), on PostgreSQL any lock (lock_timeout).
# Named for SQLite, where it came first; without it on PostgreSQL a call waited as long as the lock was held.
DATABASE_WAIT_SECONDS = envint("CLOCKFORD_SQLITE_WAIT_SECONDS", 20)


def sqlite_settings(name: str) -> dict[str, object]:
    """A SQLite database as the town runs one, whether named by CLOCKFORD_SQLITE or by a
    DATABASE_URL of sqlite:///...: without these, a call that reads and then writes fails at once
    with "database is locked" whenever another writer (the Archive's fold) went first."""
    return {
        "ENGINE": "clockford.sqlite",
        "NAME": name,
        # Tests run in memory, as Django's SQLite backend does by default: said here because tools that
        # know SQLite by its engine's name (pytest-django, naming each worker's database) do not know
        # the town's own backend, and would make a file of a name no folder holds.
        "TEST": {"NAME": ":memory:"},
        # A connection ends with its request: under ASGI each of the hall's requests runs on a thread of
        # its own, and a kept connection would stay open after it (a burst of requests, a file and a
        # connection each, for ever). The desk's threads, and the event loop's thread that runs calls on
        # SQLite, keep theirs for their life instead (clockford/face/server.py): reconnecting on every
        # call cost more than the call's queries.
        "CONN_MAX_AGE": 0,
        "OPTIONS": {
            # WAL lets readers and the one writer go on together; IMMEDIATE takes the write
            # lock at BEGIN, so two calls never deadlock upgrading a read lock.
            "transaction_mode": "IMMEDIATE",
            # How long a write waits for that lock before its call is answered busy (001), in seconds.
            "timeout": DATABASE_WAIT_SECONDS,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }


def sqlite_file(name: str, setting: str) -> str:
    """An SQLite database's file, in a folder that exists: SQLite makes the file, never its folder, and
    said so only as "unable to open database file" at the first query."""
    if name != ":memory:" and not Path(name).parent.is_dir():
        raise SettingError(f"{setting} names an SQLite file in a folder that does not exist: {name}")
    return name


DATABASE_URL = env("DATABASE_URL")
DATABASES: dict[str, Mapping[str, object]]
_scheme = urlsplit(DATABASE_URL).scheme
if DATABASE_URL and _scheme not in ("sqlite", "postgres", "postgresql", "pgsql"):
    raise SettingError(
        f"DATABASE_URL must name PostgreSQL (postgresql://...) or SQLite (sqlite:///...), not {_scheme or DATABASE_URL[:20]}"
    )
if DATABASE_URL.startswith("sqlite:"):
    DATABASES = {"default": sqlite_settings(sqlite_file(dj_database_url.parse(DATABASE_URL)["NAME"], "DATABASE_URL"))}
elif DATABASE_URL:
    # As on SQLite (above): a connection ends with its request, but on the desk's threads.
    _postgresql = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
    # The same bound as SQLite's: lock_timeout, set on each connection as it opens. A lock held past it
    # fails the statement with lock_not_available (55P03), which the desk answers busy (desk.is_busy).
    # Added to any options the URL gives (?options=...), which a later -c of the same name overrides.
    _options = dict(_postgresql.get("OPTIONS", {}))
    _options["options"] = f"-c lock_timeout={DATABASE_WAIT_SECONDS * 1000} {_options.get('options', '')}".strip()
    _postgresql["OPTIONS"] = _options
    DATABASES = {"default": _postgresql}
else:
    DATABASES = {
        "default": sqlite_settings(
            sqlite_file(env("CLOCKFORD_SQLITE", str(VAR_DIR / "town.sqlite3")), "CLOCKFORD_SQLITE")
        )
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"

# The hall is never framed, and its cookies stay on this site.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_CSP = {"default-src": ["'self'"], "frame-ancestors": ["'none'"], "object-src": ["'none'"]}
SESSION_COOKIE_SAMESITE = "Strict"
CSRF_COOKIE_SAMESITE = "Strict"
SESSION_COOKIE_HTTPONLY = True
# Django's database sessions, kept under the SHA-256 of their keys (never a key, a sign-in's secret),
# whose deletion takes the session's passkey ceremonies with it, and whose few keys written by one
# request do not overwrite another's (hall/sessions.py).
SESSION_ENGINE = "hall.sessions"
# How long a sign-in to the hall lasts (hall/lifetime.py): unused, and at most. The cookie lasts no
# longer than a sign-in can.
HALL_IDLE_SECONDS = envint("CLOCKFORD_HALL_IDLE_SECONDS", 12 * 3600, least=1)
HALL_SIGN_IN_SECONDS = envint("CLOCKFORD_HALL_SIGN_IN_SECONDS", 7 * 24 * 3600, least=1)
SESSION_COOKIE_AGE = HALL_SIGN_IN_SECONDS
CSRF_TRUSTED_ORIGINS = list(dict.fromkeys([TOWN_URL, HALL_URL]))
CSRF_FAILURE_VIEW = "hall.views.csrf_failure"
if TOWN_URL.startswith("https://"):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # __Host- cookies are sent only over https, to this exact host, for every path.
    SESSION_COOKIE_NAME = "__Host-clockford-session"
    CSRF_COOKIE_NAME = "__Host-clockford-csrf"
    SECURE_SSL_REDIRECT = envbool("CLOCKFORD_SSL_REDIRECT", "1")
    SECURE_HSTS_SECONDS = envint("CLOCKFORD_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOG_LEVEL = env("CLOCKFORD_LOG_LEVEL", "WARNING").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise SettingError(f"CLOCKFORD_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {LOG_LEVEL!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(message)s"}},
    # Every line is bounded (clockford/loglines.py): a request may make a line repeat what it sent.
    "filters": {"bounded": {"()": "clockford.loglines.Bounded"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["bounded"]},
        "calls": {"class": "logging.StreamHandler", "formatter": "line", "filters": ["bounded"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # One JSON line per call (clockford/metrics/counting.py): tool, outcome, duration, footstep, never
    # the arguments. CLOCKFORD_CALL_LOG=0 turns it off.
    "loggers": {
        # oauthlib writes, at DEBUG, each authorization code it makes and each refresh and access token
        # it checks or issues, in full; django-oauth-toolkit its redirects, codes in them. Neither goes
        # below INFO, whatever the level asked: a town's log never holds what signs an agent in.
        **{name: {"level": "INFO" if LOG_LEVEL == "DEBUG" else LOG_LEVEL} for name in ("oauthlib", "oauth2_provider")},
        "clockford.calls": {
            "handlers": ["calls"],
            "level": "INFO" if envbool("CLOCKFORD_CALL_LOG", "1") else "WARNING",
            "propagate": False,
        },
    },
}

# The registry `manage.py census ensure` syncs the census from (./town up and the container run it as they
# start); empty, the demo census is loaded into an empty census. A secret: the address may carry the
# registry's credentials, so it is read here (or from CLOCKFORD_REGISTRY_URL_FILE) and never handed to a
# command line, where the machine's other users could read it while the sync runs.
CENSUS_REGISTRY_URL = envsecret("CLOCKFORD_REGISTRY_URL")
# GET /metrics (clockford/metrics/views.py) answers a loopback peer, or anyone with this bearer token.
CLOCKFORD_METRICS_TOKEN = envsecret("CLOCKFORD_METRICS_TOKEN")
# The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto the town believes (addresses or
# networks, comma-separated; clockford/face/proxy.py). From any other peer those headers are dropped.
# None by default: were a town with no proxy in front to believe this machine's peers, any program on
# the machine could name itself any address (a limit per address for each request it sends) and claim
# https. A deployment names its proxy (docker-compose.yml; a proxy on this machine: 127.0.0.1).
CLOCKFORD_TRUSTED_PROXIES = [p.strip() for p in env("CLOCKFORD_TRUSTED_PROXIES", "").split(",") if p.strip()]
for _proxy in CLOCKFORD_TRUSTED_PROXIES:
    # Read here as clockford/face/proxy.py reads them at every request, where one that cannot be read
    # made every request fail.
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise SettingError(
            f"CLOCKFORD_TRUSTED_PROXIES names addresses or networks (10.0.0.5, 10.0.0.0/24), not {_proxy!r}"
        ) from None


TOKEN_SECONDS = envint("CLOCKFORD_TOKEN_SECONDS", 3600)
if not 0 < TOKEN_SECONDS <= 3600:
    raise SettingError(f"CLOCKFORD_TOKEN_SECONDS must be 1 to 3600 (tokens live at most an hour), not {TOKEN_SECONDS}")


# The town's own limits. Those an agent can meet are stated in spec 001; the rest are operator
# settings, named here so a test can lower them.
class TownSettings(TypedDict):
    KEY_FILE: Path
    ARCHIVE_HEAD_FILE: Path | None
    TOKEN_SECONDS: int
    CLIENTS_PER_ACCOUNT: int
    REGISTRATIONS_PER_ADDRESS: int
    UNCONNECTED_CLIENTS_MAX: int
    MAX_BODY_BYTES: int
    BODY_SECONDS: float
    HEADER_SECONDS: float
    HEADER_BYTES: int
    SESSION_IDLE_SECONDS: int
    SESSION_MAX_AGE_SECONDS: int
    SESSIONS_PER_ADDRESS: int
    SESSION_WINDOW_SECONDS: int
    IN_FLIGHT_PER_SESSION: int
    RETRY_AFTER_SECONDS: int
    POST_OFFICE_ROOM_BYTES: int
    FOLD_SECONDS: int
    PG_PREPARE: bool
    PG_FLUSH_READS: bool
    DESK_THREADS: int
    DESK_ON_LOOP: bool
    FOLD_SETTLE_SECONDS: int
    HOLDS_PER_PASSPORT: int
    HOLDS_PER_ACCOUNT: int
    HOLDS_IN_TOWN: int
    PRIVATE_BYTES_A_DAY: int
    REPORT_SPACING_SECONDS: int
    PROBATION_HOURS: int
    PLANS_IN_TOWN: int
    LETTERS_UNOPENED: int
    LETTER_BYTES_HELD: int
    NOTICES_KEPT: int
    DISPUTES_OPEN: int
    DISPUTE_BYTES_OPEN: int
    CHANNELS_MAX: int
    CALLS_PER_MINUTE: int
    PARCELS_MAX: int
    REQUESTS_PER_ADDRESS: int
    REQUESTS_PER_ACCOUNT: int
    REQUEST_WINDOW_SECONDS: int
    FAILURES_PER_ADDRESS: int
    FAILURE_HOLD_SECONDS: int
    CEREMONIES_PER_ADDRESS: int
    SESSIONS_IN_TOWN: int
    WALL_FAULTS: int
    WALL_WINDOW_SECONDS: int
    WALL_SECONDS: int
    POSTS_PER_DAY: int
    POSTS_PER_WEEK: int
    POSTS_PER_DAY_PER_ACCOUNT: int
    POSTS_PER_WEEK_PER_ACCOUNT: int
    REHAB_DAYS: int


CLOCKFORD: TownSettings = {
    # The town key (Ed25519 seed): signs checkpoints and courses, and keys the Archive's digests.
    "KEY_FILE": Path(env("CLOCKFORD_KEY_FILE", str(VAR_DIR / "town.key"))),
    # The last checkpoint the town signed, kept beside the key and outside the database, so a database
    # restored from an older backup is noticed before it is served (clockford/town/head.py).
    "ARCHIVE_HEAD_FILE": Path(env("CLOCKFORD_ARCHIVE_HEAD_FILE", str(VAR_DIR / "archive-head.json"))),
    # Signed in: an access token lives at most an hour (spec 001 "Tokens"); a test may shorten it.
    "TOKEN_SECONDS": TOKEN_SECONDS,
    # Spec 001 "Clients": the OAuth clients one account may connect at once.
    "CLIENTS_PER_ACCOUNT": 8,
    # Dynamic Client Registration is anonymous: registrations per address per hour, and the
    # registered clients no person has connected yet that the town keeps at once.
    "REGISTRATIONS_PER_ADDRESS": envint("CLOCKFORD_REGISTRATIONS_PER_ADDRESS", 20),
    "UNCONNECTED_CLIENTS_MAX": envint("CLOCKFORD_UNCONNECTED_CLIENTS_MAX", 5000),
    "MAX_BODY_BYTES": 128 * 1024,
    # How long the town waits for a request's whole body once it starts reading it, on every path
    # (clockford/face/deadline.py): the server in front of the town sets no such limit, and a body
    # begun and never finished held its connection and its task for ever. The same 30 s as
    # deploy/Caddyfile's read_body.
    "BODY_SECONDS": envfloat("CLOCKFORD_BODY_SECONDS", 30),
    # A request's head (its request line and headers), read by the town's connections under uvicorn
    # (clockford/wire.py), which set no limit of their own: this long from its first byte (the same
    # 10 s as deploy/Caddyfile's read_header), and this many bytes (Node's limit is 16 KiB; a hall
    # page's cookies and a bearer token need a few).
    "HEADER_SECONDS": envfloat("CLOCKFORD_HEADER_SECONDS", 10),
    "HEADER_BYTES": envint("CLOCKFORD_HEADER_BYTES", 64 * 1024, least=1024),
    "SESSION_IDLE_SECONDS": envint("CLOCKFORD_SESSION_IDLE_SECONDS", 30 * 60, least=1),
    "SESSION_MAX_AGE_SECONDS": envint("CLOCKFORD_SESSION_MAX_AGE_SECONDS", 24 * 3600, least=1),
    # An address may have this many sessions that are open or were opened within the window: an
    # ended session still counts until it leaves the window, so ending and opening again mints no
    # passport past the cap (001: "Too many new or open sessions from your address").
    "SESSIONS_PER_ADDRESS": envint("CLOCKFORD_SESSIONS_PER_ADDRESS", 64),
    "SESSION_WINDOW_SECONDS": envint("CLOCKFORD_SESSION_WINDOW_SECONDS", 3600, least=1),
    "IN_FLIGHT_PER_SESSION": envint("CLOCKFORD_IN_FLIGHT_PER_SESSION", 8, least=1),
    "RETRY_AFTER_SECONDS": 30,
    # The Post Office's shared room: how many bytes of notes the whole town keeps.
    "POST_OFFICE_ROOM_BYTES": envint("CLOCKFORD_POST_OFFICE_ROOM_BYTES", 512 * 1024 * 1024),
    # How often the Archive folds new footsteps into its tree and signs a checkpoint.
    "FOLD_SECONDS": envint("CLOCKFORD_FOLD_SECONDS", 2, least=1),
    # The hot path's statements prepared once on each PostgreSQL connection (clockford/town/prepared.py);
    # off for a connection pooler in transaction mode, which does not keep a session's PREPARE.
    "PG_PREPARE": envbool("CLOCKFORD_PG_PREPARE", "1"),
    # Whether, on PostgreSQL, the COMMIT of a call that changes nothing and sends nothing before it (a
    # look_around: its footstep and the town's counts) waits for the disk, as a change's always does.
    # Off, such a footstep is durable as every commit is on SQLite (synchronous=NORMAL);
    # clockford/town/desk.py CallTransaction.commit.
    "PG_FLUSH_READS": envbool("CLOCKFORD_PG_FLUSH_READS", "0"),
    # Threads of each worker that run the desk beside the calls: the fold, the sweep, and on SQLite a
    # call that waits for the write lock; on PostgreSQL also how many calls a worker runs at once on
    # its event loop (DESK_ON_LOOP), each with a connection of its own, and with DESK_ON_LOOP off every
    # call. On SQLite one writer goes at a time: more threads only wait for the lock, by sleeping and
    # trying again, and take the interpreter's turns from the ones working. On PostgreSQL writers go
    # together, but a call spends more time in Python than waiting for the server, so a few at once
    # keep one process busy: with 32 clients at once 4 threads answered a third more calls a second
    # than 16, which only took turns at the interpreter's lock (docs/scale.md, 2026-12-03), and on the
    # loop 8 calls at once no more than 4 (2026-12-05).
    "DESK_THREADS": envint(
        "CLOCKFORD_DESK_THREADS",
        4 if str(DATABASES["default"]["ENGINE"]).endswith("postgresql") else 3,
        least=1,
        most=64,  # each keeps a database connection, and PostgreSQL allows 100 by default
    ),
    # A call's work runs on the worker's event loop rather than a desk thread (clockford/face/server.py
    # in_db): on SQLite until it would wait for the write lock; on PostgreSQL in a greenlet of its own
    # that lets the loop go while it waits for the server. Off, every call takes a desk thread.
    "DESK_ON_LOOP": envbool("CLOCKFORD_DESK_ON_LOOP", "1"),
    # Footsteps younger than this are left for the next fold, so that a call still committing
    # with a lower number is never skipped.
    "FOLD_SETTLE_SECONDS": envint("CLOCKFORD_FOLD_SETTLE_SECONDS", 1),
    # The table of held calls (001 "Held"): waiting at once per passport, per account, town-wide.
    "HOLDS_PER_PASSPORT": envint("CLOCKFORD_HOLDS_PER_PASSPORT", 10),
    "HOLDS_PER_ACCOUNT": envint("CLOCKFORD_HOLDS_PER_ACCOUNT", 50),
    "HOLDS_IN_TOWN": envint("CLOCKFORD_HOLDS_IN_TOWN", 100_000),
    # The reply gate: bytes of private content (P.O. box notes, traces) one agent's replies carry
    # in a UTC day before the next such reply waits for its person.
    "PRIVATE_BYTES_A_DAY": envint("CLOCKFORD_PRIVATE_BYTES_A_DAY", 256 * 1024),
    # Reports are spaced out; an upheld report puts the account on probation for these hours.
    "REPORT_SPACING_SECONDS": envint("CLOCKFORD_REPORT_SPACING_SECONDS", 60),
    "PROBATION_HOURS": envint("CLOCKFORD_PROBATION_HOURS", 24),
    # The town's room for plans waiting for a person.
    "PLANS_IN_TOWN": envint("CLOCKFORD_PLANS_IN_TOWN", 100_000),
    # Letters (001 "Letters"): unopened at once, and the bytes of words those letters may hold.
    "LETTERS_UNOPENED": 20,
    "LETTER_BYTES_HELD": envint("CLOCKFORD_LETTER_BYTES_HELD", 256 * 1024),
    # The Tavern board keeps the newest notices (000 section 09).
    "NOTICES_KEPT": 300,
    # Disputes (001 "Disputes"): open at once per passport, and the bytes of their reasons.
    "DISPUTES_OPEN": 10,
    "DISPUTE_BYTES_OPEN": envint("CLOCKFORD_DISPUTE_BYTES_OPEN", 8 * 1024),
    # The clerk (001 "Busy"): calls one passport may make in a minute before "The clerk is busy." We
    # do not print it to agents; retryAfterSeconds is what they honour. 0 turns it off.
    "CALLS_PER_MINUTE": envint("CLOCKFORD_CALLS_PER_MINUTE", 120),
    # The Switchboard's town-wide room: channels, and parcels in progress.
    "CHANNELS_MAX": envint("CLOCKFORD_CHANNELS_MAX", 10_000),
    "PARCELS_MAX": envint("CLOCKFORD_PARCELS_MAX", 10_000),
    # 001 "Too many requests. Try again later.": requests on /mcp in one window, per address and per
    # signed-in account, counted in the database so every worker shares the count (clockford/face/
    # limits.py). Above the clerk's 120 calls a minute, so an agent meets the clerk first; an
    # account's eight clients at the clerk's pace stay under its limit. 0 turns a limit off.
    "REQUESTS_PER_ADDRESS": envint("CLOCKFORD_REQUESTS_PER_ADDRESS", 1200),
    "REQUESTS_PER_ACCOUNT": envint("CLOCKFORD_REQUESTS_PER_ACCOUNT", 1200),
    "REQUEST_WINDOW_SECONDS": envint("CLOCKFORD_REQUEST_WINDOW_SECONDS", 60),
    # Repeated failures from one address (refused tokens, refused registrations, failed passkeys) in
    # one window hold the address back this long. 0 turns it off.
    "FAILURES_PER_ADDRESS": envint("CLOCKFORD_FAILURES_PER_ADDRESS", 20),
    "FAILURE_HOLD_SECONDS": envint("CLOCKFORD_FAILURE_HOLD_SECONDS", 300),
    # Steps of the hall's passkey ceremonies (a begin or a finish) from one address in one window: a
    # person signs in in two and decides a hold in two; a script's begins would pile up session rows.
    # 0 turns it off.
    "CEREMONIES_PER_ADDRESS": envint("CLOCKFORD_CEREMONIES_PER_ADDRESS", 120),
    # 001 "The town is full.": open sessions in the whole town before a new one is refused.
    "SESSIONS_IN_TOWN": envint("CLOCKFORD_SESSIONS_IN_TOWN", 100_000),
    # The breaker (001 "walled off for now"): a district or channel whose calls fault this many times
    # within the window is walled off for WALL_SECONDS, then opens by itself. One broken call is a
    # fault, answered as one; a run of them is a district that is down. 0 faults turns it off.
    "WALL_FAULTS": envint("CLOCKFORD_WALL_FAULTS", 10),
    "WALL_WINDOW_SECONDS": envint("CLOCKFORD_WALL_WINDOW_SECONDS", 60, least=1),
    "WALL_SECONDS": envint("CLOCKFORD_WALL_SECONDS", 300),
    # Posting budgets (001 "A daily or weekly posting budget is spent", docs/budgets.md): the public
    # posts (notices, broadcasts, beacons, parcels) an agent, and all of its account's agents together,
    # may propose in a UTC day and in a UTC week (from Monday). A held post counts when proposed. 0
    # turns a budget off.
    "POSTS_PER_DAY": envint("CLOCKFORD_POSTS_PER_DAY", 30),
    "POSTS_PER_WEEK": envint("CLOCKFORD_POSTS_PER_WEEK", 100),
    "POSTS_PER_DAY_PER_ACCOUNT": envint("CLOCKFORD_POSTS_PER_DAY_PER_ACCOUNT", 60),
    "POSTS_PER_WEEK_PER_ACCOUNT": envint("CLOCKFORD_POSTS_PER_WEEK_PER_ACCOUNT", 250),
    # A confirmed case sends a passport to the rehab ward for this many days (docs/closures.md).
    "REHAB_DAYS": envint("CLOCKFORD_REHAB_DAYS", 7),
}


# Sign-in (a shared town): with CLOCKFORD_SIGN_IN set, /mcp demands OAuth access tokens and the hall is
# their authorization server (django-oauth-toolkit). Without it, every MCP session gets a passport of
# its own and the town's owner decides for all of them.
CLOCKFORD_SIGN_IN = envbool("CLOCKFORD_SIGN_IN")
# The resource every access token names (its aud), and the issuer that signs them: the hall.
MCP_RESOURCE_URL = TOWN_URL + "/mcp"
OAUTH_ISSUER = HALL_URL

# Client ID Metadata Documents: the town fetches a client's https document only from hosts it allows.
# CLOCKFORD_CIMD_HOSTS lists public hosts in ALLOWED_HOSTS syntax (".example.com" for a domain and its
# subdomains); those are fetched the SSRF-hardened way (public addresses only, no redirects, 5 s, 16 KiB).
# CLOCKFORD_CIMD_LOOPBACK_CA names a PEM file of the one authority trusted for documents served on
# this machine (https://localhost:PORT/...), which is how tests serve them; unset, loopback is refused.
CIMD_HOSTS = [h.strip() for h in env("CLOCKFORD_CIMD_HOSTS").split(",") if h.strip()]
CIMD_LOOPBACK_CA = env("CLOCKFORD_CIMD_LOOPBACK_CA")

# The Realty Office (docs/realty.md): how a person proves a server's namespace in the hall.
# io.github.<owner>: signing in to GitHub as <owner>, with the OAuth app the operator registered (its
# client id and secret; the URLs default to github.com's and name a GitHub-style server otherwise).
# Without a client id, the hall says GitHub proof is not configured.
GITHUB_CLIENT_ID = env("CLOCKFORD_GITHUB_CLIENT_ID")
GITHUB_CLIENT_SECRET = envsecret("CLOCKFORD_GITHUB_CLIENT_SECRET")
GITHUB_AUTHORIZE_URL = env("CLOCKFORD_GITHUB_AUTHORIZE_URL", "https://github.com/login/oauth/authorize")
GITHUB_TOKEN_URL = env("CLOCKFORD_GITHUB_TOKEN_URL", "https://github.com/login/oauth/access_token")
GITHUB_API_URL = env("CLOCKFORD_GITHUB_API_URL", "https://api.github.com").rstrip("/")
# A reverse-DNS namespace: a TXT record on its domain, read from this resolver ("host" or "host:port";
# empty: the system's), or an https /.well-known/ file on the domain, fetched the CIMD fetcher's
# SSRF-hardened way. CLOCKFORD_DEED_LOOPBACK_PORT is for tests only: with CLOCKFORD_CIMD_LOOPBACK_CA set,
# a domain the resolver answers with a loopback address is fetched from localhost on that port, trusting
# that one authority. A deed is re-checked by the sweep once it is older than DEED_RECHECK_HOURS.
DEED_RESOLVER = env("CLOCKFORD_DEED_RESOLVER")
DEED_LOOPBACK_PORT = envint("CLOCKFORD_DEED_LOOPBACK_PORT", 0, most=65535)
DEED_RECHECK_HOURS = envint("CLOCKFORD_DEED_RECHECK_HOURS", 24)

# The OAuth clients are the hall's own model, so that http redirect URIs are allowed for loopback
# addresses only (RFC 8252 native apps) rather than for any host.
OAUTH2_PROVIDER_APPLICATION_MODEL = "hall.Client"
OAUTH2_PROVIDER = {
    "SCOPES": {"town": "Enter the town as one of your agents"},
    "DEFAULT_SCOPES": ["town"],
    "ACCESS_TOKEN_EXPIRE_SECONDS": TOKEN_SECONDS,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    # RFC 9068 access tokens (at+jwt); refresh tokens stay opaque random strings.
    "ACCESS_TOKEN_GENERATOR": "hall.oauth_tokens.mint",
    "REFRESH_TOKEN_GENERATOR": "oauthlib.oauth2.rfc6749.tokens.random_token_generator",
    "REFRESH_TOKEN_EXPIRE_SECONDS": 30 * 24 * 3600,
    "ROTATE_REFRESH_TOKEN": True,
    # The sweep clears expired tokens (hall/tidy.py) in batches as small as its own (clockford/town/sweep.py).
    "CLEAR_EXPIRED_TOKENS_BATCH_SIZE": 500,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "PKCE_REQUIRED": True,
    "OAUTH2_VALIDATOR_CLASS": "hall.oauth_validator.TownValidator",
    # The code grant and refresh tokens only, as the metadata says: oauthlib's all-grants Server would
    # read a password grant (and answer "Invalid credentials given.") or a client credentials one.
    "OAUTH2_SERVER_CLASS": "oauthlib.oauth2.WebApplicationServer",
    "OIDC_ISS_ENDPOINT": OAUTH_ISSUER,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
    "ALLOW_URI_WILDCARDS": False,
    "REQUEST_APPROVAL_PROMPT": "force",
    "CIMD_ENABLED": True,
    "CIMD_METADATA_FETCHER": "hall.oauth_cimd.TownFetcher",
    "CIMD_REGISTRATION_PERMISSION_CLASSES": ("hall.oauth_cimd.AllowedHosts",),
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_SCHEME": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
}
