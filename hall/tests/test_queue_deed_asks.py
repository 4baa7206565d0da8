"""A deed ask waits in the person's "Waiting for you" queue like everything else that waits for them
(hall/queue.py SOURCES): its row links to the ask's page, the live stamp counts it, and once declined
or lapsed it is gone. Another person's queue never shows it."""

from datetime import timedelta
from typing import Any

import pytest

from clockford.town import clock
from districts.realty import services as realty
from districts.realty.tests.conftest import NAMES, realty_census
from hall.live import stamp_for
from hall.queue import waiting_for
from hall.tests.conftest import Visitor
from hall.tests.test_deeds import ask

pytestmark = pytest.mark.django_db
__all__ = ["realty_census"]


def test_a_deed_ask_waits_in_the_queue_until_it_is_declined(ada: Visitor, realty_census: Any) -> None:
    assert ada.account is not None
    before, stamp = stamp_for(ada.account)
    ask_id = ask(ada, NAMES[0])
    (row,) = [r for r in waiting_for(ada.account) if r.kind == "deed"]
    assert (row.id, row.url, row.what) == (ask_id, f"/hall/deeds/asks/{ask_id}", "A deed ask")
    assert row.preview == NAMES[0] and row.lapses_at == row.at + timedelta(days=realty.ASK_DAYS)
    waiting, changed = stamp_for(ada.account)
    assert waiting == before + 1 and changed != stamp
    home = ada.page("/hall/")
    assert f'href="/hall/deeds/asks/{ask_id}"' in home and "have you prove you publish a server" in home
    r = ada.client.post(f"/hall/deeds/asks/{ask_id}/decline")
    assert r.status_code == 302
    assert [r for r in waiting_for(ada.account) if r.kind == "deed"] == []
    assert stamp_for(ada.account)[0] == before


def test_a_lapsed_ask_leaves_the_queue_and_another_person_never_sees_it(
    ada: Visitor, staff: Visitor, realty_census: Any
) -> None:
    assert ada.account is not None and staff.account is not None
    ask(ada, NAMES[0])
    assert [r.kind for r in waiting_for(staff.account)] == []
    clock.advance(timedelta(days=realty.ASK_DAYS, seconds=1))
    assert [r for r in waiting_for(ada.account) if r.kind == "deed"] == []
