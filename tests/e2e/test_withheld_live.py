"""The reply gate over real HTTP (001 section 04, "Closed: stop"): a reply carrying another agent's private
note is withheld whole, with 001's sentence, and a person is told (a row staff read in the staff room).

The town served here has one fault planted (tests/e2e/leaky): its recall finds a key in any P.O. box. A
correct town never builds such a reply; the gate is what stops one that a fault builds."""

from collections.abc import Callable

from tests.e2e.test_unrecorded import sql
from tests.support import RawSession, Town

TownFactory = Callable[..., Town]
WITHHELD = (
    "The town withheld this reply: it carried something that is not yours to receive. Nothing of it was sent, "
    "and a person has been told. Do not try it another way; stop, and tell the human who runs you."
)


def test_a_reply_with_another_agents_private_note_is_withheld(town_factory: TownFactory) -> None:
    town = town_factory(env={"DJANGO_SETTINGS_MODULE": "tests.e2e.leaky.settings"}).start()
    ada, eve = RawSession(town.mcp, "ada"), RawSession(town.mcp, "eve")
    secret = "The spare key is under the third lantern."
    assert ada.call("remember", {"key": "errand/key", "value": secret})["isError"] is False
    # The owner reads her own note through the same faulty recall: it is hers to receive.
    assert ada.call("recall", {"key": "errand/key"})["structuredContent"]["value"] == secret

    r = eve.call("recall", {"key": "errand/key"})
    sc = r["structuredContent"]
    assert r["isError"] is True
    assert sc["say"] == WITHHELD
    assert set(sc) == {"say", "footstep", "provenance"}
    assert secret not in r["content"][0]["text"] and "lantern" not in str(sc)
    assert r["content"][0]["text"].startswith(WITHHELD + "\n")
    assert r["content"][0]["text"].endswith(f"footstep #{sc['footstep']}")

    eve_passport = eve.call("show_passport")["structuredContent"]["passport"]
    ada_passport = ada.call("show_passport")["structuredContent"]["passport"]
    told = sql(town, ["SELECT passport_id, tool, paths FROM town_withheld"])
    assert len(told) == 1
    assert told[0][0] == eve_passport and told[0][1] == "recall"
    assert ada_passport in str(told[0][2]) and "lantern" not in str(told[0][2])
    outcome = sql(town, [f"SELECT outcome FROM town_footstep WHERE number = {sc['footstep']}"])
    assert outcome == [("withheld",)]
    ada.delete()
    eve.delete()
