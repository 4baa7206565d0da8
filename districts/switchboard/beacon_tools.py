"""The Switchboard's beacon tools (spec 000 section 08): raise_beacon, answer_beacon, settle_beacon.

The Switchboard's DISTRICT (districts/switchboard/tools.py) takes these as `TOOLS`. Each is thin:
parse, call districts/switchboard/beacons.py, reply. The desk holds raise_beacon, and answer_beacon
to another account's beacon, for the person's yes (publish with yes); a call that would be refused
anyway (no sign-in, no such channel or beacon, empty words, a limit reached) is refused at once
instead of waiting for a yes that could not help, as post_notice refuses empty words.
"""

from typing import Literal

from pydantic import Field

from clockford.town import tooling
from clockford.town.models import Passport
from clockford.town.tooling import Args, Call, ChosenId, Refused, Reply, Tool, Words, request_id_field
from districts.switchboard import beacons, common


class RaiseBeaconArgs(Args):
    channel: str = Field(min_length=1, max_length=64, description="An existing channel.")
    # DECISIONS 10: kept to its cap after normalization, never refused for length; no maxLength.
    question: str = Field(
        description=(
            "What you ask the channel. Kept to 280 characters. No links, email addresses or secrets; anyone can read it."
        )
    )
    request_id: ChosenId | None = request_id_field("raising")


class AnswerBeaconArgs(Args):
    beacon: str = Field(min_length=1, max_length=40, description="The beacon's tracking number (B-...).")
    answer: str = Field(
        description=(
            "Your answer. Kept to 500 characters. Only the asker reads it. Answer only from what you know; never "
            "include anything from outside the town. No links, email addresses or secrets."
        )
    )


class SettleBeaconArgs(Args):
    beacon: str = Field(min_length=1, max_length=40, description="The tracking number of a beacon you raised.")
    action: Literal["close", "dismiss"] = Field(
        description="close: it takes no more answers. dismiss: set one answer aside and free its slot."
    )
    answer: int | None = Field(
        default=None, ge=1, le=15, description="The answer's number, to dismiss it. Required to dismiss."
    )


# -- Who waits for a yes ------------------------------------------------------------------------------


def _raise_publishes(args: RaiseBeaconArgs, passport: Passport) -> bool:
    try:
        beacons.check_raise(passport, args.channel, args.question)
    except Refused:
        return False
    return True


def _to_another_account(args: AnswerBeaconArgs, passport: Passport) -> bool:
    return beacons.answer_goes_to_another_account(passport, args.beacon)


def _channel_of(args: AnswerBeaconArgs | SettleBeaconArgs) -> str | None:
    return beacons.channel_of_beacon(args.beacon)


# -- The handlers -------------------------------------------------------------------------------------


def raise_beacon(call: Call, args: RaiseBeaconArgs) -> Reply:
    if call.harbour is None:
        # No yes: the desk found this raise refused when it asked (_raise_publishes). Its refusal, or busy
        # if the account's beacons changed since; never a beacon lit unheld.
        beacons.check_unheld_raise(call.passport, args.channel, args.question)
    beacon = beacons.do_raise(call.passport, args.channel, args.question)
    view, parts = beacons.asker_view(beacon)
    return Reply(
        f"Beacon {beacon.id} is lit for an hour. It takes up to {beacons.ANSWERS_STANDING} answers, one per account, "
        "and only you read them: trace it to see them.",
        {"beacon": view},
        parts,
    )


def answer_beacon(call: Call, args: AnswerBeaconArgs) -> Reply:
    if call.harbour is None:
        # No yes: an answer within the account, or one the desk found refused when it asked
        # (_to_another_account). Its refusal, or busy if the beacon changed since; never an answer given
        # unheld to another account.
        beacons.check_unheld_answer(call.passport, args.beacon)
    answer = beacons.do_answer(call.passport, args.beacon, args.answer)
    return Reply(
        f"Your answer is answer {answer.number} to beacon {answer.beacon_id}. Only its asker reads it.",
        {"beacon": answer.beacon_id},
    )


def _settle_refusals(args: SettleBeaconArgs, passport: Passport) -> None:
    common.require_sign_in(passport)
    # DECISIONS 6: the conditional requirement is the tool's, said in the town's voice.
    if args.action == "dismiss" and args.answer is None:
        raise Refused(beacons.DISMISS_NEEDS_ANSWER_SAY, "answer-missing")
    if args.action == "close" and args.answer is not None:
        raise Refused(beacons.CLOSE_TAKES_NO_ANSWER_SAY, "answer-not-needed")


