"""What every hall page may need to know about the town."""

from typing import Any

from django.http import HttpRequest

from hall import services


def town(request: HttpRequest) -> dict[str, Any]:
    return {"sign_in": services.town_has_sign_in()}
