"""The hall's records: people (accounts), their passkeys, their browsers' sessions, passkey ceremonies in
flight, the owner's one-time claim, the invites of a town run by its owner, and the OAuth clients people connect
to their accounts.

An Account is the person. Signed in, an agent's passport belongs to an (account, client) pair; on a
town without sign-in, the one owner decides for every passport.
"""

import ipaddress
import secrets
from datetime import datetime
from typing import ClassVar
from urllib.parse import urlsplit

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from oauth2_provider.models import AbstractApplication

from clockford.town.models import new_id


def new_account_handle() -> str:
    return new_id("AC-", 10)


def new_user_handle() -> str:
    """WebAuthn's user.id: random bytes that say nothing about the person (base64url)."""
    return secrets.token_urlsafe(32)


class AccountManager(BaseUserManager["Account"]):
    def create_account(
        self, name: str, *, user_handle: str = "", is_owner: bool = False, is_staff: bool = False
    ) -> "Account":
        account = self.model(
            name=name, user_handle=user_handle or new_user_handle(), is_owner=is_owner, is_staff=is_staff
        )
        # Passkeys only: the password column Django's base class carries can never match.
        account.set_unusable_password()
        account.save()
        return account


class Account(AbstractBaseUser):  # type: ignore[django-manager-missing]  # DOT names it "%(app_label)s_%(class)s"
    """A person. Signs in with passkeys only; `is_staff` opens the staff docket."""

    handle = models.CharField(max_length=16, unique=True, default=new_account_handle)
    name = models.CharField(max_length=40)
    user_handle = models.CharField(max_length=64, unique=True, default=new_user_handle)
    is_staff = models.BooleanField(default=False)
    # The owner of a town without sign-in: the person who claimed the hall with the link
    # ./town up printed. At most one, which the database enforces.
    is_owner = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    USERNAME_FIELD = "handle"
    REQUIRED_FIELDS = ["name"]

    objects = AccountManager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["is_owner"], condition=Q(is_owner=True), name="hall_one_owner")]

    def __str__(self) -> str:
        return f"{self.name} ({self.handle})"


class Passkey(models.Model):
    """One WebAuthn credential of an account: the public half only."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="passkeys")
    # base64url of the credential id (at most 1023 bytes by the WebAuthn spec)
    credential_id = models.CharField(max_length=1400, unique=True)
    public_key = models.BinaryField()
    sign_count = models.BigIntegerField(default=0)
    aaguid = models.CharField(max_length=36, blank=True, default="")
    transports = models.JSONField(default=list)
    backed_up = models.BooleanField(default=False)
    name = models.CharField(max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.name


def new_ceremony_id() -> str:
    return secrets.token_urlsafe(24)


class BrowserSession(AbstractBaseSession):
    """A browser's session of the hall (hall/sessions.py, Django's SESSION_ENGINE): kept under the
    SHA-256 (hex) of its key, never the key, which the browser's cookie holds and which is the
    signed-in person's credential; the database and its backups hold a digest, which opens nothing.
    Not Django's own table, whose key column is too short for a digest."""

    session_key = models.CharField(max_length=64, primary_key=True)
    # Not Django's session manager, whose save() would keep the key it is given as it is: rows are
    # written by the store alone.
    objects: ClassVar[models.Manager["BrowserSession"]] = models.Manager()  # type: ignore[assignment]

    def __str__(self) -> str:
        return self.session_key[:12]

    @classmethod
    def get_session_store_class(cls) -> type[SessionBase]:
        from hall.sessions import SessionStore  # hall.sessions imports this module

        return SessionStore


class Ceremony(models.Model):
    """A passkey ceremony in flight: the challenge the browser was given, kept here and nowhere
    else, deleted the moment an answer arrives (right or wrong), refused after it expires. It belongs
    to the browser session that began it, one per purpose, and is found by (session, purpose): never
    named in the session itself, which two requests of one session at once would each save whole, the
    later one losing what the earlier began (hall/sessions.py)."""

    SIGN_UP = "signup"
    SIGN_IN = "signin"
    ADD = "add"
    CLAIM = "claim"
    APPROVE = "approve"
    CONFIRM = "confirm"
    PURPOSES = [
        (SIGN_UP, "sign up"),
        (SIGN_IN, "sign in"),
        (ADD, "add a passkey"),
        (CLAIM, "claim the town"),
        (APPROVE, "approve a statement"),
        (CONFIRM, "confirm a change to the account's passkeys"),
    ]

    id = models.CharField(primary_key=True, max_length=40, default=new_ceremony_id)
    # The SHA-256 (hex) of the key of the session that began it, the key its BrowserSession is kept
    # under: the key itself, a sign-in's secret, is kept nowhere.
    session = models.CharField(max_length=64, default="")
    purpose = models.CharField(max_length=8, choices=PURPOSES)
    challenge = models.BinaryField()
    account = models.ForeignKey(Account, null=True, blank=True, on_delete=models.CASCADE)
    claim = models.ForeignKey("Claim", null=True, blank=True, on_delete=models.CASCADE)
    # A sign-up through an invite (hall/invites.py): spent when the account is made.
    invite = models.ForeignKey("Invite", null=True, blank=True, on_delete=models.CASCADE)
    # The person's name (sign up, claim) or the new passkey's name (add).
    name = models.CharField(max_length=60, blank=True, default="")
    # WebAuthn's user.id the authenticator was given, for an account that does not exist yet.
    user_handle = models.CharField(max_length=64, blank=True, default="")
    # What an approval decides, or what a confirmation allows (adding a passkey, removing one), as
    # canonical JSON: the challenge begins with its SHA-256, so the passkey's signature commits to
    # exactly these words.
    statement = models.TextField(blank=True, default="")
    # What the page showed when an approval was asked for (hall/decide.py): the decision, the words'
    # digest, the thing it is about; read back with the answer.
    begun = models.JSONField(blank=True, default=dict)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session", "purpose"], condition=~Q(session=""), name="hall_one_ceremony_per_purpose"
            )
        ]

    def __str__(self) -> str:
        return f"{self.purpose} until {self.expires_at:%H:%M:%S}"


