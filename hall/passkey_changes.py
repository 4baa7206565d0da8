"""Changes to a signed-in account's passkeys: adding one, and removing one (never the last).

Being signed in is not enough for either (ASVS 5.0 V7.5.1): a session cookie copied into another
browser would otherwise add its holder's passkey and remove the owner's. So an account that has a
passkey first confirms the change with one of its own, user-verified, in a ceremony of its own
purpose ("confirm") whose challenge begins with the SHA-256 of what it confirms ("add a passkey",
"remove passkey 12"). Its answer is taken once, only for that change: an answer to a sign-in, a
decision or another change is refused, and so is the same answer twice (told it was already used).
An account's first passkey (its sign-up, the claim by a person signed out) needs none.

The owner's claim link opened by a person already signed in makes their account the owner, confirmed
the same way ("claim the town"), and adds no passkey: the link must not be a way round the confirmation.
"""

import json
from collections.abc import Callable
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

from clockford.town.models import locked
from hall import passkeys, push, sessions
from hall.claim import CLAIM_SAYS, find_claim, use_claim
from hall.http import Refused
from hall.models import Account, Ceremony, Claim, Passkey
from hall.town import clean_words

ADD_NEEDS = (
    "Adding a passkey to your account needs a passkey you already have: confirm with one of yours when your "
    "device asks, so that nobody who only borrowed this browser can add their own. Nothing changed."
)
REMOVE_NEEDS = (
    "Removing a passkey needs a passkey you already have: confirm with one of yours when your device asks, "
    "so that nobody who only borrowed this browser can lock you out. Nothing changed."
)
CONFIRMED_ELSEWHERE = (
    "This passkey answer confirmed something else, not this, so it was refused. Nothing changed; press the "
    "button to start again."
)
CLAIM_NEEDS = (
    "Claiming the town for the account signed in here needs one of its passkeys: confirm with one of yours when "
    "your device asks. Nothing changed."
)
CLAIM_NO_PASSKEY = (
    "This account has no passkey to confirm the claim with. Sign out first, and open the link again to claim the "
    "town with a new account."
)
NOT_YOURS = "That passkey is not one of yours."
THE_LAST = "This is your only passkey, so it stays: without it you could not sign in. Add another passkey first."
ADD_A_PASSKEY = "add a passkey"


def removing(passkey_id: int) -> str:
    """What a person confirms to remove one of their passkeys (by its number in the town)."""
    return f"remove passkey {passkey_id}"


def claiming(claim_id: int) -> str:
    """What a person signed in confirms to make their account the owner with one claim link."""
    return f"claim the town with claim {claim_id}"


def _statement(account: Account, what: str) -> str:
    return json.dumps({"account": account.user_handle, "confirm": what}, sort_keys=True, separators=(",", ":"))


# A session keeps one ceremony of each purpose: a confirmation begun in a second tab replaces the
# first's, and each is answered once. An answer to one this session replaced or already spent (a
# second press, another tab) was taken as an answer to the one waiting: it spent that one too, and was
# told to confirm with a passkey, which the person had just done. The session remembers the challenges
# it replaced and spent, so such an answer is told what became of its request, and the one waiting is left
# for its own answer (the later tab's). Nothing is accepted for it: an answer still spends only the
# ceremony whose challenge it signed. The lists (the last few of each) are added to by sessions.change,
# so two tabs' requests at once each add theirs rather than one's copy overwriting the other's.
_SEEN = "hall.changes.{}"
_REMEMBERED = 8


def _remember(session: SessionBase, which: str, ceremony: Ceremony) -> None:
    """Add `ceremony`'s challenge to what the session spent or replaced ("spent", "replaced") of its purpose."""
    challenge = bytes_to_base64url(bytes(ceremony.challenge))

    def add(seen: Any) -> dict[str, list[str]]:
        kept = {k: list(seen.get(k) or []) if isinstance(seen, dict) else [] for k in ("spent", "replaced")}
        kept[which] = (kept[which] + [challenge])[-_REMEMBERED:]
        return kept

    sessions.change(session, _SEEN.format(ceremony.purpose), add)


def _begin(session: SessionBase, purpose: str, begin: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """begin() a `purpose` ceremony, remembering the one it replaces."""
    replacing = passkeys.waiting(session, purpose)
    options = begin()
    if replacing is not None:
        _remember(session, "replaced", replacing)
    return options


def _challenge_of(credential: Any) -> str | None:
    """The challenge an answer says it signed (its clientDataJSON's), unverified: it only tells which of
    the session's requests the answer is for."""
    try:
        challenge = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))["challenge"]
    except (KeyError, TypeError, ValueError):
        return None
    return challenge if isinstance(challenge, str) else None


