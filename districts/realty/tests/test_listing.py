"""A deeded server's listing says so in enter, verify and the Directory, for everyone (never who holds
it), and stops saying so once the deed lapses."""

import pytest

from districts.realty import services
from districts.realty.tests.conftest import NAMES, number
from districts.realty.tests.test_claim_deed import give_deed
from districts.testing import visit
from districts.town_hall.models import CensusState
from tests.fixtures import agent

pytestmark = pytest.mark.django_db


def test_enter_verify_and_the_directory_say_a_server_is_deeded(realty_census: CensusState) -> None:
    holder, reader = agent("ada"), agent("bob")
    painter = number(NAMES[0])
    assert "deed" not in visit(reader, "enter", lot=painter).structured
    deed = give_deed(holder, painter)
    view = {
        "proven": "dns",
        "how": "a DNS TXT record on the namespace's domain",
        "since": deed.issued_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "checkedAt": deed.checked_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    entered = visit(reader, "enter", lot=painter).structured
    assert entered["deed"] == view
    assert entered["say"].endswith("Its publisher proved the namespace at the Realty Office.")
    verified = visit(reader, "verify", server=NAMES[0]).structured
    assert verified["real"] is True and verified["deed"] == view
    found = visit(reader, "ask_directory", need="generate images illustrations").structured
    by_lot = {r["lot"]: r for r in found["results"]}
    assert by_lot[painter]["deed"] == view
    assert all("deed" not in r for lot, r in by_lot.items() if lot != painter)
    # Nothing names the holder.
    for reply in (entered, verified, found):
        assert holder.account.handle not in str(reply) and deed.id not in str(reply)
    # Lapsed: the listing no longer says so, even from the Directory's memory.
    services.do_checked(deed, False, "the proof is gone")
    assert "deed" not in visit(reader, "enter", lot=painter).structured
    assert "deed" not in visit(reader, "verify", server=NAMES[0]).structured
    again = visit(reader, "ask_directory", need="generate images illustrations").structured
    assert all("deed" not in r for r in again["results"])