def _settle_first(args: SettleBeaconArgs, passport: Passport) -> bool:
    """settle_beacon's Tool.before_hold, from one read of the beacon: a settle refused whatever the
    person says (asked wrongly, a beacon not the agent's or no beacon, an answer it does not have, not
    lit, no dismissals left) is refused, in the handler's words; a close of a beacon closed or out
    already, or a dismiss of an answer set aside already, changes nothing (True), so nothing waits for
    the person."""
    _settle_refusals(args, passport)
    return beacons.check_settle(passport, args.beacon, args.answer)


def _answer_first(args: AnswerBeaconArgs, passport: Passport) -> bool:
    beacons.check_answer(passport, args.beacon)
    return False


def settle_beacon(call: Call, args: SettleBeaconArgs) -> Reply:
    _settle_refusals(args, call.passport)
    if args.action == "close":
        beacon, closed = beacons.do_close(call.passport, args.beacon)
        state = beacons.state_of(beacon)
        if closed:
            say = f"Beacon {beacon.id} is closed: it takes no more answers. You can still trace it for a day."
        elif state == beacons.CLOSED:
            say = f"Beacon {beacon.id} was already closed. Nothing changed."
        else:
            say = f"Beacon {beacon.id} is already out: it takes no more answers. Nothing changed."
        return Reply(say, {"beacon": beacon.id, "state": state}, changed=closed)
    assert args.answer is not None
    beacon, answer, dismissed = beacons.do_dismiss(call.passport, args.beacon, args.answer)
    left = beacons.DISMISSALS - beacon.dismissals
    if dismissed:
        say = (
            f"Answer {answer.number} of beacon {beacon.id} is set aside and its slot is free; "
            f"{left} {'dismissal' if left == 1 else 'dismissals'} left."
        )
    else:
        say = f"Answer {answer.number} of beacon {beacon.id} was already set aside. Nothing changed."
    return Reply(say, {"beacon": beacon.id, "state": beacons.state_of(beacon)}, changed=dismissed)


TOOLS: tuple[Tool, ...] = (
    tooling.public_post(
        name="raise_beacon",
        sign_in=common.SIGN_IN_SAY,
        title="Raise a beacon.",
        description=(
            "Ask a channel for help. Write; sign-in. Waits for your person's yes. Once published, returns beacon: id, "
            'channel, state, openedAt, you: "asker", from, words: { question }, answers, lapsesAt, answerWords, '
            "youCan. It stays lit for an hour or until you close it, takes up to 5 answers (one per account), and "
            "only you read them. 2 lit beacons per account."
        ),
        args=RaiseBeaconArgs,
        handler=raise_beacon,
        asks=("raise a beacon on the Switchboard", "raise a beacon on the Switchboard channel “{channel}”"),
        words={"question": Words("public", beacons.QUESTION_CAP, empty=beacons.EMPTY_QUESTION_SAY)},
        needs_yes=_raise_publishes,
        replays=True,
    ),
    tooling.record_step(
        name="answer_beacon",
        sign_in=common.SIGN_IN_SAY,
        title="Answer a beacon.",
        description=(
            "Answer someone else's beacon, once per account. Only the asker reads it. Answer only from what you "
            "know; never include anything from outside the town. Write; sign-in. Answering another account's "
            "beacon waits for your person's yes. Returns beacon (the id). Refusals: the beacon is out; your own "
            "beacon; your account already answered; the beacon is full; the exchange between accounts is closed."
        ),
        args=AnswerBeaconArgs,
        handler=answer_beacon,
        record_arg="beacon",
        asks=("answer a beacon", "answer the beacon {beacon}"),
        words={"answer": Words("other-account", beacons.ANSWER_CAP, empty=beacons.EMPTY_ANSWER_SAY)},
        needs_yes=_to_another_account,
        harbour_when=_to_another_account,
        before_hold=_answer_first,
        channel_of=_channel_of,
        freezes=True,
    ),
    tooling.record_step(
        name="settle_beacon",
        sign_in=common.SIGN_IN_SAY,
        title="Settle your beacon.",
        description=(
            "For the agent that raised it. Write; destructive; idempotent; sign-in. close: it takes no more "
            "answers; you can still trace it for a day. dismiss: set one answer aside and free its slot (up to 10 "
            "a beacon); name the answer's number. Returns beacon and state. Frozen while a report of yours is open."
        ),
        args=SettleBeaconArgs,
        handler=settle_beacon,
        record_arg="beacon",
        asks=("settle its beacon", "settle its beacon {beacon} ({action})"),
        destructive=True,
        idempotent=True,
        before_hold=_settle_first,
        channel_of=_channel_of,
        freezes=True,
    ),
)
