"""What every hall page may need to know about the town, and about the person signed in: how many
things wait for them, which the Waiting tab shows on every page (one round trip, the same count the
live socket sends: hall/live.py)."""

from typing import Any

from django.http import HttpRequest

from hall.http import person
from hall.live import stamp_for
from hall.town import town_has_sign_in


def town(request: HttpRequest) -> dict[str, Any]:
    account = person(request)
    return {
        "sign_in": town_has_sign_in(),
        "waiting_count": stamp_for(account)[0] if account is not None else 0,
    }
