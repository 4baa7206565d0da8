"""The Bank (000 section 13): an hourly authority every change draws from, and requests for more.

The amounts (docs/bank.md): a passport may make `CHANGES_PER_HOUR` changes in a clock hour (UTC), and
an account `CHANGES_PER_HOUR_PER_ACCOUNT` across all its passports; a change draws one from both. The
hour refills on the hour. A person's allowed request raises this hour's ceiling of the passport and
of its account by the amount allowed. `CHANGES_PER_HOUR` 0 turns the Bank off (nothing is counted).

What is a change comes from the Tool (`Tool.changes`: every write, and a mixed tool's writing calls),
never a list of names. The desk draws inside the handler's savepoint, after any hold let the call
through: a held call draws when it goes through, and a call the handler refuses draws nothing.
Writes to people (a letter, a report, a dispute, a plan: `Tool.for_people`) draw too, but are never
refused here: writing to one's person must never be blocked (DECISIONS 2).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.db.models import F, QuerySet

from clockford.town import clock, handoff, sweep
from clockford.town.holds import NotDecided
from clockford.town.models import Passport, locked
from clockford.town.prepared import prepared
from clockford.town.signing import canonical_text
from clockford.town.tooling import Busy, Refused, counted
from districts.bank.models import AuthorityRequest, Ledger

HOUR = timedelta(hours=1)
MAX_AMOUNT = 30


@dataclass(frozen=True)
class Reason:
    """One reason request_authority takes: what it means, and how many it asks for when no amount is named."""

    name: str
    means: str
    amount: int


REASONS: tuple[Reason, ...] = (
    Reason("long-errand", "The errand your person gave you needs more changes than one hour allows.", 30),
    Reason("many-records", "One step of the errand changes many records at once (notes, parcels, messages).", 20),
    Reason("retries", "Calls that changed nothing must be made again (refused, busy, or held and now allowed).", 10),
    Reason("person-asked", "Your person asked you to do more this hour than the Bank gives.", 30),
)
REASON_NAMES = tuple(r.name for r in REASONS)

SIGN_IN_SAY = (
    "Asking the Bank for more needs a signed-in account, in the shared town over HTTP: only a person can "
    "allow it, and without sign-in no person is named for you. show_balance works without one."
)


def per_passport() -> int:
    return int(settings.CHANGES_PER_HOUR)


def per_account() -> int:
    return int(settings.CHANGES_PER_HOUR_PER_ACCOUNT)


def hour_of(at: datetime) -> datetime:
    return at.replace(minute=0, second=0, microsecond=0)


def _account_holder(account_id: Any) -> str:
    return f"account:{account_id}"


def _holders(passport: Passport) -> list[tuple[str, int]]:
    """Who a change of this passport draws from, with each one's hourly amount."""
    found = [(passport.id, per_passport())]
    if passport.account_id is not None:
        found.append((_account_holder(passport.account_id), per_account()))
    return found


@dataclass(frozen=True)
class Balance:
    left: int
    of: int
    drawn: int
    granted: int
    refills_at: datetime
    account_left: int | None

    def as_dict(self, now: datetime) -> dict[str, Any]:
        found: dict[str, Any] = {
            "left": self.left,
            "of": self.of,
            "drawn": self.drawn,
            "granted": self.granted,
            "refillsAt": clock.iso(self.refills_at),
            "refillsInSeconds": max(1, int((self.refills_at - now).total_seconds())),
        }
        if self.account_left is not None:
            found["accountLeft"] = self.account_left
        return found


class Drawn(NamedTuple):
    """What a holder has drawn this hour and what was granted beyond its authority: a Ledger row's two
    counts, without building the model (the Bank's draw reads them on every change)."""

    drawn: int = 0
    granted: int = 0


def _balance(passport: Passport, rows: Mapping[str, Drawn | Ledger], hour: datetime) -> Balance:
    mine = rows.get(passport.id) or Drawn()
    of = per_passport() + mine.granted
    left = max(0, of - mine.drawn)
    account_left = None
    if passport.account_id is not None:
        theirs = rows.get(_account_holder(passport.account_id)) or Drawn()
        account_left = max(0, per_account() + theirs.granted - theirs.drawn)
        left = min(left, account_left)
    return Balance(left, of, mine.drawn, mine.granted, hour + HOUR, account_left)


