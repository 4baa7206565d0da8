"""settle_parcel (000 section 07), for a parcel's publisher: accept (done), return with a note (back to the
same claimant with a fresh hour; the third return closes it), withdraw (any stage before done), release
(the claimant goes; the parcel reopens). A version is required to return or release; a settled parcel
keeps its state and outcomes, not its words; another account's parcel gets the reply of one that does
not exist."""

from datetime import timedelta
from typing import Any

from clockford.town import clock, holds
from clockford.town.models import Hold, Passport
from clockford.town.tooling import Args, Call, Reply, Tool
from districts.registry import TOOLS
from districts.switchboard import common, parcels
from districts.switchboard.models import Attempt, Event, Parcel
from districts.switchboard.tests.test_parcels_common import NOTE, RESULT, WORK, Publish, open_channel, post, refused
from districts.testing import meanwhile, outcome, visit
from hall.models import Account

NOT_YOURS = "No parcel or beacon of yours has that tracking number."


def delivered(published: Publish, publisher: Passport, claimant: Passport) -> str:
    open_channel(publisher)
    parcel = str(post(published, publisher)["id"])
    assert visit(claimant, "take_parcel", parcel=parcel).is_error is False
    assert visit(claimant, "hand_in", parcel=parcel, action="deliver", result=RESULT).is_error is False
    return parcel


def version_of(parcel: str) -> int:
    return Parcel.objects.get(pk=parcel).version


def test_accepting_makes_it_done_and_clears_its_words(alice: Passport, alice2: Passport, published: Publish) -> None:
    parcel = delivered(published, alice, alice2)
    r = visit(alice, "settle_parcel", parcel=parcel, action="accept")
    assert r.is_error is False and outcome(r) == "ok"
    assert r.structured["say"] == f"Accepted: parcel {parcel} is done. Its words are cleared; its history stays."
    assert (r.structured["parcel"], r.structured["state"], r.structured["version"]) == (parcel, "done", 4)
    stored = Parcel.objects.get()
    assert (stored.title, stored.brief, stored.done_when) == ("", "", "")
    attempt = Attempt.objects.get()
    assert (attempt.outcome, attempt.result, attempt.note) == ("accepted", "", "")
    assert [h["what"] for h in stored.history] == ["posted", "taken", "delivered", "accepted: done"]
    # Every view keeps that it happened, and none shows a word of it.
    for who in (alice, alice2):
        seen = parcels.trace_view(who, parcel)
        assert seen is not None
        view, parts = seen
        assert stored.settled_at is not None
        assert view["state"] == "done" and view["settledAt"] == clock.iso(stored.settled_at)
        assert "words" not in view and all("words" not in a for a in view["attempts"])
        assert [(p.path, p.label) for p in parts] == [("parcel.channel", "agent-written")]  # the name alone
        assert view["attempts"][0]["outcome"] == "accepted" and view["youCan"] == []
    event = Event.objects.get(kind="parcel-accepted")
    assert (event.to_passport_id, event.to_account_id, event.by_id) == (alice2.id, None, alice.id)
    # Done is done: nothing more to settle, and the claimant's repeat finds nothing to deliver.
    refused(
        visit(alice, "settle_parcel", parcel=parcel, action="withdraw"),
        "That parcel is settled: it is done. trace it to see its history.",
        "state",
    )
    refused(
        visit(alice2, "hand_in", parcel=parcel, action="deliver", result=RESULT), parcels.NOT_IN_HAND_SAY, "not-in-hand"
    )


def test_returning_sends_it_back_to_the_same_claimant_with_a_fresh_hour(
    alice: Passport, alice2: Passport, published: Publish
) -> None:
    parcel = delivered(published, alice, alice2)
    r = visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=3)
    assert r.is_error is False
    assert r.structured["say"] == (
        f"Returned for rework: the same agent holds parcel {parcel} again for an hour. 2 returns left."
    )
    assert (r.structured["state"], r.structured["version"]) == ("claimed", 4)
    stored = Parcel.objects.get()
    first, second = Attempt.objects.order_by("number")
    assert (first.outcome, first.result, first.note) == ("returned", RESULT, NOTE)
    assert (second.number, second.claimant_id, second.outcome) == (2, alice2.id, "taken")
    assert stored.claim_lapses_at == second.taken_at + timedelta(hours=1) and stored.renewals == 0
    # The claimant reads the note: the publisher's words, not its own.
    seen = parcels.trace_view(alice2, parcel)
    assert seen is not None
    view, parts = seen
    assert (view["you"], view["attempt"], view["returnsLeft"]) == ("claimant", 2, 2)
    assert view["attempts"][0]["words"] == {"result": RESULT, "note": NOTE}
    labelled = {(p.path, p.own) for p in parts}
    assert ("parcel.attempts[0].words.note", None) in labelled
    assert ("parcel.attempts[0].words.result", True) in labelled
    assert view["youCan"] == ["take_parcel", "hand_in deliver", "hand_in give_back"]
    event = Event.objects.get(kind="parcel-returned")
    assert (event.to_passport_id, event.record) == (alice2.id, parcel)
    # The fresh hour lapses like any claim.
    clock.advance(timedelta(hours=1))
    seen = parcels.trace_view(alice, parcel)
    assert seen is not None and seen[0]["state"] == "open" and seen[0]["attempts"][1]["outcome"] == "lapsed"


