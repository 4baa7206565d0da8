"""Edit and allow: a person rewrites the words of a held publish and allows the rewritten call.

A held call that would publish words for others (held for a yes, or by Safe Harbour) may be answered
with words of the person's own. Their words go through exactly what an agent's words go through (the
kept form, then the words screen for the tool's surface: clockford/town/kept.py and desk.screen_words),
so the text the person reads back, signs and the town publishes is one text. The passkey signs a
statement naming the held call, the digest of its words as the person saw them, and the digest of the
new words (`rewrite_statement`).

What is allowed is a new hold, allowed at once, whose call is the rewritten one (`Hold.rewrites` names
the original): only exactly that call goes through, once, within the hour, like any allowed call. The
original call stays held: the agent's own words are neither allowed nor refused by a rewrite.

One held call has at most one rewrite allowed at a time: a new rewrite replaces an earlier one the agent
has not used yet, whose yes ends at once (its row reads lapsed, `replaced_by` names the newer one), so
one request never publishes several rewrites. Allowing the agent's own words as well is a separate yes,
and would let both go out; the hold's page says so while a rewrite is allowed (`live_rewrite`).
show_passport lists the allowed words under the new hold, labelled human-signed, so the agent can make
the call the person wrote.
"""

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from pydantic import ValidationError

from clockford.town import clock, desk, holds, kept
from clockford.town.models import Hold, locked, new_id
from clockford.town.signing import canonical_text
from clockford.town.tooling import TownReply, registry

# A held publish: the reasons a call waits that are about the words others will read.
REWRITABLE = ("publish", "harbour")

NOT_REWRITABLE = "Only words held for publishing can be rewritten here. Allow or refuse this call as it is."
SAME_WORDS = "These are the words your agent sent. To let them through as they are, use Allow."
NO_WORDS = "Write the words you want published; they cannot be empty."
SIGNED_ELSE = "The passkey signed something other than these words, so nothing was allowed."
GONE_OUT = (
    "Your own words for this call have gone out already (hold {id}): one held call publishes one rewrite at "
    "most, so nothing more was allowed. Allow or refuse your agent's words as they are."
)


def fields_of(hold: Hold) -> list[str]:
    """The free-word fields of a held call that a person may rewrite: each text its tool declares."""
    tool = registry().get(hold.tool)
    if tool is None or hold.why not in REWRITABLE:
        return []
    return [name for name in tool.free_words if isinstance(hold.arguments.get(name), str)]


def rewritable(hold: Hold) -> bool:
    return bool(fields_of(hold)) and holds.status_of(hold) == "held" and gone_out(hold) is None


def gone_out(hold: Hold) -> Hold | None:
    """The rewrite of this held call that the agent has made already, if any: one held call publishes
    one rewrite at most, so once one has gone out no other can be allowed."""
    return Hold.objects.filter(rewrites=hold.id, passport_id=hold.passport_id, status="used").first()


def rewritten(hold: Hold, words: dict[str, str]) -> dict[str, Any]:
    """The held call with the person's words in place of its own, in the kept form and screened as any
    agent's words are; or holds.NotDecided with the screen's words. Fields not given keep their words."""
    names = fields_of(hold)
    if not names:
        raise holds.NotDecided(NOT_REWRITABLE)
    used = gone_out(hold)
    if used is not None:
        raise holds.NotDecided(GONE_OUT.format(id=used.id))
    tool = registry()[hold.tool]
    arguments = {**hold.arguments, **{name: words[name] for name in names if name in words}}
    if any(not str(arguments[name]).strip() for name in names):
        raise holds.NotDecided(NO_WORDS)
    try:
        args = tool.args.model_validate(arguments)
        found = kept.keep(tool, args, arguments)
        desk.screen_words(tool, found.args)
    except ValidationError as invalid:
        problem = invalid.errors()[0]
        raise holds.NotDecided(f"Those words do not fit the call: {problem['msg']}.") from None
    except TownReply as refused:
        raise holds.NotDecided(refused.say) from None
    new = holds.shown_arguments(found.arguments)
    if holds.call_digest(hold.tool, new) == hold.call_digest:
        raise holds.NotDecided(SAME_WORDS)
    return new


