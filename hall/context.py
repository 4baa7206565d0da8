"""What every hall page may need to know about the town."""

from typing import Any

from django.http import HttpRequest

from hall.town import town_has_sign_in


def town(request: HttpRequest) -> dict[str, Any]:
    return {"sign_in": town_has_sign_in()}
