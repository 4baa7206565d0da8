"""The WebAuthn ceremonies (py_webauthn): sign up (with an invite on a town run by its owner), sign in,
claim the town, approve a statement; and the ceremonies' parts that hall/passkey_changes.py (adding a
passkey, removing one, each confirmed with a passkey the account already has) shares.

Each ceremony has two halves. begin_* makes a random challenge and keeps it in a Ceremony row (the
browser never holds anything the town trusts) bound to the person's session (hall/sessions.py).
finish_* deletes the row before it verifies anything, so every challenge is answered at most once,
right or wrong, and then checks the browser's answer: the challenge, the hall's origin and rp_id,
the person's presence and verification (a PIN, fingerprint or face: required), and the sign count.
"""

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from hall import invites, sessions
from hall.claim import CLAIM_SAYS, find_claim, use_claim
from hall.http import Refused, hall_origin
from hall.models import Account, Ceremony, Passkey, new_user_handle
from hall.town import NAME_CHARS, clean_words

CEREMONY_SECONDS = 300
PASSKEY_NAME_CHARS = 60
PASSKEYS_PER_ACCOUNT = 20
BROWSER_TIMEOUT_MS = 120_000
# A credential id as the town keeps it: base64url without padding. Anything else names no passkey,
# and is never sent to a database that may not even hold it (a lone surrogate).
CREDENTIAL_ID = re.compile(r"[A-Za-z0-9_-]+")

EXPIRED = "This passkey request has expired or was already answered. Nothing changed; press the button to start again."
NOT_AN_ANSWER = "That was not a passkey's answer. Nothing changed; press the button to start again."
UNKNOWN_PASSKEY = (
    "This passkey is not known to this town: it may have been removed, or it belongs to another town. "
    "Sign in with another passkey, or make an account."
)
TAKEN = "This passkey is already registered with this town. Sign in with it instead."
NOT_YOURS = (
    "This passkey belongs to another account than the one signed in here. Use one of your own passkeys, "
    "or sign out first."
)


def explain(exc: Exception) -> str:
    """py_webauthn's reasons, said so that a person knows what happened and what to do."""
    why = str(exc)
    if "challenge" in why:
        return "This passkey answer was for another request, so it was refused. Nothing changed; press the button to start again."
    if "origin" in why:
        return f"This passkey answer came from another site, so it was refused. The hall answers only at {settings.HALL_URL}."
    if "RP ID" in why:
        return f"This passkey belongs to another site, not {settings.HALL_RP_ID}, so it was refused."
    if "user was not verified" in why:  # not "Could not verify ... signature": that is no person's doing
        return (
            "Your passkey did not verify you, so it was refused. The town needs a passkey that asks for your "
            "fingerprint, face, PIN or screen lock. Nothing changed."
        )
    if "present" in why:
        return "Your passkey did not confirm you were there. Press the button again and touch or unlock it when asked."
    if "sign count" in why:
        return (
            "This passkey's counter went backwards, which happens when a passkey has been copied, so it was refused. "
            "Sign in with another passkey and remove this one."
        )
    return "The town could not verify this passkey's answer. Nothing changed; press the button to start again."


BEGUN_TWICE = (
    "Another tab or window of this browser began the same request at the same moment. Nothing changed; press "
    "the button to start again."
)


def begin_ceremony(session: SessionBase, purpose: str, challenge: bytes | None = None, **fields: Any) -> Ceremony:
    now = timezone.now()
    # Ceremonies nobody finished are swept as new ones begin; a session keeps one per purpose, the
    # one begun last (its row, not the session's dict: hall/sessions.py).
    Ceremony.objects.filter(expires_at__lt=now).delete()
    bound = sessions.bound(session)
    for _ in range(3):  # two requests of one session beginning the same purpose at once: each tries again
        try:
            with transaction.atomic():
                Ceremony.objects.filter(session=bound, purpose=purpose).delete()
                return Ceremony.objects.create(
                    session=bound,
                    purpose=purpose,
                    challenge=challenge or secrets.token_bytes(32),
                    expires_at=now + timedelta(seconds=CEREMONY_SECONDS),
                    **fields,
                )
        except IntegrityError:
            continue  # another request of this session made its row in between: this one replaces it
    raise Refused(BEGUN_TWICE, status=409)


