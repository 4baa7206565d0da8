"""post_notice waits for the person's yes: the first call is held and nothing is published; repeating
it while it waits returns the same hold and adds nothing (000 section 02, 001 section 04 "Held")."""

from datetime import datetime, timedelta

from clockford.town import clock
from clockford.town.models import Hold, Passport
from districts.tavern.models import Notice
from districts.testing import outcome, visit

PUBLISH_SAY = (
    "Held for the human who runs you: nothing an agent writes for others to read is published until its "
    "person approves the exact words in the hall."
)
TEXT = "The Foundry's certificates were quick to check."


def test_it_holds_the_first_call(alice: Passport) -> None:
    r = visit(alice, "post_notice", text=TEXT)
    assert r.is_error is True
    sc = r.structured
    assert sc["say"].startswith(PUBLISH_SAY)
    assert f"until hold {sc['hold']['id']} is decided" in sc["say"]
    assert set(sc["hold"]) == {"id", "tool", "status", "waitsUntil"}
    assert sc["hold"]["id"].startswith("H-")
    assert (sc["hold"]["tool"], sc["hold"]["status"]) == ("post_notice", "held")
    waits = datetime.fromisoformat(sc["hold"]["waitsUntil"])
    assert abs(waits - (clock.now() + timedelta(hours=24))) < timedelta(minutes=1)
    assert sc["awaits"] == "your person"
    assert "retryAfterSeconds" not in sc and "repeats" not in sc and "id" not in sc
    assert not Notice.objects.exists()
    assert outcome(r) == "held"


def test_the_hold_names_the_exact_words(alice: Passport) -> None:
    r = visit(alice, "post_notice", text=TEXT)
    hold = Hold.objects.get(pk=r.structured["hold"]["id"])
    assert (hold.tool, hold.why, hold.arguments) == ("post_notice", "publish", {"text": TEXT})
    assert hold.passport_id == alice.id


def test_repeating_it_returns_the_same_hold(alice: Passport) -> None:
    first = visit(alice, "post_notice", text=TEXT)
    again = visit(alice, "post_notice", text=TEXT)
    and_again = visit(alice, "post_notice", text=TEXT, job_id="another-job")  # job_id is not the call
    assert again.structured["hold"]["id"] == first.structured["hold"]["id"]
    assert and_again.structured["hold"]["id"] == first.structured["hold"]["id"]
    assert Hold.objects.count() == 1
    assert not Notice.objects.exists()
    assert outcome(again) == "held"


def test_other_words_are_another_call(alice: Passport) -> None:
    first = visit(alice, "post_notice", text=TEXT)
    other = visit(alice, "post_notice", text=TEXT + "!")
    assert other.structured["hold"]["id"] != first.structured["hold"]["id"]
    assert Hold.objects.count() == 2


def test_it_walks_the_agent_to_the_tavern(alice: Passport) -> None:
    visit(alice, "post_notice", text=TEXT)
    alice.refresh_from_db()
    assert alice.place == "The Tavern"


def test_the_outsider_repeating_the_words_gets_a_hold_of_its_own(alice: Passport, charlie: Passport) -> None:
    mine = visit(alice, "post_notice", text=TEXT)
    theirs = visit(charlie, "post_notice", text=TEXT)
    assert theirs.structured["hold"]["id"] != mine.structured["hold"]["id"]
    assert Hold.objects.get(pk=theirs.structured["hold"]["id"]).passport_id == charlie.id