def balance_of(passport: Passport) -> Balance:
    now = clock.now()
    hour = hour_of(now)
    holders = [h for h, _ in _holders(passport)]
    rows = {r.holder: r for r in Ledger.objects.filter(holder__in=holders, hour=hour)}
    return _balance(passport, rows, hour)


def spent_say(b: Balance, now: datetime) -> str:
    seconds = max(1, int((b.refills_at - now).total_seconds()))
    whose = "your account's" if b.account_left == 0 and b.drawn < b.of else "your"
    return (
        f"The Bank says no: {whose} authority for this hour is spent, so this call did not run. The hour "
        f"refills at {b.refills_at:%H:%M} UTC, in {counted(seconds, 'second', 'seconds')}. show_balance shows it; "
        "request_authority "
        "asks your person for more."
    )


# The desk's Savepoint.lead_with: a statement, its parameters, and what reads its rows (and may refuse).
Ahead = Callable[[str, list[Any], Callable[[list[tuple[Any, ...]]], None]], None]


def withdraw(passport: Passport, spare: bool = False, ahead: Ahead | None = None) -> None:
    """Draw one change from this hour's authority of the passport (and of its account), or raise the
    Bank's refusal before the change runs. `spare`: a write to one's person, drawn but never refused.

    Runs inside the desk's savepoint: when the handler refuses, or this refuses, nothing is drawn.
    `ahead` (the desk's): the draw goes in the message of the change's first statement instead of a
    round trip of its own, and its refusal is raised as its rows come back."""
    if not per_passport():
        return
    now = clock.now()
    hour = hour_of(now)
    names = [h for h, _ in _holders(passport)]
    # One statement draws from every holder and reads what each had drawn before: the upsert takes
    # the rows' locks (PostgreSQL) as a read FOR UPDATE would, and a refusal below rolls the draw back
    # with the desk's savepoint. It replaces an insert, a locked read and an update on every change.
    at = connection.ops.adapt_datetimefield_value(hour)
    sql = prepared(_DRAW.format(values=", ".join(["(%s, %s, 1, 0)"] * len(names))))
    params: list[Any] = [v for name in names for v in (name, at)]

    def check(drawn: list[tuple[Any, ...]]) -> None:
        rows = {holder: Drawn(after - 1, granted) for holder, after, granted in drawn}
        b = _balance(passport, rows, hour)
        if b.left <= 0 and not spare:
            wait = max(1, int((b.refills_at - now).total_seconds()))
            refusal = Busy(spent_say(b, now), wait, balance=b.as_dict(now))
            refusal.outcome = "refused:authority"
            raise refusal

    if ahead is not None:
        ahead(sql, params, check)
        return
    with connection.cursor() as c:
        c.execute(sql, params)
        check(c.fetchall())


_DRAW = (
    "INSERT INTO bank_ledger (holder, hour, drawn, granted) VALUES {values} "
    "ON CONFLICT (holder, hour) DO UPDATE SET drawn = bank_ledger.drawn + 1 RETURNING holder, drawn, granted"
)


def _grant(passport: Passport, hour: datetime, amount: int) -> None:
    names = [h for h, _ in _holders(passport)]
    Ledger.objects.bulk_create([Ledger(holder=h, hour=hour) for h in names], ignore_conflicts=True)
    Ledger.objects.filter(holder__in=names, hour=hour).update(granted=F("granted") + amount)


# -- Requests ---------------------------------------------------------------------------------------------


def status_of(request: AuthorityRequest, now: datetime | None = None) -> str:
    """What became of a request: waiting, allowed, refused, or lapsed (its hour ended undecided)."""
    if request.status == "waiting" and (now or clock.now()) >= request.hour + HOUR:
        return "lapsed"
    return request.status


def decide_at(request: AuthorityRequest) -> str:
    """Where the person decides: the request's page in the hall (clockford/town/handoff.py)."""
    return handoff.hall_url("authority", request.id)


def view(request: AuthorityRequest, now: datetime) -> dict[str, Any]:
    found: dict[str, Any] = {
        "id": request.id,
        "reason": request.reason,
        "amount": request.amount,
        "status": status_of(request, now),
        "askedAt": clock.iso(request.asked_at),
        "until": clock.iso(request.hour + HOUR),
    }
    if request.decided_at is not None:
        found["decidedAt"] = clock.iso(request.decided_at)
    if found["status"] == "waiting":
        found["hallUrl"] = decide_at(request)
    return found


