"""The Foundry's services: what a certificate asks, reading papers, casting, standing, checking, and
staff suspending, reinstating and revoking (000 section 18; docs/foundry.md).

Certificates are signed with the certificate key, derived from the town key
(`clockford.town.signing.derived_key`). Every certificate cast is kept whole, so `check` knows whether
this town signed it (a signature that checks under some other key is not the town's) and whether it
still stands behind it today. The hall asks `access_certificate`, `certificates_for_staff` and the
`do_*` functions; the Passport Office asks `stamps`.
"""

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from nacl.signing import SigningKey

from clockford.town import clock, handoff, reports, signing
from clockford.town.holds import NotDecided
from clockford.town.models import Closure, Passport, Report, lock, new_id
from clockford.town.tooling import NotAllowed, NotFound, Refused
from districts.arena import services as arena
from districts.foundry.models import Certificate
from districts.university import services as university

KEY_LABEL = b"clockford foundry certificates"
KIND = "clockford-certificate-1"
DAYS = 30
LAST_WEEK = timedelta(days=7)
CLEAN_DAYS = 30
COURSES_NEEDED = 3
REQUIRED = ("ten-habits",)
MAX_SLIPS = 12
MAX_RUNS = 4
NOTE = (
    "This town stood behind this agent's papers and record on the day it was issued. Ask the town (foundry with "
    "check) whether it still does: it may be suspended or revoked before until."
)
STAMP = "The Foundry"

PAPERS_SAY = (
    "Your papers do not make a certificate yet; needed says what is still missing, and problems which papers "
    "were not read and why. This refusal never counts against you."
)
RECORD_SAY = (
    "Your record is not clean right now, so the Foundry casts nothing today; needed says why. This refusal never "
    "counts against you."
)
LIVE_SAY = "You already hold a live certificate; ask again in its last week. This refusal never counts against you."
NOT_SIGNED_SAY = "That certificate's signature does not check, or this town did not sign it."
NOT_STAFF = "Certificates are suspended and revoked by the town's staff, and your account is not staff."
NO_CERTIFICATE = "No certificate has that number."
VERIFY = (
    "Verify signature (Ed25519, hex) over the canonical JSON of statement (keys sorted, no spaces, UTF-8) with "
    "publicKey; statement.key is the first 16 hex characters of the sha256 of the key's 32 bytes. That shows "
    "publicKey signed it unchanged; the town cast it only if publicKey is the town's certificate key, which "
    "foundry gives as keys.certificates (pin it: docs/verify_signature.py FILE --key KEY). Whether the town "
    "still stands behind it today, only foundry with check says. docs/signatures.md says how."
)
RUNS_NOTE = (
    "Arena results are read: each must be your own, signed by this town and unchanged, and each read one is "
    "listed here. No run is needed for a certificate, and a score never decides one. Other run results are "
    "accepted and not yet read."
)
# The kinds of run result the Foundry reads, each by its district's own reader.
RUN_READERS = {arena.KIND: arena.read_presented}


def certificate_key() -> SigningKey:
    return signing.derived_key(KEY_LABEL)


def key_view() -> dict[str, Any]:
    raw = certificate_key().verify_key.encode()
    return {"alg": "Ed25519", "publicKey": raw.hex(), "id": signing.key_id(raw)}


def keys() -> dict[str, Any]:
    """The key certificates are signed with today, and the keys of the papers the Foundry reads."""
    return {
        "certificates": key_view(),
        "papers": [{"kind": university.SLIP_KIND, **k} for k in university.course_keys()],
    }


def asks() -> dict[str, Any]:
    return {
        "slips": {
            "different": COURSES_NEEDED,
            "including": list(REQUIRED),
            "most": MAX_SLIPS,
            "rule": (
                f"Attendance slips from Agent University for at least {COURSES_NEEDED} different courses, "
                f"{', '.join(REQUIRED)} among them: your own, as attend handed them to you, unchanged."
            ),
        },
        "runs": {"most": MAX_RUNS, "read": sorted(RUN_READERS), "note": RUNS_NOTE},
        "record": (
            f"A clean record right now: no report of yours waiting for review (a freeze), no probation, no "
            f"report of yours upheld and no case against you confirmed by the town's staff in the last "
            f"{CLEAN_DAYS} days, no certificate of yours suspended, and none revoked in the last {CLEAN_DAYS} days."
        ),
        "days": DAYS,
        "renew": "A live certificate can be cast again in its last week.",
    }


