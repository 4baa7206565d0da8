"""The Realty Office's services: asks for deeds, deeds and their re-checks, and the Studios' yes.

An agent asks (`do_ask`); only its person can prove ownership, in the hall, with their own sign-in:
the hall checks the proof (hall/deed_proofs.py: GitHub sign-in for io.github.<owner>, a DNS TXT
record or an HTTPS /.well-known/ file for a reverse-DNS namespace) and records the deed here
(`do_issue`), signed with the person's passkey. The namespace rules are the official registry's:
`io.github.<owner>/...` belongs to the GitHub account <owner>; `com.example/...` to whoever controls
the domain example.com (the namespace's labels reversed).

What an agent is told never says whether anyone else holds a deed: an ask for a lot deeded to another
account and for a lot deeded to nobody get the same reply (`claim_view`), and the ask waits either
way. A deed lapses when its re-check finds the proof gone; the last proof wins, so a person who
proves a lot another account holds takes the deed and the other deed lapses.
"""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.crypto import salted_hmac

from clockford.town import clock, handoff
from clockford.town.holds import NotDecided
from clockford.town.models import Passport, locked, new_id
from clockford.town.signing import canonical_text
from clockford.town.tooling import NotFound, Refused
from districts.realty.models import Ask, Deed, Showing
from districts.town_hall import services as town_hall
from districts.town_hall.models import Lot

ASKS_WAITING = 4  # asks from one account that wait at once (000 section 16)
ASK_DAYS = 7  # an ask nobody proves or declines lapses after this many days
METHODS = ("github", "dns", "https")
TOKEN_PREFIX = "clockford-deed="  # noqa: S105 (a record's prefix, not a secret)
WELL_KNOWN = "/.well-known/clockford-deed.json"

SIGN_IN_SAY = (
    "Claiming a deed needs a signed-in account, in the shared town over HTTP: a deed belongs to a person's "
    "account, and only that person can prove ownership in the hall."
)
ASKS_FULL_SAY = (
    f"{ASKS_WAITING} of your account's asks for deeds already wait for your person. This call did not ask again; "
    "wait for your person to prove or decline them in the hall."
)
METHOD_WORDS = {
    "github": "its person signed in to GitHub as the namespace's owner",
    "dns": "a DNS TXT record on the namespace's domain",
    "https": "an HTTPS /.well-known/ file on the namespace's domain",
}

