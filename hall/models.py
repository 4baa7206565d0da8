"""The hall's records: people (accounts), their passkeys, passkey ceremonies in flight, and the
owner's one-time claim.

An Account is the person. When sign-in opens on /mcp, an agent's passport will belong to an
(account, client) pair; on a town without sign-in, the one owner decides for every passport.
"""

import secrets

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.db import models
from django.db.models import Q

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


class Account(AbstractBaseUser):
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


class Ceremony(models.Model):
    """A passkey ceremony in flight: the challenge the browser was given, kept here and nowhere
    else, deleted the moment an answer arrives (right or wrong), refused after it expires."""

    SIGN_UP = "signup"
    SIGN_IN = "signin"
    ADD = "add"
    CLAIM = "claim"
    PURPOSES = [(SIGN_UP, "sign up"), (SIGN_IN, "sign in"), (ADD, "add a passkey"), (CLAIM, "claim the town")]

    id = models.CharField(primary_key=True, max_length=40, default=new_ceremony_id)
    purpose = models.CharField(max_length=8, choices=PURPOSES)
    challenge = models.BinaryField()
    account = models.ForeignKey(Account, null=True, blank=True, on_delete=models.CASCADE)
    claim = models.ForeignKey("Claim", null=True, blank=True, on_delete=models.CASCADE)
    # The person's name (sign up, claim) or the new passkey's name (add).
    name = models.CharField(max_length=60, blank=True, default="")
    # WebAuthn's user.id the authenticator was given, for an account that does not exist yet.
    user_handle = models.CharField(max_length=64, blank=True, default="")
    expires_at = models.DateTimeField(db_index=True)

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
