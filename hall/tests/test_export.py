"""The export of an account (docs/export.md): one file with everything, its manifest signed by the
town, checkable offline by a process that knows nothing of the town; and closing an account, which
drops its words and keeps its footsteps."""

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clockford.town import signing
from clockford.town.models import Footstep, Hold, Passport
from districts.jobs.models import Outside
from districts.post_office import services as post_office
from districts.testing import visit
from hall.models import Account
from hall.tests.conftest import agent_of, person
from tests.support import ROOT

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

CHECKER = ROOT / "docs" / "verify_signature.py"


def errands(agent: Passport, n: int) -> None:
    visit(agent, "remember", key=f"route-{n}", value=f"North gate {n}", job_id=f"job-{n}")
    visit(agent, "post_notice", text=f"Lamp oil at the mill, batch {n}.", job_id=f"job-{n}")
    visit(agent, "send_letter", subject=f"Errand {n}", body="Done, and the lamp is lit.")
    visit(agent, "look_around")


def offline(path: Path, key: str) -> subprocess.CompletedProcess[str]:
    """The checker in a process of its own, without Django or the town's settings: offline."""
    return subprocess.run(  # noqa: S603 (our own checker, on our own file)
        [sys.executable, "-I", str(CHECKER), str(path), "--key", key],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_export_of_an_account_with_two_agents_checks_offline(tmp_path: Path) -> None:
    alice, a = person("Alice")
    one, two = agent_of(a), agent_of(a)
    errands(one, 1)
    errands(two, 2)
    _, b = person("Bob")
    visit(agent_of(b), "remember", key="bobs", value="not Alice's")

    r = alice.client.get("/hall/account/export")
    assert r.status_code == 200 and r["Content-Disposition"].startswith('attachment; filename="clockford-')
    body = r.getvalue()  # sent from a file: read once
    data = json.loads(body)
    s = data["sections"]
    assert {p["id"] for p in s["passports"]} == {one.id, two.id}
    mine = Footstep.objects.filter(passport__in=[one.id, two.id]).count()
    assert len(s["footsteps"]) == mine == 8
    assert {f["entry"]["passport"] for f in s["footsteps"]} == {one.id, two.id}
    assert all(f["proof"] is not None for f in s["footsteps"])
    assert {n["key"] for n in s["notes"]} == {"route-1", "route-2"}
    assert {letter["subject"] for letter in s["letters"]} == {"Errand 1", "Errand 2"}
    assert {h["tool"] for h in s["holds"]} == {"post_notice"} and len(s["holds"]) == 2
    assert {j["job"] for j in s["jobs"]} == {"job-1", "job-2"}
    assert len(s["passkeys"]) == 1
    statement = data["manifest"]["statement"]
    assert statement["kind"] == "clockford-export" and statement["account"] == a.handle
    assert statement["checkpoint"] == s["checkpoint"]["size"]
    assert statement["sections"]["footsteps"]["count"] == 8

    path = tmp_path / "export.json"
    path.write_bytes(body)
    key = signing.public_key_hex()
    done = offline(path, key)
    assert (done.returncode, done.stdout.strip()) == (0, "clockford-export of 8 footsteps: ok"), (
        done.stdout + done.stderr
    )
    call_command("export", "check", str(path))

    # Every footstep's proof reaches the checkpoint it names, and any change is seen.
    data["sections"]["notes"][0]["value"] = "changed"
    data["sections"]["footsteps"][3]["entry"]["outcome"] = "refused:made-up"
    bent = tmp_path / "bent.json"
    bent.write_text(json.dumps(data))
    done = offline(bent, key)
    assert done.returncode == 1
    number = data["sections"]["footsteps"][3]["entry"]["number"]
    assert "the section notes is not the one the manifest signed" in done.stdout
    assert f"footstep #{number} does not match its leaf" in done.stdout
    assert "the section footsteps is not the one the manifest signed" in done.stdout
    with pytest.raises(CommandError):
        call_command("export", "check", str(bent))
    # Another key than the town's does not check it.
    other = "00" * 32
    refused = offline(path, other)
    assert refused.returncode == 1
    assert "the manifest is signed by a key that is not one of those given with --key" in refused.stdout


def test_closing_an_account_drops_its_words_and_keeps_its_footsteps() -> None:
    alice, a = person("Alice")
    agent = agent_of(a)
    errands(agent, 1)
    from clockford.town import desk
    from districts.registry import TOOLS

    desk.run(TOOLS["job_outside"], {"server": "s", "tool": "t", "why": "secret plans", "job_id": "job-1"}, agent, None)
    steps = Footstep.objects.filter(passport=agent.id).count()
    page = alice.page("/hall/account")
    assert "Download your account" in page and "Close your account" in page

    r = alice.client.post("/hall/account/close", {"confirm": "no"}, follow=True)
    assert "To close your account" in r.content.decode()
    assert Account.objects.get(pk=a.pk).is_active

    alice.client.post("/hall/account/close", {"confirm": "close my account"})
    closed = Account.objects.get(pk=a.pk)
    assert closed.is_active is False and not closed.passkeys.exists()
    assert post_office.keys_of(agent) == []
    assert all(h.arguments["text"] == "" for h in Hold.objects.filter(passport=agent))
    assert Outside.objects.get().why == ""
    assert Footstep.objects.filter(passport=agent.id).count() == steps
    assert alice.account is None  # signed out


def test_no_export_is_made_from_a_damaged_archive() -> None:
    """An Archive whose leaves do not reach its checkpoint cannot prove a footstep: the download says so
    on the hall's page (503), not a 500 and not a file of proofs that do not hold."""
    from clockford.town import archive
    from clockford.town.models import ArchiveLeaf
    from clockford.town.tests.test_archive import as_an_attacker

    alice, a = person("Alice")
    errands(agent_of(a), 1)
    archive.fold_all(settle=dt.timedelta(0))
    with as_an_attacker("town_archiveleaf"):
        ArchiveLeaf.objects.filter(index=0).delete()
    r = alice.client.get("/hall/account/export")
    assert r.status_code == 503
    page = r.content.decode()
    assert "No export can be made right now:" in page and "Content-Disposition" not in r


def test_the_export_carries_the_certificates_the_foundry_cast_for_the_agents(tmp_path: Path) -> None:
    # docs/export.md: certificates join the file once the Foundry is open, as the runs did.
    alice, a = person("Alice")
    one = agent_of(a)
    slips = [
        visit(one, "attend", course=c).structured["slip"] for c in ("ten-habits", "words-are-data", "spending-well")
    ]
    cast = visit(one, "foundry_cast", slips=slips).structured
    _, b = person("Bob")
    other = agent_of(b)
    visit(
        other,
        "foundry_cast",
        slips=[
            visit(other, "attend", course=c).structured["slip"]
            for c in ("ten-habits", "words-are-data", "spending-well")
        ],
    )

    data = json.loads(alice.client.get("/hall/account/export").getvalue())
    (mine,) = data["sections"]["certificates"]
    assert mine["passport"] == one.id and mine["standing"] == "live"
    assert mine["certificate"] == cast["certificate"] and signing.verify_signed(mine["certificate"])
    assert data["manifest"]["statement"]["sections"]["certificates"]["count"] == 1
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data))
    done = offline(path, signing.public_key_hex())
    assert done.returncode == 0, done.stdout + done.stderr
    call_command("export", "check", str(path))