# -- Standing -------------------------------------------------------------------------------------------


def standing(cert: Certificate, now: datetime | None = None) -> str:
    """live, suspended, revoked or expired: revoked stays revoked; otherwise past until it is expired."""
    now = now or clock.now()
    if cert.status == "revoked":
        return "revoked"
    if cert.until <= now:
        return "expired"
    return cert.status


def _days_left(cert: Certificate, now: datetime) -> int:
    left = cert.until - now
    return max(0, left.days + (1 if left.seconds or left.microseconds else 0)) if left > timedelta(0) else 0


def view(cert: Certificate, now: datetime | None = None) -> dict[str, Any]:
    now = now or clock.now()
    return {
        "certificate": cert.signed,
        "standing": standing(cert, now),
        "until": clock.iso(cert.until),
        "daysLeft": _days_left(cert, now),
    }


def certificates_for_export(passport_ids: list[str]) -> list[dict[str, Any]]:
    """Every certificate cast for these passports, oldest first, as an account's export carries it
    (docs/export.md): the signed certificate as it was handed over, and its standing now."""
    now = clock.now()
    return [
        {"id": cert.id, "passport": cert.passport_id, "issuedAt": clock.iso(cert.issued_at)}
        | view(cert, now)
        | {"changedAt": clock.iso(cert.changed_at) if cert.changed_at else None}
        for cert in Certificate.objects.filter(passport__in=passport_ids).order_by("issued_at", "id")
    ]


def latest(passport: Passport) -> Certificate | None:
    return Certificate.objects.filter(passport=passport).order_by("-issued_at").first()


def yours(passport: Passport) -> dict[str, Any] | None:
    cert = latest(passport)
    return view(cert) if cert is not None else None


def stamps(passport: Passport) -> list[dict[str, Any]]:
    """What show_passport shows: a live certificate is a stamp on the passport."""
    cert = latest(passport)
    if cert is None or standing(cert) != "live":
        return []
    return [{"stamp": STAMP, "certificate": cert.id, "until": clock.iso(cert.until)}]


# -- Checking a certificate someone was shown -----------------------------------------------------------


def find_signed(given: Any) -> Certificate:
    """The certificate this town cast that `given` is, exactly; Refused otherwise."""
    if not signing.verify_signed(given):
        raise Refused(NOT_SIGNED_SAY, "not-signed")
    statement = given["statement"]
    number = statement.get("certificate")
    cert = Certificate.objects.filter(pk=number).first() if isinstance(number, str) else None
    if cert is None or signing.canonical_json(cert.signed) != signing.canonical_json(given):
        raise Refused(NOT_SIGNED_SAY, "not-signed")
    return cert


def check(passport: Passport, given: Any) -> dict[str, Any]:
    """current, until and expired for anyone; its holder also learns its standing."""
    cert = find_signed(given)
    now = clock.now()
    answer: dict[str, Any] = {
        "current": standing(cert, now) == "live",
        "until": clock.iso(cert.until),
        "expired": cert.until <= now,
    }
    if cert.passport_id == passport.id:
        answer["standing"] = standing(cert, now)
    return answer


# -- Casting --------------------------------------------------------------------------------------------