def waiting(session: SessionBase, purpose: str) -> Ceremony | None:
    """The session's `purpose` ceremony not yet answered, if any."""
    bound = sessions.bound_if_stored(session)
    return Ceremony.objects.filter(session=bound, purpose=purpose).first() if bound else None


def take_ceremony(session: SessionBase, purpose: str) -> Ceremony:
    """The session's ceremony for `purpose`, deleted now: its challenge is never accepted again."""
    ceremony = waiting(session, purpose)
    if ceremony is None:
        raise Refused(EXPIRED)
    # Of two requests racing with one ceremony, only the one whose DELETE removed the row goes on.
    deleted, _ = Ceremony.objects.filter(pk=ceremony.pk).delete()
    if not deleted or ceremony.expires_at <= timezone.now():
        raise Refused(EXPIRED)
    return ceremony


def _descriptors(passkeys: list[Passkey]) -> list[PublicKeyCredentialDescriptor]:
    known = {t.value for t in AuthenticatorTransport}
    return [
        PublicKeyCredentialDescriptor(
            id=base64url_to_bytes(p.credential_id),
            transports=[AuthenticatorTransport(t) for t in p.transports if t in known] or None,
        )
        for p in passkeys
    ]


def registration_options(ceremony: Ceremony, person: str, user_handle: str, exclude: list[Passkey]) -> dict[str, Any]:
    options = generate_registration_options(
        rp_id=settings.HALL_RP_ID,
        rp_name=settings.HALL_NAME,
        user_name=person,
        user_display_name=person,
        user_id=base64url_to_bytes(user_handle),
        challenge=bytes(ceremony.challenge),
        timeout=BROWSER_TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=_descriptors(exclude),
    )
    return _as_json(options_to_json(options))