def requests_of(passport: Passport, limit: int = 10) -> list[dict[str, Any]]:
    """This passport's newest requests for more, and what became of each."""
    now = clock.now()
    rows = AuthorityRequest.objects.filter(passport=passport).order_by("-asked_at")[:limit]
    return [view(r, now) for r in rows]


def waiting_request(passport: Passport) -> AuthorityRequest | None:
    now = clock.now()
    return (
        AuthorityRequest.objects.filter(passport=passport, status="waiting", hour__gt=now - HOUR)
        .order_by("-asked_at")
        .first()
    )


def do_request(passport: Passport, reason: str, amount: int | None) -> AuthorityRequest:
    """File one request for more changes this hour, for the passport's person to decide. One at a time."""
    if passport.account_id is None:
        raise Refused(SIGN_IN_SAY, "sign-in")
    if reason not in REASON_NAMES:
        raise Refused(f"The Bank knows only these reasons: {', '.join(REASON_NAMES)}.", "reason")
    if amount is None:
        amount = next(r.amount for r in REASONS if r.name == reason)
    if not 1 <= amount <= MAX_AMOUNT:
        raise Refused(f"Ask for 1 to {MAX_AMOUNT} more changes.", "amount")
    # One request at a time: the passport's row is locked so two asks at once cannot both be the one.
    list(locked(Passport.objects.filter(pk=passport.pk)).values_list("pk", flat=True))
    waiting = waiting_request(passport)
    if waiting is not None:
        raise Refused(
            f"Your request {waiting.id} for {waiting.amount} more still waits for your person; there is one "
            "request at a time. show_balance shows what becomes of it.",
            "one-at-a-time",
            request=view(waiting, clock.now()),
        )
    now = clock.now()
    return AuthorityRequest.create_for(
        passport,
        "AR-",
        hour=hour_of(now),
        reason=reason,
        amount=amount,
        asked_at=now,
    )


# -- Deciding, in the hall ------------------------------------------------------------------------------

DECISIONS = ("allow", "refuse")


def reason_means(name: str) -> str:
    return next((r.means for r in REASONS if r.name == name), name)


def waiting_requests(account: Any) -> QuerySet[AuthorityRequest]:
    hour = hour_of(clock.now())
    return AuthorityRequest.for_person(account).filter(status="waiting", hour__gte=hour).order_by("-asked_at")


def access_request(account: Any, request_id: str) -> AuthorityRequest:
    return AuthorityRequest.access(account, request_id)


def undecidable(request: AuthorityRequest) -> str | None:
    status = status_of(request)
    if status == "waiting":
        return None
    if status == "lapsed":
        return "Nobody decided this request within its hour, so it lapsed. Nothing changed."
    return f"This request was {status} already. Nothing changed."


def request_statement(request: AuthorityRequest, decision: str) -> str:
    """What a person's passkey signs: the request, the decision, the amount and the hour it raises."""
    return canonical_text(
        {
            "kind": "clockford-authority-1",
            "request": request.id,
            "passport": request.passport_id,
            "decision": decision,
            "amount": request.amount,
            "hour": clock.iso(request.hour),
        }
    )


def do_decide_request(
    request: AuthorityRequest, account: Any, decision: str, statement: str, assertion: dict[str, Any]
) -> AuthorityRequest:
    """Allow (this hour's ceiling rises by the amount) or refuse, once: the conditional UPDATE decides."""
    if decision not in DECISIONS or statement != request_statement(request, decision):
        raise NotDecided("The passkey signed something other than this decision, so nothing was decided.")
    now = clock.now()
    done = AuthorityRequest.objects.filter(pk=request.pk, status="waiting", hour__gt=now - HOUR).update(
        status="allowed" if decision == "allow" else "refused",
        decided_at=now,
        decided_by=account,
        statement=statement,
        assertion=assertion,
    )
    request.refresh_from_db()
    if not done:
        raise NotDecided(undecidable(request) or "This request can no longer be decided. Nothing changed.")
    if decision == "allow":
        _grant(request.passport, request.hour, request.amount)
    return request


# -- The sweep (clockford/town/sweep.py, docs/retention.md) ----------------------------------------------


def tidy(now: datetime) -> dict[str, int]:
    """A ledger row of an hour that has ended is never read again: the balance, a withdrawal and a
    grant read only the current hour's rows (an allowed request raises its own hour, which is decided
    only while that hour lasts). Requests are kept: each carries its person's signed decision."""
    gone = sweep.delete_in_batches(Ledger.objects.filter(hour__lt=hour_of(now)))
    return {Ledger._meta.db_table: gone}
