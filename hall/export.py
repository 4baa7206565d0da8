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
import hashlib
import json
import shutil
import tempfile
from collections.abc import AsyncIterator
from typing import IO, Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.core.handlers.asgi import ASGIRequest
from django.db import transaction
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from clockford.town import clock, exports, signing
from districts.foundry import services as foundry
from districts.jobs import services as jobs
from districts.post_office import services as post_office
from hall import connected, push
from hall.agents import agents_of
from hall.http import refuse, signed_in_page, signed_in_post
from hall.models import Account
from hall.runs import runs_for_export

CLOSE_WORDS = "close my account"
PIECE = 256 * 1024  # bytes of the export sent at a time
NOT_CONFIRMED = f"To close your account, type “{CLOSE_WORDS}” in the box. Nothing changed."
CLOSED = (
    "Your account is closed: its words are gone, its clients and passkeys ended. Its footsteps stay in the Archive."
)


def _iso(when: Any) -> str | None:
    return clock.iso(when) if when else None


def export_of(account: Account) -> dict[str, Any]:
    """Everything of this account, as one signed file, in memory (the download writes it a footstep at a
    time: written_export)."""
    passports = list(agents_of(account))
    footsteps, checkpoint = exports.footsteps_with_proofs([p.id for p in passports])
    return exports.sign(_sections(account, passports, footsteps, checkpoint), _about(account, checkpoint))


def _about(account: Account, checkpoint: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "account": account.handle,
        "town": settings.HALL_URL,
        "madeAt": clock.iso(timezone.now()),
        "checkpoint": checkpoint["size"] if checkpoint else None,
    }


def _sections(account: Account, passports: list[Any], footsteps: Any, checkpoint: Any) -> dict[str, Any]:
    ids = [p.id for p in passports]
    return {
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


def _json(value: Any, depth: int) -> str:
    """The value as json.dumps(..., ensure_ascii=False, indent=1) writes it `depth` levels deep (a newline
    in a string is written \\n, so each newline is the layout's own)."""
    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * depth)


def written_export(account: Account) -> tuple[IO[bytes], int]:
    """The bytes of export_of's file (as json.dumps(..., ensure_ascii=False, indent=1)), in a temporary file,
    and how many: written a footstep at a time. An account's export was built in memory whole, its text
    too (363 MB for 114,000 footsteps). The footsteps go to the file first, each hashed as it goes for the
    manifest (the canonical JSON of a list is its items' joined by commas), which the file starts with."""
    passports = list(agents_of(account))
    checkpoint, steps = exports.proved_footsteps([p.id for p in passports])
    spool = tempfile.TemporaryFile()  # noqa: SIM115 (closed below, whatever happens)
    try:
        digest, n = hashlib.sha256(b"["), 0
        for step in steps:
            digest.update((b"," if n else b"") + signing.canonical_json(step))
            spool.write(((",\n" if n else "\n") + "   " + _json(step, 3)).encode())
            n += 1
        digest.update(b"]")
        sections = _sections(account, passports, [], checkpoint)
        signed = exports.sign(sections, _about(account, checkpoint), {"footsteps": (n, digest.hexdigest())})
        out = tempfile.TemporaryFile()  # noqa: SIM115 (handed on: the response closes it once sent)
        out.write(('{\n "manifest": ' + _json(signed["manifest"], 1) + ',\n "sections": {').encode())
        for i, (name, value) in enumerate(sections.items()):
            out.write((("," if i else "") + "\n  " + json.dumps(name) + ": ").encode())
            if name != "footsteps" or not n:
                out.write(_json(value, 2).encode())
                continue
            out.write(b"[")
            spool.seek(0)
            shutil.copyfileobj(spool, out)
            out.write(b"\n  ]")
        out.write(b"\n }\n}")
        size = out.tell()
        out.seek(0)
        return out, size
    finally:
        spool.close()


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


async def _pieces(written: IO[bytes]) -> AsyncIterator[bytes]:
    try:
        while piece := await sync_to_async(written.read, thread_sensitive=False)(PIECE):
            yield piece
    finally:
        written.close()


@signed_in_page
def download(request: HttpRequest, account: Account) -> HttpResponseBase:
    """/hall/account/export: the signed file, as a download."""
    try:
        written, size = written_export(account)
    except exports.NoProofs as why:
        return refuse(request, f"No export can be made right now: {why}", 503)
    # Sent from the file a piece at a time, closed once sent. The town's ASGI server takes the pieces from an
    # asynchronous iterator (a plain one it reads too, with a warning in the log at each download).
    kind = "application/json; charset=utf-8"
    response: HttpResponseBase = (
        StreamingHttpResponse(_pieces(written), content_type=kind)
        if isinstance(request, ASGIRequest)
        else FileResponse(written, content_type=kind)
    )
    response["Content-Length"] = str(size)
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