_GITHUB = re.compile(r"io\.github\.([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


@dataclass(frozen=True)
class Namespace:
    """Who can prove a server's namespace: `kind` github (owner is a GitHub login) or domain (owner is
    the domain, the namespace's labels reversed), or unknown when the name fits neither rule."""

    kind: str
    namespace: str
    owner: str

    @property
    def provable(self) -> bool:
        return self.kind != "unknown"


def namespace_of(name: str) -> Namespace:
    """The namespace of a registry name (the part before its first slash) and who may prove it."""
    namespace = name.split("/", 1)[0]
    found = _GITHUB.fullmatch(namespace)
    if found:
        return Namespace("github", namespace, found.group(1))
    labels = namespace.lower().split(".")
    if len(labels) >= 2 and all(_LABEL.fullmatch(label) for label in labels) and len(namespace) <= 253:
        return Namespace("domain", namespace, ".".join(reversed(labels)))
    return Namespace("unknown", namespace, "")


def proof_token(account: Any, domain: str) -> str:
    """The token a person puts on their domain: the same for one account and domain every time (so a
    re-check finds it again), and different for every other account."""
    return salted_hmac("clockford.realty.token", f"{account.pk}|{domain}", algorithm="sha256").hexdigest()[:32]


# -- Asking (claim_deed) -----------------------------------------------------------------------------


def _ask_cutoff(now: datetime) -> datetime:
    return now - timedelta(days=ASK_DAYS)


def waiting_asks_of(account_id: Any, now: datetime | None = None) -> QuerySet[Ask]:
    return Ask.objects.filter(account_id=account_id, status="waiting", asked_at__gt=_ask_cutoff(now or clock.now()))


def held_by(account_id: Any, lot: int) -> Deed | None:
    return Deed.objects.filter(account_id=account_id, lot=lot, lapsed_at__isnull=True).first()


def do_ask(passport: Passport, value: int | str) -> tuple[Lot, Deed | None, bool]:
    """(the lot, the account's deed to it or None, whether an ask waits for the person now).

    Whether another account holds the lot is never read here: the answer is the same either way."""
    if passport.account_id is None:
        raise Refused(SIGN_IN_SAY, "sign-in")
    lot = town_hall.find_lot(value)
    if lot is None:
        raise town_hall.no_lot()
    deed = held_by(passport.account_id, lot.number)
    if deed is not None:
        return lot, deed, False
    # One account's asks are counted under its passport's lock, so two asks at once cannot both be the
    # fourth (SQLite runs one writer at a time anyway).
    list(locked(Passport.objects.filter(account_id=passport.account_id)).values_list("pk", flat=True))
    now = clock.now()
    waiting = waiting_asks_of(passport.account_id, now)
    if waiting.filter(lot=lot.number).exists():
        return lot, None, True
    if waiting.count() >= ASKS_WAITING:
        raise Refused(ASKS_FULL_SAY, "asks-waiting", hallUrl=handoff.front_url())  # where they wait
    Ask.objects.create(
        id=new_id("DA-"), passport=passport, account_id=passport.account_id, lot=lot.number, asked_at=now
    )
    return lot, None, True


def deed_view(deed: Deed) -> dict[str, Any]:
    return {"id": deed.id, "issuedAt": clock.iso(deed.issued_at), "checkedAt": clock.iso(deed.checked_at)}


def deeds_page() -> str:
    return settings.HALL_URL + reverse("hall:deeds")


# -- A deeded server's listing (enter, verify, the Directory) -----------------------------------------


def find_deed(lot: int) -> Deed | None:
    """The deed in force for a lot, whoever holds it."""
    return Deed.objects.filter(lot=lot, lapsed_at__isnull=True).first()


def listing_view(deed: Deed) -> dict[str, Any]:
    """What a listing says of its deed: that the publisher proved it, how, and when it was last
    checked. Never who holds it."""
    return {
        "proven": deed.method,
        "how": METHOD_WORDS[deed.method],
        "since": clock.iso(deed.issued_at),
        "checkedAt": clock.iso(deed.checked_at),
    }


def listings(lots: list[int]) -> dict[int, dict[str, Any]]:
    """{lot: listing_view} for the deeded ones among `lots`, in one query."""
    return {d.lot: listing_view(d) for d in Deed.objects.filter(lot__in=lots, lapsed_at__isnull=True)}


# -- The hall: a person's asks and deeds ---------------------------------------------------------------


def ask_status(ask: Ask, now: datetime | None = None) -> str:
    if ask.status == "waiting" and ask.asked_at <= _ask_cutoff(now or clock.now()):
        return "lapsed"
    return ask.status


def access_ask(account: Any, ask_id: str) -> Ask:
    found = Ask.objects.filter(account_id=account.pk, pk=ask_id).select_related("passport").first()
    if found is None:
        raise NotFound("No ask for a deed of yours has that number.")
    return found


def access_deed(account: Any, deed_id: str) -> Deed:
    return Deed.access(account, deed_id)


def asks_waiting(account: Any) -> list[Ask]:
    return list(waiting_asks_of(account.pk).select_related("passport").order_by("-asked_at"))


def deeds_of(account: Any) -> list[Deed]:
    """The person's deeds, those in force first, then the ten newest lapsed."""
    live = list(Deed.objects.filter(account_id=account.pk, lapsed_at__isnull=True).order_by("lot"))
    lapsed = list(Deed.objects.filter(account_id=account.pk, lapsed_at__isnull=False).order_by("-lapsed_at")[:10])
    return live + lapsed


def lot_of(number: int) -> Lot | None:
    return Lot.objects.filter(number=number).first()


def undecidable(ask: Ask) -> str | None:
    status = ask_status(ask)
    if status == "waiting":
        return None
    if status == "lapsed":
        return f"Nobody proved this ask within {ASK_DAYS} days, so it lapsed. Nothing changed."
    return f"This ask was {status} already. Nothing changed."


def take_statement(ask: Ask, method: str, evidence: dict[str, Any]) -> str:
    """What a person's passkey signs to take a deed: the ask, the lot, the namespace and the proof."""
    lot = lot_of(ask.lot)
    return canonical_text(
        {
            "kind": "clockford-deed-1",
            "ask": ask.id,
            "lot": ask.lot,
            "namespace": namespace_of(lot.name).namespace if lot else "",
            "method": method,
            "evidence": evidence,
        }
    )


def do_issue(
    ask: Ask, account: Any, method: str, evidence: dict[str, Any], statement: str, assertion: dict[str, Any]
) -> Deed:
    """The deed, once the hall checked the proof and the person signed taking it. Another account's deed
    to the lot lapses: the last proof wins."""
    if method not in METHODS or statement != take_statement(ask, method, evidence):
        raise NotDecided("The passkey signed something other than this deed, so nothing was decided.")
    lot = lot_of(ask.lot)
    if lot is None:
        raise NotDecided("That server is no longer in the census. Nothing changed.")
    now = clock.now()
    with transaction.atomic():
        done = Ask.objects.filter(pk=ask.pk, status="waiting", asked_at__gt=_ask_cutoff(now)).update(
            status="proven", done_at=now
        )
        if not done:
            ask.refresh_from_db()
            raise NotDecided(undecidable(ask) or "This ask can no longer be decided. Nothing changed.")
        for old in locked(Deed.objects.filter(lot=ask.lot, lapsed_at__isnull=True)):
            _lapse(old, now, "proven again by another account" if old.account_id != account.pk else "proven again")
        # Every other waiting ask of this account for the lot is answered by this deed too.
        waiting_asks_of(account.pk, now).filter(lot=ask.lot).update(status="proven", done_at=now)
        return Deed.objects.create(
            id=new_id("DE-"),
            passport=ask.passport,
            account=account,
            lot=ask.lot,
            namespace=namespace_of(lot.name).namespace,
            method=method,
            evidence=evidence,
            issued_at=now,
            checked_at=now,
            decided_at=now,
            decided_by=account,
            statement=statement,
            assertion=assertion,
        )


def do_decline(ask: Ask, account: Any) -> bool:
    """Decline a waiting ask (nothing is proven; the agent may ask again). False if it no longer waited."""
    now = clock.now()
    done = Ask.objects.filter(pk=ask.pk, account_id=account.pk, status="waiting", asked_at__gt=_ask_cutoff(now))
    return bool(done.update(status="declined", done_at=now))


def _lapse(deed: Deed, now: datetime, why: str) -> None:
    Deed.objects.filter(pk=deed.pk, lapsed_at__isnull=True).update(lapsed_at=now, lapse=why[:200])
    Showing.objects.filter(deed=deed, until__isnull=True).update(until=now)


# -- Re-checks -----------------------------------------------------------------------------------------


def recheck_after() -> timedelta:
    return timedelta(hours=settings.DEED_RECHECK_HOURS)


def due_for_check(now: datetime, limit: int = 50) -> list[Deed]:
    """Deeds in force whose proof was last found longer ago than the re-check period, oldest first."""
    rows = Deed.objects.filter(lapsed_at__isnull=True, checked_at__lte=now - recheck_after())
    return list(rows.order_by("checked_at")[:limit])


def do_checked(deed: Deed, found: bool, why: str = "") -> Deed:
    """Record a re-check: the proof was found again (checkedAt moves on), or it is gone (the deed lapses)."""
    now = clock.now()
    if found:
        Deed.objects.filter(pk=deed.pk, lapsed_at__isnull=True).update(checked_at=now)
    else:
        with transaction.atomic():
            _lapse(deed, now, why or "the proof is gone")
    deed.refresh_from_db()
    return deed


# -- The Studios: a deed holder's yes -------------------------------------------------------------------


def showing_of(deed: Deed) -> Showing | None:
    return Showing.objects.filter(deed=deed, until__isnull=True).first()


def show_statement(deed: Deed) -> str:
    return canonical_text({"kind": "clockford-studios-1", "deed": deed.id, "lot": deed.lot, "show": True})


def do_show(deed: Deed, statement: str, assertion: dict[str, Any]) -> Showing:
    """The deed holder's yes, signed with their passkey: the server may be shown in the Studios."""
    if statement != show_statement(deed):
        raise NotDecided("The passkey signed something other than showing this server, so nothing changed.")
    with transaction.atomic():
        current = locked(Deed.objects.filter(pk=deed.pk, lapsed_at__isnull=True)).first()
        if current is None:
            raise NotDecided("This deed has lapsed, so its server cannot be shown. Nothing changed.")
        shown = showing_of(current)
        if shown is not None:
            return shown
        return Showing.objects.create(deed=current, since=clock.now(), statement=statement, assertion=assertion)


def do_unshow(deed: Deed) -> bool:
    """Take the yes back (no passkey: it only takes a permission away). False if it was not shown."""
    return bool(Showing.objects.filter(deed=deed, until__isnull=True).update(until=clock.now()))


def shown_at(moment: datetime) -> list[int]:
    """The lots shown at `moment`: a yes given before it and not taken back, on a deed in force then."""
    live = Q(until__isnull=True) | Q(until__gt=moment)
    deed_live = Q(deed__lapsed_at__isnull=True) | Q(deed__lapsed_at__gt=moment)
    rows = Showing.objects.filter(live, deed_live, since__lt=moment, deed__issued_at__lt=moment)
    return sorted(set(rows.values_list("deed__lot", flat=True)))


def shown_on(day: date) -> list[int]:
    """The lots shown at the end of a UTC day."""
    return shown_at(datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC))
