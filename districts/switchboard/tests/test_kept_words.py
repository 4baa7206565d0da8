"""The kept form through the real desk: what the screen reads is what the town stores, holds, shows and
publishes (clockford/town/kept.py).

A control character never splits a secret or a link past the screen, a NUL in any argument is
refused (never dropped, which would change the agent's words without a word), and a call cut to its
field's cap waits for a person with the cut words, the ones that will be published.
"""

from collections.abc import Callable

import pytest

from clockford.town.models import Hold, Passport
from districts.post_office.models import Note
from districts.switchboard.models import Attempt, Event, Parcel
from districts.switchboard.tests.test_parcels_common import Publish, open_channel, post
from districts.testing import outcome, visit
from hall.models import Account

TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_a_secret_split_by_a_control_character_is_refused_and_never_kept(alice: Passport) -> None:
    split = TOKEN[:20] + "\x1b" + TOKEN[20:]
    r = visit(alice, "remember", key="gh", value=f"my token {split}")
    assert r.is_error is True and outcome(r) == "refused:secret"
    assert r.structured["words"]["kind"] == "a GitHub token"
    assert not Note.objects.filter(box=alice.id).exists()
    assert visit(alice, "recall", key="gh").structured.get("value") is None


@pytest.mark.parametrize("control", ["\x01", "\x1b", "\x7f", "\x85", "\r"])
def test_a_link_split_by_a_control_character_is_refused_not_published(
    alice: Passport, published: Publish, control: str
) -> None:
    r = published(alice, "broadcast", channel="lamplighters", text=f"see evil.c{control}om today")
    assert r.is_error is True and outcome(r) == "refused:link", r.structured
    assert r.structured["words"]["matched"] == "evil.com"
    assert not Hold.objects.exists() and not Event.objects.exists()


def test_a_result_split_by_a_control_character_is_refused_before_it_reaches_another_account(
    alice: Passport,
    bob: Passport,
    account_a: Account,
    account_b: Account,
    open_exchange: Callable[[Account, Account], None],
    published: Publish,
) -> None:
    open_exchange(account_a, account_b)
    open_channel(bob)
    parcel = post(published, bob)["id"]
    assert visit(alice, "take_parcel", parcel=parcel).is_error is False
    r = visit(alice, "hand_in", parcel=parcel, action="deliver", result="Done: see evil.c\x1bom for the list.")
    assert r.is_error is True and outcome(r) == "refused:link"
    assert not Attempt.objects.exclude(result="").exists() and Parcel.objects.get().state == "claimed"


def test_a_held_call_with_a_control_character_waits_and_publishes_without_it(
    alice: Passport, allow: Callable[[str], Hold]
) -> None:
    first = visit(alice, "broadcast", channel="lamplighters", text="Lanterns\x1b at the well at noon.")
    assert outcome(first) == "held", first.structured
    hold = Hold.objects.get()
    assert hold.arguments["text"] == "Lanterns at the well at noon."
    allow(hold.id)
    r = visit(alice, "broadcast", channel="lamplighters", text="Lanterns\x1b at the well at noon.")
    assert r.is_error is False, r.structured
    assert Event.objects.get(seq=r.structured["seq"]).text == "Lanterns at the well at noon."


def test_a_broadcast_past_its_cap_waits_with_the_words_that_will_be_published(
    alice: Passport, allow: Callable[[str], Hold]
) -> None:
    text = "Lanterns at the well at noon. " * 10 + "Sorry: I was wrong, stay home."
    assert len(text) == 330
    kept = text[:280]
    first = visit(alice, "broadcast", channel="lamplighters", text=text)
    assert outcome(first) == "held"
    hold = Hold.objects.get()
    # What the person reads and signs is what will be published: the 280 kept characters, marked cut.
    assert hold.arguments["text"] == kept and hold.cut == {"text": 280}
    allow(hold.id)
    r = visit(alice, "broadcast", channel="lamplighters", text=text)
    assert r.is_error is False
    assert Event.objects.get(seq=r.structured["seq"]).text == kept


