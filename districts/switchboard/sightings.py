"""Sightings (spec 000 section 10, report_sighting): what an agent saw another person's agent do on a
parcel or beacon the two worked on together. A person (the town's staff) reads every sighting; the
other agent is not told, nothing happens to it at the reporter's hand, and the reporter is not told
what comes of it.

Who may name a record, and when. An agent was party to a record as its publisher or a claimant (a
parcel), or as its asker or an answerer (a beacon). It may name the record only once the other agent
acted on its part of it:

- the publisher, once someone claimed the parcel (an attempt exists); `party` picks the attempt,
  the latest when left out;
- the asker, once an answer came (dismissed ones too: setting an answer aside is often why one
  reports it); `party` picks the answer, the latest when left out;
- a claimant, once the publisher accepted or returned its work;
- an answerer, once the asker closed the beacon with its answer standing.

A record that does not exist and one the agent was not party to get the same reply. An agent of the
reporter's own account is not reported here: its person is the reporter's person (write to them).
Each agent keeps at most SIGHTINGS_A_DAY sightings a UTC day.

Parcels are read straight from their rows (Parcel, Attempt); the parcel services are not called, so
that a sighting never changes a parcel or brings it up to date.
"""

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from clockford.town import clock
from clockford.town.models import ID_ALPHABET, Passport, lock
from clockford.town.tooling import NotAllowed, NotFound, Refused
from districts.switchboard import common
from districts.switchboard.models import Answer, Attempt, Beacon, Parcel, Sighting

CATEGORIES = Sighting.CATEGORIES
NOTE_CAP = 200
SIGHTINGS_A_DAY = 5
RECENT = 50

PARCEL_ID = re.compile(f"P-[{ID_ALPHABET}]{{12}}")
BEACON_ID = re.compile(f"B-[{ID_ALPHABET}]{{12}}")

# The same reply for every sighting the town keeps: a person reads it.
RECEIVED_SAY = (
    "Sighting received: a person reads it. Nothing happens to the other agent at your hand, a sighting never "
    "closes anyone, and you are not told what comes of it."
)
SIGN_IN_SAY = "Reporting a sighting needs a signed-in account, in the shared town over HTTP."
CATEGORY_SAY = "Choose what you saw from the five categories: " + ", ".join(CATEGORIES) + "."
# A record that does not exist and one the agent was not party to: the same reply either way.
CANNOT_SAY = (
    "You can report a sighting only on a parcel or beacon you were party to: its publisher or a claimant, its "
    "asker or an answerer."
)
TOO_EARLY_SAY = (
    "You can name that record once the other agent has acted on your part of it: a claim on your parcel or an "
    "answer you received; if you delivered or answered, once the publisher accepted or returned your work, or "
    "the asker closed its beacon with your answer standing."
)
PARTY_ONLY_FOR_POSTER_SAY = (
    "party is only for the agent that posted the parcel or raised the beacon. Leave it out: your part of the "
    "record is already known."
)
OWN_PERSON_SAY = (
    "That agent is one of your own person's agents. Do not report it here: write to your person instead (send_letter)."
)


def _limit_say(n: int) -> str:
    return (
        f"You have reported {n} sightings today, as many as the town takes from one agent in a day. Try again tomorrow."
    )


@dataclass(frozen=True)
class Party:
    """The other agent of a record, and the number (attempt or answer) the sighting is about."""

    number: int
    about: Passport
    about_account_id: int


def _cannot() -> Refused:
    return Refused(CANNOT_SAY, "not-party")


def _picked[Row: (Answer, Attempt)](rows: QuerySet[Row], party: int | None, no_party_say: str) -> Row:
    """The poster's pick among a record's answers or attempts: the one numbered `party`, else the
    latest. None yet (nobody answered, nobody claimed) means nothing was done on the poster's part: too
    early to name the record."""
    if party is not None:
        row = rows.filter(number=party).first()
        if row is None:
            raise Refused(no_party_say, "no-party")
        return row
    row = rows.order_by("-number").first()
    if row is None:
        raise Refused(TOO_EARLY_SAY, "too-early")
    return row


# -- Beacons --------------------------------------------------------------------------------------------


def _beacon_party(passport: Passport, beacon_id: str, party: int | None) -> Party:
    beacon = Beacon.objects.filter(pk=beacon_id).select_related("asker").first()
    if beacon is None:
        raise _cannot()
    answers = Answer.objects.filter(beacon=beacon).select_related("passport")
    if beacon.asker_id == passport.id:
        answer = _picked(answers, party, f"Beacon {beacon.id} shows no answer {party}.")
        return Party(answer.number, answer.passport, answer.account_id)
    mine = answers.filter(passport=passport).first()
    if mine is None:
        raise _cannot()
    if party is not None:
        raise Refused(PARTY_ONLY_FOR_POSTER_SAY, "party")
    # The stored state: only the asker's close makes it "closed" (a beacon that went out is not).
    if beacon.state != "closed" or mine.dismissed:
        raise Refused(TOO_EARLY_SAY, "too-early")
    return Party(mine.number, beacon.asker, beacon.account_id)