def test_an_export_makes_each_root_of_the_tree_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An export proves every footstep of the person's agents in one tree: each root of it is made once,
    not once a footstep (each proof made from every leaf anew hashed the whole tree: an account with
    114,000 of 200,000 footsteps ran for hours). Every proof still verifies against the checkpoint."""
    from clockford.town import archive, exports, merkle

    alice, a = person("Alice")
    agent = agent_of(a)
    errands(agent, 3)
    for _ in range(40):
        visit(agent, "look_around")
    archive.fold_all(settle=dt.timedelta(0))
    made = 0
    node_hash = merkle.node_hash

    def counted(left: bytes, right: bytes) -> bytes:
        nonlocal made
        made += 1
        return node_hash(left, right)

    monkeypatch.setattr(merkle, "node_hash", counted)
    steps, checkpoint = exports.footsteps_with_proofs([agent.id])
    assert checkpoint is not None and len(steps) > 40
    monkeypatch.setattr(merkle, "node_hash", node_hash)
    # A tree of n leaves has n - 1 nodes, each made once; checking each proof adds a path's length.
    size = checkpoint["size"]
    assert made < size + len(steps) * size.bit_length(), (made, size)
    root = bytes.fromhex(checkpoint["root"])
    for s in steps:
        p = s["proof"]
        path = [bytes.fromhex(x) for x in p["path"]]
        assert merkle.verify_inclusion(p["index"], checkpoint["size"], bytes.fromhex(s["leaf"]), path, root)


def test_the_download_is_written_a_footstep_at_a_time_and_is_the_same_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """The export was built in memory whole, its text too (363 MB for an account of 114,000 footsteps); it
    is written to a file a footstep at a time and sent from it, byte for byte the file it was: the
    sections and the manifest as json.dumps(..., ensure_ascii=False, indent=1) wrote them."""
    from django.utils import timezone

    from hall.export import export_of

    alice, a = person("Alice")
    one, two = agent_of(a), agent_of(a)
    errands(one, 1)
    errands(two, 2)
    visit(one, "send_letter", subject='Ünïcode \u200b "quoted"', body="Two lines,\nand a tab\tand \\ a backslash.")
    visit(two, "remember", key="route-3", value="🌙 by the mill\n{not json}")
    bob, b = person("Bob")  # an account with no agents: no footsteps at all
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)  # madeAt, the same in both files
    for who, account in ((alice, a), (bob, b)):
        r = who.client.get("/hall/account/export")
        assert r.status_code == 200 and r.streaming
        sent = b"".join(r.streaming_content)  # read to its end, the test client closes it
        assert int(r["Content-Length"]) == len(sent)
        assert sent == json.dumps(export_of(account), ensure_ascii=False, indent=1).encode()
    data = json.loads(sent)
    assert data["sections"]["footsteps"] == [] and data["manifest"]["statement"]["sections"]["footsteps"]["count"] == 0


def test_the_download_holds_a_bounded_part_of_the_file_in_memory() -> None:
    """Written a footstep at a time, the download holds in memory a part of the file that does not grow
    with it: built whole, 20,000 footsteps (a file of 31 MB) took 112 MB; 3.4 MB now."""
    import gc
    import tracemalloc

    from django.utils import timezone

    from clockford.town import archive

    alice, a = person("Alice")
    agent = agent_of(a)
    start = timezone.now() - dt.timedelta(days=1)
    Footstep.objects.bulk_create(
        [
            Footstep(
                at=start + dt.timedelta(seconds=i),
                tool="look_around",
                passport=agent.id if i % 3 else "P-someone-else",
                outcome="ok",
                digest=signing.keyed_digest({"i": i}),
            )
            for i in range(4500)
        ],
        batch_size=2000,
    )
    archive.fold_all(settle=dt.timedelta(0))
    gc.collect()
    tracemalloc.start()
    try:
        r = alice.client.get("/hall/account/export")
        size = sum(len(chunk) for chunk in r.streaming_content)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert size > 4_000_000 and peak < size / 3, (size, peak)


def test_the_towns_asgi_server_sends_the_same_file_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Served by the town's ASGI server, the file is read in pieces off its event loop (an asynchronous
    iterator: a plain one is read there too, with Django's warning in the log), the same bytes."""
    import asyncio
    import warnings
    from urllib.parse import urlsplit

    from asgiref.sync import async_to_sync
    from django.conf import settings
    from django.core.handlers.asgi import ASGIHandler
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections
    from django.utils import timezone

    alice, a = person("Alice")
    errands(agent_of(a), 1)
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    cookie = "; ".join(f"{k}={v.value}" for k, v in alice.client.cookies.items())
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/hall/account/export",
        "raw_path": b"/hall/account/export",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", urlsplit(settings.HALL_URL).netloc.encode()), (b"cookie", cookie.encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, Any]] = []

    async def served() -> None:
        asked = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict[str, Any]:
            if not asked:
                await asyncio.sleep(3600)  # the person stays until all is sent (the handler then stops asking)
            return asked.pop()

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await ASGIHandler()(scope, receive, send)

    # As the test client does: a request's signals would close the test's connection (and its transaction).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            async_to_sync(served)()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert [str(w.message) for w in warned if "iterators" in str(w.message)] == []
    assert sent[0]["status"] == 200, b"".join(m.get("body", b"") for m in sent[1:])[-600:]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    assert body == alice.client.get("/hall/account/export").getvalue()
    assert len(json.loads(body)["sections"]["footsteps"]) == 4
