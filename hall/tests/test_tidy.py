"""The hall's tidy for the sweep: expired ceremonies, spent codes, browser sessions and OAuth tokens go;
live ones stay, and a reader finds the same."""

import datetime as dt

import pytest
from django.utils import timezone
from oauth2_provider.models import AccessToken

from clockford.credentials import secret_digest as digest
from clockford.town import clock
from hall import tidy
from hall.models import Account, BrowserSession, Ceremony, SpentCode
from hall.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_expired_rows_go_and_live_ones_stay() -> None:
    now = timezone.now()
    account = Account.objects.create_account("Alice")
    for when in (now - dt.timedelta(minutes=1), now + dt.timedelta(minutes=5)):
        Ceremony.objects.create(purpose=Ceremony.SIGN_IN, challenge=b"c", expires_at=when)
    for n, token in enumerate(("expired", "live")):
        AccessToken.objects.create(
            user=account, token=token, scope="town", expires=now + dt.timedelta(hours=-1 if n == 0 else 1)
        )
    live = SessionStore()
    live["who"] = "alice"
    live.create()
    gone = SessionStore()
    gone.set_expiry(-60)
    gone.create()

    removed = tidy.tidy(clock.now())

    assert removed["hall_ceremony"] == 1 and Ceremony.objects.get().expires_at > now
    assert removed["oauth2_provider_accesstoken"] == 1
    assert list(AccessToken.objects.values_list("token", flat=True)) == ["live"]
    assert removed["hall_browsersession"] == 1
    assert BrowserSession.objects.get().session_key == digest(str(live.session_key))
    assert SessionStore(session_key=live.session_key)["who"] == "alice"
    assert removed["hall_spentcode"] == 0 and SpentCode.objects.count() == 0
