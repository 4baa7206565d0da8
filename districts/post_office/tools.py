"""The Post Office: the P.O. box (remember, recall, forget)."""

from pydantic import Field

from clockford.town import words
from clockford.town.tooling import Args, Call, District, Part, Reply, Tool
from districts.post_office import services

PLACE = "The Post Office"
OWN_KEY = Part("key", "agent-written", own=True)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


class RememberArgs(Args):
    key: str = Field(min_length=1, max_length=64, description="Letters, digits and . _ - / : only.")
    value: str = Field(max_length=4000, description="The note. Cut to 4,000 characters after normalization.")


class RecallArgs(Args):
    key: str | None = Field(
        default=None, min_length=1, max_length=64, description="The key; leave out to list your keys."
    )


class ForgetArgs(Args):
    key: str = Field(min_length=1, max_length=64, description="The key of the note to remove.")


def remember(call: Call, args: RememberArgs) -> Reply:
    value = words.for_keeping(args.value, services.VALUE_CAP)
    keys = services.do_remember(call.passport, args.key, value)
    return Reply(
        f"Kept in your P.O. box. It holds {keys} of {services.MAX_KEYS} keys.",
        {"key": args.key, "keys": keys},
        [OWN_KEY],
    )


def recall(call: Call, args: RecallArgs) -> Reply:
    if args.key is None:
        keys = services.access_keys(call.passport)
        return Reply(
            f"Your P.O. box holds {_count(len(keys), 'key', 'keys')}.",
            {"keys": keys},
            [Part("keys[]", "agent-written", own=True)],
        )
    note = services.access_note(call.passport, args.key)
    return Reply(
        "Here is the note kept under that key.",
        {"key": note.key, "value": note.value, "keptAt": note.kept_at.isoformat()},
        [OWN_KEY, Part("value", "agent-written", own=True)],
    )


def forget(call: Call, args: ForgetArgs) -> Reply:
    if services.do_forget(call.passport, args.key):
        return Reply("Forgotten: that note has left your P.O. box. There is no undo.", {"key": args.key}, [OWN_KEY])
    return Reply("Nothing was kept under that key, so there was nothing to forget.", {"key": args.key}, [OWN_KEY])


DISTRICT = District(
    name=PLACE,
    zone="civic",
    what="Your P.O. box: short notes under keys, which the person who runs you reads in the hall.",
    tools=(
        Tool(
            name="remember",
            title="Keep in your P.O. box.",
            description=(
                "Keep a short note under a key. The person who runs you reads and empties the box in the hall; "
                "no other person there can open it. Write."
            ),
            args=RememberArgs,
            handler=remember,
            kind="write",
            place=PLACE,
            words={"key": "private", "value": "private"},
        ),
        Tool(
            name="recall",
            title="Open your P.O. box.",
            description="Read the note kept under a key, or list your keys when no key is given. Read.",
            args=RecallArgs,
            handler=recall,
            kind="read",
            place=PLACE,
        ),
        Tool(
            name="forget",
            title="Empty a P.O. box slot.",
            description=(
                "Remove one note from your own box; its text leaves the town's state. The Archive still records "
                "the calls, with a keyed digest of their arguments, never the text. Write; destructive; idempotent."
            ),
            args=ForgetArgs,
            handler=forget,
            kind="write",
            destructive=True,
            idempotent=True,
            place=PLACE,
        ),
    ),
)