class Claim(models.Model):
    """A one-time link that makes its first passkey the town's owner. Only the code's SHA-256 is
    kept, so the database alone cannot be used to claim the town."""

    code_digest = models.CharField(max_length=64, unique=True)
    made_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    # Each ./town up prints a fresh link while the town has no owner; the older ones stop working.
    replaced_at = models.DateTimeField(null=True, blank=True)
    account = models.ForeignKey(Account, null=True, blank=True, on_delete=models.SET_NULL)

    def __str__(self) -> str:
        return f"claim made {self.made_at:%Y-%m-%d %H:%M}"

    @property
    def state(self) -> str:
        if self.used_at:
            return "used"
        if self.replaced_at:
            return "replaced"
        return "ready"


class Invite(models.Model):
    """A single-use link with which a stranger makes an account on a town run by its owner (hall/invites.py).
    Made by the owner or staff, it works once, until it expires or its maker's side revokes it. Only the
    token's SHA-256 is kept: the link is shown once, to the person who made it."""

    token_digest = models.CharField(max_length=64, unique=True)
    made_by = models.ForeignKey(Account, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(db_index=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(Account, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(Account, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    def __str__(self) -> str:
        return f"invite made {self.made_at:%Y-%m-%d %H:%M}"

    def state_at(self, now: datetime) -> str:
        """used, revoked, expired or ready."""
        if self.used_at:
            return "used"
        if self.revoked_at:
            return "revoked"
        if self.expires_at <= now:
            return "expired"
        return "ready"


LOOPBACK_NAMES = {"localhost"}


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Client(AbstractApplication):
    """An OAuth client: one agent app, registered anonymously (Dynamic Client Registration) or known
    by the URL of its metadata document (CIMD). It belongs to nobody: people connect it to their
    accounts (Connection), and each connection is what makes (account, client) a passport."""

    # The address a dynamic registration came from, for its per-address limit.
    registered_from = models.CharField(max_length=64, blank=True, default="", db_index=True)

    class Meta(AbstractApplication.Meta):
        swappable = "OAUTH2_PROVIDER_APPLICATION_MODEL"

    def get_allowed_schemes(self) -> list[str]:
        # Native apps receive their code on a loopback port over plain http (RFC 8252 section 7.3);
        # clean() allows http for loopback hosts only.
        return ["https", "http"]

    def clean(self) -> None:
        super().clean()
        for uri in self.redirect_uris.split():
            parts = urlsplit(uri)
            if parts.scheme == "http" and not is_loopback(parts.hostname or ""):
                raise ValidationError(
                    {"redirect_uris": f"{uri}: plain http is allowed only for this machine's own addresses."}
                )

    @property
    def display_name(self) -> str:
        return self.name or "An unnamed client"


class Connection(models.Model):
    """A person's consent, signed with a passkey, that a client may enter the town as their agent.
    An account keeps at most CLIENTS_PER_ACCOUNT live ones; revoking one ends its tokens."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="connections")
    client = models.ForeignKey(Client, on_delete=models.CASCADE, related_name="connections")
    redirect_host = models.CharField(max_length=255)
    approved_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The statement the passkey signed and its answer (authenticator data, client data, signature),
    # so the approval can be checked later with the passkey's public key alone.
    statement = models.TextField()
    assertion = models.JSONField(default=dict)
    passkey = models.ForeignKey(Passkey, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account", "client"], name="hall_one_connection_per_client")]

    def __str__(self) -> str:
        return f"{self.account_id} -> {self.client_id}"


class SpentCode(models.Model):
    """An authorization code already redeemed (its SHA-256 only): presented again, it was stolen or
    replayed, and every token of its account and client is revoked (RFC 6749 section 4.1.2)."""

    digest = models.CharField(max_length=64, unique=True)
    account = models.ForeignKey(Account, on_delete=models.CASCADE)
    client = models.ForeignKey(Client, on_delete=models.CASCADE)
    at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.digest[:12]


class PushSubscription(models.Model):
    """One device of a person that gets a Web Push notification when something new waits for them
    (hall/push.py): the push service's endpoint and the browser's keys (RFC 8291). Removed when the
    push service says it is gone (404 or 410), when it expires, or when the person turns it off."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    device = models.CharField(max_length=80, blank=True, default="")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.account_id} {self.device}"


class PushSent(models.Model):
    """An item that waits for a person, once it was notified: each one is sent once, whichever of the
    town's processes saw it first."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    item = models.CharField(max_length=40)
    at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account", "kind", "item"], name="hall_push_once")]

    def __str__(self) -> str:
        return f"{self.kind} {self.item}"
