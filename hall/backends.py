"""The hall signs people in with passkeys only (hall/passkeys.py verifies them); this backend
only finds the signed-in account again on each request. It never checks a password."""

from typing import Any

from django.http import HttpRequest

from hall.models import Account


class PasskeyBackend:
    def authenticate(self, request: HttpRequest | None, **credentials: Any) -> None:
        return None

    def get_user(self, user_id: int) -> Account | None:
        return Account.objects.filter(pk=user_id, is_active=True).first()

    def has_perm(self, user_obj: Any, perm: str, obj: Any = None) -> bool:
        return False