def _as_json(text: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(text)
    return value


def _expected(ceremony: Ceremony) -> dict[str, Any]:
    """What every answer a passkey gives must match: this ceremony's challenge, the hall as relying
    party and origin, and the person's own check (a PIN, a fingerprint) made."""
    return {
        "expected_challenge": bytes(ceremony.challenge),
        "expected_rp_id": settings.HALL_RP_ID,
        "expected_origin": hall_origin(),
        "require_user_verification": True,
    }


def keep_passkey(ceremony: Ceremony, credential: Any, account: Account, name: str) -> Passkey:
    """Verify a registration answer and keep its passkey for `account` (inside a transaction)."""
    if not isinstance(credential, dict):
        raise Refused(NOT_AN_ANSWER)
    try:
        verified = verify_registration_response(credential=credential, **_expected(ceremony))
    except DatabaseError:
        raise
    except Exception as exc:
        # py_webauthn parses whatever the browser sent, and some answers break it in ways of its own
        # (an IndexError for a public key that is an empty CBOR array): each is a failed verification.
        raise Refused(explain(exc)) from exc
    credential_id = bytes_to_base64url(verified.credential_id)
    if Passkey.objects.filter(credential_id=credential_id).exists():
        raise Refused(TAKEN, status=409)
    response = credential.get("response")
    transports = response.get("transports") if isinstance(response, dict) else None
    try:
        with transaction.atomic():
            return Passkey.objects.create(
                account=account,
                credential_id=credential_id,
                public_key=verified.credential_public_key,
                sign_count=verified.sign_count,
                aaguid=str(verified.aaguid),
                transports=[str(t)[:16] for t in transports[:8]] if isinstance(transports, list) else [],
                backed_up=verified.credential_backed_up,
                name=name,
            )
    except IntegrityError as exc:
        raise Refused(TAKEN, status=409) from exc


def passkeys_of(account: Account) -> QuerySet[Passkey]:
    return Passkey.objects.filter(account=account).order_by("created_at", "pk")


# Sign up: a new account and its first passkey.


def begin_signup(session: SessionBase, name: str, invite_token: str | None = None) -> dict[str, Any]:
    """A new account's first passkey; on a town run by its owner, only with a live invite."""
    invite = invites.ready_invite(invite_token) if invite_token is not None else None
    invites.may_sign_up(invite)
    person = clean_words(name, "Your name", NAME_CHARS)
    ceremony = begin_ceremony(session, Ceremony.SIGN_UP, name=person, user_handle=new_user_handle(), invite=invite)
    return registration_options(ceremony, person, ceremony.user_handle, exclude=[])


def finish_signup(session: SessionBase, credential: Any) -> Account:
    ceremony = take_ceremony(session, Ceremony.SIGN_UP)
    # Asked again: the town may have been claimed since the ceremony began.
    invites.may_sign_up(ceremony.invite)
    with transaction.atomic():
        account = Account.objects.create_account(ceremony.name, user_handle=ceremony.user_handle)
        keep_passkey(ceremony, credential, account, "Your first passkey")
        if ceremony.invite is not None:
            # Spent with the account, or neither is kept.
            invites.spend_invite(ceremony.invite, account)
    return account


# Sign in: any passkey of any account (a discoverable credential), verified.


def begin_signin(session: SessionBase) -> dict[str, Any]:
    ceremony = begin_ceremony(session, Ceremony.SIGN_IN)
    options = generate_authentication_options(
        rp_id=settings.HALL_RP_ID,
        challenge=bytes(ceremony.challenge),
        timeout=BROWSER_TIMEOUT_MS,
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    return _as_json(options_to_json(options))


def finish_signin(session: SessionBase, credential: Any) -> Account:
    ceremony = take_ceremony(session, Ceremony.SIGN_IN)
    return verify_assertion(ceremony, credential).account


def verify_assertion(ceremony: Ceremony, credential: Any) -> Passkey:
    """Check a passkey's answer to `ceremony` (any passkey, or the ceremony account's own) and count its
    use. A refusal here is a failed passkey: the hall counts it against the caller's address."""
    try:
        return _check_assertion(ceremony, credential)
    except Refused as refused:
        refused.failure = True
        raise


def _check_assertion(ceremony: Ceremony, credential: Any) -> Passkey:
    if not isinstance(credential, dict) or not isinstance(credential.get("id"), str):
        raise Refused(NOT_AN_ANSWER)
    if not CREDENTIAL_ID.fullmatch(credential["id"]):
        raise Refused(UNKNOWN_PASSKEY)
    passkey = Passkey.objects.select_related("account").filter(credential_id=credential["id"]).first()
    if passkey is None or not passkey.account.is_active:
        raise Refused(UNKNOWN_PASSKEY)
    if ceremony.account_id is not None and passkey.account_id != ceremony.account_id:
        raise Refused(NOT_YOURS)
    response = credential.get("response")
    user_handle = response.get("userHandle") if isinstance(response, dict) else None
    if user_handle and not _same_bytes(user_handle, passkey.account.user_handle):
        raise Refused(UNKNOWN_PASSKEY)
    try:
        verified = verify_authentication_response(
            credential=credential,
            credential_public_key=bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
            **_expected(ceremony),
        )
    except DatabaseError:
        raise
    except Exception as exc:
        # As in keep_passkey: however py_webauthn fails on an answer, the answer did not verify.
        raise Refused(explain(exc)) from exc
    # Raised only from the count this answer was checked against: of two answers from one
    # passkey racing, one counts.
    counted = Passkey.objects.filter(pk=passkey.pk, sign_count=passkey.sign_count).update(
        sign_count=verified.new_sign_count, last_used_at=timezone.now(), backed_up=verified.credential_backed_up
    )
    if not counted:
        raise Refused(explain(ValueError("sign count")))
    return passkey


def _same_bytes(a: str, b: str) -> bool:
    try:
        return secrets.compare_digest(base64url_to_bytes(a), base64url_to_bytes(b))
    except (ValueError, TypeError):
        return False


# Claim the town: the first passkey registered through the owner's one-time link.


def begin_claim(session: SessionBase, code: str, name: str) -> dict[str, Any]:
    """A new account and its first passkey, made the owner. A person signed in claims with the account
    they have, confirmed with one of its passkeys, and no passkey is added (passkey_changes.begin_claim)."""
    claim, state = find_claim(code)
    if claim is None or state != "ready":
        raise Refused(CLAIM_SAYS[state], status=409 if state != "unknown" else 404)
    person = clean_words(name, "Your name", NAME_CHARS)
    handle = new_user_handle()
    ceremony = begin_ceremony(session, Ceremony.CLAIM, claim=claim, name=person, user_handle=handle)
    return registration_options(ceremony, person, handle, exclude=[])


def finish_claim(session: SessionBase, credential: Any) -> Account:
    ceremony = take_ceremony(session, Ceremony.CLAIM)
    if ceremony.claim is None or ceremony.account_id is not None:
        raise Refused(EXPIRED)
    with transaction.atomic():
        owner = Account.objects.create_account(ceremony.name, user_handle=ceremony.user_handle)
        keep_passkey(ceremony, credential, owner, "Your first passkey")
        use_claim(ceremony.claim, owner)
    return owner


# Approve a statement: the challenge is SHA-256(statement) followed by 16 random bytes, so the
# passkey's signature commits to exactly the words the person was shown (transaction confirmation).


@dataclass(frozen=True)
class Approval:
    passkey: Passkey
    statement: str
    # The passkey's answer, kept so the approval can be checked later with its public key alone.
    assertion: dict[str, Any]
    # What the page showed when the passkey was asked for (hall/decide.py), kept with the ceremony.
    begun: dict[str, Any]


def begin_approval(
    session: SessionBase, statement: str, account: Account | None, begun: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Ask for a passkey that approves `statement`: the signed-in account's own, or (signed out) any
    passkey of this town, whose account is then the one approving. `begun` is kept for the answer."""
    return begin_over(session, Ceremony.APPROVE, statement, account, begun=begun or {})


def finish_approval(session: SessionBase, credential: Any, account: Account | None) -> Approval:
    ceremony = take_over(session, Ceremony.APPROVE, account)
    passkey = verify_assertion(ceremony, credential)
    response = credential.get("response") if isinstance(credential, dict) else None
    kept = {k: response.get(k) for k in ("clientDataJSON", "authenticatorData", "signature")} if response else {}
    assertion = {"id": credential["id"], **kept}
    return Approval(passkey=passkey, statement=ceremony.statement, assertion=assertion, begun=ceremony.begun)


def begin_over(
    session: SessionBase, purpose: str, statement: str, account: Account | None, **fields: Any
) -> dict[str, Any]:
    """A `purpose` ceremony whose answer commits to `statement` (an approval, a confirmation), by a passkey
    of `account`'s (or, with None, any of the town's); `fields` are kept on it (a claim, what was shown)."""
    challenge = hashlib.sha256(statement.encode()).digest() + secrets.token_bytes(16)
    ceremony = begin_ceremony(session, purpose, challenge=challenge, account=account, statement=statement, **fields)
    options = generate_authentication_options(
        rp_id=settings.HALL_RP_ID,
        challenge=bytes(ceremony.challenge),
        timeout=BROWSER_TIMEOUT_MS,
        allow_credentials=_descriptors(list(passkeys_of(account))) if account is not None else None,
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    return _as_json(options_to_json(options))


def take_over(session: SessionBase, purpose: str, account: Account | None) -> Ceremony:
    """The session's `purpose` ceremony begun by begin_over for `account`, spent now (verify the answer
    with verify_assertion)."""
    ceremony = take_ceremony(session, purpose)
    if ceremony.account_id is not None and (account is None or ceremony.account_id != account.pk):
        raise Refused(EXPIRED)
    if bytes(ceremony.challenge)[:32] != hashlib.sha256(ceremony.statement.encode()).digest():
        raise Refused(EXPIRED)
    return ceremony
