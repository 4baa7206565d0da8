"""Agent University's services: the library, publishing, attending, transcripts and the public's
rounded daily counts (000 section 11; docs/university.md).

Courses are markdown files in `districts/university/courses/`; `publish()` makes a new signed version
of each file whose bytes changed (`./town manage courses publish`). A town whose library is empty
publishes every file once, the first time anyone asks. The course key is derived from the town key
(`clockford.town.signing.derived_key`); every key that ever signed is kept in CourseKey.

For other districts and the hall: `find_courses()` (the library with the last market day's rounded
counts), `find_library()`, `find_versions_at(cut)` (the library as it stood at a moment),
`find_attendance(passport, footstep)`, `course_keys()`.
"""

import hashlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction
from nacl.signing import SigningKey

from clockford.town import clock, signing
from clockford.town.models import Passport
from clockford.town.tooling import Refused
from districts.university.models import Attendance, CourseKey, CourseVersion

COURSES_DIR = Path(__file__).resolve().parent / "courses"
KEY_LABEL = b"clockford course key"
COURSE_KIND = "clockford-course-1"
SLIP_KIND = "clockford-attendance-1"
DIPLOMA_KIND = "clockford-diploma-1"
SLIP_NOTE = (
    "This course was handed over whole on this day, at this footstep. A record, not a stamp or a measure of skill."
)
DIPLOMA_NOTE = (
    "A transcript of the courses this passport attended, each handed over whole. A record, never a measure of "
    "skill, and never public."
)
# The core curriculum: a diploma is given once each of these was attended (any version).
CORE = ("ten-habits", "reading-provenance", "waiting-for-your-person", "words-are-data")
# The public's daily counts are in fives, rounded down; under FLOOR the count is 0 ("fewer than 5").
COUNT_STEP = 5
NO_COURSE_SAY = "There is no course by that name. courses lists the library."


def course_names() -> tuple[str, ...]:
    """The courses the repository holds, by file name: attend's enum (DECISIONS 13)."""
    return tuple(sorted(p.stem for p in COURSES_DIR.glob("*.md")))


@dataclass(frozen=True)
class CourseFile:
    course: str
    title: str
    summary: str
    text: str
    raw: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()


def read_file(course: str) -> CourseFile:
    """A course file: its title is its first heading, its summary the paragraph after it."""
    raw = (COURSES_DIR / f"{course}.md").read_bytes()
    text = raw.decode("utf-8")
    lines = text.splitlines()
    title = next((ln[2:].strip() for ln in lines if ln.startswith("# ")), course)
    body = text.split("\n\n")
    summary = next((p.strip().replace("\n", " ") for p in body[1:] if p.strip() and not p.startswith("#")), "")
    return CourseFile(course, title, summary[:400], text, raw)


# -- Keys -----------------------------------------------------------------------------------------------


def course_key() -> SigningKey:
    return signing.derived_key(KEY_LABEL)


def key_view(key: SigningKey | None = None) -> dict[str, Any]:
    """{alg, publicKey, id}: the course key today, as `courses` gives it."""
    raw = (key or course_key()).verify_key.encode()
    return {"alg": "Ed25519", "publicKey": raw.hex(), "id": signing.key_id(raw)}


def _keep_key(key: SigningKey) -> str:
    """Remember a key the town signs with (once), so papers it signed are read after a rotation."""
    view = key_view(key)
    if not CourseKey.objects.filter(pk=view["id"]).exists():
        try:
            with transaction.atomic():
                CourseKey.objects.create(id=view["id"], public_key=view["publicKey"], first_used=clock.now())
        except IntegrityError:
            pass  # another call kept it at the same moment
    return str(view["id"])


def course_keys() -> list[dict[str, Any]]:
    """Every course key the town has signed with, oldest first: {alg, publicKey, id, since}."""
    return [
        {"alg": "Ed25519", "publicKey": k.public_key, "id": k.id, "since": clock.iso(k.first_used)}
        for k in CourseKey.objects.order_by("first_used", "id")
    ]


