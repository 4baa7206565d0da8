"""Edit and allow: on a held publish, the person rewrites the words and allows the rewritten call with
their passkey. The rewritten words are screened like any words, published exactly, once; show_passport
lists them labelled human-signed; the original call stays held; the outsider cannot reach it."""

import json
from typing import Any

import pytest

from clockford.town import holds, rewrite
from clockford.town.models import Hold
from districts.testing import visit
from hall.tests.conftest import Visitor, agent_of

pytestmark = pytest.mark.django_db

THEIRS = "Meet at the \u200bwell at noon."
MINE = "Meet at the well at dusk, with lanterns."


def held(visitor: Visitor, text: str = THEIRS) -> Hold:
    assert visitor.account is not None
    r = visit(agent_of(visitor.account), "post_notice", text=text)
    assert r.is_error and r.structured["hold"]["status"] == "held", r.structured
    return Hold.objects.get(pk=r.structured["hold"]["id"])


def rewrite_it(visitor: Visitor, hold: Hold, text: str, shown: str | None = None) -> tuple[int, dict[str, Any]]:
    body = {"words": shown or hold.words_digest, "rewrite.text": text}
    status, begun = visitor.post(f"/hall/holds/{hold.id}/rewrite/begin", body)
    if status != 200:
        return status, begun
    return visitor.post(f"/hall/holds/{hold.id}/rewrite/finish", {"credential": visitor.key.get(begun["options"])})


def test_the_page_offers_to_rewrite_a_held_publish(ada: Visitor) -> None:
    hold = held(ada)
    page = ada.page(f"/hall/holds/{hold.id}")
    assert "Or rewrite the words, and allow yours" in page
    # The words to start from leave the hidden character out; the page above draws it.
    assert (
        '<textarea id="rewrite-text" name="rewrite.text" rows="4" maxlength="280" required>Meet at the well at noon.</textarea>'
        in page
    )


def test_the_rewritten_words_are_published_exactly_once_and_the_original_stays_held(ada: Visitor) -> None:
    hold = held(ada)
    agent = hold.passport
    status, done = rewrite_it(ada, hold, MINE)
    assert status == 200, done
    mine = Hold.objects.get(rewrites=hold.id)
    assert done == {"ok": True, "next": f"/hall/holds/{mine.id}"}
    assert (mine.status, mine.arguments, mine.decided_by) == ("allowed", {"text": MINE}, ada.account)
    # The passkey signed the held call, its words as shown, and the new words' digest.
    signed = json.loads(mine.statement)
    assert signed == {
        "kind": "clockford-rewrite-1",
        "hold": hold.id,
        "tool": "post_notice",
        "decision": "allow-rewritten",
        "was": hold.words_digest,
        "words": holds.words_digest("post_notice", {"text": MINE}),
    }
    assert mine.assertion is not None and mine.statement == rewrite.rewrite_statement(hold, {"text": MINE})
    hold.refresh_from_db()
    assert hold.status == "held"
    # show_passport lists the allowed words, labelled human-signed.
    shown = visit(agent, "show_passport").structured
    entry = shown["harbour"]["held"][0]
    assert entry == {**entry, "id": mine.id, "status": "allowed", "rewrites": hold.id, "words": {"text": MINE}}
    assert {"path": "harbour.held[0].words", "label": "human-signed"} in shown["provenance"]["parts"]
    # Exactly that call goes through, once, and its words are published exactly.
    went = visit(agent, "post_notice", text=MINE)
    assert went.is_error is False and went.structured["harbour"]["hold"] == mine.id
    board = visit(agent, "read_notices").structured["notices"]
    assert [n["text"] for n in board] == [MINE]
    mine.refresh_from_db()
    assert mine.status == "used"
    again = visit(agent, "post_notice", text=MINE)
    assert again.is_error and again.structured["hold"]["status"] == "held" and again.structured["hold"]["id"] != mine.id
    # The agent's own words still wait, as the same hold.
    theirs = visit(agent, "post_notice", text=THEIRS)
    assert theirs.is_error and theirs.structured["hold"]["id"] == hold.id
    page = ada.page(f"/hall/holds/{hold.id}")
    assert f'href="/hall/holds/{mine.id}"' in page and "which your agent published" in page
    assert "These are your words." in ada.page(f"/hall/holds/{mine.id}")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Meet at https://evil.example at noon.", "No links or addresses here."),
        ("Meet at the well \u200bat dusk.", "Your text carries hidden characters (⟦U+200B⟧). Write it without them."),
        ("x" * 281, "The text can be at most 280 characters; yours has 281. Shorten it."),
        ("Meet at the well at noon.", None),
        ("   ", rewrite.NO_WORDS),
    ],
)
def test_the_rewritten_words_are_screened_like_any_words(ada: Visitor, text: str, says: str | None) -> None:
    hold = held(ada, "Meet at the well at noon.")
    status, data = ada.post(f"/hall/holds/{hold.id}/rewrite/begin", {"words": hold.words_digest, "rewrite.text": text})
    assert status == 400 and data["ok"] is False
    assert data["say"].startswith(says or rewrite.SAME_WORDS), data
    assert not Hold.objects.filter(rewrites=hold.id).exists()


def test_a_secret_is_refused_and_not_kept(ada: Visitor) -> None:
    hold = held(ada)
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    status, data = ada.post(f"/hall/holds/{hold.id}/rewrite/begin", {"words": hold.words_digest, "rewrite.text": token})
    assert status == 400 and "looks like" in data["say"].lower()


def test_words_changed_since_the_page_are_not_rewritten(ada: Visitor) -> None:
    hold = held(ada)
    status, data = rewrite_it(ada, hold, MINE, shown="0" * 64)
    assert (status, data) == (409, {"ok": False, "say": holds.WORDS_CHANGED})


def test_only_a_held_publish_can_be_rewritten(ada: Visitor) -> None:
    hold = held(ada)
    Hold.objects.filter(pk=hold.id).update(why="plan")
    status, data = rewrite_it(ada, hold, MINE)
    assert (status, data) == (400, {"ok": False, "say": rewrite.NOT_REWRITABLE})
    assert "Or rewrite the words" not in ada.page(f"/hall/holds/{hold.id}")


def test_a_decided_call_cannot_be_rewritten(ada: Visitor) -> None:
    hold = held(ada)
    Hold.objects.filter(pk=hold.id).update(status="refused")
    status, data = rewrite_it(ada, hold, MINE)
    assert status == 409 and data["say"] == "This call was already decided: it is refused. Nothing changed."


def test_the_outsider_cannot_rewrite_anothers_call(ada: Visitor, bob: Visitor) -> None:
    hold = held(ada)
    status, data = bob.post(f"/hall/holds/{hold.id}/rewrite/begin", {"words": hold.words_digest, "rewrite.text": MINE})
    assert (status, data) == (404, {"ok": False, "say": "No call you decide for has that number."})
    assert not Hold.objects.filter(rewrites=hold.id).exists()


@pytest.fixture
def bob() -> Visitor:
    bob = Visitor()
    assert bob.sign_up("Bob")[0] == 200
    return bob
