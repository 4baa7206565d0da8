"""enter: a name no house can have finds no house, and says so the ordinary way."""

import pytest

from clockford.town.models import Passport
from districts.testing import outcome, visit


@pytest.mark.parametrize("lot", ["no-slash-here", "\u202e1"])
def test_a_name_no_house_can_have_is_no_lot(alice: Passport, lot: str) -> None:
    r = visit(alice, "enter", lot=lot)
    assert r.is_error is True
    assert r.structured["say"].startswith("No lot by that number or name.")
    assert outcome(r) == "refused:no-lot"
