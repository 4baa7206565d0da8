"""Migration hall 0009 carries the browser sessions of a running town: a person signed in before the
upgrade (their session's key in Django's own table, as the hall kept it then) is signed in after it with
the same cookie, while the key itself is left in no table; an expired session is not carried."""

import hashlib
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client, override_settings

from hall.models import Account, BrowserSession
from hall.tests.conftest import HOST, ORIGIN
from hall.tests.test_session_keys import SIGNED_IN, holding

BEFORE = [("hall", "0008_ceremony_session")]
AFTER = [("hall", "0009_browser_sessions")]
DJANGOS = "django.contrib.sessions.backends.db"


@pytest.mark.django_db(transaction=True)
def test_a_person_signed_in_before_the_upgrade_stays_signed_in_and_their_key_is_kept_nowhere() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    account = Account.objects.create_account("Ada")
    # Signed in as the hall signed people in before: Django's store, keeping each key as it is.
    with override_settings(SESSION_ENGINE=DJANGOS):
        browser = Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
        browser.force_login(account, backend="hall.backends.PasskeyBackend")
        old = import_module(DJANGOS).SessionStore()
        old["who"] = "gone"
        old.set_expiry(-60)
        old.create()
    key = browser.cookies[settings.SESSION_COOKIE_NAME].value
    assert Session.objects.filter(session_key=key).count() == 1 and Session.objects.count() == 2

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)

    assert list(BrowserSession.objects.values_list("session_key", flat=True)) == [
        hashlib.sha256(key.encode()).hexdigest()
    ]
    assert not Session.objects.exists()
    assert holding(key) == [] and holding(str(old.session_key)) == []
    page = browser.get("/hall/")
    assert page.status_code == 200 and SIGNED_IN in page.content.decode()
    assert browser.cookies[settings.SESSION_COOKIE_NAME].value == key and holding(key) == []
