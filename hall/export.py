"""A person's account, all of it (docs/export.md): download everything in one signed file, and close
the account.

The export is one JSON file: the account, its passports, every footstep with its inclusion proof
against one signed checkpoint, the holds, plans and reports with their signed decisions, the letters,
the P.O. box notes, the jobs, the runs with their signed results, the Foundry's certificates, and the passkeys' public keys (so the decisions' passkey signatures can be
checked too); and a manifest signed by the town key that names each section by its count and digest
(clockford/town/exports.py). `./town manage export check FILE`, or docs/verify_signature.py on
its own, checks a file offline.

Closing an account drops its words (notes, letters, held words, reports' quotes, what jobs declared),
ends its clients and passkeys and signs the person out; the footsteps, which hold no words, stay.
"""

import base64
import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone

from clockford.town import clock, exports
from districts.foundry import services as foundry
from districts.jobs import services as jobs
from districts.post_office import services as post_office
from hall import connected, push
from hall.agents import agents_of
from hall.http import refuse, signed_in_page, signed_in_post
from hall.models import Account
from hall.runs import runs_for_export

CLOSE_WORDS = "close my account"
NOT_CONFIRMED = f"To close your account, type “{CLOSE_WORDS}” in the box. Nothing changed."
CLOSED = (
    "Your account is closed: its words are gone, its clients and passkeys ended. Its footsteps stay in the Archive."
)


def _iso(when: Any) -> str | None:
    return clock.iso(when) if when else None


def export_of(account: Account) -> dict[str, Any]:
    """Everything of this account, as one signed file."""
    passports = list(agents_of(account))
    ids = [p.id for p in passports]
    footsteps, checkpoint = exports.footsteps_with_proofs(ids)
    sections: dict[str, Any] = {
        "account": {"handle": account.handle, "name": account.name, "createdAt": _iso(account.created_at)},
        "passkeys": [
            {
                "name": k.name,
                "credentialId": k.credential_id,
                "publicKey": base64.b64encode(bytes(k.public_key)).decode(),
                "createdAt": _iso(k.created_at),
            }
            for k in account.passkeys.order_by("created_at", "pk")
        ],
        "passports": [
            {
                "id": p.id,
                "pennant": p.pennant,
                "client": p.client_name,
                "issuedAt": _iso(p.issued_at),
                "lastSeen": _iso(p.last_seen),
                "footsteps": p.footsteps,
                "signIn": p.sign_in,
            }
            for p in passports
        ],
        "footsteps": footsteps,
        "checkpoint": checkpoint,
        "holds": exports.holds_of(ids),
        "plans": exports.plans_of(ids),
        "reports": exports.reports_of(ids),
        "letters": [
            {
                "id": letter.id,
                "passport": letter.passport_id,
                "subject": letter.subject,
                "body": letter.body,
                "notes": letter.notes,
                "status": letter.status,
                "sentAt": _iso(letter.sent_at),
                "decidedAt": _iso(letter.decided_at),
                "statement": letter.statement or None,
                "assertion": letter.assertion,
            }
            for letter in post_office.letters_for(account).filter(passport__in=ids).order_by("sent_at", "id")
        ],
        "notes": [
            {"passport": p.id, "key": n.key, "value": n.value, "keptAt": _iso(n.kept_at)}
            for p in passports
            for n in post_office.find_notes(p)
        ],
        "jobs": [
            jobs.view(job, jobs.TIMELINE_STEPS) | {"passport": job.passport_id}
            for job in jobs.jobs_of(agents_of(account))
        ],
        # Every run the agents asked for, with its signed result (docs/runs.md).
        "runs": runs_for_export(ids),
        # Every certificate the Foundry cast for them, signed, with its standing (docs/foundry.md).
        "certificates": foundry.certificates_for_export(ids),
    }
    about = {
        "account": account.handle,
        "town": settings.HALL_URL,
        "madeAt": clock.iso(timezone.now()),
        "checkpoint": checkpoint["size"] if checkpoint else None,
    }
    return exports.sign(sections, about)


@signed_in_page
def account_page(request: HttpRequest, account: Account) -> HttpResponse:
    """/hall/account: download everything, notifications on this device, and closing the account."""
    context = {
        "close_words": CLOSE_WORDS,
        "vapid_key": push.public_key(),
        "devices": push.devices_of(account),
        "nav": "account",
    }
    return render(request, "hall/account.html", context)


@signed_in_page
def download(request: HttpRequest, account: Account) -> HttpResponse:
    """/hall/account/export: the signed file, as a download."""
    try:
        body = json.dumps(export_of(account), ensure_ascii=False, indent=1)
    except exports.NoProofs as why:
        return refuse(request, f"No export can be made right now: {why}", 503)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    response["Content-Disposition"] = f'attachment; filename="clockford-{account.handle}-{stamp}.json"'
    response["Cache-Control"] = "no-store"
    return response


def do_close_account(account: Account) -> dict[str, int]:
    """Drop the account's words, end its clients and passkeys, and close it. Footsteps stay."""
    with transaction.atomic():
        passports = agents_of(account)
        ids = [p.id for p in passports]
        dropped = {
            **exports.forget_words(ids),
            **post_office.forget_words_of(passports),
            **jobs.forget_words_of(passports),
        }
        for c in connected.clients_of(account):
            connected.revoke(account, c.connection.pk)
        account.passkeys.all().delete()
        account.is_active = False
        account.name = ""
        account.save(update_fields=["is_active", "name"])
    return dropped


@signed_in_post
def close(request: HttpRequest, account: Account) -> HttpResponseBase:
    """Close the account, once the person typed the words that say they mean it."""
    if request.POST.get("confirm", "").strip().lower() != CLOSE_WORDS:
        messages.error(request, NOT_CONFIRMED)
        return redirect("hall:account")
    do_close_account(account)
    logout(request)
    messages.info(request, CLOSED)
    return redirect("hall:front")
