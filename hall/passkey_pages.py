"""The account's passkeys: the list, adding one (a passkey ceremony) and removing one, never the last."""

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from clockford.town.models import locked
from hall import passkeys
from hall.http import Refused, account_or_refuse, ceremony, signed_in_page, signed_in_post, text
from hall.models import Account, Passkey

NOT_YOURS = "That passkey is not one of yours."
THE_LAST = "This is your only passkey, so it stays: without it you could not sign in. Add another passkey first."


def do_remove_passkey(account: Account, passkey_id: int) -> str:
    """Remove one of the account's passkeys, never the last; returns its name."""
    with transaction.atomic():
        # Locking every passkey of the account makes two removals take turns, so two tabs
        # cannot each remove one of the last two.
        keys = list(locked(Passkey.objects.filter(account=account)))
        target = next((k for k in keys if k.pk == passkey_id), None)
        if target is None:
            raise Refused(NOT_YOURS, status=404)
        if len(keys) == 1:
            raise Refused(THE_LAST, status=409)
        target.delete()
        return target.name


@signed_in_page
def passkey_list(request: HttpRequest, account: Account) -> HttpResponse:
    keys = list(passkeys.passkeys_of(account))
    return render(
        request,
        "hall/passkeys.html",
        {"passkeys": keys, "only_one": len(keys) == 1, "nav": "passkeys", "name_chars": passkeys.PASSKEY_NAME_CHARS},
    )


@signed_in_post
def passkey_remove(request: HttpRequest, account: Account, passkey_id: int) -> HttpResponse:
    try:
        name = do_remove_passkey(account, passkey_id)
    except Refused as refused:
        messages.error(request, refused.say)
    else:
        messages.success(request, f"Removed the passkey “{name}”. It can no longer sign in to this account.")
    return redirect("hall:passkeys")


@ceremony
def add_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    return {"options": passkeys.begin_add(request.session, account_or_refuse(request), text(data, "name"))}


@ceremony
def add_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    key = passkeys.finish_add(request.session, account_or_refuse(request), data.get("credential"))
    messages.success(request, f"Added the passkey “{key.name}”. Either of your passkeys now signs you in.")
    return {"next": reverse("hall:passkeys")}
