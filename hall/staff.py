"""The staff room: the docket of open disputes to rule on, the newest reports of suspicious
instructions (each reviewed by its own person, read here) and the newest sightings (read, then
marked read). Each comes from the district service that owns it; the hall checks that its reader
is staff before it reads any of them."""

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse

from clockford import plain
from clockford.town import reports, signing, walls
from clockford.town.holds import NotDecided
from clockford.town.models import Report, TownState
from clockford.town.tooling import NotAllowed, NotFound
from districts.alley import services as alley
from districts.arena import services as arena
from districts.clinic import services as clinic
from districts.courthouse import services as courthouse
from districts.dice_house import services as dice_house
from districts.everywhere import services as everywhere
from districts.foundry import services as foundry
from districts.switchboard import common as switchboard
from districts.switchboard import sightings
from districts.town_hall import services as town_hall
from districts.university import services as university
from hall.certificates import staff_panel as certificates_panel
from hall.closures import staff_panel as closures_panel
from hall.http import refuse, signed_in_page, signed_in_post
from hall.models import Account
from hall.shown import marked

NOT_STAFF = "The staff room is for the town's staff, and your account is not staff."
NO_DISPUTE = "No dispute has that number."
NO_SIGHTING = "No sighting has that number."
NOT_YES_OR_NO = "Say yes or no: does the town take new visitors?"
SIGHTINGS_SHOWN = 50


@dataclass(frozen=True)
class Docket:
    """What waits for staff: open disputes, oldest first, the newest reports (read, not decided:
    each report's own person reviews it) and the newest sightings (read, then marked read)."""

    disputes: list[Any]
    reports: list[Report]
    sightings: list[Any] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.disputes or self.reports or self.sightings)


def access_docket(account: Account) -> Docket:
    """The docket, for staff only (NotAllowed otherwise)."""
    if not account.is_staff:
        raise NotAllowed(NOT_STAFF)
    return Docket(
        list(courthouse.open_disputes()),
        list(courthouse.recent_reports()),
        list(sightings.recent_sightings(n=SIGHTINGS_SHOWN)),
    )


def signing_keys() -> list[dict[str, str]]:
    """The public keys the town signs with, each as the service that signs with it shows it: the town
    key, and the keys derived from it for each district's signed results, certificates and slips."""
    found = [
        {
            "what": "The town key (footsteps, checkpoints, exports, decisions' records)",
            "keyId": signing.key_id(),
            "publicKey": signing.public_key_hex(),
        }
    ]
    for what, key in (
        ("The Arena's results", arena.KEY.view()),
        ("The Calibration Clinic's results", clinic.KEY.view()),
        ("The Dice House's results", dice_house.KEY.view()),
        ("Injection Alley's results", alley.KEY.view()),
    ):
        found.append({"what": what, **key})
    for what, key in (
        ("The Foundry's certificates", foundry.key_view()),
        ("Agent University's attendance slips", university.key_view()),
    ):
        found.append({"what": what, "keyId": key["id"], "publicKey": key["publicKey"]})
    return found


def _to_staff_room(anchor: str) -> str:
    return f"{reverse('hall:staff')}#{anchor}"


@signed_in_page
def staff(request: HttpRequest, account: Account) -> HttpResponse:
    try:
        docket = access_docket(account)
    except NotAllowed:
        return refuse(request, NOT_STAFF, 403)
    return render(
        request,
        "hall/staff.html",
        {
            "docket": docket,
            "disputes": [(d, marked(d.reason)) for d in docket.disputes],
            "reports": [(r, reports.status_of(r), marked(r.quote), marked(r.where)) for r in docket.reports],
            "sightings": [(s, marked(s.record), marked(s.note)) for s in docket.sightings],
            "unread": sum(1 for s in docket.sightings if s.read_at is None),
            "welcoming": TownState.is_welcoming(),
            "census": town_hall.find_census(),
            "keys": signing_keys(),
            "nav": "staff",
            **walls_panel(),
            **closures_panel(),
            **certificates_panel(account),
        },
    )