def test_a_note_and_a_version_are_required_to_return(alice: Passport, alice2: Passport, published: Publish) -> None:
    parcel = delivered(published, alice, alice2)
    note_say = "To return a parcel for rework, give a note: what still needs doing, in words."
    refused(visit(alice, "settle_parcel", parcel=parcel, action="return", version=3), note_say, "note-required")
    refused(
        visit(alice, "settle_parcel", parcel=parcel, action="return", note="\u200b", version=3),
        note_say,
        "note-required",
    )
    refused(
        visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE),
        "To return or release a parcel, give its version from your latest view of it (trace shows it), so the call "
        "never lands on a later round.",
        "version-required",
    )
    refused(
        visit(alice, "settle_parcel", parcel=parcel, action="release"), parcels.VERSION_REQUIRED_SAY, "version-required"
    )
    refused(
        visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=2),
        "That parcel has changed since the version you named. trace it, and use the current version.",
        "version",
    )
    assert Parcel.objects.get().state == "delivered"
    visit(alice, "settle_parcel", parcel=parcel, action="return", note="n" * 400, version=3)
    assert Attempt.objects.get(number=1).note == "n" * 280


def test_the_third_return_closes_it(alice: Passport, alice2: Passport, published: Publish) -> None:
    parcel = delivered(published, alice, alice2)
    for n in (1, 2):
        r = visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=version_of(parcel))
        assert r.structured["state"] == "claimed", r.structured
        visit(alice2, "hand_in", parcel=parcel, action="deliver", result=f"{RESULT} Round {n + 1}.")
    r = visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=version_of(parcel))
    assert r.is_error is False
    assert r.structured["say"] == (
        f"Returned for the third time, so parcel {parcel} is closed. Its words are cleared; its history stays."
    )
    assert r.structured["state"] == "closed"
    stored = Parcel.objects.get()
    assert stored.returns == 3 and stored.title == ""
    assert [a.outcome for a in Attempt.objects.order_by("number")] == ["returned"] * 3
    assert all(a.result == "" and a.note == "" for a in Attempt.objects.all())
    assert stored.history[-1]["what"] == "closed after 3 returns"
    assert Event.objects.get(kind="parcel-closed").to_passport_id == alice2.id
    seen = parcels.trace_view(alice, parcel)
    assert seen is not None and seen[0]["returnsLeft"] == 0 and seen[0]["youCan"] == []


def test_withdraw_at_any_stage_before_done(alice: Passport, alice2: Passport, published: Publish) -> None:
    open_channel(alice)
    # Open: nobody to tell but the channel.
    still_open = post(published, alice, title="Open one")["id"]
    r = visit(alice, "settle_parcel", parcel=still_open, action="withdraw")
    assert (
        r.structured["say"] == f"Withdrawn: parcel {still_open} is settled. Its words are cleared; its history stays."
    )
    assert r.structured["state"] == "withdrawn"
    assert Event.objects.get(kind="parcel-withdrawn", record=still_open).to_passport_id is None
    # Claimed: the claimant is told, and its attempt ends withdrawn.
    held = post(published, alice, title="Held one")["id"]
    visit(alice2, "take_parcel", parcel=held)
    assert visit(alice, "settle_parcel", parcel=held, action="withdraw").structured["state"] == "withdrawn"
    assert Attempt.objects.get(parcel_id=held).outcome == "withdrawn"
    assert Event.objects.get(kind="parcel-withdrawn", record=held).to_passport_id == alice2.id
    # Delivered: the same.
    parcel = post(published, alice, title="Delivered one")["id"]
    visit(alice2, "take_parcel", parcel=parcel)
    visit(alice2, "hand_in", parcel=parcel, action="deliver", result=RESULT)
    assert visit(alice, "settle_parcel", parcel=parcel, action="withdraw").structured["state"] == "withdrawn"
    assert Attempt.objects.get(parcel_id=parcel).result == ""
    refused(
        visit(alice, "settle_parcel", parcel=parcel, action="withdraw"),
        "That parcel is settled: it is withdrawn. trace it to see its history.",
        "state",
    )


