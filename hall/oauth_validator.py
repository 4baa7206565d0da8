"""django-oauth-toolkit's validator, held to the town's one resource.

The toolkit treats a token with no resource as good for every audience; the town issues tokens for
its /mcp URL only. An authorization request must name that resource (hall/oauth.py checks it before
consent); a token or refresh request may name it or inherit it, and naming anything else is refused
with invalid_target, as is a grant or refresh token that somehow carries another.
"""

from typing import Any

from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc6749 import errors

from hall import oauth_tokens


class TownValidator(OAuth2Validator):
    def _check_and_set_request_resource(self, request: Any) -> None:
        super()._check_and_set_request_resource(request)
        if list(request.resource or []) != [oauth_tokens.resource()]:
            raise errors.CustomOAuth2Error(
                error="invalid_target",
                description=f"This town issues tokens for one resource only: {oauth_tokens.resource()}",
                request=request,
            )
