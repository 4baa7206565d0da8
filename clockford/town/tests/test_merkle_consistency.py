"""RFC 6962 consistency proofs (section 2.1.2): the Certificate Transparency reference vectors, the
corrupted proofs those suites also refuse, and every pair of sizes up to twenty leaves checked against
a plain recursive reading of the RFC written here."""

import pytest

from clockford.town import merkle
from clockford.town.tests.test_merkle import RFC_LEAVES, RFC_ROOTS, entries, mth

# The reference consistency proofs between two sizes of the RFC leaves (whose roots are RFC_ROOTS), as
# certificate-transparency's merkle tests (and transparency-dev/merkle's proof/verify_test.go after
# them) publish them.
CONSISTENCY = [
    (1, 1, []),
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        [
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
    (
        6,
        7,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
]
SOME_HASH = bytes.fromhex("abacaba000000000000000000000000000000000000000000060061e00123456")
EMPTY = merkle.EMPTY_ROOT


def plain_proof(m: int, d: list[bytes]) -> list[bytes]:
    """RFC 6962 section 2.1.2 word for word: PROOF(m, D[n]) = SUBPROOF(m, D[n], true)."""

    def subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
        n = len(d)
        if m == n:
            return [] if b else [mth(d)]
        k = 1 << ((n - 1).bit_length() - 1)
        if m <= k:
            return [*subproof(m, d[:k], b), mth(d[k:])]
        return [*subproof(m - k, d[k:], False), mth(d[:k])]

    return subproof(m, d, True)


def hashes(n: int) -> list[bytes]:
    return [merkle.leaf_hash(e) for e in RFC_LEAVES[:n]]


@pytest.mark.parametrize(("old", "new", "proof"), CONSISTENCY)
def test_the_reference_consistency_proofs_are_made_and_verify(old: int, new: int, proof: list[str]) -> None:
    made = merkle.consistency_proof(old, hashes(new))
    assert [p.hex() for p in made] == proof
    assert merkle.root(hashes(old)).hex() == RFC_ROOTS[old - 1]
    assert merkle.root(hashes(new)).hex() == RFC_ROOTS[new - 1]
    old_root, new_root = bytes.fromhex(RFC_ROOTS[old - 1]), bytes.fromhex(RFC_ROOTS[new - 1])
    assert merkle.verify_consistency(old, new, old_root, new_root, [bytes.fromhex(p) for p in proof])


Probe = tuple[int, int, bytes, bytes, list[bytes]]


def corrupted(old: int, new: int, r1: bytes, r2: bytes, proof: list[bytes]) -> list[tuple[str, Probe]]:
    """The wrong probes the reference suites try against every good proof: none may verify."""
    probes: list[tuple[str, Probe]] = [
        ("old - 1", (old - 1, new, r1, r2, proof)),
        ("old + 1", (old + 1, new, r1, r2, proof)),
        ("old ^ 2", (old ^ 2, new, r1, r2, proof)),
        ("new * 2", (old, new * 2, r1, r2, proof)),
        ("new / 2", (old, new // 2, r1, r2, proof)),
        ("wrong old root", (old, new, b"WrongRoot", r2, proof)),
        ("wrong new root", (old, new, r1, b"WrongRoot", proof)),
        ("swapped roots", (old, new, r2, r1, proof)),
        ("empty proof", (old, new, r1, r2, [])),
        ("trailing garbage", (old, new, r1, r2, [*proof, b""])),
        ("trailing old root", (old, new, r1, r2, [*proof, r1])),
        ("trailing new root", (old, new, r1, r2, [*proof, r2])),
        ("preceding garbage", (old, new, r1, r2, [b"", *proof])),
        ("preceding old root", (old, new, r1, r2, [r1, *proof])),
        ("preceding new root", (old, new, r1, r2, [r2, *proof])),
        ("preceding proof[0]", (old, new, r1, r2, [proof[0], *proof])),
        ("truncated proof", (old, new, r1, r2, proof[:-1])),
    ]
    for i in range(len(proof)):
        bent = list(proof)
        bent[i] = bytes([bent[i][0] ^ 16]) + bent[i][1:]
        probes.append((f"proof[{i}] bit 4 flipped", (old, new, r1, r2, bent)))
    return probes


@pytest.mark.parametrize(("old", "new", "proof"), [c for c in CONSISTENCY if c[2]])
def test_no_corruption_of_a_reference_proof_verifies(old: int, new: int, proof: list[str]) -> None:
    good = [bytes.fromhex(p) for p in proof]
    r1, r2 = bytes.fromhex(RFC_ROOTS[old - 1]), bytes.fromhex(RFC_ROOTS[new - 1])
    wrongly = [name for name, args in corrupted(old, new, r1, r2, good) if merkle.verify_consistency(*args)]
    assert wrongly == []


def test_the_edge_cases_of_the_reference_suite() -> None:
    r1, r2 = b"don't care 1", b"don't care 2"
    v = merkle.verify_consistency
    # Sizes that are always consistent.
    assert v(0, 0, r1, r1, [])
    assert v(0, 1, r1, r2, [])
    assert v(1, 1, r2, r2, [])
    # Equal sizes with other roots, time travel to the past, a missing proof.
    assert not v(0, 0, r1, r2, [])
    assert not v(1, 1, r1, r2, [])
    assert not v(1, 0, r1, r2, [])
    assert not v(2, 1, r1, r2, [])
    assert not v(1, 2, r1, r2, [])
    assert not v(0, 0, EMPTY, r2, [])
    # Roots that match, but a proof that is not empty.
    assert not v(0, 0, EMPTY, EMPTY, [EMPTY])
    assert not v(0, 1, EMPTY, EMPTY, [EMPTY])
    assert not v(1, 1, EMPTY, EMPTY, [EMPTY])
    assert not v(2, 5, SOME_HASH, SOME_HASH, [SOME_HASH])


def test_every_pair_of_sizes_up_to_twenty_leaves_agrees_with_the_plain_reading() -> None:
    es = entries(20)
    leaves = [merkle.leaf_hash(e) for e in es]
    for n in range(1, 21):
        for m in range(0, n + 1):
            proof = merkle.consistency_proof(m, leaves[:n])
            if 0 < m < n:
                assert proof == plain_proof(m, es[:n]), (m, n)
            else:
                assert proof == []
            old_root, new_root = merkle.root(leaves[:m]), merkle.root(leaves[:n])
            assert merkle.verify_consistency(m, n, old_root, new_root, proof), (m, n)
            if 0 < m < n:
                # A log that rewrote any leaf of the old tree cannot prove it grew from it.
                forged = [merkle.leaf_hash(b"forged"), *leaves[1:n]]
                forged_proof = merkle.consistency_proof(m, forged)
                assert not merkle.verify_consistency(m, n, old_root, merkle.root(forged), forged_proof), (m, n)


def test_a_proof_from_a_size_outside_the_tree_is_refused() -> None:
    with pytest.raises(IndexError):
        merkle.consistency_proof(4, hashes(3))
    with pytest.raises(IndexError):
        merkle.consistency_proof(-1, hashes(3))
