"""The hall's services: what views (and ./town up) may read or change, each fetched and authorized
in one call that returns the thing or raises Refused with words a person can act on.

Passports are the core's records (clockford/town/models.py); the hall reads them through
access_agents and access_agent here, and changes only the pennant a person chooses.
"""

import hashlib
import re
import secrets
import unicodedata
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from clockford.town import desk, words
from clockford.town.models import Passport
from hall.models import Account, Claim, Passkey

NAME_CHARS = 40
PENNANT_CHARS = 40
PASSKEY_NAME_CHARS = 60
PASSKEYS_PER_ACCOUNT = 20


class Refused(Exception):
    """A request the hall will not do. `say` tells the person why, and what to do instead."""

    def __init__(self, say: str, status: int = 400) -> None:
        super().__init__(say)
        self.say = say
        self.status = status


def hall_origin() -> str:
    """scheme://host[:port] of the hall: the only origin passkey answers and POSTs may come from."""
    return str(settings.HALL_URL)


def town_has_sign_in() -> bool:
    """Whether /mcp signs agents in: the identity configuration (CLOCKFORD_SIGN_IN) that makes the
    hall an authorization server. Without it, the town is run by its owner."""
    return bool(settings.CLOCKFORD_SIGN_IN)


MODE_WORDS = {
    "open": "The town is open.",
    "read-only": "The town is read-only for now: agents may look around, but nothing changes.",
    "closed": "The town is closed until a person looks: agents' calls are turned away.",
}


def town_mode_words() -> str:
    return MODE_WORDS.get(desk.town_mode(), "The town is open.")


# Free words a person gives the hall: names, passkey names, pennants.

_INVISIBLE = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}
_LINKISH = re.compile(r"[a-z][a-z0-9+.-]*://|\bwww\.|[\w.+-]+@[\w-]+\.[\w.-]+", re.IGNORECASE)


def clean_words(text: str, what: str, cap: int) -> str:
    """Trimmed and NFC, 1 to `cap` characters, nothing hidden, no secret; or Refused."""
    kept = words.for_keeping(text.strip())
    if not kept:
        raise Refused(f"{what} cannot be empty.")
    if len(kept) > cap:
        raise Refused(f"{what} can be at most {cap} characters; this one has {len(kept)}.")
    hidden = [ch for ch in kept if words.is_hidden(ch) or unicodedata.category(ch) in _INVISIBLE]
    if hidden:
        shown = (
            words.visible("".join(hidden))
            if any(words.is_hidden(ch) for ch in hidden)
            else "a line break or control character"
        )
        raise Refused(f"{what} cannot hold hidden or control characters ({shown}).")
    secret = words.find_secret(kept)
    if secret:
        raise Refused(f"{what} looks like {secret.kind}, so it was not kept.")
    return kept


# The owner's one-time claim.


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def town_owner() -> Account | None:
    return Account.objects.filter(is_owner=True).first()


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
        Claim.objects.create(code_digest=_digest(code), made_at=now)
    return f"{settings.HALL_URL}/hall/claim/{code}"


CLAIM_SAYS = {
    "ready": "This link makes you the owner of this town. It works once.",
    "used": "This claim link was already used: the town has its owner. If that is you, sign in with your passkey.",
    "replaced": "This claim link was replaced by a newer one. Use the link the latest ./town up printed.",
    "unknown": "This claim link is not one this town made. Check that you copied all of it, or use the link the latest ./town up printed.",
    "owned": "This town already has its owner, so claim links no longer work. If that is you, sign in with your passkey.",
}


def access_claim(code: str) -> tuple[Claim | None, str]:
    """The claim a link names and its state: ready, used, replaced, unknown or owned."""
    claim = Claim.objects.filter(code_digest=_digest(code)).first() if code else None
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


# Passkeys.


def passkeys_of(account: Account) -> QuerySet[Passkey]:
    return Passkey.objects.filter(account=account).order_by("created_at", "pk")


def remove_passkey(account: Account, passkey_id: int) -> str:
    """Remove one of the account's passkeys, never the last; returns its name."""
    with transaction.atomic():
        # Locking every passkey of the account makes two removals take turns, so two tabs
        # cannot each remove one of the last two.
        keys = list(Passkey.objects.select_for_update().filter(account=account))
        target = next((k for k in keys if k.pk == passkey_id), None)
        if target is None:
            raise Refused("That passkey is not one of yours.", status=404)
        if len(keys) == 1:
            raise Refused(
                "This is your only passkey, so it stays: without it you could not sign in. Add another passkey first.",
                status=409,
            )
        target.delete()
        return target.name


# The agents a person decides for.


def access_agents(account: Account) -> QuerySet[Passport]:
    """The passports this person decides for: on a town without sign-in, every passport is the
    owner's and nobody else's; signed in, the passports of the clients connected to their account."""
    if town_has_sign_in():
        return Passport.objects.filter(account=account).order_by("-last_seen", "id")
    if account.is_owner:
        return Passport.objects.order_by("-last_seen", "id")
    return Passport.objects.none()


def access_agent(account: Account, passport_id: str) -> Passport:
    passport = access_agents(account).filter(pk=passport_id).first()
    if passport is None:
        raise Refused("No passport you decide for has that number.", status=404)
    return passport


def raise_pennant(account: Account, passport_id: str, text: str) -> Passport:
    """Set the pennant a person chose for one of their agents. Other agents read pennants, so a
    pennant carries no link, email address, secret or hidden character."""
    pennant = clean_words(text, "A pennant", PENNANT_CHARS)
    if _LINKISH.search(words.for_matching(pennant)):
        raise Refused("A pennant cannot carry a link or an email address: other agents read it.")
    with transaction.atomic():
        passport = access_agent(account, passport_id)
        Passport.objects.filter(pk=passport.pk).update(pennant=pennant)
        passport.pennant = pennant
    return passport


# What waits for a person, and the staff docket: both empty until holds and reports land.


def waiting_for(account: Account) -> list[Any]:
    return []


def staff_docket(account: Account) -> list[Any]:
    if not account.is_staff:
        raise Refused("The staff room is for the town's staff, and your account is not staff.", status=403)
    return []
