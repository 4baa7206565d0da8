"""The reply gate (001 section 04, "Closed: stop"; docs/reply-gate.md): a reply whose private content
names its readers, and names neither the caller's passport nor its account, is withheld whole: the
caller gets "The town withheld this reply: ..." and nothing of the reply; the handler's work rolls back;
a person (staff) is told in the staff room. A gate that cannot run fails safe."""

from dataclasses import replace
from typing import Any

import pytest

from clockford.town import desk
from clockford.town.models import Footstep, Passport, TownState, Withheld
from clockford.town.tooling import Call, Part, Reply, holder
from districts.post_office import services as post_office
from districts.post_office.models import Note
from districts.registry import TOOLS
from districts.testing import outcome, visit
from tests.fixtures import agent

pytestmark = pytest.mark.django_db

WITHHELD = (
    "The town withheld this reply: it carried something that is not yours to receive. Nothing of it was sent, "
    "and a person has been told. Do not try it another way; stop, and tell the human who runs you."
)


def leaky_recall(call: Call, args: Any) -> Reply:
    """A recall with a fault a district could have: it finds the key in any box, not only the caller's.
    Its part names the note's owner as its reader, as the real recall's does."""
    note = Note.objects.get(key=args.key)
    post_office.do_remember(call.passport, "touched", "by the leaky recall")  # work that must roll back
    return Reply(
        "Here is the note kept under that key.",
        {"key": note.key, "value": note.value},
        [Part("value", "agent-written", private=True, readers=(holder(note.box),))],
    )


LEAKY = replace(TOOLS["recall"], handler=leaky_recall)


def run(tool: Any, passport: Passport, **arguments: Any) -> desk.Rendered:
    passport.refresh_from_db()
    return desk.run(tool, arguments, passport, None)


def test_a_reply_carrying_another_accounts_private_note_is_withheld() -> None:
    ada, eve = agent("Ada"), agent("Eve")
    assert visit(ada, "remember", key="plans", value="The vault code is in the blue folder.").is_error is False
    r = run(LEAKY, eve, key="plans")
    sc = r.structured
    assert r.is_error is True
    assert sc["say"] == WITHHELD
    assert set(sc) == {"say", "footstep", "provenance"}
    assert "blue folder" not in r.text and sc["provenance"]["parts"] == []
    assert outcome(r) == "withheld"
    # The handler's own work rolled back with the reply.
    assert not Note.objects.filter(key="touched").exists()
    # A person is told: staff read where, which tool and whose, never the words.
    told = Withheld.objects.get()
    assert (told.passport_id, told.tool) == (eve.id, "recall")
    assert told.paths == [{"path": "value", "readers": [holder(ada)]}]
    assert "blue folder" not in str(told.paths)
    assert Footstep.objects.get(number=r.footstep).tool == "recall"


def test_the_owners_own_reply_and_an_agent_of_the_same_account_pass() -> None:
    ada = agent("Ada")
    visit(ada, "remember", key="plans", value="Mine.")
    assert run(LEAKY, ada, key="plans").structured["value"] == "Mine."
    assert not Withheld.objects.exists()


def test_account_readers_let_every_agent_of_the_account_read() -> None:
    ada = agent("Ada")
    sibling = agent(ada.account)

    def shared(call: Call, args: Any) -> Reply:
        return Reply(
            "Shared.",
            {"value": "for the account"},
            [Part("value", "agent-written", private=True, readers=(f"account:{ada.account_id}",))],
        )

    assert run(replace(TOOLS["recall"], handler=shared), sibling, key="k").is_error is False
    assert run(replace(TOOLS["recall"], handler=shared), agent("Eve"), key="k").structured["say"] == WITHHELD


def test_the_real_recall_and_trace_name_their_readers() -> None:
    ada = agent("Ada")
    visit(ada, "remember", key="plans", value="Mine.")
    parts: list[Part] = []

    def keep(call: Call, args: Any) -> Reply:
        reply = TOOLS["recall"].handler(call, args)
        parts.extend(reply.parts)
        return reply

    run(replace(TOOLS["recall"], handler=keep), ada, key="plans")
    assert [p.readers for p in parts if p.private] == [(holder(ada),)]


def test_a_gate_that_cannot_run_fails_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    ada = agent("Ada")
    visit(ada, "remember", key="plans", value="Mine.")

    def broken(reply: Reply, passport: Passport) -> list[dict[str, Any]]:
        raise desk.Unchecked("the reply gate")

    monkeypatch.setattr(desk, "not_theirs", broken)
    r = visit(ada, "recall", key="plans")
    assert r.structured["say"] == desk.UNCHECKED_SAY and "Mine." not in r.text
    assert TownState.objects.get(pk=1).mode == "read-only"
