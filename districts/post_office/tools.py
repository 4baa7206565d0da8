"""The Post Office: the P.O. box (remember, recall, forget)."""

from typing import Annotated, Any

from pydantic import Field

from clockford.town import clock, handoff, holds, tooling
from clockford.town.models import Passport
from clockford.town.tooling import Args, Call, District, Part, Reply, Tool, Words, counted, holder
from districts.post_office import parcel_tools, services

KEY_CAP = 64  # a key is at most 64 characters (000 section 05)
OWN_KEY = Part("key", "agent-written", own=True)


class RememberArgs(Args):
    key: str = Field(min_length=1, max_length=KEY_CAP, description="Letters, digits and . _ - / : only.")
    value: str = Field(
        max_length=4000,
        description=(
            "The note, up to 4,000 characters. The town keeps its normalized form, cut to 4,000 characters if "
            "normalizing made it longer."
        ),
    )


class RecallArgs(Args):
    key: str | None = Field(
        default=None, min_length=1, max_length=64, description="The key; leave out to list your keys."
    )


class SendLetterArgs(Args):
    subject: str = Field(min_length=1, max_length=80, description="The letter's subject.")
    body: str = Field(min_length=1, max_length=2000, description="What you write to your person.")
    notes: list[Annotated[str, Field(min_length=1, max_length=64)]] | None = Field(
        default=None,
        max_length=8,
        description="Keys in your own P.O. box to pass with the letter. Your person sees the notes in the hall.",
    )


class ForgetArgs(Args):
    key: str = Field(min_length=1, max_length=64, description="The key of the note to remove.")


def remember(call: Call, args: RememberArgs) -> Reply:
    # The desk hands over the kept form (clockford/town/kept.py), cut to VALUE_CAP already.
    keys = services.do_remember(call.passport, args.key, args.value)
    return Reply(
        f"Kept in your P.O. box. It holds {keys} of {services.MAX_KEYS} keys.",
        {"key": args.key, "keys": keys},
        [OWN_KEY],
    )


def recall(call: Call, args: RecallArgs) -> Reply:
    if args.key is None:
        keys = services.keys_of(call.passport)
        return Reply(
            f"Your P.O. box holds {counted(len(keys), 'key', 'keys')}.",
            {"keys": keys},
            [Part("keys[]", "agent-written", own=True)],
        )
    note = services.access_note(call.passport, args.key)
    return Reply(
        "Here is the note kept under that key.",
        {"key": note.key, "value": note.value, "keptAt": clock.iso(note.kept_at)},
        [OWN_KEY, Part("value", "agent-written", own=True, private=True, readers=(holder(note.box),))],
    )


def send_letter(call: Call, args: SendLetterArgs) -> Reply:
    letter = services.do_send_letter(
        call.passport, args.subject, args.body, args.notes or [], call.repeats, call.carried
    )
    fields: dict[str, Any] = {"id": letter.id, "status": "held", **handoff.waiting("letter", letter.id)}
    say = f"Letter {letter.id} waits for your person, who opens or declines it in the hall at hallUrl."
    if letter.notes:
        fields["notesAttached"] = len(letter.notes)
        say += f" It carries {counted(len(letter.notes), 'note', 'notes')} from your P.O. box."
    if call.repeats is not None:
        fields["marked"] = {k: call.repeats[k] for k in ("label", "where", "field")}
        say += " It repeats words the town handed you as data; your person is told whose words they are."
        return Reply(say, fields, [holds.where_handed("marked.where", call.repeats)])
    return Reply(say, fields)


def _overwrites(args: RememberArgs, passport: Passport) -> bool:
    """remember is frozen only when it overwrites a key (DECISIONS 3): new notes still work."""
    return args.key in services.keys_of(passport)


def _room_first(args: RememberArgs, passport: Passport) -> bool:
    """remember's Tool.before_hold: a note the box has no room for is refused; any other may wait."""
    services.check_room(args, passport)
    return False


def _forgets_nothing(args: ForgetArgs, passport: Passport) -> bool:
    """forget's Tool.before_hold: the box holds no note under the key, so the call can only say so."""
    return not services.holds_key(passport, args.key)


def forget(call: Call, args: ForgetArgs) -> Reply:
    if services.do_forget(call.passport, args.key):
        return Reply("Forgotten: that note has left your P.O. box. There is no undo.", {"key": args.key}, [OWN_KEY])
    return Reply(
        "Nothing was kept under that key, so there was nothing to forget.", {"key": args.key}, [OWN_KEY], changed=False
    )


DISTRICT = District(
    name="The Post Office",
    zone="civic",
    what="Your P.O. box: short notes under keys, which the person who runs you reads in the hall.",
    tools=(
        tooling.plannable_write(
            name="remember",
            title="Keep in your P.O. box.",
            description=(
                "Keep a short note under a key. The person who runs you reads and empties the box in the hall; "
                "no other person there can open it. Write."
            ),
            args=RememberArgs,
            handler=remember,
            freezes_which="overwriting a key",
            asks=("keep a note in its P.O. box", "keep a note under “{key}” in its P.O. box"),
            # No `empty`: a key's own rule refuses a blank one, and the spec gives a note's value no minimum.
            words={
                "key": Words("private", KEY_CAP, name=True, rule=services.check_key),
                "value": Words("private", services.VALUE_CAP),
            },
            freezes=_overwrites,
            before_hold=_room_first,
        ),
        Tool(
            name="recall",
            private_reply=True,
            title="Open your P.O. box.",
            description="Read the note kept under a key, or list your keys when no key is given. Read.",
            args=RecallArgs,
            handler=recall,
            kind="read",
            asks=("read its P.O. box", "read the note under “{key}” in its P.O. box"),
        ),
        tooling.plannable_write(
            name="forget",
            title="Empty a P.O. box slot.",
            description=(
                "Remove one note from your own box, and its copy from any of your letters still waiting for your "
                "person; its text leaves the town's state. A letter your person already opened keeps the copy they "
                "read until its words are dropped. The Archive still records the calls, with a keyed digest of their "
                "arguments, never the text. Write; destructive; idempotent."
            ),
            args=ForgetArgs,
            handler=forget,
            asks=("empty a slot of its P.O. box", "empty the slot “{key}” of its P.O. box"),
            destructive=True,
            idempotent=True,
            freezes=True,
            before_hold=_forgets_nothing,
        ),
        Tool(
            name="send_letter",
            title="Send a letter.",
            description=(
                "Write to the person who runs you: the only way anything leaves the town for a person. Letters are "
                "held until that person opens them; a declined letter is not kept. Write."
            ),
            args=SendLetterArgs,
            handler=send_letter,
            kind="write",
            words={
                "subject": Words("letter", services.SUBJECT_CAP, empty="The letter's subject is empty."),
                "body": Words(
                    "letter", services.BODY_CAP, empty="The letter's body is empty: write what your person should read."
                ),
            },
            carries=services.notes_carried,
            for_people=True,
        ),
        *parcel_tools.TOOLS,
    ),
)
