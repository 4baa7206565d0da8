"""The account's passkeys: the list, adding one and removing one (never the last), each a passkey
ceremony confirmed with a passkey the account already has (hall/passkey_changes.py)."""

from typing import Any

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from clockford.town.tooling import counted
from hall import passkey_changes, passkeys
from hall.http import account_or_refuse, ceremony, signed_in_page, text
from hall.models import Account


@signed_in_page
def passkey_list(request: HttpRequest, account: Account) -> HttpResponse:
    keys = list(passkeys.passkeys_of(account))
    return render(
        request,
        "hall/passkeys.html",
        {"passkeys": keys, "only_one": len(keys) == 1, "nav": "passkeys", "name_chars": passkeys.PASSKEY_NAME_CHARS},
    )


@ceremony
def remove_begin(request: HttpRequest, data: dict[str, Any], passkey_id: int) -> dict[str, Any]:
    return {"options": passkey_changes.begin_remove(request.session, account_or_refuse(request), passkey_id)}


@ceremony
def remove_finish(request: HttpRequest, data: dict[str, Any], passkey_id: int) -> dict[str, Any]:
    account = account_or_refuse(request)
    name, notified = passkey_changes.do_remove_passkey(request.session, account, passkey_id, data.get("credential"))
    update_session_auth_hash(request, account)  # this browser stays signed in; every other one is not
    said = (
        f"Removed the passkey “{name}”. It can no longer sign in to this account, and every other browser "
        "signed in to it is signed out."
    )
    if notified:
        said += (
            f" Notifications are off on the {counted(notified, 'device', 'devices')} that had them: turn them on "
            "again on the Account page of each device you keep."
        )
    messages.success(request, said)
    return {"next": reverse("hall:passkeys")}


@ceremony
def add_confirm(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    """Adding a passkey to an account that has one first asks for one of those."""
    account = account_or_refuse(request)
    return {"options": passkey_changes.begin_add_confirm(request.session, account, text(data, "name"))}


@ceremony
def add_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    account = account_or_refuse(request)
    confirmation = data.get("confirmation")
    return {"options": passkey_changes.begin_add(request.session, account, text(data, "name"), confirmation)}


@ceremony
def add_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    key = passkey_changes.finish_add(request.session, account_or_refuse(request), data.get("credential"))
    kept = passkeys.passkeys_of(key.account).count()
    which = "Either of your passkeys" if kept == 2 else f"Any of your {kept} passkeys"
    messages.success(request, f"Added the passkey “{key.name}”. {which} now signs you in.")
    return {"next": reverse("hall:passkeys")}