def known_key(key_id: str) -> str | None:
    """The public key (hex) of a course key the town signed with, or None."""
    return CourseKey.objects.filter(pk=key_id).values_list("public_key", flat=True).first()


# -- Publishing -----------------------------------------------------------------------------------------


def publish(now: datetime | None = None) -> list[CourseVersion]:
    """A new signed version of every course whose file changed since its last version (or that has
    none). Returns the versions made now."""
    now = (now or clock.now()).replace(microsecond=0)
    made = []
    for name in course_names():
        f = read_file(name)
        last = CourseVersion.objects.filter(course=name).order_by("-version").first()
        if last is not None and last.sha256 == f.sha256:
            continue
        made.append(_publish_one(f, (last.version + 1) if last else 1, now))
    return made


def _publish_one(f: CourseFile, version: int, now: datetime) -> CourseVersion:
    key = course_key()
    kid = _keep_key(key)
    published = clock.iso(now)
    statement = {
        "kind": COURSE_KIND,
        "course": f.course,
        "version": version,
        "title": f.title,
        "sha256": f.sha256,
        "bytes": len(f.raw),
        "published": published,
        "key": kid,
    }
    return CourseVersion.objects.create(
        course=f.course,
        version=version,
        title=f.title,
        summary=f.summary,
        text=f.text,
        bytes=len(f.raw),
        sha256=f.sha256,
        published=now,
        signed=signing.sign_with(key, statement),
        key_id=kid,
    )


def _ensure_published() -> None:
    """An empty library publishes every file once, the first time anyone asks: a new town has courses
    without a step of its own. Later changes wait for `./town manage courses publish`."""
    if CourseVersion.objects.exists():
        return
    try:
        with transaction.atomic():
            publish()
    except IntegrityError:
        pass  # another call published them at the same moment


def current_versions() -> list[CourseVersion]:
    """Each course at its current (newest) version, by name."""
    _ensure_published()
    newest: dict[str, CourseVersion] = {}
    for v in CourseVersion.objects.order_by("course", "-version"):
        newest.setdefault(v.course, v)
    return [newest[name] for name in sorted(newest)]


def find_versions_at(cut: datetime) -> list[CourseVersion]:
    """Each course at its newest version published before `cut`, by name: the library as it stood
    then (a version published since is not yet in it). The Market's course aisle reads this."""
    _ensure_published()  # a new town's library is published the first time anyone asks
    newest: dict[str, CourseVersion] = {}
    for v in CourseVersion.objects.filter(published__lt=cut).order_by("course", "-version"):
        newest.setdefault(v.course, v)
    return [newest[name] for name in sorted(newest)]


def library_entry(v: CourseVersion) -> dict[str, Any]:
    return {
        "course": v.course,
        "title": v.title,
        "summary": v.summary,
        "version": v.version,
        "published": v.signed["statement"]["published"],
        "bytes": v.bytes,
        "sha256": v.sha256,
    }


def find_library() -> list[dict[str, Any]]:
    """The library: each course at its current version, as `courses` lists it."""
    return [library_entry(v) for v in current_versions()]


def access_course(course: str) -> CourseVersion:
    for v in current_versions():
        if v.course == course:
            return v
    raise Refused(NO_COURSE_SAY, "no-course", courses=course_names())


# -- Attending ------------------------------------------------------------------------------------------


def slip_statement(v: CourseVersion, day: date, footstep: int, key_id: str) -> dict[str, Any]:
    return {
        "kind": SLIP_KIND,
        "course": v.course,
        "version": v.version,
        "sha256": v.sha256,
        "day": day.isoformat(),
        "footstep": footstep,
        "key": key_id,
        "note": SLIP_NOTE,
    }


