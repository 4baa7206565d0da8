"""The visa (000 section 20): a passport in its first day is issued one the first time it asks; it gives
no extra allowance, and while it holds, each of its next three refusals carries one more text block of
plain next steps, read from the reply's class (001 section 04), never from the tool's name."""

from datetime import timedelta
from typing import Any

import pytest

from clockford.town import clock
from clockford.town.models import Passport
from clockford.town.tooling import counted
from districts.embassies import services
from districts.embassies.models import Visa
from districts.testing import outcome, visit

ISSUED = " A visa is issued to you: your next 3 refusals carry plain next steps."
NOTHING_KEPT = "Nothing kept under that key."


def test_a_first_day_passport_is_issued_a_visa_the_first_time_it_asks(alice: Passport) -> None:
    r = visit(alice, "embassy")
    assert r.structured["say"].endswith(ISSUED)
    visa = r.structured["visa"]
    assert set(visa) == {"issuedAt", "until", "holds", "refusalsLeft", "of", "gives"}
    assert (visa["holds"], visa["refusalsLeft"], visa["of"]) == (True, 3, 3)
    assert visa["until"] == clock.iso(alice.issued_at + timedelta(days=1))
    assert visa["gives"].startswith("No extra allowance")
    again = visit(alice, "embassy", desk="http")
    assert again.structured["visa"] == visa
    assert not again.structured["say"].endswith(ISSUED)
    assert Visa.objects.filter(passport=alice).count() == 1


def test_a_passport_past_its_first_day_gets_none(alice: Passport) -> None:
    clock.advance(timedelta(days=1, seconds=1))
    r = visit(alice, "embassy")
    assert r.structured["visa"] is None and not r.structured["say"].endswith(ISSUED)
    assert not Visa.objects.exists()
    refused = visit(alice, "recall", key="nothing-here")
    assert refused.blocks == ()


def test_without_a_visa_a_refusal_is_one_text_block(alice: Passport) -> None:
    r = visit(alice, "recall", key="nothing-here")
    assert r.is_error is True and r.structured["say"].startswith(NOTHING_KEPT)
    assert r.blocks == ()


def test_the_next_three_refusals_carry_next_steps_and_no_more(alice: Passport) -> None:
    visit(alice, "embassy")
    blocks = []
    for _ in range(4):
        r = visit(alice, "recall", key="nothing-here")
        assert r.is_error is True and outcome(r) == "refused:not-found"
        blocks.append(r.blocks)
    assert [len(b) for b in blocks] == [1, 1, 1, 0]
    assert blocks[0][0].startswith("Visa, next steps (2 of 3 left on your visa): Read say: it names what to fix.")
    assert blocks[2][0].startswith("Visa, next steps (0 of 3 left on your visa): ")
    visa = visit(alice, "embassy").structured["visa"]
    assert (visa["holds"], visa["refusalsLeft"]) == (False, 0)


def test_a_reply_that_did_what_it_asked_uses_nothing(alice: Passport) -> None:
    visit(alice, "embassy")
    ok = visit(alice, "look_around")
    assert ok.is_error is False and ok.blocks == ()
    assert visit(alice, "embassy").structured["visa"]["refusalsLeft"] == 3


def test_the_structured_reply_is_the_same_with_or_without_a_visa(alice: Passport, bob: Passport) -> None:
    visit(alice, "embassy")
    with_visa = visit(alice, "recall", key="nothing-here").structured
    without = visit(bob, "recall", key="nothing-here").structured
    strip = {"footstep"}
    assert {k: v for k, v in with_visa.items() if k not in strip} == {
        k: v for k, v in without.items() if k not in strip
    }


def test_held_calls_are_told_to_poll_show_passport(alice: Passport) -> None:
    visit(alice, "embassy")
    r = visit(alice, "post_notice", text="The census answered quickly today.")
    assert outcome(r) == "held"
    (steps,) = r.blocks
    assert f"hold {r.structured['hold']['id']} waits for them in the hall" in steps
    assert "Then poll show_passport (harbour.held) until its status changes, not this call." in steps
    assert "Allowed: make exactly the same call once more. Refused: stop." in steps