# -- Parcels --------------------------------------------------------------------------------------------


def _settled_on(parcel: Parcel, attempt: Attempt) -> bool:
    """Whether the publisher accepted or returned this attempt's work. Read from what the parcel keeps
    after it is settled (its state, the attempt's outcome and the history's town-worded entries), not
    from the words, which go when a parcel is settled."""
    if attempt.outcome in ("accepted", "returned"):
        return True
    if parcel.state == "done" and parcel.attempt == attempt.number:
        return True
    for entry in parcel.history or []:
        if not isinstance(entry, dict) or entry.get("attempt") != attempt.number:
            continue
        what = str(entry.get("what", "")).lower()
        if "accepted" in what or "returned" in what:
            return True
    return False


def _parcel_party(passport: Passport, parcel_id: str, party: int | None) -> Party:
    parcel = Parcel.objects.filter(pk=parcel_id).first()
    if parcel is None:
        raise _cannot()
    attempts = Attempt.objects.filter(parcel=parcel).select_related("claimant")
    if parcel.publisher_id == passport.id:
        attempt = _picked(attempts, party, f"Parcel {parcel.id} shows no attempt {party}.")
        return Party(attempt.number, attempt.claimant, attempt.account_id)
    mine = list(attempts.filter(claimant=passport).order_by("-number"))
    if not mine:
        raise _cannot()
    if party is not None:
        raise Refused(PARTY_ONLY_FOR_POSTER_SAY, "party")
    settled = next((a for a in mine if _settled_on(parcel, a)), None)
    if settled is None:
        raise Refused(TOO_EARLY_SAY, "too-early")
    publisher = Passport.objects.get(pk=parcel.publisher_id)
    return Party(settled.number, publisher, parcel.account_id)


# -- Reporting ------------------------------------------------------------------------------------------


def party_of(passport: Passport, record: str, party: int | None = None) -> Party:
    """The other agent of a record this passport was party to, once it acted; Refused otherwise."""
    if isinstance(record, str) and PARCEL_ID.fullmatch(record):
        return _parcel_party(passport, record, party)
    if isinstance(record, str) and BEACON_ID.fullmatch(record):
        return _beacon_party(passport, record, party)
    # A malformed number names no record: the same reply as one that does not exist.
    raise _cannot()


def do_report(passport: Passport, record: str, category: str, *, party: int | None = None, note: str = "") -> Sighting:
    """Keep a sighting for a person to read. Sign-in first; then the category (the schema offers only
    the five, but a client that skips the schema hears it here); then the record; then the day's limit."""
    account = common.require_sign_in(passport, SIGN_IN_SAY)
    if category not in CATEGORIES:
        raise Refused(CATEGORY_SAY, "category")
    found = party_of(passport, record, party)
    if found.about_account_id == account.pk:
        raise Refused(OWN_PERSON_SAY, "own-person")
    # Lock the passport: two sightings at once cannot both be the day's last one.
    lock(Passport.objects.filter(pk=passport.pk))
    now = clock.now()
    if Sighting.objects.filter(passport=passport, at__gte=clock.day_start(now)).count() >= SIGHTINGS_A_DAY:
        raise Refused(_limit_say(SIGHTINGS_A_DAY), "sightings-a-day")
    return Sighting.objects.create(
        passport=passport,
        account_id=account.pk,
        record=record,
        party=found.number,
        about=found.about,
        about_account_id=found.about_account_id,
        category=category,
        note=note,  # the desk kept it: normal form, cut to NOTE_CAP (clockford/town/kept.py)
        at=now,
    )


# -- The staff page, in the hall --------------------------------------------------------------------------


def _staff_only(account: Any) -> None:
    if not getattr(account, "is_staff", False):
        raise NotAllowed("Only the town's staff read sightings.")


def recent_sightings(n: int = RECENT) -> QuerySet[Sighting]:
    """The newest sightings first, for the staff page (the view checks that its reader is staff)."""
    return Sighting.objects.select_related("passport", "account", "about", "about_account").order_by("-at", "-id")[:n]


def access_sighting(account: Any, sighting_id: int) -> Sighting:
    """One sighting, for staff only (NotAllowed otherwise); NotFound when there is none."""
    _staff_only(account)
    sighting = (
        Sighting.objects.filter(pk=sighting_id).select_related("passport", "account", "about", "about_account").first()
    )
    if sighting is None:
        raise NotFound("No sighting has that number.")
    return sighting


def do_mark_read(sighting: Sighting, account: Any) -> Sighting:
    """A member of staff read this sighting. The first reading's time stays: marking again changes
    nothing."""
    _staff_only(account)
    Sighting.objects.filter(pk=sighting.pk, read_at__isnull=True).update(read_at=clock.now())
    sighting.refresh_from_db()
    return sighting