def _answering(session: SessionBase, purpose: str, credential: Any, said: tuple[str, str]) -> None:
    """Refuse, in `said`'s words (already used, replaced), an answer to a `purpose` request this session
    spent or replaced, leaving the one waiting alone."""
    challenge = _challenge_of(credential)
    if challenge is None:
        return
    waiting = passkeys.waiting(session, purpose)
    if waiting is not None and bytes_to_base64url(bytes(waiting.challenge)) == challenge:
        return
    # As stored now: another tab's request may have spent one since this request read its session.
    seen = sessions.stored(session, _SEEN.format(purpose))
    seen = seen if isinstance(seen, dict) else {}
    if challenge in (seen.get("spent") or []):
        raise Refused(said[0], status=409)
    if challenge in (seen.get("replaced") or []):
        raise Refused(said[1], status=409)


CONFIRMATION_SAID = (
    "That confirmation was already used (a second press, or another tab or window), and a confirmation counts "
    "once. Nothing more changed; reload the page to see where things stand.",
    "This confirmation was replaced by a newer one, begun in another tab or window: finish there, or press the "
    "button to start again here. Nothing changed.",
)
NEW_PASSKEY_SAID = (
    "That new passkey's answer was already sent (a second press, or another tab or window), and it counts "
    "once. Nothing more changed; reload the page to see your passkeys as they are.",
    "This new passkey's request was replaced by a newer one, begun in another tab or window: finish there, or "
    "press the button to start again here. Nothing changed.",
)


def begin_confirm(session: SessionBase, account: Account, what: str, claim: Claim | None = None) -> dict[str, Any]:
    """Ask for one of the account's own passkeys, user-verified, to confirm `what` (ADD_A_PASSKEY,
    removing(id), claiming(id), whose claim the ceremony keeps)."""
    statement = _statement(account, what)
    return _begin(
        session,
        Ceremony.CONFIRM,
        lambda: passkeys.begin_over(session, Ceremony.CONFIRM, statement, account, claim=claim),
    )


def finish_confirm(session: SessionBase, account: Account, what: str, credential: Any, needs: str) -> Passkey:
    """The passkey that confirmed `what` for `account`, the confirmation spent. Without an answer the
    change is refused in `needs`' words; an answer with no confirmation waiting, in words that say why."""
    if credential is None:
        raise Refused(needs, status=403)
    _answering(session, Ceremony.CONFIRM, credential, CONFIRMATION_SAID)
    ceremony = passkeys.take_over(session, Ceremony.CONFIRM, account)
    _remember(session, "spent", ceremony)
    if ceremony.account_id != account.pk:
        raise Refused(passkeys.EXPIRED)
    if ceremony.statement != _statement(account, what):
        raise Refused(CONFIRMED_ELSEWHERE, status=403)
    return passkeys.verify_assertion(ceremony, credential)


# Add a passkey: confirmed first, unless it is the account's first.


def _new_passkey(account: Account, name: str) -> tuple[list[Passkey], str]:
    """The account's passkeys, and the name a new one would take: refused, before any passkey is asked
    for, when the account keeps as many as it may or the name is not one."""
    mine = list(passkeys.passkeys_of(account))
    if len(mine) >= passkeys.PASSKEYS_PER_ACCOUNT:
        raise Refused(f"An account keeps at most {passkeys.PASSKEYS_PER_ACCOUNT} passkeys. Remove one first.", 409)
    if not name.strip():
        return mine, f"Passkey {len(mine) + 1}"
    return mine, clean_words(name, "A passkey's name", passkeys.PASSKEY_NAME_CHARS)


def begin_add_confirm(session: SessionBase, account: Account, name: str) -> dict[str, Any]:
    """Before a passkey is added to an account that has one: ask for one of those it has."""
    _new_passkey(account, name)
    return begin_confirm(session, account, ADD_A_PASSKEY)