def rewrite_statement(hold: Hold, arguments: dict[str, Any]) -> str:
    """What a person's passkey signs to allow their rewritten words: the held call, the digest of its
    words as they read them, and the digest of the words they allow instead; for a call held off a
    plan, the plan its page showed beside it, as a decision on the held call names it."""
    statement = {
        "kind": "clockford-rewrite-1",
        "hold": hold.id,
        "tool": hold.tool,
        "decision": "allow-rewritten",
        "was": hold.words_digest,
        "words": holds.words_digest(hold.tool, arguments),
    }
    if hold.plan:
        statement["plan"] = hold.plan
    return canonical_text(statement)


def rewrites_of(hold: Hold) -> list[Hold]:
    """The calls a person wrote in place of this held call, the newest first."""
    return list(Hold.objects.filter(rewrites=hold.id, passport_id=hold.passport_id).order_by("-created_at", "-id"))


def live_rewrite(hold: Hold, now: datetime | None = None, among: list[Hold] | None = None) -> Hold | None:
    """The rewrite of this held call that the agent may still make now (allowed, unused, within its
    hour), if any; at most one is, since a new rewrite replaces the one before. `among`: its rewrites,
    when the caller has read them already (rewrites_of)."""
    rewrites = rewrites_of(hold) if among is None else among
    return next((r for r in rewrites if holds.status_of(r, now) == "allowed"), None)


def replaced_by(hold: Hold) -> Hold | None:
    """For a rewrite whose yes a newer rewrite of the same held call ended before it was used: that
    newer rewrite. None for any other hold, a rewrite that lapsed with its hour among them."""
    if not hold.rewrites or hold.status != "lapsed":
        return None
    return (
        Hold.objects.filter(rewrites=hold.rewrites, passport_id=hold.passport_id, created_at__gte=hold.created_at)
        .exclude(pk=hold.pk)
        .order_by("created_at", "id")
        .first()
    )


def do_allow_rewritten(
    hold: Hold, account: Any, arguments: dict[str, Any], shown_digest: str, statement: str, assertion: dict[str, Any]
) -> tuple[Hold, list[str]]:
    """Allow the person's rewritten call, signed with their passkey: a new hold, allowed for the hour,
    whose call is exactly the rewritten one. The original stays held, and is read under a lock, so a
    decision on it cannot land in between. An earlier rewrite of it that the agent has not used is
    replaced: its yes ends now (its row reads lapsed). Returns the new hold and the ids it replaced."""
    now = clock.now()
    with transaction.atomic():
        original = locked(Hold.objects.filter(pk=hold.pk)).get()
        why = holds.undecidable(original, now)
        if why is not None:
            raise holds.NotDecided(why)
        if not holds.words_unchanged(original, shown_digest):
            raise holds.NotDecided(holds.WORDS_CHANGED)
        if arguments != rewritten(original, arguments) or statement != rewrite_statement(original, arguments):
            raise holds.NotDecided(SIGNED_ELSE)
        # Under the original's lock, so two rewrites at once still leave one allowed; the conditional
        # UPDATE leaves alone one the agent used a moment ago (holds.use), which stays used.
        earlier = Hold.objects.filter(
            rewrites=original.id, passport_id=original.passport_id, status="allowed", allowed_until__gt=now
        )
        replaced = [r.id for r in locked(earlier).order_by("created_at", "id")]
        Hold.objects.filter(pk__in=replaced, status="allowed").update(status="lapsed", allowed_until=now)
        allowed = Hold.objects.create(
            id=new_id("H-"),
            passport=original.passport,
            account_id=original.account_id,
            tool=original.tool,
            why=original.why,
            call_digest=holds.call_digest(original.tool, arguments),
            arguments=arguments,
            words_digest=holds.words_digest(original.tool, arguments),
            rewrites=original.id,
            # The plan the held call was off, which the person saw: their yes to their own words covers
            # going past it, as their yes to the held call would (holds.gate).
            plan=original.plan,
            status="allowed",
            created_at=now,
            waits_until=original.waits_until,
            decided_at=now,
            decided_by=account,
            allowed_until=now + timedelta(minutes=holds.ALLOWED_MINUTES),
            statement=statement,
            assertion=assertion,
        )
        return allowed, replaced
