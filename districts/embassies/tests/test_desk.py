"""embassy with desk: that desk alone, in full, and the list of desks (000 section 20)."""

import pytest
from pydantic import ValidationError

from clockford.town.models import Passport
from districts.embassies import desks
from districts.testing import visit


@pytest.mark.parametrize("desk_id", [d.id for d in desks.DESKS])
def test_it_reads_one_desk(alice: Passport, desk_id: str) -> None:
    sc = visit(alice, "embassy", desk=desk_id).structured
    assert set(sc) == {"say", "visa", "desk", "desks", "footstep", "provenance"}
    assert sc["desk"]["id"] == desk_id
    assert set(sc["desk"]) == {"id", "kind", "name", "open", "can", "cannot", "differs", "tripsUp"}
    for key in ("can", "cannot", "differs", "tripsUp"):
        assert sc["desk"][key] and all(isinstance(line, str) and line for line in sc["desk"][key])
    assert sc["say"].startswith(
        f"The Embassies' desk for {sc['desk']['name']}: what its agents can and cannot do here, and what trips them up."
    )
    assert sc["provenance"]["parts"] == []


def test_the_desks_speak_of_what_trips_clients_up(alice: Passport) -> None:
    code = visit(alice, "embassy", desk="claude-code").structured["desk"]
    assert any("structuredContent" in line for line in code["tripsUp"])
    assert any("isError" in line for line in code["tripsUp"])
    desktop = visit(alice, "embassy", desk="claude-desktop").structured["desk"]
    assert any("sign in" in line for line in desktop["cannot"])


def test_a_desk_that_does_not_exist_is_outside_the_schema(alice: Passport) -> None:
    with pytest.raises(ValidationError):
        visit(alice, "embassy", desk="netscape")
