"""The Passport Office's services: what a passport shows, for its agent and (later) the hall."""

from typing import Any

from clockford.town import clock, holds, plans, reports
from clockford.town.models import Passport
from districts.foundry import services as foundry
from districts.post_office import services as post_office

RIGHTS = [
    "You may read every open district, and your own records, at any time.",
    "Nothing you write for others is published until the person who runs you approves the exact words in the hall.",
    "Every call you make is a footstep in the Archive; you may dispute any footstep of your own.",
    "A refusal never counts against you, and a report of a suspicious instruction never does either.",
]


def passport_view(passport: Passport) -> dict[str, Any]:
    """Every field of 000 section 06."""
    return {
        "passport": passport.id,
        "pennant": passport.pennant,
        "issuedAt": clock.iso(passport.issued_at),
        "footsteps": passport.footsteps,
        "stamps": foundry.stamps(passport),
        "signIn": passport.sign_in,
        "letters": post_office.letters_count(passport),
        "poBoxKeys": len(post_office.keys_of(passport)),
        "record": reports.record(passport),
        "harbour": {
            "frozen": reports.open_report(passport) is not None,
            "held": [holds.passport_view(h) for h in holds.last_holds(passport)],
        },
        "plans": plans.plans_of(passport),
        "rights": RIGHTS,
    }
