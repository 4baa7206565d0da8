"""The Courthouse's services, shared by its tools and the hall's staff docket.

`dispute` puts one of the agent's own footsteps on the docket; staff read the docket and rule once.
Reports of suspicious instructions are filed through the core (clockford.town.reports), which also
freezes the passport's consequential calls; the docket lists them for staff to read.
"""

import secrets
from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from clockford.town import archive, clock, words
from clockford.town.holds import NotDecided
from clockford.town.kept import says_nothing
from clockford.town.models import Footstep, Passport, Report, lock
from clockford.town.tooling import NotAllowed, NotFound, Refused
from districts.courthouse.models import Dispute

REASON_CAP = 500
RULING_CAP = 500

NOT_YOURS_SAY = "You can dispute only footsteps on your own passport."
EMPTY_SAY = "Say in a few words why you dispute this footstep."


def new_dispute_id() -> str:
    """A dispute's id: D- and eight random digits (DECISIONS 14: Dice House runs are D- and letters)."""
    return "D-" + "".join(secrets.choice("0123456789") for _ in range(8))


def _open_of(passport: Passport) -> QuerySet[Dispute]:
    return Dispute.objects.filter(passport=passport, status="open")


def do_dispute(passport: Passport, footstep: int, reason: str) -> tuple[Dispute, bool]:
    """File a dispute of one of the passport's own footsteps: (dispute, filed now). A footstep of
    another passport gets the same reply as one that does not exist. A footstep the passport already
    disputes, and no person has ruled on yet, is answered with that open dispute, as it was filed:
    one footstep is on the docket once, and a retry neither files it again nor uses up the ten."""
    found = None
    if archive.names_a_footstep(footstep):
        found = Footstep.objects.filter(number=footstep, passport=passport.id).values_list("tool", "outcome").first()
    if found is None:
        raise Refused(NOT_YOURS_SAY, "not-yours")
    kept = reason  # the desk kept it: normal form, cut to REASON_CAP, and refused it empty (clockford/town/kept.py)
    # Lock the passport: two disputes at once cannot both be the tenth open one.
    lock(Passport.objects.filter(pk=passport.pk))
    already = _open_of(passport).filter(footstep=footstep).first()
    if already is not None:
        return already, False
    reasons = list(_open_of(passport).values_list("reason", flat=True))
    most = settings.CLOCKFORD["DISPUTES_OPEN"]
    if len(reasons) >= most:
        raise Refused(
            f"You already have {most} open disputes. Wait for a person to rule on some before you dispute again.",
            "disputes-full",
        )
    allowance = settings.CLOCKFORD["DISPUTE_BYTES_OPEN"]
    if sum(len(r.encode()) for r in reasons) + len(kept.encode()) > allowance:
        raise Refused(
            "Your open disputes already hold as many words as the town keeps for them. Wait for a person to rule "
            "on some, or say why in fewer words.",
            "disputes-size",
        )
    dispute_id = new_dispute_id()
    while Dispute.objects.filter(pk=dispute_id).exists():  # one in a hundred million; still, never two
        dispute_id = new_dispute_id()
    tool, outcome = found
    filed = Dispute.objects.create(
        id=dispute_id,
        passport=passport,
        footstep=footstep,
        tool=tool,
        outcome=outcome,
        reason=kept,
        filed_at=clock.now(),
    )
    return filed, True


# -- The staff docket, in the hall ----------------------------------------------------------------------


def _staff_only(account: Any) -> None:
    if not getattr(account, "is_staff", False):
        raise NotAllowed("Only the town's staff read the docket.")


def open_disputes() -> QuerySet[Dispute]:
    """The disputes waiting for a ruling, oldest first."""
    return Dispute.objects.filter(status="open").select_related("passport").order_by("filed_at", "id")


def access_dispute(account: Any, dispute_id: str) -> Dispute:
    """One dispute, for staff only (NotAllowed otherwise); NotFound when there is none."""
    _staff_only(account)
    dispute = Dispute.objects.filter(pk=dispute_id).select_related("passport", "ruled_by").first()
    if dispute is None:
        raise NotFound("No dispute has that number.")
    return dispute


def do_rule(dispute: Dispute, account: Any, ruling: str) -> Dispute:
    """Rule on an open dispute, once. The conditional UPDATE is the arbiter when two staff rule at once."""
    _staff_only(account)
    kept = words.for_keeping(ruling, RULING_CAP).strip()
    if says_nothing(kept):
        raise NotDecided("Write the ruling in a few words: what was decided, and why.")
    done = Dispute.objects.filter(pk=dispute.pk, status="open").update(
        status="ruled", ruled_at=clock.now(), ruled_by=account, ruling=kept
    )
    dispute.refresh_from_db()
    if not done:
        raise NotDecided("This dispute was already ruled. Nothing changed.")
    return dispute


def recent_reports(n: int = 50) -> QuerySet[Report]:
    """Reports of suspicious instructions, newest first, for staff to read."""
    return Report.objects.select_related("passport").order_by("-filed_at", "-id")[:n]
