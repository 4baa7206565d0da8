"""What each passport sees of a parcel (000 section 08 trace; ARCHITECTURE invariant 2): the public face
for everyone, signed in or not; more for its publisher and its claimants; every value an agent wrote
labelled agent-written at its exact path, own: true only for the reader's own words; a channel's open
parcels and recent work for listen; the channel a parcel is on, for a plan's step."""

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest

from clockford.town import clock
from clockford.town.models import Passport
from clockford.town.tooling import Part
from districts.registry import TOOLS
from districts.switchboard import parcels
from districts.switchboard.tests.test_parcels_common import NOTE, RESULT, WORK, Publish, open_channel, post
from districts.testing import visit
from hall.models import Account

Opener = Callable[[Account, Account], None]
PUBLIC = {
    "id",
    "channel",
    "state",
    "version",
    "postedAt",
    "expiresAt",
    "attempt",
    "returnsLeft",
    "attempts",
    "history",
    "youCan",
    "words",
    "from",
}


def strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string in a reply, with its path as provenance names it (a.b[0].c)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from strings(v, f"{path}[{i}]")


def labelled(view: dict[str, Any], parts: list[Part], marker: str) -> dict[str, bool | None]:
    """The paths holding `marker`, each of which must be labelled agent-written: path -> own."""
    by_path = {p.path: p for p in parts}
    found: dict[str, bool | None] = {}
    for path, text in strings({"parcel": view}, ""):
        if marker in text:
            assert path in by_path, f"{path} carries someone's words unlabelled"
            assert by_path[path].label == "agent-written"
            found[path] = by_path[path].own
    return found


def test_a_stranger_without_sign_in_sees_the_public_face(
    alice: Passport, charlie: Passport, published: Publish
) -> None:
    open_channel(alice)
    posted = post(published, alice)
    seen = parcels.trace_view(charlie, posted["id"])
    assert seen is not None
    view, parts = seen
    assert set(view) == PUBLIC
    assert view["attempts"] == 0 and view["youCan"] == [] and view["words"] == posted["words"]
    assert [(p.path, p.label, p.own) for p in parts] == [
        ("parcel.channel", "agent-written", None),
        ("parcel.words.title", "agent-written", None),
        ("parcel.words.brief", "agent-written", None),
        ("parcel.words.doneWhen", "agent-written", None),
    ]


def test_a_number_that_does_not_exist_is_none(alice: Passport) -> None:
    for number in ("P-" + "6" * 12, "P-", "", "B-" + "6" * 12, "p-666666666666"):
        assert parcels.trace_view(alice, number) is None
        assert parcels.channel_of_parcel(number) is None


def test_every_word_an_agent_wrote_is_labelled_where_it_is_read(
    alice: Passport, alice2: Passport, bob: Passport, published: Publish
) -> None:
    for who, pennant in ((alice, "MARK-pennant-publisher"), (alice2, "MARK-pennant-claimant")):
        Passport.objects.filter(pk=who.pk).update(pennant=pennant)
        who.refresh_from_db()
    open_channel(alice)
    posted = post(
        published, alice, title="MARK-title", brief="MARK-brief of the work", done_when="MARK-done when it is"
    )
    visit(alice2, "take_parcel", parcel=posted["id"])
    visit(alice2, "hand_in", parcel=posted["id"], action="deliver", result="MARK-result of the work")
    visit(alice, "settle_parcel", parcel=posted["id"], action="return", note="MARK-note for rework", version=3)

    def seen_by(who: Passport) -> tuple[dict[str, Any], list[Part]]:
        found = parcels.trace_view(who, posted["id"])
        assert found is not None
        return found

    publisher = labelled(*seen_by(alice), "MARK")
    assert publisher == {
        "parcel.from": True,
        "parcel.words.title": True,
        "parcel.words.brief": True,
        "parcel.words.doneWhen": True,
        "parcel.attempts[0].from": None,
        "parcel.attempts[0].words.result": None,
        "parcel.attempts[0].words.note": True,
        "parcel.attempts[1].from": None,
    }
    claimant = labelled(*seen_by(alice2), "MARK")
    assert claimant == {
        "parcel.from": None,
        "parcel.words.title": None,
        "parcel.words.brief": None,
        "parcel.words.doneWhen": None,
        "parcel.attempts[0].words.result": True,
        "parcel.attempts[0].words.note": None,
    }
    stranger = labelled(*seen_by(bob), "MARK")
    assert stranger == {
        "parcel.from": None,
        "parcel.words.title": None,
        "parcel.words.brief": None,
        "parcel.words.doneWhen": None,
    }
    # And through the tools' own replies: the claimant's take, and the publisher's post.
    for key in ("you", "attempts"):
        assert key in seen_by(alice)[0] and key in seen_by(alice2)[0]
    assert seen_by(bob)[0]["attempts"] == 2


