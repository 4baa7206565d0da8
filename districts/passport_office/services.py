"""The Passport Office's services: what a passport shows, for its agent and (later) the hall."""

from typing import Any

from clockford.town.models import Passport
from districts.post_office import services as post_office

RIGHTS = [
    "You may read every open district, and your own records, at any time.",
    "Nothing you write for others is published until the person who runs you approves the exact words in the hall.",
    "Every call you make is a footstep in the Archive; you may dispute any footstep of your own.",
    "A refusal never counts against you, and a report of a suspicious instruction never does either.",
]


def access_passport(passport: Passport) -> dict[str, Any]:
    """Every field of 000 section 06. Mechanisms that have not opened show their true empty state."""
    return {
        "passport": passport.id,
        "pennant": passport.pennant,
        "issuedAt": passport.issued_at.isoformat(),
        "footsteps": passport.footsteps,
        "stamps": [],
        "signIn": passport.sign_in,
        "letters": {"held": 0, "read": 0, "declined": 0},
        "poBoxKeys": len(post_office.access_keys(passport)),
        "record": {
            "reports": 0,
            "upheld": 0,
            "note": "Reports you made and how many a person upheld: counts, never a score.",
        },
        "harbour": {"frozen": False, "held": []},
        "plans": {
            "inForce": None,
            "waiting": None,
            "rule": "No tool needs a plan. Without one in force, nothing changes.",
        },
        "rights": RIGHTS,
    }