def begin_add(session: SessionBase, account: Account, name: str, confirmation: Any) -> dict[str, Any]:
    """The new passkey's options, once `confirmation` (the answer to begin_add_confirm's request)
    verified; an account's first passkey needs none."""
    mine, label = _new_passkey(account, name)
    if mine:
        finish_confirm(session, account, ADD_A_PASSKEY, confirmation, ADD_NEEDS)

    def begin() -> dict[str, Any]:
        ceremony = passkeys.begin_ceremony(session, Ceremony.ADD, account=account, name=label)
        # Naming the passkeys the account has lets the browser refuse to make a second one on the
        # same device, before the person is asked for anything.
        return passkeys.registration_options(ceremony, account.name, account.user_handle, exclude=mine)

    return _begin(session, Ceremony.ADD, begin)


def finish_add(session: SessionBase, account: Account, credential: Any) -> Passkey:
    _answering(session, Ceremony.ADD, credential, NEW_PASSKEY_SAID)
    ceremony = passkeys.take_ceremony(session, Ceremony.ADD)
    _remember(session, "spent", ceremony)
    if ceremony.account_id != account.pk:
        raise Refused(passkeys.EXPIRED)
    return passkeys.keep_passkey(ceremony, credential, account, ceremony.name)


# Remove a passkey: confirmed first, and never the last.


def _removable(keys: list[Passkey], passkey_id: int) -> Passkey:
    """The passkey of `keys` (all of an account's) that may go: refused when it is none of them, or the last."""
    target = next((k for k in keys if k.pk == passkey_id), None)
    if target is None:
        raise Refused(NOT_YOURS, status=404)
    if len(keys) == 1:
        raise Refused(THE_LAST, status=409)
    return target


def begin_remove(session: SessionBase, account: Account, passkey_id: int) -> dict[str, Any]:
    """Removing a passkey asks for one the account has (any of them, this one too), once it is known to
    be one that may go."""
    _removable(list(passkeys.passkeys_of(account)), passkey_id)
    return begin_confirm(session, account, removing(passkey_id))


def do_remove_passkey(session: SessionBase, account: Account, passkey_id: int, credential: Any) -> tuple[str, int]:
    """Remove one of the account's passkeys once `credential` confirmed it, never the last; returns its name
    and how many devices had notifications on (turned off: push.do_forget_devices)."""
    # The passkey's answer first: the confirmation is spent whatever happens next.
    finish_confirm(session, account, removing(passkey_id), credential, REMOVE_NEEDS)
    with transaction.atomic():
        # Locking every passkey of the account makes two removals take turns, so two tabs
        # cannot each remove one of the last two.
        target = _removable(list(locked(Passkey.objects.filter(account=account))), passkey_id)
        target.delete()
        # Every browser signed in to the account is signed out, as Django signs sessions out when a
        # password changes: a session's hash of the account is made from the password column, which a
        # passkey-only account keeps unusable, and a new unusable one changes that hash. A browser
        # signed in with the removed passkey (a lost phone) must not stay in. The page that removed it
        # keeps its own session (passkey_pages.remove_finish).
        account.set_unusable_password()
        account.save(update_fields=["password"])
        # Notifications belong to the account, not to a sign-in: a device signed out here would go on
        # being told what waits. Every device's are turned off; the person turns them on again, signed in.
        return target.name, push.do_forget_devices(account)


# Claim the town for the account signed in: confirmed with one of its passkeys; no passkey is added.


def begin_claim(session: SessionBase, account: Account, code: str) -> dict[str, Any]:
    claim, state = find_claim(code)
    if claim is None or state != "ready":
        raise Refused(CLAIM_SAYS[state], status=409 if state != "unknown" else 404)
    if not passkeys.passkeys_of(account).exists():
        raise Refused(CLAIM_NO_PASSKEY, status=409)
    # The confirmation names its claim, and its ceremony keeps which, for the answer.
    return begin_confirm(session, account, claiming(claim.pk), claim=claim)


def finish_claim(session: SessionBase, account: Account, credential: Any) -> Account:
    """Make `account` the owner with the claim begin_claim named, once `credential` confirmed it."""
    waiting = passkeys.waiting(session, Ceremony.CONFIRM)
    claim_id = (waiting.claim_id if waiting is not None else None) or 0
    # Spent only if the ceremony taken is the one read here: its statement names this claim.
    finish_confirm(session, account, claiming(claim_id), credential, CLAIM_NEEDS)
    claim = Claim.objects.filter(pk=claim_id).first()
    if claim is None:
        raise Refused(passkeys.EXPIRED)
    with transaction.atomic():
        use_claim(claim, account)
    return account
