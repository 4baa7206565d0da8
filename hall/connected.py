"""The clients a person has connected to their account (at most 8 per account, spec 001 "Clients"):
the list the hall shows, the room for one more, and revoking one, which ends its codes, tokens and
its agent's MCP sessions at once."""

import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_grant_model, get_refresh_token_model

from clockford.town import words
from clockford.town.models import McpSession, Passport, locked
from hall.http import Refused
from hall.models import Account, Client, Connection


def limit() -> int:
    return int(settings.CLOCKFORD["CLIENTS_PER_ACCOUNT"])


def too_many_clients() -> str:
    return (
        f"This account already has {limit()} clients in town. Revoke one you no longer use under "
        "Clients in the hall, or reuse a client already connected, then try again."
    )


def live_connections(account: Account) -> Any:
    return Connection.objects.filter(account=account, revoked_at__isnull=True)


def room_for(account: Account, client: Client) -> bool:
    if live_connections(account).filter(client=client).exists():
        return True
    return live_connections(account).count() < limit()


@dataclass(frozen=True)
class Connected:
    connection: Connection
    passport: Passport | None


def clients_of(account: Account) -> list[Connected]:
    connections = list(live_connections(account).select_related("client").order_by("-approved_at", "pk"))
    passports = {
        p.client_id: p for p in Passport.objects.filter(account=account, client__in=[c.client for c in connections])
    }
    return [Connected(c, passports.get(c.client_id)) for c in connections]


def revoke(account: Account, connection_id: int) -> Connection:
    """Disconnect a client: its codes and tokens end now, and its agent's MCP sessions with them."""
    with transaction.atomic():
        connection = (
            locked(Connection.objects.select_related("client"))
            .filter(pk=connection_id, account=account, revoked_at__isnull=True)
            .first()
        )
        if connection is None:
            raise Refused("No client connected to your account has that number.", status=404)
        connection.revoked_at = timezone.now()
        connection.save(update_fields=["revoked_at"])
        revoke_tokens(account, connection.client)
    return connection


def revoke_tokens(account: Account, client: Client) -> None:
    """End every code and token of one account and client, and its agent's open MCP sessions."""
    now = timezone.now()
    with transaction.atomic():
        mine = Q(user=account, application=client)
        get_grant_model().objects.filter(mine).delete()
        get_refresh_token_model().objects.filter(mine, revoked__isnull=True).update(revoked=now)
        get_access_token_model().objects.filter(mine).delete()
        McpSession.objects.filter(passport__account=account, passport__client=client, ended_at__isnull=True).update(
            ended_at=now
        )


def clients_count(account: Account) -> int:
    return int(live_connections(account).aggregate(n=Count("pk"))["n"])


def shown_name(client: Client) -> str:
    """A client's own name as the hall shows it: the words it registered, hidden characters made visible."""
    return words.visible(unicodedata.normalize("NFC", client.display_name))
