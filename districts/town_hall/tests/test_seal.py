"""The seal: a Merkle root over every lot's canonical record, in lot order; any record's inclusion is
provable, and a record that changes changes the root."""

import pytest
from django.core.management import call_command

from clockford.town import merkle, signing
from districts.town_hall import services
from districts.town_hall.models import CensusState, Lot
from districts.town_hall.tests.base import listing, take

pytestmark = pytest.mark.django_db


def test_the_root_is_over_the_canonical_records_in_lot_order(demo: CensusState) -> None:
    records = [lot.record for lot in Lot.objects.order_by("number")]
    leaves = [merkle.leaf_hash(signing.canonical_json(r)) for r in records]
    assert demo.root == merkle.root(leaves).hex()
    assert demo.holds == len(records) == 34
    assert demo.sealed_at is not None


def test_every_records_inclusion_is_provable(demo: CensusState) -> None:
    for lot in Lot.objects.order_by("number"):
        proof = services.inclusion_proof(lot.number)
        assert proof["verified"] is True
        assert proof["root"] == demo.root and proof["holds"] == 34 and proof["index"] == lot.number
        leaf = merkle.leaf_hash(signing.canonical_json(lot.record))
        path = [bytes.fromhex(p) for p in proof["proof"]]
        assert merkle.verify_inclusion(lot.number, 34, leaf, path, bytes.fromhex(demo.root))
        tampered = merkle.leaf_hash(signing.canonical_json({**lot.record, "status": "forged"}))
        assert not merkle.verify_inclusion(lot.number, 34, tampered, path, bytes.fromhex(demo.root))


def test_a_changed_record_changes_the_root_and_old_proofs_fail(db: None) -> None:
    take([listing("com.a/one"), listing("com.a/two")])
    before = services.inclusion_proof("com.a/one")
    take([listing("com.a/one", version="1.1.0", published="2026-06-01T00:00:00Z")])
    after = services.inclusion_proof("com.a/one")
    assert after["root"] != before["root"] and after["verified"] is True
    path = [bytes.fromhex(p) for p in before["proof"]]
    assert not merkle.verify_inclusion(0, 2, bytes.fromhex(before["leaf"]), path, bytes.fromhex(after["root"]))


def test_the_proof_command_prints_a_checkable_proof(demo: CensusState, capsys: pytest.CaptureFixture[str]) -> None:
    call_command("census", "proof", "io.clockford.demo/web-search")
    out = capsys.readouterr().out
    assert '"verified": true' in out and demo.root in out