def test_release_lets_the_claimant_go_and_reopens_it(
    alice: Passport, alice2: Passport, bob: Passport, published: Publish
) -> None:
    parcel = delivered(published, alice, alice2)
    r = visit(alice, "settle_parcel", parcel=parcel, action="release", version=3)
    assert r.is_error is False
    assert r.structured["say"] == f"Released: parcel {parcel} is open again for other agents."
    assert (r.structured["state"], r.structured["version"]) == ("open", 4)
    stored = Parcel.objects.get()
    attempt = Attempt.objects.get()
    assert attempt.outcome == "released"
    assert stored.expires_at > clock.now() + timedelta(days=7) - timedelta(minutes=1)
    assert Event.objects.get(kind="parcel-released").to_passport_id == alice2.id
    refused(visit(alice2, "take_parcel", parcel=parcel), parcels.YOU_HAD_IT_SAY, "had-it")
    # Released while working, too.
    open_channel(alice)
    working = post(published, alice, title="Another")["id"]
    visit(alice2, "take_parcel", parcel=working)
    assert visit(alice, "settle_parcel", parcel=working, action="release", version=2).structured["state"] == "open"
    # Nobody to release on an open parcel.
    refused(
        visit(alice, "settle_parcel", parcel=working, action="release", version=3),
        "Nobody holds that parcel now, so there is nobody to release. trace it to see its state.",
        "state",
    )


def test_nothing_to_accept_or_return_before_a_delivery(alice: Passport, alice2: Passport, published: Publish) -> None:
    open_channel(alice)
    parcel = post(published, alice)["id"]
    say = "That parcel has no delivery waiting for you to settle. trace it to see its state."
    refused(visit(alice, "settle_parcel", parcel=parcel, action="accept"), say, "state")
    visit(alice2, "take_parcel", parcel=parcel)
    refused(visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=2), say, "state")


def test_another_accounts_parcel_gets_the_reply_of_one_that_does_not_exist(
    alice: Passport, alice2: Passport, bob: Passport, charlie: Passport, published: Publish
) -> None:
    parcel = delivered(published, alice, alice2)
    for who in (bob, alice2):  # another account's agent; the claimant, of the same account
        for action in ("accept", "withdraw"):
            refused(visit(who, "settle_parcel", parcel=parcel, action=action), NOT_YOURS, "not-yours")
        refused(visit(who, "settle_parcel", parcel=parcel, action="release", version=3), NOT_YOURS, "not-yours")
    for number in ("P-" + "5" * 12, parcel.lower(), "x" * 40):
        refused(visit(alice, "settle_parcel", parcel=number, action="accept"), NOT_YOURS, "not-yours")
    refused(visit(charlie, "settle_parcel", parcel=parcel, action="accept"), common.SIGN_IN_SAY, "sign-in")
    assert Parcel.objects.get().state == "delivered"


def test_safe_harbour_holds_a_return_note_repeating_the_result(
    alice: Passport, alice2: Passport, published: Publish
) -> None:
    parcel = delivered(published, alice, alice2)
    # The publisher is handed the result as the claimant's words, the way trace hands them.
    seen = parcels.trace_view(alice, parcel)
    assert seen is not None
    trace = Tool(name="trace", title="", description="", args=Args, handler=lambda c, a: Reply(""), kind="read")
    holds.remember_handed(
        trace, Call(tool="trace", passport=alice, session_id=None), Reply("", {"parcel": seen[0]}, seen[1])
    )
    result = "Lots 12, 7 and 3, in that order, ranked by the quartermaster's brass lantern ledger."
    Attempt.objects.filter(parcel_id=parcel).update(result=result)
    seen = parcels.trace_view(alice, parcel)
    assert seen is not None
    holds.remember_handed(
        trace, Call(tool="trace", passport=alice, session_id=None), Reply("", {"parcel": seen[0]}, seen[1])
    )
    r = visit(alice, "settle_parcel", parcel=parcel, action="return", note=result, version=3)
    assert outcome(r) == "held" and r.structured["repeats"]["field"] == "parcel.attempts[0].words.result"
    assert Hold.objects.get(pk=r.structured["hold"]["id"]).why == "harbour"
    # Accepting passes no words on: never held.
    assert visit(alice, "settle_parcel", parcel=parcel, action="accept").is_error is False


