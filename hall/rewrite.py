"""Edit and allow, in the hall: on a held publish, the person rewrites the words and allows the
rewritten call with their passkey (clockford/town/rewrite.py does the deciding).

The person's words go through the kept form and the words screen before any passkey is asked for,
so a refusal is said at once, in the screen's words. They must be exactly what the person typed: words
the town would cut to the field's cap, or that carry hidden characters, are sent back to be rewritten
rather than signed in a form the person did not see. The passkey signs the held call, the digest of
its words as the page showed them, and the digest of the new words.
"""

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.urls import reverse

from clockford.town import holds, rewrite, words
from clockford.town.holds import NotDecided
from clockford.town.models import Hold
from clockford.town.tooling import registry
from hall import passkeys
from hall.decide import begun, found, shown
from hall.http import Refused, account_or_refuse, ceremony, text
from hall.models import Account
from hall.shown import stamp

KIND = "rewrite"
NO_HOLD = "No call you decide for has that number."

_hold = found(holds.access_hold_as_it_stands, NO_HOLD)


def fields(hold: Hold) -> list[dict[str, Any]]:
    """The fields a person may rewrite on a hold's page, each with its cap and the words to start from:
    the agent's own, hidden characters left out (the page above draws them)."""
    tool = registry().get(hold.tool)
    if tool is None or not rewrite.rewritable(hold):
        return []
    return [
        {
            "name": name,
            "cap": tool.free_words[name].cap,
            "start": "".join(ch for ch in str(hold.arguments[name]) if not words.is_hidden(ch)),
        }
        for name in rewrite.fields_of(hold)
    ]


def _typed(hold: Hold, data: dict[str, Any]) -> dict[str, str]:
    """The words the person typed, by field, checked to be exactly what will be signed."""
    tool = registry()[hold.tool]
    typed = {name: text(data, f"rewrite.{name}").replace("\r\n", "\n") for name in rewrite.fields_of(hold)}
    for name, value in typed.items():
        cap = tool.free_words[name].cap
        if len(value) > cap:
            raise Refused(f"The {name} can be at most {cap} characters; yours has {len(value)}. Shorten it.")
        hidden = [ch for ch in value if words.is_hidden(ch)]
        if hidden:
            raise Refused(
                f"Your {name} carries hidden characters ({words.visible(''.join(hidden))}). Write it without them."
            )
    return typed


def _begin(request: HttpRequest, data: dict[str, Any], hold_id: str) -> dict[str, Any]:
    account = account_or_refuse(request)
    hold = _hold(account, hold_id)
    drawn = text(data, "words")
    why = holds.undecidable(hold)
    if why is not None:
        raise Refused(why, 409)
    if not holds.words_unchanged(hold, drawn):
        raise Refused(holds.WORDS_CHANGED, 409)
    beside = holds.shown_beside(hold)
    if any(text(data, name) != value for name, value in beside.items()):
        raise Refused(holds.PLAN_CHANGED, 409)
    try:
        arguments = rewrite.rewritten(hold, _typed(hold, data))
    except NotDecided as exc:
        raise Refused(exc.say) from None
    kept = shown(KIND, hold.id, {"decision": KIND, "words": drawn, "arguments": json.dumps(arguments), **beside})
    statement = rewrite.rewrite_statement(hold, arguments)
    return {"options": passkeys.begin_approval(request.session, statement, account, kept)}


def _finish(request: HttpRequest, data: dict[str, Any], hold_id: str) -> dict[str, Any]:
    account: Account = account_or_refuse(request)
    hold = _hold(account, hold_id)
    approval = passkeys.finish_approval(request.session, data.get("credential"), account)
    kept = begun(approval, KIND, hold.id)
    arguments = json.loads(kept.get("arguments", "{}"))
    if holds.undecidable(hold) is None and any(kept.get(k) != v for k, v in holds.shown_beside(hold).items()):
        raise Refused(holds.PLAN_CHANGED, 409)
    try:
        allowed, replaced = rewrite.do_allow_rewritten(
            hold, account, arguments, kept.get("words", ""), approval.statement, approval.assertion
        )
    except NotDecided as exc:
        raise Refused(exc.say, status=409) from exc
    messages.success(request, allowed_say(allowed, replaced))
    return {"next": reverse("hall:hold", args=[allowed.id])}


def allowed_say(allowed: Hold, replaced: list[str]) -> str:
    """What the person is told once their words are allowed: what the agent may do now, what their
    yes replaced, and that the agent's own words still wait (allowing them too lets both go out)."""
    until = f", until {stamp(allowed.allowed_until)}" if allowed.allowed_until is not None else ""
    said = f"Allowed your words. Your agent may make exactly that call once{until}."
    if replaced:
        earlier = ", ".join(replaced)
        said += (
            f" They replace your earlier words ({earlier}), which your agent had not used: that yes has ended, "
            "so only these words can go out."
        )
    return said + " Its own words still wait, held: allowing them as well would let both go out."


rewrite_begin = ceremony(_begin)
rewrite_finish = ceremony(_finish)
