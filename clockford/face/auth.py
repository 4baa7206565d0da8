"""Bearer tokens on /mcp, for a town with sign-in: the Authorization header, then the hall's word on
the token (hall/tokens.py), then the passport.

`read` needs no database: it takes the header apart and asks `tokens.verify` for the checks of RFC
9068 section 4, with this town's /mcp URL as the audience. `admit` then has `tokens.admit` find the
token's record, so a token revoked in the hall (or by the client) stops at once, and returns the
passport of the token's (account, client): the same one every time that pair comes back.

Refusals carry spec 001's bodies and a WWW-Authenticate header naming the protected-resource metadata.
"""

from dataclasses import dataclass

from django.conf import settings

from clockford.face import sessions
from clockford.town.models import Passport
from hall import tokens

SIGN_IN = "Sign in to enter the town."
NO_SCOPE = "This token cannot enter the town."
REQUIRED = "A bearer token is required."

# A token whose signature and claims were checked; its record not yet.
Bearer = tokens.Token


@dataclass(frozen=True)
class Refusal:
    status: int
    body: str
    challenge: str


@dataclass(frozen=True)
class Principal:
    """Whom a token names: an account and one of its connected clients (its pk and how to call it),
    and their passport once there is one."""

    account_id: int
    client_pk: int
    client_label: str
    passport: Passport | None

    @property
    def passport_id(self) -> str | None:
        return self.passport.id if self.passport is not None else None


def audience() -> str:
    """What every token for /mcp must name as its audience: this town's /mcp URL."""
    return str(settings.MCP_RESOURCE_URL)


def resource_metadata_url() -> str:
    return f"{settings.TOWN_URL}/.well-known/oauth-protected-resource/mcp"


def _challenge(error: str | None = None, description: str | None = None) -> str:
    parts = []
    if error:
        parts.append(f'error="{error}"')
    if description:
        parts.append(f'error_description="{description}"')
    parts += [f'resource_metadata="{resource_metadata_url()}"', f'scope="{tokens.SCOPE}"']
    return "Bearer " + ", ".join(parts)


def _refused(why: tokens.Refused) -> Refusal:
    if why.error == tokens.INSUFFICIENT_SCOPE:
        return Refusal(403, NO_SCOPE, _challenge(why.error, why.description))
    return Refusal(401, SIGN_IN, _challenge(why.error, why.description))


def read(authorization: str | None) -> Bearer | Refusal:
    if not authorization or not authorization.strip():
        return Refusal(401, SIGN_IN, _challenge())
    scheme, _, raw = authorization.strip().partition(" ")
    raw = raw.strip()
    if scheme.lower() != "bearer" or not raw or " " in raw:
        return Refusal(401, SIGN_IN, _challenge(tokens.INVALID, REQUIRED))
    verified = tokens.verify(raw, audience())
    return _refused(verified) if isinstance(verified, tokens.Refused) else verified


def admit(bearer: Bearer) -> Principal | Refusal:
    """The token's record, and the passport of its (account, client) if that pair has one yet. One
    plain statement, because it runs before every signed-in request."""
    held = tokens.admit(bearer, audience(), sessions.PASSPORT_FIELDS)
    if isinstance(held, tokens.Refused):
        return _refused(held)
    return Principal(
        account_id=held.account_id,
        client_pk=held.client_pk,
        client_label=held.client_label,
        passport=sessions.passport_from_row(held.passport_row) if held.passport_row is not None else None,
    )


def passport(principal: Principal) -> Passport:
    """The passport of the principal's (account, client), made the first time the pair enters."""
    if principal.passport is not None:
        return principal.passport
    return sessions.passport_for(principal.account_id, principal.client_pk, principal.client_label)


def admit_with_passport(bearer: Bearer) -> tuple[Refusal | None, Passport | None]:
    admitted = admit(bearer)
    if isinstance(admitted, Refusal):
        return admitted, None
    return None, passport(admitted)
