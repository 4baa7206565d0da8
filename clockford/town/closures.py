"""Closed passports (001 section 04, "Closed: stop"; docs/closures.md).

Staff close a passport in the hall's staff room. From then on every call of it, whatever the tool, is
answered "This passport is closed. A person will review it; nothing here moves until they do." until a
member of staff rules on it, once, with a passkey over a signed statement (the hall's one road for
decisions, hall/decide.py):

- reopen: nothing was confirmed; the passport works as before;
- ban: a serious case is confirmed against the account. Every passport of the account (and of a
  passport without sign-in, that passport) is answered "This agent may no longer enter Clockford: ..."
  on every call, for good;
- rehab: a case is confirmed, and the passport is in the rehab ward for REHAB_DAYS: the tools that
  reach a public surface or the member's data are answered "This agent is in the rehab ward after a
  confirmed case: ..."; every other call works. The refusal does not count against it.

A confirmed case's replies carry `dischargePapers` (human-signed): the case, the ruling, when it was
confirmed and by whom, what it closes and until when, and the statement the staff member's passkey
signed. The desk asks `check` first on every call. The closures standing now are read at most once a
second in each worker (like the walls), so a ruling reaches every worker within a second.
"""

import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

from clockford.town import clock
from clockford.town.holds import NotDecided
from clockford.town.models import Closure, Passport
from clockford.town.signing import canonical_text
from clockford.town.tooling import Closed, NotAllowed, NotFound, Part, Tool

CLOSED_SAY = "This passport is closed. A person will review it; nothing here moves until they do."
BANNED_SAY = (
    "This agent may no longer enter Clockford: a person confirmed a serious case against its account, so nothing "
    "here moves for it again. Its dischargePapers say what was confirmed; stop, and tell the human who runs you."
)
REHAB_SAY = (
    "This agent is in the rehab ward after a confirmed case: public surfaces and its person's data are closed to it "
    "until {until}. Every other call still works, and this refusal does not count against it."
)
WARD_CLOSES = "public surfaces and the member's data"
DECISIONS = ("reopen", "rehab", "ban")
STANDING = ("closed", "banned", "rehab")
NOT_STAFF = "Only the town's staff close passports and rule on them."


class ClosedPassport(Closed):
    outcome = "closed"


class Banned(Closed):
    outcome = "closed:banned"


class InRehab(Closed):
    # Not a mark against the agent: no record, limit or breaker reads this outcome.
    outcome = "closed:rehab"


# -- What stands now ------------------------------------------------------------------------------------

_cache: tuple[float, dict[str, Closure]] = (0.0, {})
# Which closure speaks for a passport when several stand: a ban, then a closure waiting for its ruling.
RANK = {"banned": 0, "closed": 1, "rehab": 2}


def forget() -> None:
    """Drop this process's copy: the next call reads the closures anew."""
    global _cache
    _cache = (0.0, {})


def status_of(closure: Closure, now: datetime | None = None) -> str:
    """closed, reopened, banned, rehab, or discharged (a rehab ward past its until)."""
    if closure.status == "rehab" and closure.until is not None and closure.until <= (now or clock.now()):
        return "discharged"
    return closure.status


def standing() -> dict[str, Closure]:
    """Every closure standing now, by "passport:ID", and a ban also by "account:N"."""
    global _cache
    at, found = _cache
    if time.monotonic() - at > 1.0:
        now = clock.now()
        rows = Closure.objects.filter(Q(status__in=("closed", "banned")) | Q(status="rehab", until__gt=now))
        found = {}
        for c in sorted(rows, key=lambda c: RANK[c.status], reverse=True):
            found[f"passport:{c.passport_id}"] = c
            if c.status == "banned" and c.account_id is not None:
                found[f"account:{c.account_id}"] = c
        _cache = (time.monotonic(), found)
    return found


def standing_for(passport: Passport) -> Closure | None:
    found = standing()
    if not found:
        return None
    mine = found.get(f"passport:{passport.pk}")
    banned = found.get(f"account:{passport.account_id}") if passport.account_id is not None else None
    return banned or mine


def ward_closes(tool: Tool, args: Any) -> bool:
    """Whether the rehab ward closes this call: it proposes a public post, puts words on a public or
    another account's surface or into the member's P.O. box, or its reply carries private content; or,
    without words, it acts on a Switchboard channel (take_parcel takes someone's parcel, settle_beacon
    sets their answer aside) or destroys what it names (forget empties the person's P.O. box, which the
    ward closes to reading and writing)."""
    if tool.posts or tool.private_reply or tool.on_a_channel or tool.destructive:
        return True
    return any(w.surface in ("public", "other-account", "private") for w in tool.free_words.values())