def test_refused_words_are_told_to_reword(alice: Passport) -> None:
    visit(alice, "embassy")
    r = visit(alice, "post_notice", text="See https://example.com for the kits.")
    assert outcome(r) == "refused:link"
    assert r.blocks == (
        "Visa, next steps (2 of 3 left on your visa): Reword text without the passage in words.matched, then send "
        "it again. A refusal of words never counts against you.",
    )


def test_a_busy_clerk_is_told_to_wait_its_seconds(alice: Passport, settings: Any) -> None:
    visit(alice, "embassy")
    settings.CLOCKFORD = {**settings.CLOCKFORD, "CALLS_PER_MINUTE": 2}
    visit(alice, "look_around")
    r = visit(alice, "look_around")
    assert outcome(r) == "busy"
    wait = r.structured["retryAfterSeconds"]
    assert r.blocks[0].startswith(
        f"Visa, next steps (2 of 3 left on your visa): Wait {counted(wait, 'second', 'seconds')}, then make the same "
        "call once more."
    )


def test_a_visa_ends_with_the_first_day(alice: Passport) -> None:
    visit(alice, "embassy")
    clock.advance(timedelta(days=1))
    assert visit(alice, "recall", key="nothing-here").blocks == ()
    assert visit(alice, "embassy").structured["visa"] is None


def test_the_sweep_takes_only_visas_past_their_first_day(alice: Passport, bob: Passport) -> None:
    visit(alice, "embassy")
    clock.advance(timedelta(hours=12))
    bob.issued_at = clock.now()
    Passport.objects.filter(pk=bob.pk).update(issued_at=bob.issued_at)
    visit(bob, "embassy")
    clock.advance(timedelta(hours=13))
    assert services.tidy(clock.now()) == {"embassies_visa": 1}
    assert list(Visa.objects.values_list("passport_id", flat=True)) == [bob.pk]
    assert visit(bob, "embassy").structured["visa"]["refusalsLeft"] == 3
    assert services.tidy(clock.now()) == {"embassies_visa": 0}


def test_the_steps_are_read_from_the_reply_class_not_the_tool() -> None:
    assert services._steps_for("frozen", {"report": "R-ABC"})[0].endswith("reviews report R-ABC.")
    assert services._steps_for("closed", {})[0].startswith("Stop, and tell your person.")
    secret = services._steps_for("refused:secret", {"words": {"field": "value", "kind": "a GitHub token"}})
    assert secret[0].startswith("Tell your person: what you sent in value looks like a secret")
    refused_hold = services._steps_for("refused:person", {"hold": {"id": "H-1", "status": "refused"}})
    assert refused_hold == ["Your person refused this exact call. Stop, and do not try it another way."]


def test_the_outsider_never_uses_anothers_visa(alice: Passport, charlie: Passport) -> None:
    visit(alice, "embassy")
    assert visit(charlie, "recall", key="nothing-here").blocks == ()
    assert visit(alice, "embassy").structured["visa"]["refusalsLeft"] == 3


STOP = "Stop, and tell your person. Do not retry this."


@pytest.mark.parametrize("ruling", ["ban", "rehab"])
def test_a_closed_reply_of_any_kind_is_told_to_stop(db: None, ruling: str) -> None:
    # 001 section 04 "Closed: stop": a closed passport, a barred account, the rehab ward and a withheld
    # reply all say "Do not retry these. Stop, and tell your person." A visa must not tell such an agent
    # to check its ids and try again.
    from tests.fixtures import agent
    from tests.test_closures import closed, ruled

    ada = agent("Ada")
    visit(ada, "embassy")
    ruled(closed(ada), ruling)
    r = visit(ada, "remember", key="k", value="v")
    assert outcome(r) == f"closed:{'banned' if ruling == 'ban' else 'rehab'}"
    assert r.blocks == (f"Visa, next steps (2 of 3 left on your visa): {STOP}",)


def test_a_withheld_reply_is_told_to_stop() -> None:
    assert services._steps_for("withheld", {}) == [STOP]
