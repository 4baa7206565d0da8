"""Replays (001 "Replays"): a Switchboard write repeated with the same request_id within a day is not
an error: it returns the first reply with replayed: true, so that a client retrying after a lost
answer never posts twice. The same request_id sent with other arguments is not that write repeated: it
is refused, saying so, rather than answered with a reply about other words (a client that reuses its
ids would otherwise believe its second post made)."""

from datetime import timedelta
from typing import Any

from clockford.town import clock, signing
from clockford.town.models import Passport, Replay
from clockford.town.tooling import Part, Refused, Reply

REPLAY_HOURS = 24
OTHER_ARGUMENTS_SAY = (
    "This request_id was used within the day for a call with other arguments, so nothing was done. "
    "Use a new request_id for this call, or send the first call's arguments to have its reply again."
)


def _request_id(args: Any) -> str | None:
    value = getattr(args, "request_id", None)
    return value if isinstance(value, str) and value else None


def _digest(args: Any) -> str:
    """The call's arguments as read (a null read as left out, the words as kept), but its request_id and
    job_id, as a hold leaves them aside (docs/holds.md)."""
    return signing.keyed_digest(args.model_dump(mode="json", exclude={"request_id", "job_id"}))


def find(tool: str, args: Any, passport: Passport) -> Reply | None:
    """The first reply to this request_id within a day, marked replayed, or None; refused when that
    first call's arguments were others."""
    request_id = _request_id(args)
    if request_id is None:
        return None
    since = clock.now() - timedelta(hours=REPLAY_HOURS)
    row = Replay.objects.filter(passport=passport, tool=tool, request_id=request_id, at__gt=since).first()
    if row is None:
        return None
    if row.digest and row.digest != _digest(args):
        raise Refused(OTHER_ARGUMENTS_SAY, "request-id-reused")
    parts = [Part(p["path"], p["label"], p.get("own")) for p in row.parts]
    return Reply(row.say, {**row.fields, "replayed": True}, parts)


def clear(passport_id: str, tool: str, made: tuple[str, str], say: str, fields: dict[str, Any]) -> None:
    """What a kept first reply made was cleared away (a settled parcel keeps no words): its replays
    answer `say` and `fields` instead, which tell the agent to use a new request_id (001 "Replays").
    `made` names the record in the first reply's fields: (field, id), e.g. ("parcel", "P-...")."""
    field, made_id = made
    Replay.objects.filter(passport_id=passport_id, tool=tool, **{f"fields__{field}__id": made_id}).update(
        say=say, fields=fields, parts=[]
    )


def keep(tool: str, args: Any, passport: Passport, reply: Reply) -> None:
    """Keep the first reply to a request_id (inside the call's transaction: it is kept exactly when
    what it made is). An older one past its day gives way to the new."""
    request_id = _request_id(args)
    if request_id is None:
        return
    now = clock.now()
    Replay.objects.filter(
        passport=passport, tool=tool, request_id=request_id, at__lte=now - timedelta(hours=REPLAY_HOURS)
    ).delete()
    # Two racing calls with one request_id: the second insert fails on the unique constraint, the
    # handler's savepoint rolls back what it made, and the town keeps one.
    Replay.objects.create(
        passport=passport,
        tool=tool,
        request_id=request_id,
        say=reply.say,
        fields={k: v for k, v in reply.fields.items() if k != "harbour"},
        parts=[p.as_dict() for p in reply.parts if p.path != "harbour"],
        at=now,
        digest=_digest(args),
    )