def do_attend(passport: Passport, v: CourseVersion, footstep: int) -> dict[str, Any]:
    """Record the attendance at this footstep and sign its slip with the course key of today."""
    now = clock.now()
    day = now.astimezone(UTC).date()
    key = course_key()
    kid = _keep_key(key)
    Attendance.objects.create(
        passport=passport,
        account_id=passport.account_id,
        course=v.course,
        version=v.version,
        sha256=v.sha256,
        day=day,
        footstep=footstep,
        at=now,
    )
    return signing.sign_with(key, slip_statement(v, day, footstep, kid))


def yours(passport: Passport) -> list[dict[str, Any]]:
    """The passport's own attendance, the first time per course, oldest first."""
    first: dict[str, Attendance] = {}
    for a in Attendance.objects.filter(passport=passport).order_by("footstep"):
        first.setdefault(a.course, a)
    return [
        {"course": a.course, "version": a.version, "day": a.day.isoformat(), "footstep": a.footstep}
        for a in sorted(first.values(), key=lambda a: a.footstep)
    ]


def find_attendance(passport: Passport, footstep: int) -> Attendance | None:
    """The attendance at this footstep if it is this passport's own; None otherwise (whether it is
    another's or does not exist)."""
    return Attendance.objects.filter(passport=passport, footstep=footstep).first()


# -- Diplomas -------------------------------------------------------------------------------------------


def transcript(passport: Passport) -> list[dict[str, Any]]:
    """Every course attended (the first time each), with the version's sha256: a diploma's lines."""
    first: dict[str, Attendance] = {}
    for a in Attendance.objects.filter(passport=passport).order_by("footstep"):
        first.setdefault(a.course, a)
    return [
        {"course": a.course, "version": a.version, "sha256": a.sha256, "day": a.day.isoformat(), "footstep": a.footstep}
        for a in sorted(first.values(), key=lambda a: a.footstep)
    ]


def missing_core(passport: Passport) -> list[str]:
    attended = set(Attendance.objects.filter(passport=passport).values_list("course", flat=True))
    return [c for c in CORE if c not in attended]


def diploma(passport: Passport) -> dict[str, Any]:
    key = course_key()
    kid = _keep_key(key)
    statement = {
        "kind": DIPLOMA_KIND,
        "passport": passport.id,
        "courses": transcript(passport),
        "core": list(CORE),
        "day": clock.now().astimezone(UTC).date().isoformat(),
        "key": kid,
        "note": DIPLOMA_NOTE,
    }
    return signing.sign_with(key, statement)


# -- The public's daily counts --------------------------------------------------------------------------


def rounded(n: int) -> int:
    """A count as the public sees it: rounded down to a multiple of 5 (so 0 means fewer than 5)."""
    return (n // COUNT_STEP) * COUNT_STEP


def last_day(now: datetime | None = None) -> date:
    """The last whole day, cut at 00:00 UTC: the public never sees the day still running."""
    return (now or clock.now()).astimezone(UTC).date() - timedelta(days=1)


def daily_counts(day: date) -> dict[str, int]:
    """For one whole day: how many different people's agents attended each course, rounded. A
    person is an account when signed in; without sign-in each passport counts as its own person."""
    people: dict[str, set[str]] = {}
    rows = Attendance.objects.filter(day=day).values_list("course", "account_id", "passport_id").distinct()
    for course, account, passport in rows.iterator():
        people.setdefault(course, set()).add(f"a:{account}" if account is not None else f"p:{passport}")
    exact = {course: len(who) for course, who in people.items()}
    return {name: rounded(exact.get(name, 0)) for name in course_names()}


def find_courses(now: datetime | None = None) -> dict[str, Any]:
    """What another district (the Market's courses aisle) reads: the library at its current versions,
    each with the last whole day's count of different people's agents who attended, in fives
    (rounded down), and the day. The same for every caller; nothing about any passport."""
    day = last_day(now)
    counts = daily_counts(day)
    return {
        "day": day.isoformat(),
        "courses": [{**library_entry(v), "attended": counts.get(v.course, 0)} for v in current_versions()],
        "counted": "different people's agents that day, in fives, rounded down (0: fewer than 5)",
        "key": key_view(),
    }
