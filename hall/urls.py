"""The hall's addresses. Pages are GETs; every change is a POST with its CSRF token."""

from django.urls import path

from hall import agents, decisions, exchange, letters, oauth_views, passkey_pages, staff, views

app_name = "hall"

urlpatterns = [
    path("hall/", views.front, name="front"),
    path("hall/signup", views.signup, name="signup"),
    path("hall/signup/begin", views.signup_begin, name="signup-begin"),
    path("hall/signup/finish", views.signup_finish, name="signup-finish"),
    path("hall/signin/begin", views.signin_begin, name="signin-begin"),
    path("hall/signin/finish", views.signin_finish, name="signin-finish"),
    path("hall/signout", views.signout, name="signout"),
    path("hall/passkeys", passkey_pages.passkey_list, name="passkeys"),
    path("hall/passkeys/add/begin", passkey_pages.add_begin, name="add-begin"),
    path("hall/passkeys/add/finish", passkey_pages.add_finish, name="add-finish"),
    path("hall/passkeys/<int:passkey_id>/remove", passkey_pages.passkey_remove, name="passkey-remove"),
    path("hall/agents", agents.agents, name="agents"),
    path("hall/agents/<str:passport_id>/pennant", agents.pennant, name="pennant"),
    path("hall/agents/<str:passport_id>/box", agents.box, name="box"),
    path("hall/agents/<str:passport_id>/gauge", agents.gauge, name="gauge"),
    path("hall/agents/<str:passport_id>/box/empty", agents.empty_key, name="box_empty"),
    path("hall/clients", oauth_views.clients, name="clients"),
    path("hall/clients/<int:connection_id>/revoke", oauth_views.client_revoke, name="client-revoke"),
    path("hall/holds/<str:hold_id>", decisions.hold_page, name="hold"),
    path("hall/holds/<str:hold_id>/begin", decisions.hold_begin, name="hold-begin"),
    path("hall/holds/<str:hold_id>/finish", decisions.hold_finish, name="hold-finish"),
    path("hall/letters", letters.letter_list, name="letters"),
    path("hall/letters/<str:letter_id>", letters.letter_page, name="letter"),
    path("hall/letters/<str:letter_id>/begin", letters.letter_begin, name="letter-begin"),
    path("hall/letters/<str:letter_id>/finish", letters.letter_finish, name="letter-finish"),
    path("hall/plans/<str:plan_id>", decisions.plan_page, name="plan"),
    path("hall/plans/<str:plan_id>/begin", decisions.plan_begin, name="plan-begin"),
    path("hall/plans/<str:plan_id>/finish", decisions.plan_finish, name="plan-finish"),
    path("hall/plans/<str:plan_id>/end", decisions.plan_end, name="plan-end"),
    path("hall/reports/<str:report_id>", decisions.report_page, name="report"),
    path("hall/reports/<str:report_id>/begin", decisions.report_begin, name="report-begin"),
    path("hall/reports/<str:report_id>/finish", decisions.report_finish, name="report-finish"),
    path("hall/exchange", exchange.exchange_page, name="exchange"),
    path("hall/exchange/open/begin", exchange.exchange_begin, name="exchange-begin"),
    path("hall/exchange/open/finish", exchange.exchange_finish, name="exchange-finish"),
    path("hall/exchange/close", exchange.exchange_close, name="exchange-close"),
    path("hall/staff", staff.staff, name="staff"),
    path("hall/staff/disputes/<str:dispute_id>/rule", staff.rule, name="rule"),
    path("hall/staff/sightings/read", staff.sighting_read, name="sighting-read"),
    path("hall/claim/<str:code>", views.claim, name="claim"),
    path("hall/claim/<str:code>/begin", views.claim_begin, name="claim-begin"),
    path("hall/claim-finish", views.claim_finish, name="claim-finish"),
    path("static/<path:path>", views.static_file, name="static"),
]