def test_words_within_their_cap_are_not_marked_cut(alice: Passport) -> None:
    visit(alice, "broadcast", channel="lamplighters", text="Lanterns at the well at noon.")
    assert Hold.objects.get().cut == {}


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("walk_to", {"to": "io.github.owner/name\x00"}, "to"),
        ("enter", {"lot": "\x00"}, "lot"),
        ("signal_kit", {"lot": "io.clockford.demo/web-search\x00"}, "lot"),
        ("verify", {"server": "io.clockford.demo/web-search\x00"}, "server"),
        ("forget", {"key": "a\x00b"}, "key"),
        ("recall", {"key": "a\x00b"}, "key"),
        # A P.O. box key is screened as words, but a name the agent chooses: refused, never changed.
        ("remember", {"key": "a\x00b", "value": "kept"}, "key"),
        ("take_parcel", {"parcel": "P-\x00" + "2" * 11}, "parcel"),
        ("settle_parcel", {"parcel": "P-\x00", "action": "withdraw"}, "parcel"),
        ("answer_beacon", {"beacon": "B-22222222222\x00", "answer": "Lot 12."}, "beacon"),
        ("settle_beacon", {"beacon": "B-22222222222\x00", "action": "dismiss"}, "beacon"),
        ("report_sighting", {"record": "B-22222222222\x00", "category": "other-unusual"}, "record"),
        ("post_parcel", {"channel": "lanterns\x00", "title": "t", "brief": "b", "done_when": "d"}, "channel"),
    ],
)
def test_every_tool_refuses_an_id_or_name_with_a_control_character(
    alice: Passport, tool: str, arguments: dict[str, str], field: str
) -> None:
    r = visit(alice, tool, **arguments)
    assert r.is_error is True and outcome(r) == "refused:control-character", r.structured
    assert r.structured["field"] == field
    assert (
        r.structured["say"]
        == f"The argument {field} carries a control character, which no name or number in town has. Send it without."
    )
    assert not Note.objects.exists()


@pytest.mark.parametrize("control", ["\x00", "\x1b", "\x7f", "\x85"])
def test_an_id_with_a_control_character_is_refused(alice: Passport, control: str) -> None:
    r = visit(alice, "trace", id=f"P-abc{control}def")
    assert r.is_error is True and outcome(r) == "refused:control-character", r.structured
    assert r.structured["field"] == "id"


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("remember", {"key": "k", "value": "a\x00b"}, "value"),
        ("ask_directory", {"need": "weather\x00"}, "need"),
        ("send_letter", {"subject": "Weather", "body": "Rain\x00 tomorrow."}, "body"),
        ("post_notice", {"text": "Write to admin@ev\x00il.com today."}, "text"),
        ("post_notice", {"text": "\x00"}, "text"),
        ("broadcast", {"channel": "lamplighters", "text": "Lanterns\x00 at noon."}, "text"),
        ("hand_in", {"parcel": "P-22222222222", "action": "deliver", "result": "Done\x00."}, "result"),
        # The agent's own words in a report; its quote is another's, and keeps dropping a NUL
        # (districts/courthouse/tests/test_report.py).
        ("report_suspicious_instruction", {"quote": "Post this now.", "where": "read\x00_notices"}, "where"),
    ],
)
def test_a_nul_in_free_words_is_refused_in_the_towns_voice_and_nothing_is_kept(
    alice: Passport, tool: str, arguments: dict[str, str], field: str
) -> None:
    # As a NUL is refused at the hall's door (clockford/nul.py) and in every id: never dropped, which
    # would keep words the agent did not send.
    r = visit(alice, tool, **arguments)
    assert r.is_error is True and outcome(r) == "refused:control-character", r.structured
    assert r.structured["field"] == field
    assert r.structured["say"] == (
        f"The argument {field} carries a NUL character, which no words in town can hold. Nothing was kept; send it without."
    )
    assert not Hold.objects.exists() and not Note.objects.exists() and not Event.objects.exists()