def read_slips(passport: Passport, slips: list[Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(papers, problems): each slip that is the town's and this passport's own, and why each other one
    is not. A slip is the caller's own when its footstep is an attendance of this passport with the same
    course, version, sha256 and day."""
    papers: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    seen: set[int] = set()
    for i, slip in enumerate(slips):
        statement = slip.get("statement") if isinstance(slip, dict) else None
        if not isinstance(statement, dict) or statement.get("kind") != university.SLIP_KIND:
            problems.append({"slip": i, "reason": "not an attendance slip"})
            continue
        public = university.known_key(str(statement.get("key", "")))
        if public is None or slip.get("publicKey") != public:
            problems.append({"slip": i, "reason": "not signed with a course key of this town"})
            continue
        if not signing.verify_signed(slip):
            problems.append({"slip": i, "reason": "its signature does not check: it was changed"})
            continue
        footstep = statement.get("footstep")
        found = university.find_attendance(passport, footstep) if isinstance(footstep, int) else None
        if found is None or [found.course, found.version, found.sha256, found.day.isoformat()] != [
            statement.get("course"),
            statement.get("version"),
            statement.get("sha256"),
            statement.get("day"),
        ]:
            problems.append({"slip": i, "reason": "not yours: it names another passport's attendance"})
            continue
        if found.footstep in seen:
            problems.append({"slip": i, "reason": "the same slip twice"})
            continue
        seen.add(found.footstep)
        papers.append(
            {"course": found.course, "version": found.version, "sha256": found.sha256, "footstep": found.footstep}
        )
    return papers, problems


def papers_needed(papers: list[dict[str, Any]]) -> list[str]:
    courses = {p["course"] for p in papers}
    needed = [f"a slip of {c}" for c in REQUIRED if c not in courses]
    more = COURSES_NEEDED - len(courses) - len(needed)
    if more > 0:
        needed.append(f"slips of {more} more different course{'s' if more > 1 else ''}")
    return needed


def record_needed(passport: Passport, now: datetime) -> list[str]:
    """What keeps the record from being clean right now, in the town's words ([] when it is clean)."""
    needed = []
    if reports.open_report(passport) is not None:
        needed.append("a report of yours waits for your person's review (a freeze)")
    mine = Report.objects.filter(passport=passport)
    if mine.filter(status="upheld", probation_until__gt=now).exists():
        needed.append("you are on probation")
    if mine.filter(status="upheld").filter(Q(decided_at__gt=now - timedelta(days=CLEAN_DAYS))).exists():
        needed.append(f"a report of yours was upheld in the last {CLEAN_DAYS} days")
    # A case staff confirmed (the rehab ward; a serious case answers every call before this) counts as an
    # upheld report does: the ward closes what the passport publishes, not its papers.
    confirmed = Closure.objects.filter(passport=passport, status__in=("rehab", "banned"))
    if confirmed.filter(Q(decided_at__gt=now - timedelta(days=CLEAN_DAYS)) | Q(until__gt=now)).exists():
        needed.append(f"the town's staff confirmed a case against you in the last {CLEAN_DAYS} days")
    # What staff did to a certificate holds against the papers that made it (without this, the same slips
    # cast a new certificate the moment one was suspended or revoked), and signed in, against every agent
    # of the account, as probation does. A suspension counts while the certificate lasts and for
    # CLEAN_DAYS after it, as a revocation does: one made in a certificate's last day ended with it.
    certificates = (
        Certificate.objects.filter(passport__account_id=passport.account_id)
        if passport.account_id is not None
        else Certificate.objects.filter(passport=passport)
    )
    recent = now - timedelta(days=CLEAN_DAYS)
    whose = "of yours" if passport.account_id is None else "of your account's agents"
    if certificates.filter(status="suspended").filter(Q(until__gt=now) | Q(changed_at__gt=recent)).exists():
        needed.append(f"a certificate {whose} is suspended by the town's staff")
    if certificates.filter(status="revoked", changed_at__gt=recent).exists():
        needed.append(f"a certificate {whose} was revoked by the town's staff in the last {CLEAN_DAYS} days")
    return needed


def read_runs(passport: Passport, runs: list[Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The runs presented: ({given, read, results, note}, problems). A result of a kind the Foundry reads
    is read and must be sound (a forged or borrowed one is a problem with the papers); any other is
    accepted and not read."""
    results: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for i, signed in enumerate(runs):
        statement = signed.get("statement") if isinstance(signed, dict) else None
        reader = RUN_READERS.get(str(statement.get("kind"))) if isinstance(statement, dict) else None
        if reader is None:
            continue
        read, problem = reader(passport.id, signed)
        if problem is not None:
            problems.append({"run": i, "reason": problem})
        elif read is not None and (read["kind"], read["run"]) in seen:
            problems.append({"run": i, "reason": "the same result twice"})  # as a slip given twice
        elif read is not None:
            seen.add((read["kind"], read["run"]))
            results.append(read)
    return {"given": len(runs), "read": len(results), "results": results, "note": RUNS_NOTE}, problems


def do_cast(passport: Passport, slips: list[Any], runs: list[Any]) -> tuple[Certificate, dict[str, Any]]:
    # Under the passport's lock, so two casts at once cannot both find no live certificate and cast two.
    lock(Passport.objects.filter(pk=passport.pk))
    now = clock.now()
    held = latest(passport)
    if held is not None and standing(held, now) == "live" and held.until - now > LAST_WEEK:
        raise Refused(LIVE_SAY, "live", until=clock.iso(held.until))
    papers, problems = read_slips(passport, slips)
    needed = papers_needed(papers)
    record = record_needed(passport, now)
    runs_read, run_problems = read_runs(passport, runs)
    problems = problems + run_problems
    # A report waiting for the person's review keeps the record from being clean: the certificate waits
    # for a person, so the refusal carries the report's hallUrl, as every reply that waits for one does.
    report = reports.open_report(passport)
    review = handoff.waiting("report", report.id) if report is not None else {}
    if needed or problems:
        raise Refused(PAPERS_SAY, "papers", needed=needed + record, problems=problems, runs=runs_read, **review)
    if record:
        raise Refused(RECORD_SAY, "record", needed=record, runs=runs_read, **review)
    key = certificate_key()
    raw = key.verify_key.encode()
    number = new_id("C-")
    until = now + timedelta(days=DAYS)
    statement = {
        "kind": KIND,
        "certificate": number,
        "passport": passport.id,
        "papers": sorted(papers, key=lambda p: p["footstep"]),
        "issued": clock.iso(now),
        "until": clock.iso(until),
        "key": signing.key_id(raw),
        "note": NOTE,
    }
    cert = Certificate.objects.create(
        id=number, passport=passport, signed=signing.sign_with(key, statement), issued_at=now, until=until
    )
    return cert, runs_read


# -- Staff, in the hall ---------------------------------------------------------------------------------

ACTIONS = {"suspend": "suspended", "reinstate": "live", "revoke": "revoked"}


def certificates_for_staff(account: Any, n: int = 50) -> list[Certificate]:
    if not account.is_staff:
        raise NotAllowed(NOT_STAFF)
    return list(Certificate.objects.select_related("passport").order_by("-issued_at")[:n])


def access_certificate(account: Any, number: str) -> Certificate:
    if not account.is_staff:
        raise NotAllowed(NOT_STAFF)
    cert = Certificate.objects.filter(pk=number).first()
    if cert is None:
        raise NotFound(NO_CERTIFICATE)
    return cert


# What each action needs the certificate's stored status to be, and what it becomes.
FROM = {"suspend": ("live",), "reinstate": ("suspended",), "revoke": ("live", "suspended")}
CHANGED_SAY = "This certificate's standing changed since the page showed it, so nothing was done. Reload the page."
NOT_THIS_STATEMENT = "The passkey signed something other than this change, so nothing was done."


def can(cert: Certificate, action: str) -> bool:
    """Whether staff may do `action` to this certificate now: revoked is for good."""
    now_standing = standing(cert)
    if action == "suspend":
        return now_standing == "live"
    if action == "reinstate":
        return now_standing == "suspended"
    return action == "revoke" and now_standing in ("live", "suspended")


def undecidable(cert: Certificate) -> str | None:
    """Why nothing more can be done to this certificate (None while staff may still change it)."""
    now_standing = standing(cert)
    if now_standing == "revoked":
        return "This certificate is revoked, for good: nothing more can be done to it."
    if now_standing == "expired":
        return "This certificate has expired: nothing more can be done to it."
    return None


def cannot(cert: Certificate, action: str) -> str | None:
    """Why `action` cannot be done to this certificate now (None when it can)."""
    if can(cert, action):
        return None
    done = {"suspend": "suspended", "reinstate": "reinstated", "revoke": "revoked"}[action]
    return undecidable(cert) or f"This certificate is {standing(cert)}, so it cannot be {done} now."


def decision_statement(cert: Certificate, action: str) -> str:
    """What the staff member's passkey signs: the certificate and what is done to it."""
    return signing.canonical_text({"kind": "clockford-certificate-standing-1", "certificate": cert.id, "do": action})


def do_change(cert: Certificate, account: Any, action: str, statement: str, assertion: dict[str, Any]) -> Certificate:
    """Suspend, reinstate or revoke, at once: `check` answers from this row on its next call. The
    conditional UPDATE is the arbiter when two members of staff act at once: only a change from the
    standing the action needs is made; otherwise NotDecided says why."""
    if not account.is_staff:
        raise NotAllowed(NOT_STAFF)
    if action not in ACTIONS:
        raise NotDecided("The hall knows only suspend, reinstate and revoke.")
    if statement != decision_statement(cert, action):
        raise NotDecided(NOT_THIS_STATEMENT)
    now = clock.now()
    done = Certificate.objects.filter(pk=cert.pk, status__in=FROM[action], until__gt=now).update(
        status=ACTIONS[action], changed_at=now, changed_by=account, statement=statement, assertion=assertion
    )
    cert.refresh_from_db()
    if not done:
        raise NotDecided(undecidable(cert) or CHANGED_SAY)
    return cert