@pytest.mark.usefixtures("exchange_open")
def test_the_claimant_sees_only_its_own_attempts(
    alice: Passport, alice2: Passport, bob: Passport, published: Publish
) -> None:
    open_channel(alice)
    posted = post(published, alice)
    visit(alice2, "take_parcel", parcel=posted["id"])
    visit(alice2, "hand_in", parcel=posted["id"], action="deliver", result=RESULT)
    visit(alice, "settle_parcel", parcel=posted["id"], action="release", version=3)
    visit(bob, "take_parcel", parcel=posted["id"])
    visit(bob, "hand_in", parcel=posted["id"], action="deliver", result="Bob's own list.")
    bobs = parcels.trace_view(bob, posted["id"])
    assert bobs is not None
    assert bobs[0]["you"] == "claimant"
    assert [a["number"] for a in bobs[0]["attempts"]] == [2]
    assert RESULT not in str(bobs[0])
    former = parcels.trace_view(alice2, posted["id"])
    assert former is not None and former[0]["you"] == "former claimant"
    assert [a["number"] for a in former[0]["attempts"]] == [1] and "Bob's own list." not in str(former[0])
    publisher = parcels.trace_view(alice, posted["id"])
    assert publisher is not None and [a["outcome"] for a in publisher[0]["attempts"]] == ["released", "delivered"]
    assert NOTE  # (the note of a return is shown in the settle tests)


def test_you_can_says_what_this_passport_may_do_now(
    alice: Passport,
    bob: Passport,
    charlie: Passport,
    account_a: Account,
    account_b: Account,
    open_exchange: Opener,
    published: Publish,
) -> None:
    open_channel(alice)
    posted = post(published, alice)

    def can(who: Passport) -> list[str]:
        found = parcels.trace_view(who, posted["id"])
        assert found is not None
        return list(found[0]["youCan"])

    assert can(alice) == ["settle_parcel withdraw"]
    assert can(bob) == [] and can(charlie) == []
    open_exchange(account_a, account_b)
    assert can(bob) == ["take_parcel"]
    visit(bob, "take_parcel", parcel=posted["id"])
    assert can(bob) == ["take_parcel", "hand_in deliver", "hand_in give_back"]
    assert can(alice) == ["settle_parcel release", "settle_parcel withdraw"]
    visit(bob, "hand_in", parcel=posted["id"], action="give_back")
    assert can(bob) == []  # it had it once


def test_a_channel_lists_its_open_parcels_and_recent_work(
    alice: Passport, alice2: Passport, bob: Passport, published: Publish
) -> None:
    open_channel(alice)
    open_channel(alice, "elsewhere")
    old = post(published, alice, title="Old")["id"]
    visit(alice2, "take_parcel", parcel=old)
    visit(alice2, "hand_in", parcel=old, action="deliver", result=RESULT)
    visit(alice, "settle_parcel", parcel=old, action="accept")
    clock.advance(timedelta(days=8))
    done = post(published, alice, title="Done")["id"]
    working = post(published, alice, title="Working")["id"]
    waiting = post(published, alice, title="Waiting")["id"]
    post(published, alice, channel="elsewhere", title="Elsewhere")
    visit(alice2, "take_parcel", parcel=done)
    visit(alice2, "hand_in", parcel=done, action="deliver", result=RESULT)
    visit(alice, "settle_parcel", parcel=done, action="accept")
    clock.advance(timedelta(minutes=1))
    visit(alice2, "take_parcel", parcel=working)

    mine = parcels.on_channel("lanterns", alice)
    assert [(item["id"], own) for item, own in mine["openParcels"]] == [(waiting, True)]
    assert [(item["id"], item["state"]) for item, _ in mine["recentWork"]] == [(working, "claimed"), (done, "done")]
    theirs = parcels.on_channel("lanterns", bob)
    assert [own for _, own in theirs["openParcels"] + theirs["recentWork"]] == [False, False, False]
    for item, _ in theirs["openParcels"] + theirs["recentWork"]:
        assert "history" not in item and set(item) <= PUBLIC | {"claimLapsesAt", "settleBy", "settledAt"}
        agent_written = [path for path, _ in strings(item, "") if path.startswith("words.")]
        assert all(path in ("words.title", "words.brief", "words.doneWhen") for path in agent_written)
    assert theirs["openParcels"][0][0]["words"]["title"] == "Waiting"
    assert "words" not in theirs["recentWork"][1][0]  # settled: no words
    # A claim past its hour puts the parcel back among the open ones, read without writing.
    clock.advance(timedelta(hours=1))
    again = parcels.on_channel("lanterns", bob)
    assert {item["id"] for item, _ in again["openParcels"]} == {waiting, working}
    assert parcels.on_channel("nowhere", bob) == {"openParcels": [], "recentWork": []}


def test_a_parcel_names_its_channel_for_a_plans_step(alice: Passport, published: Publish) -> None:
    open_channel(alice)
    posted = post(published, alice)
    assert parcels.channel_of_parcel(posted["id"]) == "lanterns"
    for tool in ("take_parcel", "hand_in", "settle_parcel"):
        channel_of = TOOLS[tool].channel_of
        assert channel_of is not None
        args = TOOLS[tool].args.model_validate(
            {
                "parcel": posted["id"],
                **({} if tool == "take_parcel" else {"action": "give_back" if tool == "hand_in" else "accept"}),
            }
        )
        assert channel_of(args) == "lanterns"
    assert WORK
