"""Edit and allow: on a held publish, the person rewrites the words and allows the rewritten call with
their passkey. The rewritten words are screened like any words, published exactly, once; show_passport
lists them labelled human-signed; the original call stays held; the outsider cannot reach it."""

import json
import re
from typing import Any

import pytest

from clockford.town import clock, holds, rewrite
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


LATER = "Meet at the well at dawn, with bread."


def test_a_second_rewrite_replaces_the_first_so_only_one_goes_out(ada: Visitor) -> None:
    hold = held(ada)
    agent = hold.passport
    assert rewrite_it(ada, hold, MINE)[0] == 200
    first = Hold.objects.get(rewrites=hold.id)
    # While the first is allowed, the held call's page says which words are allowed now, that allowing
    # the agent's own too would let both go out, and that rewriting again replaces them.
    page = ada.page(f"/hall/holds/{hold.id}")
    assert "Allowed now: your words, not your agent's." in page
    assert "Allowing them too would let both go out: your words and your agent's, each once." in page
    assert f"This replaces your words allowed in {first.id}." in re.sub(r"<[^>]+>", "", page)
    status, done = rewrite_it(ada, hold, LATER)
    assert status == 200, done
    second = Hold.objects.get(rewrites=hold.id, arguments={"text": LATER})
    first.refresh_from_db()
    assert (first.status, second.status) == ("lapsed", "allowed")
    # The flash on the new words' page says the earlier yes ended, with the time in a <time> that the
    # page's script says again in the person's own time.
    page = ada.page(f"/hall/holds/{second.id}")
    assert f"They replace your earlier words ({first.id}), which your agent had not used: that yes has ended" in page
    assert "allowing them as well would let both go out." in page
    flash = re.search(r'<p class="flash flash-success">(.*?)</p>', page, re.S)
    assert flash is not None
    assert re.search(
        r'until <time class="when" datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:00\+00:00">\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC</time>\.',
        flash.group(1),
    ), flash.group(1)
    # The agent makes each call: the first words wait as a new held call, and are not published; the
    # second go through, once.
    went_first = visit(agent, "post_notice", text=MINE)
    assert went_first.is_error and went_first.structured["hold"]["status"] == "held"
    assert went_first.structured["hold"]["id"] not in (first.id, second.id, hold.id)
    went_second = visit(agent, "post_notice", text=LATER)
    assert went_second.is_error is False and went_second.structured["harbour"]["hold"] == second.id
    assert [n["text"] for n in visit(agent, "read_notices").structured["notices"]] == [LATER]
    # The agent's own words still wait, as the same hold, and the pages say what became of each.
    hold.refresh_from_db()
    assert hold.status == "held"
    page = ada.page(f"/hall/holds/{hold.id}")
    assert "replaced by newer words of yours before your agent used them" in page
    assert "which your agent published" in page and "Allowed now" not in page
    assert f"then replaced them with newer words of yours ({second.id}) before your agent used them" in ada.page(
        f"/hall/holds/{first.id}"
    )


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


def test_once_a_rewrite_has_gone_out_no_other_is_allowed(ada: Visitor) -> None:
    """A second probe: the person allowed their words, the agent published them, and a second rewrite of
    the same held call was allowed and published too. One held call publishes one rewrite at most."""
    hold = held(ada)
    agent = hold.passport
    assert rewrite_it(ada, hold, MINE)[0] == 200
    first = Hold.objects.get(rewrites=hold.id)
    assert visit(agent, "post_notice", text=MINE).is_error is False
    assert "Or rewrite the words, and allow yours" not in ada.page(f"/hall/holds/{hold.id}")
    status, data = ada.post(f"/hall/holds/{hold.id}/rewrite/begin", {"words": hold.words_digest, "rewrite.text": LATER})
    assert status == 400 and data["say"] == rewrite.GONE_OUT.format(id=first.id)
    assert not Hold.objects.filter(rewrites=hold.id, arguments={"text": LATER}).exists()
    assert [n["text"] for n in visit(agent, "read_notices").structured["notices"]] == [MINE]


def test_a_replaced_rewrite_says_when_its_yes_ended(ada: Visitor) -> None:
    hold = held(ada)
    assert rewrite_it(ada, hold, MINE)[0] == 200
    first = Hold.objects.get(rewrites=hold.id)
    assert rewrite_it(ada, hold, LATER)[0] == 200
    first.refresh_from_db()
    listed = {h["id"]: h for h in visit(hold.passport, "show_passport").structured["harbour"]["held"]}
    # Lapsed when the newer words were allowed, not at the held call's wait a day ahead.
    assert listed[first.id]["status"] == "lapsed"
    assert listed[first.id]["until"] == clock.iso(first.allowed_until)