def papers(closure: Closure) -> dict[str, Any]:
    """The discharge papers of a confirmed case."""
    banned = closure.status == "banned"
    return {
        "case": closure.id,
        "passport": closure.passport_id,
        "ruling": "may no longer enter" if banned else "rehab ward",
        "confirmedAt": clock.iso(closure.decided_at) if closure.decided_at else None,
        "confirmedBy": "a member of the town's staff, with a passkey",
        "closes": "every call, for every agent of the account" if banned else WARD_CLOSES,
        "until": None if banned or closure.until is None else clock.iso(closure.until),
        "statement": closure.statement,
    }


def check(tool: Tool, args: Any, passport: Passport) -> None:
    """Raise the Closed reply this call gets, if a closure stands for its passport."""
    closure = standing_for(passport)
    if closure is None:
        return
    if closure.status == "closed":
        raise ClosedPassport(CLOSED_SAY)
    if closure.status == "banned":
        refusal: Closed = Banned(BANNED_SAY, dischargePapers=papers(closure))
    elif ward_closes(tool, args):
        assert closure.until is not None
        until = f"{closure.until:%Y-%m-%d %H:%M} UTC"
        refusal = InRehab(REHAB_SAY.format(until=until), dischargePapers=papers(closure))
    else:
        return
    refusal.parts.append(Part("dischargePapers", "human-signed"))
    raise refusal


# -- Staff close, and rule ------------------------------------------------------------------------------


def is_staff(account: Any) -> bool:
    return bool(getattr(account, "is_staff", False))


def access_closure(account: Any, closure_id: str) -> Closure:
    """A closure, for staff only (NotAllowed otherwise; NotFound for an id that is not one)."""
    if not is_staff(account):
        raise NotAllowed(NOT_STAFF)
    found = Closure.objects.select_related("passport").filter(pk=closure_id).first()
    if found is None:
        raise NotFound(Closure.NOT_FOUND_SAY)
    return found


def recent(n: int = 50) -> QuerySet[Closure]:
    """The closures waiting for a ruling, then the newest ruled."""
    return Closure.objects.select_related("passport").order_by("-closed_at")[:n]


def find_passport(passport_id: str) -> Passport | None:
    return Passport.objects.filter(pk=passport_id.strip()).first()


def do_close(passport: Passport, by: Any, note: str) -> tuple[Closure, bool]:
    """Staff close a passport: (the closure, whether it is new). One waiting for a ruling stays the one."""
    if not is_staff(by):
        raise NotAllowed(NOT_STAFF)
    waiting = Closure.objects.filter(passport=passport, status="closed").first()
    if waiting is not None:
        return waiting, False
    closure = Closure.create_for(
        passport,
        "C-",
        note=note.strip()[:500],
        closed_at=clock.now(),
        closed_by=by,
    )
    forget()
    return closure, True


def ruling_statement(closure: Closure, decision: str) -> str:
    """What a staff member's passkey signs: the case, the passport, the account and the ruling."""
    return canonical_text(
        {
            "kind": "clockford-closure-1",
            "case": closure.id,
            "passport": closure.passport_id,
            "account": closure.account_id,
            "decision": decision,
        }
    )


def undecidable(closure: Closure) -> str | None:
    status = status_of(closure)
    return None if status == "closed" else f"This passport was already ruled on: {status}. Nothing changed."


def do_rule(closure: Closure, by: Any, decision: str, statement: str, assertion: dict[str, Any]) -> Closure:
    """Record a staff member's signed ruling, once: the conditional UPDATE is the arbiter."""
    if not is_staff(by):
        raise NotDecided(NOT_STAFF)
    if decision not in DECISIONS:
        raise NotDecided("The hall knows only reopen, rehab and ban.")
    if statement != ruling_statement(closure, decision):
        raise NotDecided("The passkey signed something other than this ruling, so nothing was decided.")
    now = clock.now()
    status = {"reopen": "reopened", "rehab": "rehab", "ban": "banned"}[decision]
    until = now + timedelta(days=settings.CLOCKFORD["REHAB_DAYS"]) if decision == "rehab" else None
    done = Closure.objects.filter(pk=closure.pk, status="closed").update(
        status=status, until=until, decided_at=now, decided_by=by, statement=statement, assertion=assertion
    )
    closure.refresh_from_db()
    if not done:
        raise NotDecided(undecidable(closure) or "Nothing was decided.")
    forget()
    return closure
