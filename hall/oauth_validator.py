"""django-oauth-toolkit's validator, held to the town's one resource, and remembering spent codes.

The toolkit treats a token with no resource as good for every audience; the town issues tokens for
its /mcp URL only. An authorization request must name that resource (hall/oauth.py checks it before
consent); a token or refresh request may name it or inherit it, and naming anything else is refused
with invalid_target, as is a grant or refresh token that somehow carries another.

An authorization code works once. One presented again after it was redeemed is refused like any
unknown code, and every token of its account and client is revoked with it (RFC 6749 section 4.1.2):
one of the two redemptions was not the app's own. So are two redemptions at the same instant: the
second finds the code spent as it spends it, or as it reads the code's grant again after finding it
good (its PKCE challenge, its redirect URI).
"""

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from oauth2_provider.models import Grant
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc6749 import errors

from clockford.credentials import secret_digest
from hall import oauth_tokens
from hall.models import SpentCode

SPENT_KEPT = dt.timedelta(days=1)


class TownValidator(OAuth2Validator):
    def _check_and_set_request_resource(self, request: Any) -> None:
        super()._check_and_set_request_resource(request)
        if list(request.resource or []) != [oauth_tokens.resource()]:
            raise errors.CustomOAuth2Error(
                error="invalid_target",
                description=f"This town issues tokens for one resource only: {oauth_tokens.resource()}",
                request=request,
            )

    def validate_response_type(
        self, client_id: str, response_type: str, client: Any, request: Any, *args: Any, **kwargs: Any
    ) -> bool:
        # oauthlib's code grant also takes "none" and hybrids such as "code token", then asks here;
        # a False is "unauthorized_client", as if another client could have them. No client can.
        # (Any other response type, "token" among them, oauthlib refuses as unsupported itself.)
        if response_type != oauth_tokens.RESPONSE_TYPE:
            raise errors.UnsupportedResponseTypeError("This town answers with a code only.", request=request)
        return bool(super().validate_response_type(client_id, response_type, client, request, *args, **kwargs))

    def invalidate_authorization_code(self, client_id: str, code: str, request: Any, *args: Any, **kwargs: Any) -> None:
        try:
            super().invalidate_authorization_code(client_id, code, request, *args, **kwargs)
        except errors.InvalidGrantError:
            # Another request redeemed the code between this one's check and here (oauthlib saves the
            # tokens, then spends the code): the code was used twice, as one presented after it was
            # spent is, and what it gave both goes, this request's tokens with the other's.
            from hall import connected

            connected.revoke_tokens(request.user, request.client)
            raise
        now = timezone.now()
        SpentCode.objects.filter(at__lt=now - SPENT_KEPT).delete()
        try:
            with transaction.atomic():
                SpentCode.objects.create(
                    digest=secret_digest(code), account=request.user, client=request.client, at=now
                )
        except IntegrityError:  # pragma: no cover (a code is made once, so its digest is new)
            pass

    # After validate_code finds the code good, oauthlib asks for its PKCE challenge and method and
    # confirms its redirect URI, and the toolkit reads the code's grant again for each: a grant another
    # request redeemed meanwhile raised DoesNotExist, a 500 that left the code's tokens alive.
    def get_code_challenge(self, code: str, request: Any) -> str | None:
        return self._grant_again(code, request).code_challenge or None

    def get_code_challenge_method(self, code: str, request: Any) -> str | None:
        return self._grant_again(code, request).code_challenge_method or None

    def confirm_redirect_uri(
        self, client_id: str, code: str, redirect_uri: str, client: Any, request: Any, *args: Any, **kwargs: Any
    ) -> bool:
        return bool(self._grant_again(code, request).redirect_uri_allowed(redirect_uri))

    def _grant_again(self, code: str, request: Any) -> Grant:
        """The grant of the code validate_code found good, read once for the three questions; gone, it
        was redeemed by another request since: reuse, and what the code gave goes."""
        grant = getattr(request, "town_grant", None)
        if grant is None:
            grant = Grant.objects.filter(code=code, application=request.client).first()
            if grant is None:
                from hall import connected

                connected.revoke_tokens(request.user, request.client)
                raise errors.InvalidGrantError(request=request)
            request.town_grant = grant
        return grant

    def validate_code(self, client_id: str, code: str, client: Any, request: Any, *args: Any, **kwargs: Any) -> bool:
        if super().validate_code(client_id, code, client, request, *args, **kwargs):
            return True
        spent = SpentCode.objects.filter(digest=secret_digest(code), client=client).select_related("account").first()
        if spent is not None:
            from hall import connected

            connected.revoke_tokens(spent.account, client)
        return False
