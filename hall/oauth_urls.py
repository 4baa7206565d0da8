"""The authorization server's addresses, at the site's root: RFC 8414 and RFC 9728 documents live
under /.well-known/ of the origin, and the issuer (the hall's URL) has no path."""

from django.urls import path

from hall import oauth_views

urlpatterns = [
    path(".well-known/oauth-authorization-server", oauth_views.server_metadata, name="oauth-server-metadata"),
    path(".well-known/oauth-protected-resource", oauth_views.resource_metadata, name="oauth-resource-metadata"),
    path(".well-known/oauth-protected-resource/mcp", oauth_views.resource_metadata, name="oauth-resource-mcp"),
    path(".well-known/jwks.json", oauth_views.jwks, name="oauth-jwks"),
    path("oauth/register", oauth_views.register, name="oauth-register"),
    path("oauth/token", oauth_views.token, name="oauth-token"),
    path("oauth/revoke", oauth_views.revoke_token, name="oauth-revoke"),
    path("oauth/authorize", oauth_views.authorize, name="oauth-authorize"),
    path("oauth/authorize/begin", oauth_views.authorize_begin, name="oauth-authorize-begin"),
    path("oauth/authorize/finish", oauth_views.authorize_finish, name="oauth-authorize-finish"),
    path("oauth/authorize/deny", oauth_views.authorize_deny, name="oauth-authorize-deny"),
]
