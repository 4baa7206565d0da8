"""report_sighting's category: the schema offers the five (DECISIONS 13), and a client that skips the
schema is refused in the town's voice, with a footstep, not by the protocol."""

from clockford.face.server import input_schema
from districts.registry import TOOLS
from districts.switchboard import sightings
from districts.testing import outcome, visit
from tests.fixtures import agent


def test_a_category_not_in_the_list_is_refused_in_the_towns_voice(db: None) -> None:
    r = visit(agent("dana"), "report_sighting", record="P-1", category="spam")
    assert r.is_error and outcome(r) == "refused:category"
    assert r.structured["say"] == sightings.CATEGORY_SAY and r.footstep is not None


def test_the_schema_still_offers_the_five(db: None) -> None:
    category = input_schema(TOOLS["report_sighting"])["properties"]["category"]
    assert category == {"type": "string", "enum": list(sightings.CATEGORIES), "description": "What you saw."}
