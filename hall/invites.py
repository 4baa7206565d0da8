"""Invites: on a town run by its owner, a stranger makes an account only with an invite.

The owner (and the town's staff) make an invite in the hall (/hall/invites): a single-use link with a
random token, good for INVITE_DAYS, listed with who made it and when, and revocable until it is used.
Only the token's SHA-256 is kept, so the link is shown once, to the person who made it, and the
database alone cannot be used to make an account.

A stranger with a live link opens the sign-up page with the invite (/hall/invite/<token>) and makes a
passkey; the invite is spent in the transaction that makes the account, by one conditional UPDATE, so
two browsers answering one invite at once make one account. Without an invite, sign-up on a town run by
its owner is refused with ASK_FOR_INVITE. Towns without an owner (a town with sign-in, or one nobody has
claimed yet) let anyone make an account, invite or not.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from clockford.credentials import secret_digest
from clockford.town.models import locked
from hall.claim import strangers_sign_up
from hall.http import Refused, refuse, signed_in_page, signed_in_post
from hall.models import Account, Invite

INVITE_DAYS = 7
OPEN_INVITES = 50  # invites that wait unused at once, town-wide
LISTED = 100  # the newest invites the page lists

ASK_FOR_INVITE = (
    "This town is run by its owner, so making an account here takes an invite. Ask the town's owner for an invite link."
)
NOT_STAFF = "Only the town's owner and staff make invites, and your account is neither."
TOO_MANY = f"{OPEN_INVITES} invites already wait unused. Revoke one, or wait for one to be used or expire."
NO_INVITE = "No invite has that number."

INVITE_SAYS = {
    "used": "This invite was already used: an invite makes one account. Ask the town's owner for a new invite.",
    "revoked": "This invite was withdrawn by the town. Ask the town's owner for a new invite.",
    "expired": "This invite has expired. Ask the town's owner for a new invite.",
    "unknown": (
        "This invite link is not one this town made. Check that you copied all of it, "
        "or ask the town's owner for a new invite."
    ),
}


def may_invite(account: Account) -> bool:
    return bool(account.is_owner or account.is_staff)


def invite_url(token: str) -> str:
    return settings.HALL_URL + reverse("hall:invite", args=[token])


def make_invite(account: Account) -> tuple[Invite, str]:
    """A new invite by `account` (the owner or staff) and its link, which is never kept."""
    if not may_invite(account):
        raise Refused(NOT_STAFF, status=403)
    now = timezone.now()
    token = secrets.token_urlsafe(24)
    with transaction.atomic():
        # Taking turns on the maker's row keeps the count of open invites honest under two tabs.
        list(locked(Account.objects.filter(pk=account.pk)))
        waiting = Invite.objects.filter(used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now).count()
        if waiting >= OPEN_INVITES:
            raise Refused(TOO_MANY, status=409)
        invite = Invite.objects.create(
            token_digest=secret_digest(token),
            made_by=account,
            made_at=now,
            expires_at=now + timedelta(days=INVITE_DAYS),
        )
    return invite, invite_url(token)


def find_invite(token: str) -> tuple[Invite | None, str]:
    """The invite a link names and its state: ready, used, revoked, expired or unknown."""
    invite = (
        Invite.objects.select_related("made_by").filter(token_digest=secret_digest(token)).first() if token else None
    )
    if invite is None:
        return None, "unknown"
    return invite, invite.state_at(timezone.now())


def ready_invite(token: str) -> Invite:
    """The invite a link names, if it still makes an account; else Refused with what to do."""
    invite, state = find_invite(token)
    if invite is None or state != "ready":
        # A link the town never made counts as a failure against the caller's address, like a wrong
        # passkey: guessing links is held back.
        raise Refused(INVITE_SAYS[state], status=404 if state == "unknown" else 410, failure=state == "unknown")
    return invite


def spend_invite(invite: Invite, account: Account) -> None:
    """Spend `invite` on the account just made. Call inside the transaction that makes the account, so
    that an invite is spent exactly when its account is kept."""
    now = timezone.now()
    # The conditional UPDATE is the arbiter: of two sign-ups racing with one invite, one spends it.
    spent = Invite.objects.filter(
        pk=invite.pk, used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now
    ).update(used_at=now, used_by=account)
    if not spent:
        invite.refresh_from_db()
        raise Refused(INVITE_SAYS[invite.state_at(now)], status=410)


def may_sign_up(invite: Invite | None) -> None:
    """Refused (ASK_FOR_INVITE) when the town is run by its owner and no invite comes along."""
    if invite is None and not strangers_sign_up():
        raise Refused(ASK_FOR_INVITE, status=403)


def do_revoke(account: Account, invite_id: int) -> Invite:
    if not may_invite(account):
        raise Refused(NOT_STAFF, status=403)
    invite = Invite.objects.filter(pk=invite_id).first()
    if invite is None:
        raise Refused(NO_INVITE, status=404)
    revoked = Invite.objects.filter(pk=invite.pk, used_at__isnull=True, revoked_at__isnull=True).update(
        revoked_at=timezone.now(), revoked_by=account
    )
    invite.refresh_from_db()
    if not revoked:
        said = {
            "used": "This invite was already used, so there is nothing to revoke.",
            "revoked": "This invite was already revoked. Nothing changed.",
        }
        raise Refused(said[invite.state_at(timezone.now())], status=409)
    return invite


# -- Pages -------------------------------------------------------------------------------------------------


def _page(request: HttpRequest, account: Account, made: str = "", status: int = 200) -> HttpResponse:
    now = timezone.now()
    invites = list(
        Invite.objects.select_related("made_by", "used_by", "revoked_by").order_by("-made_at", "-pk")[:LISTED]
    )
    return render(
        request,
        "hall/invites.html",
        {
            "nav": "invites",
            "invites": [(i, i.state_at(now)) for i in invites],
            "made": made,
            "days": INVITE_DAYS,
            "needed": not strangers_sign_up(),
        },
        status=status,
    )


@signed_in_page
def invite_list(request: HttpRequest, account: Account) -> HttpResponse:
    if not may_invite(account):
        return refuse(request, NOT_STAFF, 403)
    return _page(request, account)


@signed_in_post
def invite_make(request: HttpRequest, account: Account) -> HttpResponse:
    """Make an invite. The answer is the page itself, not a redirect: the link is shown this once and is
    kept nowhere, not even in a message waiting in the session."""
    try:
        _, link = make_invite(account)
    except Refused as refused:
        if refused.status == 403:
            return refuse(request, refused.say, 403)
        messages.error(request, refused.say)
        return redirect("hall:invites")
    return _page(request, account, made=link)


@signed_in_post
def invite_revoke(request: HttpRequest, account: Account, invite_id: int) -> HttpResponse:
    try:
        do_revoke(account, invite_id)
    except Refused as refused:
        if refused.status in (403, 404):
            return refuse(request, refused.say, refused.status)
        messages.error(request, refused.say)
    else:
        messages.success(request, "The invite is revoked: its link no longer makes an account.")
    return redirect("hall:invites")
