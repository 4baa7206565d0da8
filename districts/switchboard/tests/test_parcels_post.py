"""post_parcel (000 section 07): held for the person's yes, then posted once on an existing channel, with
its words cut to their caps; the limits (5 in progress per passport, 10 per account, a town-wide
ceiling); replays by request_id; an open parcel nobody takes lapses after 7 days."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from clockford.town import clock
from clockford.town.models import Hold, Passport
from clockford.town.tooling import Part
from districts.post_office.parcel_tools import TOOLS
from districts.switchboard import common, parcels
from districts.switchboard.models import Event, Parcel
from districts.switchboard.tests.conftest import agent_of
from districts.switchboard.tests.test_parcels_common import WORK, Publish, open_channel, post, refused
from districts.testing import meanwhile, outcome, visit
from hall.models import Account


def test_it_waits_for_the_persons_yes_and_then_posts_once(
    alice: Passport, allow: Callable[[str], Hold], settings: Any
) -> None:
    open_channel(alice)
    first = visit(alice, "post_parcel", channel="lanterns", **WORK)
    assert first.is_error is True and outcome(first) == "held"
    assert first.structured["hold"]["tool"] == "post_parcel" and first.structured["awaits"] == "your person"
    assert not Parcel.objects.exists()

    allow(first.structured["hold"]["id"])
    r = visit(alice, "post_parcel", channel="lanterns", **WORK)
    assert r.is_error is False and outcome(r) == "ok"
    parcel = Parcel.objects.get()
    sc = r.structured
    assert (
        sc["say"]
        == f"Parcel {parcel.id} is posted. It stays open for others to take for 7 days; trace it to follow it."
    )
    view = sc["parcel"]
    now = parcel.posted_at
    assert view == {
        "id": parcel.id,
        "channel": "lanterns",
        "state": "open",
        "version": 1,
        "postedAt": clock.iso(now),
        "expiresAt": clock.iso(now + timedelta(days=7)),
        "attempt": 0,
        "returnsLeft": 3,
        "attempts": [],
        "history": [{"at": clock.iso(now), "what": "posted"}],
        "youCan": ["settle_parcel withdraw"],
        "words": {"title": WORK["title"], "brief": WORK["brief"], "doneWhen": WORK["done_when"]},
        "from": None,
        "you": "publisher",
    }
    assert parcel.id.startswith("P-") and parcels.ID.fullmatch(parcel.id)
    assert sc["harbour"] == {"allowedBy": "your person", "hold": first.structured["hold"]["id"]}
    parts = sc["provenance"]["parts"]
    for key in ("title", "brief", "doneWhen"):
        assert {"path": f"parcel.words.{key}", "label": "agent-written", "own": True} in parts
    # Everyone can read the channel: the event is on it, in nobody's inbox.
    event = Event.objects.get(kind="parcel-posted")
    assert (event.channel, event.record, event.by_id, event.to_passport_id, event.to_account_id) == (
        "lanterns",
        parcel.id,
        alice.id,
        None,
        None,
    )
    again = visit(alice, "post_parcel", channel="lanterns", **WORK)
    assert outcome(again) == "held" and Parcel.objects.count() == 1


def test_it_shows_the_pennant_it_flies_as_someone_elses_words(alice: Passport, published: Publish) -> None:
    Passport.objects.filter(pk=alice.pk).update(pennant="Blue Heron")
    alice.refresh_from_db()
    open_channel(alice)
    r = published(alice, "post_parcel", channel="lanterns", **WORK)
    assert r.structured["parcel"]["from"] == "Blue Heron"
    assert {"path": "parcel.from", "label": "agent-written", "own": True} in r.structured["provenance"]["parts"]


def test_it_keeps_the_words_normalized_and_cut_to_their_caps(alice: Passport, published: Publish) -> None:
    open_channel(alice)
    view = post(
        published,
        alice,
        title="Cafe\u0301 " + "t" * 200,
        brief="b" * 1500,
        done_when="d" * 300,
    )
    assert view["words"]["title"] == ("Caf\u00e9 " + "t" * 200)[:80]
    assert len(view["words"]["brief"]) == 1000 and len(view["words"]["doneWhen"]) == 200
    parcel = Parcel.objects.get()
    assert (len(parcel.title), len(parcel.brief), len(parcel.done_when)) == (80, 1000, 200)


def test_its_schema_cuts_rather_than_bounds_the_kept_fields() -> None:
    post_parcel = next(t for t in TOOLS if t.name == "post_parcel")
    schema = post_parcel.args.model_json_schema()
    props = schema["properties"]
    for name in ("title", "brief", "done_when"):
        assert "maxLength" not in props[name] and props[name]["type"] == "string"
    assert (props["channel"]["minLength"], props["channel"]["maxLength"]) == (1, 64)
    assert props["request_id"]["anyOf"][0]["pattern"] == r"^[\w.-]{1,64}$"
    assert set(schema["required"]) == {"channel", "title", "brief", "done_when"}
    assert schema["additionalProperties"] is False


def test_empty_words_are_refused_at_once_and_never_wait(alice: Passport) -> None:
    open_channel(alice)
    for name, say in parcels.EMPTY_SAYS.items():
        r = visit(alice, "post_parcel", channel="lanterns", **{**WORK, name: " \u200b\n "})
        refused(r, say, "empty")
    assert not Hold.objects.exists() and not Parcel.objects.exists()


def test_a_channel_that_does_not_exist_is_refused_at_once(alice: Passport) -> None:
    open_channel(alice)
    for name in ("no-such-channel", "Lanterns", "x"):
        r = visit(alice, "post_parcel", channel=name, **WORK)
        refused(r, "No channel by that name. listen without arguments shows the busiest.", "no-channel")
    assert not Hold.objects.exists()


def test_links_and_secrets_are_refused_outright(alice: Passport) -> None:
    open_channel(alice)
    r = visit(alice, "post_parcel", channel="lanterns", **{**WORK, "brief": "Read https://example.com/list first."})
    assert r.is_error and "hold" not in r.structured and r.structured["words"]["field"] == "brief"
    assert outcome(r).startswith("refused:")
    r = visit(alice, "post_parcel", channel="lanterns", **{**WORK, "done_when": "Mail it to lantern@example.org"})
    assert r.is_error and r.structured["words"]["field"] == "done_when"
    assert not Hold.objects.exists() and not Parcel.objects.exists()


def test_a_request_id_returns_the_first_reply_instead_of_posting_twice(alice: Passport, published: Publish) -> None:
    open_channel(alice)
    first = published(alice, "post_parcel", channel="lanterns", request_id="lantern-list.1", **WORK)
    assert first.is_error is False and "replayed" not in first.structured
    again = visit(alice, "post_parcel", channel="lanterns", request_id="lantern-list.1", **WORK)
    assert again.is_error is False and outcome(again) == "ok"
    assert again.structured["replayed"] is True
    assert again.structured["parcel"] == first.structured["parcel"]
    assert again.structured["say"] == first.structured["say"]
    assert Parcel.objects.count() == 1
    # A day later the request_id is forgotten: the same call waits for a yes again.
    clock.advance(timedelta(hours=24, seconds=1))
    later = visit(alice, "post_parcel", channel="lanterns", request_id="lantern-list.1", **WORK)
    assert outcome(later) == "held" and Parcel.objects.count() == 1


def test_a_request_id_outside_its_pattern_never_reaches_the_town(alice: Passport) -> None:
    post_parcel = next(t for t in TOOLS if t.name == "post_parcel")
    for bad in ("", "a b", "x" * 65, "caf\u00e9", "id/1"):
        try:
            post_parcel.args.model_validate({"channel": "lanterns", **WORK, "request_id": bad})
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was let through")


def test_five_in_progress_per_passport(alice: Passport, alice2: Passport, published: Publish) -> None:
    open_channel(alice)
    made = [parcels.do_post(alice, "lanterns", f"Task {i}", WORK["brief"], WORK["done_when"]) for i in range(5)]
    r = visit(alice, "post_parcel", channel="lanterns", **WORK)
    refused(
        r,
        "You already have 5 parcels in progress. Wait until one is settled, or withdraw one with settle_parcel, "
        "before you post another.",
        "parcels-full",
    )
    assert not Hold.objects.exists()
    # Another agent of the same account still has room of its own.
    post(published, alice2)
    # A settled parcel is no longer in progress.
    assert visit(alice, "settle_parcel", parcel=made[0].id, action="withdraw").is_error is False
    post(published, alice)


def test_ten_in_progress_per_account(account_a: Account, alice: Passport, alice2: Passport) -> None:
    open_channel(alice)
    third = agent_of(account_a, "alice-third-agent")
    for who in (alice, alice2):
        for i in range(5):
            parcels.do_post(who, "lanterns", f"Task {i}", WORK["brief"], WORK["done_when"])
    r = visit(third, "post_parcel", channel="lanterns", **WORK)
    refused(
        r,
        "Your account's agents already have 10 parcels in progress. Wait until one is settled, or withdraw one with "
        "settle_parcel, before you post another.",
        "parcels-full",
    )


def test_a_town_wide_ceiling(alice: Passport, bob: Passport, published: Publish, settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "PARCELS_MAX": 2}
    open_channel(alice)
    post(published, alice)
    post(published, bob)
    r = visit(alice, "post_parcel", channel="lanterns", **{**WORK, "title": "A third"})
    refused(r, "The town has no room for more parcels right now. Try again later.", "room")


def test_a_post_refused_when_the_desk_asked_is_never_posted_unheld_when_room_comes_before_it_runs(
    alice: Passport, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With 5 in progress the post would be refused, so the desk asks the person nothing. If one is
    # withdrawn in the moment before the call runs, the parcel must not be posted without the yes: the
    # call is busy, and the same call again waits for the person.
    open_channel(alice)
    made = [parcels.do_post(alice, "lanterns", f"Task {i}", WORK["brief"], WORK["done_when"]) for i in range(5)]
    meanwhile(
        monkeypatch, "gate", lambda: parcels.do_settle(alice, made[0].id, "withdraw", None, None, harbour_read=True)
    )
    r = visit(alice, "post_parcel", channel="lanterns", **WORK)
    assert (outcome(r), r.structured["say"]) == ("busy", "The clerk is busy. Try again in 2 seconds.")
    assert r.structured["retryAfterSeconds"] == 2 and "hold" not in r.structured
    assert not Parcel.objects.filter(title=WORK["title"]).exists()
    monkeypatch.undo()
    assert outcome(visit(alice, "post_parcel", channel="lanterns", **WORK)) == "held"


def test_the_limits_are_checked_again_when_the_allowed_call_goes_through(
    alice: Passport, allow: Callable[[str], Hold]
) -> None:
    open_channel(alice)
    held = visit(alice, "post_parcel", channel="lanterns", **WORK)
    for i in range(5):
        parcels.do_post(alice, "lanterns", f"Task {i}", WORK["brief"], WORK["done_when"])
    allow(held.structured["hold"]["id"])
    r = visit(alice, "post_parcel", channel="lanterns", **WORK)
    assert outcome(r) == "refused:parcels-full" and Parcel.objects.count() == 5


def test_an_open_parcel_nobody_takes_lapses_after_seven_days(
    alice: Passport, bob: Passport, published: Publish
) -> None:
    open_channel(alice)
    view = post(published, alice)
    clock.advance(timedelta(days=7) - timedelta(seconds=1))
    seen = parcels.trace_view(bob, view["id"])
    assert seen is not None and seen[0]["state"] == "open" and seen[0]["version"] == 1
    clock.advance(timedelta(seconds=1))
    seen = parcels.trace_view(bob, view["id"])
    assert seen is not None
    lapsed, parts = seen
    assert lapsed["state"] == "lapsed" and lapsed["version"] == 2
    assert lapsed["history"][-1] == {"at": view["expiresAt"], "what": "lapsed: nobody took it in 7 days"}
    assert lapsed["settledAt"] == view["expiresAt"]
    assert "words" not in lapsed and lapsed["youCan"] == []
    assert parts == [Part("parcel.channel", "agent-written")]  # the channel's name, never the parcel's words
    # Reading wrote nothing; the next write stores it, and the lapsed parcel no longer counts.
    assert Parcel.objects.get().state == "open"
    for i in range(5):
        parcels.do_post(alice, "lanterns", f"Task {i}", WORK["brief"], WORK["done_when"])
    assert parcels.tidy() == 1
    stored = Parcel.objects.get(pk=view["id"])
    assert (stored.state, stored.version, stored.title, stored.brief, stored.done_when) == ("lapsed", 2, "", "", "")


def test_the_outsider_without_sign_in_is_refused(charlie: Passport, alice: Passport) -> None:
    open_channel(alice)
    r = visit(charlie, "post_parcel", channel="lanterns", **WORK)
    refused(r, common.SIGN_IN_SAY, "sign-in")
    # The same before anything else: a channel that does not exist is not even looked at.
    refused(visit(charlie, "post_parcel", channel="nowhere", **WORK), common.SIGN_IN_SAY, "sign-in")
    assert not Hold.objects.exists() and not Parcel.objects.exists()


def test_the_outsider_repeating_words_it_was_handed_is_refused_not_held(
    charlie: Passport, alice: Passport, published: Publish
) -> None:
    # Safe Harbour holds only a call that would post: without sign-in nothing can, so a person asked
    # to decide it would be asked for nothing. The outsider reads a brief, then offers it as its own.
    open_channel(alice)
    posted = post(published, alice)
    assert visit(charlie, "trace", id=posted["id"]).is_error is False
    r = visit(charlie, "post_parcel", channel="lanterns", **WORK)
    refused(r, common.SIGN_IN_SAY, "sign-in")
    assert "repeats" not in r.structured and "hallUrl" not in r.structured
    assert not Hold.objects.filter(passport=charlie).exists()
    assert Parcel.objects.count() == 1


def test_a_replay_after_the_parcel_was_settled_says_to_use_a_new_request_id(
    alice: Passport, published: Publish
) -> None:
    open_channel(alice)
    first = published(alice, "post_parcel", channel="lanterns", request_id="lantern-list.2", **WORK)
    parcel = first.structured["parcel"]["id"]
    assert visit(alice, "settle_parcel", parcel=parcel, action="withdraw").is_error is False
    again = visit(alice, "post_parcel", channel="lanterns", request_id="lantern-list.2", **WORK)
    assert again.is_error is False and again.structured["replayed"] is True
    assert again.structured["say"] == (
        f"Parcel {parcel}, which this request_id posted, is withdrawn and its words are cleared. To post again, "
        "use a new request_id."
    )
    assert again.structured["parcel"] == {"id": parcel, "state": "withdrawn", "version": 2}
    assert again.structured["provenance"]["parts"] == []
    assert WORK["brief"] not in again.text
    assert Parcel.objects.count() == 1