@signed_in_post
def rule(request: HttpRequest, account: Account, dispute_id: str) -> HttpResponseBase:
    """A member of staff rules on an open dispute, once."""
    try:
        dispute = courthouse.access_dispute(account, dispute_id)
    except NotAllowed:
        return refuse(request, NOT_STAFF, 403)
    except NotFound:
        return refuse(request, NO_DISPUTE, 404)
    try:
        courthouse.do_rule(dispute, account, request.POST.get("ruling", ""))
    except NotDecided as exc:
        messages.error(request, f"{dispute.id}: {exc.say}")
    else:
        messages.success(request, f"Ruled on {dispute.id}. The ruling stays on the docket's record.")
    return redirect(_to_staff_room(dispute.id))


@signed_in_post
def sighting_read(request: HttpRequest, account: Account) -> HttpResponseBase:
    """A member of staff marks a sighting read. Reading it decides nothing, so no passkey is asked."""
    number = request.POST.get("sighting", "")
    try:
        sighting = sightings.access_sighting(account, int(number)) if plain.digits(number, plain.ID_DIGITS) else None
    except NotAllowed:
        return refuse(request, NOT_STAFF, 403)
    except NotFound:
        sighting = None
    if sighting is None:
        return refuse(request, NO_SIGHTING, 404)
    if sighting.read_at is not None:
        messages.info(request, f"Sighting {sighting.pk} was already marked read. Nothing changed.")
    else:
        sightings.do_mark_read(sighting, account)
        messages.success(request, f"Marked sighting {sighting.pk} read.")
    return redirect(_to_staff_room(f"sighting-{sighting.pk}"))


@signed_in_post
def visitors(request: HttpRequest, account: Account) -> HttpResponseBase:
    """A member of staff stops new visitors, or takes them again: while stopped, /mcp answers a new
    session 503 "The town is not taking new visitors right now." and the sessions already open go on
    (clockford/face/checks.py, room_in_town). Reversible and refusing no one already inside, so no
    passkey is asked."""
    if not account.is_staff:
        return refuse(request, NOT_STAFF, 403)
    answer = request.POST.get("welcoming", "")
    if answer not in ("yes", "no"):
        return refuse(request, NOT_YES_OR_NO, 400)
    welcoming = answer == "yes"
    if TownState.is_welcoming() == welcoming:
        messages.info(
            request,
            f"The town was already {'taking new visitors' if welcoming else 'taking no new visitors'}. Nothing changed.",
        )
    else:
        TownState.welcome(welcoming)
        messages.success(
            request,
            "The town takes new visitors again."
            if welcoming
            else "The town takes no new visitors now; the sessions already open go on.",
        )
    return redirect(_to_staff_room("visitors"))


# -- Walls: staff wall a district or channel off, and reopen it (001 "walled off for now") ----------------

NO_DISTRICT = "No open district has that name."
NO_CHANNEL = "A channel's name is 2 to 32 lowercase letters, digits and hyphens, starting with a letter or digit."
WALL_WHY = "Walled off by staff in the hall."


def walls_panel() -> dict[str, Any]:
    """The staff room's walls: every open district with its wall, if one is up, and the walled channels."""
    standing = walls.standing()
    return {
        "district_walls": [(name, standing.get(("district", name))) for name in everywhere.district_names()],
        "channel_walls": [w for w in walls.walled_off() if w.kind == "channel"],
    }


@signed_in_post
def wall_switch(request: HttpRequest, account: Account) -> HttpResponseBase:
    """A member of staff walls a district or channel off, or reopens it. Walling off decides nothing for
    a person or an agent, so no passkey is asked; every call of it is answered "walled off" until reopened."""
    if not account.is_staff:
        return refuse(request, NOT_STAFF, 403)
    kind, name, action = (request.POST.get(k, "").strip() for k in ("kind", "name", "action"))
    if kind == "channel":
        name = name.lower()
        if not switchboard.NAME.fullmatch(name):
            return refuse(request, NO_CHANNEL, 400)
        shown = f"The channel {name}"
    elif kind == "district" and name in everywhere.district_names():
        shown = name
    else:
        return refuse(request, NO_DISTRICT, 404)
    if action == "wall":
        why = request.POST.get("why", "").strip() or WALL_WHY
        walls.raise_wall(kind, name, why)
        messages.success(request, f'{shown} is walled off. Its tools answer "walled off for now" until you reopen it.')
    elif action == "reopen":
        if walls.reopen(kind, name):
            messages.success(request, f"{shown} is open again.")
        else:
            messages.info(request, f"{shown} was not walled off. Nothing changed.")
    else:
        return refuse(request, "Choose to wall off or to reopen.", 400)
    return redirect(_to_staff_room("walls"))
