"""The hall's addresses. Pages are GETs; every change is a POST with its CSRF token."""

from django.urls import path

from hall import oauth_views, views

app_name = "hall"

urlpatterns = [
    path("hall/", views.front, name="front"),
    path("hall/signup", views.signup, name="signup"),
    path("hall/signup/begin", views.signup_begin, name="signup-begin"),
    path("hall/signup/finish", views.signup_finish, name="signup-finish"),
    path("hall/signin/begin", views.signin_begin, name="signin-begin"),
    path("hall/signin/finish", views.signin_finish, name="signin-finish"),
    path("hall/signout", views.signout, name="signout"),
    path("hall/passkeys", views.passkey_list, name="passkeys"),
    path("hall/passkeys/add/begin", views.add_begin, name="add-begin"),
    path("hall/passkeys/add/finish", views.add_finish, name="add-finish"),
    path("hall/passkeys/<int:passkey_id>/remove", views.passkey_remove, name="passkey-remove"),
    path("hall/agents", views.agents, name="agents"),
    path("hall/agents/<str:passport_id>/pennant", views.pennant, name="pennant"),
    path("hall/clients", oauth_views.clients, name="clients"),
    path("hall/clients/<int:connection_id>/revoke", oauth_views.client_revoke, name="client-revoke"),
    path("hall/staff", views.staff, name="staff"),
    path("hall/claim/<str:code>", views.claim, name="claim"),
    path("hall/claim/<str:code>/begin", views.claim_begin, name="claim-begin"),
    path("hall/claim-finish", views.claim_finish, name="claim-finish"),
    path("static/<path:path>", views.static_file, name="static"),
]
