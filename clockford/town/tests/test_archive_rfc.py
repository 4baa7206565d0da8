"""Every inclusion proof the town gives, at tree sizes on both sides of a block's edge, and every
consistency proof between its signed checkpoints, checked by a verifier written apart from
clockford.town.merkle (RFC 9162 sections 2.1.3.2 and 2.1.4.2), against the signed roots."""

import datetime as dt
import hashlib

import pytest

from clockford.town import archive
from clockford.town.models import ArchiveBlock, ArchiveLeaf, Checkpoint
from clockford.town.tests.test_archive import make_footsteps

pytestmark = pytest.mark.django_db
B = archive.BLOCK
SIZES = [1, B - 1, B, B + 1, 2 * B - 1, 2 * B, 2 * B + 1]


def H(b: bytes) -> bytes:  # noqa: N802
    return hashlib.sha256(b).digest()


def mth(leaves: list[bytes]) -> bytes:  # RFC 9162 2.1.1, leaves are leaf hashes already
    n = len(leaves)
    if n == 0:
        return H(b"")
    if n == 1:
        return leaves[0]
    k = 1
    while k << 1 < n:
        k <<= 1
    return H(b"\x01" + mth(leaves[:k]) + mth(leaves[k:]))


def rfc_verify_inclusion(
    index: int, size: int, leaf: bytes, path: list[bytes], root: bytes
) -> bool:  # RFC 9162 2.1.3.2
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = H(b"\x01" + p + r)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = H(b"\x01" + r + p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def rfc_verify_consistency(
    first: int, second: int, first_hash: bytes, second_hash: bytes, path: list[bytes]
) -> bool:  # RFC 9162 2.1.4.2
    if first == second:
        return path == [] and first_hash == second_hash
    if first == 0 or first > second or not path:
        return False
    if first & (first - 1) == 0:
        path = [first_hash, *path]
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = H(b"\x01" + c + fr)
            sr = H(b"\x01" + c + sr)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = H(b"\x01" + sr + c)
        fn >>= 1
        sn >>= 1
    return fr == first_hash and sr == second_hash and sn == 0


def test_every_proof_verifies_by_the_rfc_at_sizes_around_a_blocks_edge() -> None:
    numbers = make_footsteps(SIZES[-1], seed=3)
    size = 0
    for target in SIZES:
        while size < target:
            size += archive.fold(limit=min(97, target - size), settle=dt.timedelta(0))
        leaves = [bytes.fromhex(h) for h in ArchiveLeaf.objects.order_by("index").values_list("hash", flat=True)]
        blocks = dict(ArchiveBlock.objects.values_list("index", "hash"))
        assert blocks == {i: mth(leaves[i * B : (i + 1) * B]).hex() for i in range(size // B)}
        cp = archive.latest_checkpoint()
        assert cp is not None and cp.size == size
        root = bytes.fromhex(cp.root)
        for n in numbers[:size]:
            p = archive.inclusion(n)
            path = [bytes.fromhex(x) for x in p["proof"]]
            assert rfc_verify_inclusion(p["index"], size, bytes.fromhex(p["leaf"]), path, root), (n, size)
    signed = list(Checkpoint.objects.order_by("size"))
    for old in signed:
        for new in signed:
            if old.size <= new.size:
                path = [bytes.fromhex(x) for x in archive.consistency(old.size, new.size)["proof"]]
                roots = bytes.fromhex(old.root), bytes.fromhex(new.root)
                assert rfc_verify_consistency(old.size, new.size, *roots, path), (old.size, new.size)