def test_a_return_note_across_a_closed_exchange_is_refused_at_once_not_held(
    alice: Passport, bob: Passport, account_a: Account, account_b: Account, published: Publish
) -> None:
    # The note could never reach bob's account: the return is refused, and alice's person is not asked
    # about words that could not pass, even when they repeat the result trace handed her.
    common.do_set_exchange(account_a, account_b.handle, True)
    common.do_set_exchange(account_b, account_a.handle, True)
    open_channel(alice)
    parcel = str(post(published, alice)["id"])
    result = "Lots 12, 7 and 3, in that order, ranked by the quartermaster's brass lantern ledger."
    assert visit(bob, "take_parcel", parcel=parcel).is_error is False
    assert visit(bob, "hand_in", parcel=parcel, action="deliver", result=result).is_error is False
    assert visit(alice, "trace", id=parcel).structured["parcel"]["attempts"][0]["words"]["result"] == result
    common.do_set_exchange(account_b, account_a.handle, False)
    r = visit(alice, "settle_parcel", parcel=parcel, action="return", note=result, version=3)
    refused(r, common.EXCHANGE_CLOSED_SAY, "exchange-closed")
    assert not Hold.objects.filter(passport=alice, tool="settle_parcel").exists()
    assert Parcel.objects.get().state == "delivered"


def test_a_return_note_on_someone_elses_parcel_is_refused_as_none_not_held(
    alice: Passport, alice2: Passport, bob: Passport, published: Publish
) -> None:
    # Only the publisher's note reaches the claimant: bob, who traced alice's parcel, is refused as for
    # a number that does not exist, never held, even when his note repeats what he was handed.
    parcel = delivered(published, alice, alice2)
    assert visit(bob, "trace", id=parcel).is_error is False
    brief = Parcel.objects.get().brief
    r = visit(bob, "settle_parcel", parcel=parcel, action="return", note=brief, version=3)
    refused(r, NOT_YOURS, "not-yours")
    assert not Hold.objects.filter(passport=bob).exists()
    assert Parcel.objects.get().state == "delivered"


def test_a_return_is_frozen_while_a_report_is_open_and_an_accept_is_not(
    alice: Passport, alice2: Passport, published: Publish
) -> None:
    parcel = delivered(published, alice, alice2)
    visit(alice, "report_suspicious_instruction", quote="Return it with the ledger", where="trace")
    r = visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=3)
    assert outcome(r) == "frozen" and Parcel.objects.get().state == "delivered"
    assert visit(alice, "settle_parcel", parcel=parcel, action="accept").is_error is False


def test_its_schema(alice: Passport) -> None:
    tool = TOOLS["settle_parcel"]
    props = tool.args.model_json_schema()["properties"]
    assert props["action"]["enum"] == ["accept", "return", "withdraw", "release"]
    assert "maxLength" not in str(props["note"]) and props["version"]["anyOf"][0]["minimum"] == 0
    assert tool.destructive is True and tool.idempotent is False
    assert TOOLS["hand_in"].idempotent is True and TOOLS["hand_in"].destructive is False
    assert WORK  # the shared work is what the other files post


def test_a_return_note_safe_harbour_did_not_read_never_reaches_the_claimant_unread(
    alice: Passport, bob: Passport, account_a: Account, account_b: Account, published: Publish, monkeypatch: Any
) -> None:
    # Before the delivery, a return would be refused, so Safe Harbour does not read its note. If bob
    # delivers in the moment before the call runs (and the version alice named is then the parcel's),
    # the note must not reach bob's account unread: the call is busy, and the same call again is read.
    common.do_set_exchange(account_a, account_b.handle, True)
    common.do_set_exchange(account_b, account_a.handle, True)
    open_channel(alice)
    parcel = str(post(published, alice)["id"])
    assert visit(bob, "take_parcel", parcel=parcel).is_error is False
    after_delivery = version_of(parcel) + 1
    meanwhile(
        monkeypatch, "repeated", lambda: parcels.do_hand_in(bob, parcel, "deliver", RESULT, None, harbour_read=True)
    )
    r = visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=after_delivery)
    assert (outcome(r), r.structured["say"]) == ("busy", "The clerk is busy. Try again in 2 seconds.")
    assert Parcel.objects.get().state == "delivered" and version_of(parcel) == after_delivery
    monkeypatch.undo()
    again = visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=after_delivery)
    assert again.is_error is False and Parcel.objects.get().state == "claimed"


def test_the_last_return_left_is_said_as_one(alice: Passport, alice2: Passport, published: Publish) -> None:
    parcel = delivered(published, alice, alice2)
    assert visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=3).is_error is False
    again = visit(alice2, "hand_in", parcel=parcel, action="deliver", result=RESULT, version=4)
    assert again.is_error is False, again.structured["say"]
    r = visit(alice, "settle_parcel", parcel=parcel, action="return", note=NOTE, version=5)
    assert r.structured["say"] == (
        f"Returned for rework: the same agent holds parcel {parcel} again for an hour. 1 return left."
    )
