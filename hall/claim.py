"""The owner's one-time claim: on a town without sign-in, the first person to answer the link that
./town up prints (hall_ready) becomes the owner, and with it the staff. Only a code's digest is kept."""

import secrets

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from clockford.credentials import secret_digest
from clockford.town import plans
from hall.http import Refused
from hall.models import Account, Claim
from hall.town import town_has_sign_in


def town_owner() -> Account | None:
    return Account.objects.filter(is_owner=True).first()


def strangers_sign_up() -> bool:
    """Whether the hall offers "Make an account" to whoever comes by: on a town with sign-in, where
    each person brings their own agents, and on a town nobody has claimed yet. A town run by its owner
    without sign-in does not: every agent there is the owner's, so another account would decide for
    none of them."""
    return town_has_sign_in() or town_owner() is None


def claim_link_if_unowned() -> str | None:
    """A fresh one-time claim link for a town without sign-in that has no owner yet (else None).

    Only the code's digest is kept, so each call makes a new code; the links printed before it
    stop working, and the newest is the one that counts.
    """
    if town_has_sign_in() or town_owner() is not None:
        return None
    code = secrets.token_urlsafe(24)
    now = timezone.now()
    with transaction.atomic():
        Claim.objects.filter(used_at__isnull=True, replaced_at__isnull=True).update(replaced_at=now)
        Claim.objects.create(code_digest=secret_digest(code), made_at=now)
    return settings.HALL_URL + reverse("hall:claim", args=[code])


CLAIM_SAYS = {
    "ready": "This link makes you the owner of this town. It works once.",
    "used": "This claim link was already used: the town has its owner. If that is you, sign in with your passkey.",
    "replaced": "This claim link was replaced by a newer one. Use the link the latest ./town up printed.",
    "unknown": "This claim link is not one this town made. Check that you copied all of it, or use the link the latest ./town up printed.",
    "owned": "This town already has its owner, so claim links no longer work. If that is you, sign in with your passkey.",
}


def find_claim(code: str) -> tuple[Claim | None, str]:
    """The claim a link names and its state: ready, used, replaced, unknown or owned."""
    claim = Claim.objects.filter(code_digest=secret_digest(code)).first() if code else None
    if claim is None:
        return None, "unknown"
    if claim.state == "ready" and town_owner() is not None:
        return claim, "owned"
    return claim, claim.state


def use_claim(claim: Claim, account: Account) -> None:
    """Make `account` the owner, spending the claim. Call inside the transaction that keeps the
    passkey, so that a claim is spent exactly when its first passkey is kept."""
    if town_owner() is not None:
        raise Refused(CLAIM_SAYS["owned"], status=409)
    # The conditional UPDATE is the arbiter: of two answers racing for one link, one spends it.
    spent = Claim.objects.filter(pk=claim.pk, used_at__isnull=True, replaced_at__isnull=True).update(
        used_at=timezone.now(), account=account
    )
    if not spent:
        claim.refresh_from_db()
        raise Refused(CLAIM_SAYS["replaced" if claim.state == "replaced" else "used"], status=409)
    # The owner of a self-hosted town is its staff too: they run the place.
    Account.objects.filter(pk=account.pk).update(is_owner=True, is_staff=True)
    account.is_owner = account.is_staff = True
    plans.forget_owner()  # look_around's hall.claimed says so from the next call
