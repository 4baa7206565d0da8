"""Whom a page of the hall was drawn for, and the refusal of a form sent from it after the browser changed
hands.

One browser keeps one sign-in for all its tabs. A person opens a decision, then in another tab someone else
signs in (or the person signs out): the first tab still shows the decision, and its buttons now speak for
whoever is signed in now. Nothing can be decided then (the decision is not theirs, or nobody is signed in),
but a bare "no call you decide for has that number" tells the person nothing, and the check of the form's
CSRF token, which a sign-in renews, said only that the page was open too long.

So the forms of a signed-in person's pages carry a mark of the account the page was drawn for (`drawn_for`,
the template tag of the same name: a keyed digest of the account's number, so the page shows no number of
the town's own). Signing out carries none: it is the way on, whoever is signed in. A form sent back with a
mark that is not the signed-in account's is refused before anything is looked up, in words that say what
happened and how to go on, and nothing of what the account signed in now waits for.
"""

import json
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest
from django.http.request import RawPostDataException
from django.utils.crypto import constant_time_compare, salted_hmac

from hall.models import Account

FIELD = "drawn_for"
SOMEONE_ELSE = (
    "This browser is now signed in as someone else: another tab or window signed in since this page was drawn. "
    "Nothing was decided and nothing changed. To go on, sign out, sign in with the passkey of the person this "
    "page was for, and open it again."
)
SIGNED_OUT_SINCE = (
    "This browser was signed out since this page was drawn, in another tab or window or when the sign-in ended. "
    "Nothing was decided and nothing changed. Sign in with your passkey and try again."
)
SIGNED_IN_AGAIN = (
    "You signed in again since this page was drawn, in another tab or window, so the town did not act on it. "
    "Nothing was decided and nothing changed. Reload the page and try again."
)
# A digest is 64 hex characters; the page carries the first 32 (128 bits), more than enough to tell accounts
# apart, and a mark sent longer than that is no mark of the hall's.
MARK_CHARS = 32


def mark(account: Account) -> str:
    """The mark of `account` its pages' forms carry."""
    return salted_hmac("hall.drawn.mark", str(account.pk), algorithm="sha256").hexdigest()[:MARK_CHARS]


def sent_mark(request: HttpRequest, data: dict[str, Any] | None = None) -> str:
    """The mark a form sent: in `data` (a page's script's JSON, already read), else in the form's fields,
    else in a JSON body not read yet (Django's CSRF check refuses before any view reads it); "" for none."""
    if data is None:
        if request.content_type == "application/json":
            try:
                body = json.loads(request.body)
            # Not JSON, nested past the parser's stack, read as a stream already, or past the size Django
            # reads: no mark to find in it.
            except (ValueError, UnicodeDecodeError, RecursionError, RawPostDataException, RequestDataTooBig):
                body = None
            data = body if isinstance(body, dict) else {}
        else:
            data = {FIELD: request.POST.get(FIELD, "")}
    value = data.get(FIELD, "")
    return value if isinstance(value, str) and len(value) == MARK_CHARS else ""


def changed_hands(account: Account | None, sent: str) -> str | None:
    """Why a form drawn for the account `sent` marks is not taken from `account` (None: signed out), or None
    when it is theirs or carries no mark."""
    if not sent:
        return None
    if account is None:
        return SIGNED_OUT_SINCE
    return None if constant_time_compare(mark(account), sent) else SOMEONE_ELSE
