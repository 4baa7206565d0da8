"""Witnessing in process: a witness follows a town's Archive through its read API, keeps and co-signs
each checkpoint that grew from the last one it kept, and catches a log whose tail was cut (the
append-only triggers dropped, as someone with the database's owner rights can) even when `archive
verify` on the town's own database finds nothing wrong. `archive verify` also compares each passport's
own count of footsteps with the Archive."""

import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from clockford.town import archive, witness
from clockford.town.models import ArchiveLeaf, Checkpoint, Footstep
from clockford.town.tests.test_archive import ARCHIVE_TABLES, as_an_attacker, make_footsteps
from districts.testing import new_passport, visit

pytestmark = pytest.mark.django_db
TOWN = "http://testserver"


@pytest.fixture
def var(settings: Any, tmp_path: Path) -> Path:
    settings.VAR_DIR = tmp_path
    return tmp_path


def fetcher(client: Client) -> witness.Fetch:
    def fetch(url: str) -> dict[str, Any] | None:
        r = client.get(url.removeprefix(TOWN))
        if r.status_code == 404:
            return None
        if r.status_code != 200:
            raise OSError(f"HTTP {r.status_code}")
        data: dict[str, Any] = r.json()
        return data

    return fetch


def more(n: int) -> None:
    Footstep.objects.bulk_create(
        [
            Footstep(
                at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=3), tool="look_around", passport="p", outcome="ok"
            )
            for _ in range(n)
        ]
    )
    archive.fold_all(settle=dt.timedelta(0))


def cut_tail(keep: int) -> None:
    """Cut every footstep, leaf and checkpoint past the first `keep` leaves, as an attacker would."""
    last = ArchiveLeaf.objects.get(index=keep - 1).footstep_id
    with as_an_attacker(*ARCHIVE_TABLES):
        Checkpoint.objects.filter(size__gt=keep).delete()
        ArchiveLeaf.objects.filter(index__gte=keep).delete()
        Footstep.objects.filter(number__gt=last).delete()


def test_a_witness_follows_a_growing_log_and_co_signs_it(client: Client, var: Path, settings: Any) -> None:
    make_footsteps(20)
    archive.fold_all()
    first = witness.watch(TOWN, fetcher(client))
    assert (first.size, first.kept_before) == (20, None)
    more(13)
    seen = witness.watch(TOWN, fetcher(client))
    assert (seen.size, seen.kept_before) == (33, 20)
    kept = json.loads((seen.folder / "checkpoint.json").read_text())
    assert (
        kept["size"] == 33
        and kept["publicKey"] == archive.checkpoint_view(Checkpoint.objects.get(size=33))["publicKey"]
    )
    c = seen.cosignature
    assert witness.cosignature_holds(c, witness.public_key_hex())
    assert not witness.cosignature_holds({**c, "time": c["time"] + 1}, witness.public_key_hex())
    # The town shows the co-signature once it names the witness and is handed it; never before.
    assert client.get("/api/archive/checkpoint").json()["cosignatures"] == []
    with pytest.raises(ValueError, match="No witness this town names"):
        witness.hand_in(c)
    settings.CLOCKFORD_WITNESSES = {"neighbour": witness.public_key_hex()}
    assert witness.hand_in(c) == "neighbour"
    shown = client.get("/api/archive/checkpoint").json()["cosignatures"]
    assert shown == [{"witness": "neighbour", "keyId": c["keyId"], "time": c["time"], "signature": c["signature"]}]


def test_a_cut_tail_is_caught_by_the_witness_though_verify_passes(client: Client, var: Path) -> None:
    make_footsteps(30)
    archive.fold(limit=20, settle=dt.timedelta(0))
    archive.fold_all(settle=dt.timedelta(0))
    assert witness.watch(TOWN, fetcher(client)).size == 30
    cut_tail(20)
    assert archive.verify().ok  # the town's own database, checked alone, looks whole
    with pytest.raises(witness.Refused, match="The town's Archive shrank: this witness kept a signed checkpoint of 30"):
        witness.watch(TOWN, fetcher(client))
    # Refilled past the old size and signed again with the town key: it still cannot prove it grew
    # from the checkpoint the witness kept.
    more(15)
    assert archive.latest_checkpoint().size == 35  # type: ignore[union-attr]
    assert archive.verify().ok
    with pytest.raises(witness.Refused, match="cannot prove its log of 35 footsteps grew from the checkpoint of 30"):
        witness.watch(TOWN, fetcher(client))
    kept = json.loads((witness.folder_for(TOWN) / "checkpoint.json").read_text())
    assert kept["size"] == 30  # nothing new was kept


def test_the_command_says_what_it_witnessed(client: Client, var: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(witness, "fetch_json", fetcher(client))
    make_footsteps(5)
    archive.fold_all()
    out = io.StringIO()
    call_command("archive", "witness", TOWN, stdout=out)
    assert out.getvalue().startswith(f"Witnessed {TOWN}: a signed checkpoint of 5 footsteps (the first look")
    cut_tail(3)
    with pytest.raises(
        CommandError, match="Not witnessed: The town's Archive shrank: .* of 5 footsteps, and the town now shows none"
    ):
        call_command("archive", "witness", TOWN)


def test_verify_compares_each_passports_count_with_the_archive(db: None) -> None:
    p = new_passport()
    for _ in range(4):
        visit(p, "look_around")
    archive.fold_all(settle=dt.timedelta(0))
    assert archive.verify().ok
    last = Footstep.objects.filter(passport=p.id).order_by("-number").first()
    assert last is not None
    cut_tail(ArchiveLeaf.objects.get(footstep_id=last.number).index)
    verdict = archive.verify()
    assert verdict.problems == [f"passport {p.id} counts 4 footsteps, but the Archive holds 3 of its own"]


def test_a_named_witnesss_cosignature_is_handed_in_by_command(
    client: Client, var: Path, settings: Any, tmp_path: Path
) -> None:
    make_footsteps(8)
    archive.fold_all()
    seen = witness.watch(TOWN, fetcher(client))
    path = seen.folder / f"cosignature-{seen.size}.json"
    with pytest.raises(CommandError, match=r"No witness this town names \(CLOCKFORD_WITNESSES\) signed this."):
        call_command("archive", "cosigned", str(path))
    settings.CLOCKFORD_WITNESSES = {"neighbour": witness.public_key_hex()}
    out = io.StringIO()
    call_command("archive", "cosigned", str(path), stdout=out)
    assert out.getvalue() == "Kept: the town now shows neighbour's co-signature of that checkpoint.\n"
    bent = tmp_path / "bent.json"
    bent.write_text(json.dumps({**json.loads(path.read_text()), "time": 1}))
    with pytest.raises(CommandError, match="No witness this town names"):
        call_command("archive", "cosigned", str(bent))
