"""RFC 6962 Merkle trees: the reference vectors, and the module checked against a plain reading of
the RFC written here (recursive MTH and PATH), so a shared mistake cannot hide in both."""

import hashlib

import pytest

from clockford.town import merkle

# RFC 6962's reference leaves (entries, not hashes), as the Certificate Transparency test suites use them.
RFC_LEAVES = [
    bytes.fromhex(h)
    for h in ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"]
]
RFC_ROOT_8 = "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"
# The roots of the first n of them (n = 1..8), published alongside the reference vector
# (certificate-transparency's merkle tests, and transparency-dev/merkle's proof/verify_test.go after them).
RFC_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    RFC_ROOT_8,
]


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def mth(entries: list[bytes]) -> bytes:
    """RFC 6962 section 2.1, word for word: MTH over entries, split at the largest power of two < n."""
    n = len(entries)
    if n == 0:
        return sha(b"")
    if n == 1:
        return sha(b"\x00" + entries[0])
    k = 1 << ((n - 1).bit_length() - 1)
    return sha(b"\x01" + mth(entries[:k]) + mth(entries[k:]))


def path(m: int, entries: list[bytes]) -> list[bytes]:
    """RFC 6962 section 2.1.1: the audit path PATH(m, D[n])."""
    n = len(entries)
    if n == 1:
        return []
    k = 1 << ((n - 1).bit_length() - 1)
    if m < k:
        return [*path(m, entries[:k]), mth(entries[k:])]
    return [*path(m - k, entries[k:]), mth(entries[:k])]


def entries(n: int) -> list[bytes]:
    return [f"footstep {i}".encode() for i in range(n)]


def test_the_rfc_reference_root_of_eight_leaves() -> None:
    hashes = [merkle.leaf_hash(e) for e in RFC_LEAVES]
    assert merkle.root(hashes).hex() == RFC_ROOT_8
    assert mth(RFC_LEAVES).hex() == RFC_ROOT_8  # the plain reading agrees with the reference, too


def test_the_roots_of_the_first_n_reference_leaves() -> None:
    # The plain recursive MTH above must give the published roots too, so neither can be wrong alone.
    for n in range(1, 9):
        expected = mth(RFC_LEAVES[:n]).hex()
        assert expected == RFC_ROOTS[n - 1], n
        assert merkle.root([merkle.leaf_hash(e) for e in RFC_LEAVES[:n]]).hex() == expected, n


def test_the_empty_tree_and_the_hash_prefixes() -> None:
    assert merkle.EMPTY_ROOT.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert merkle.root([]) == merkle.EMPTY_ROOT == mth([])
    assert merkle.frontier_root([]) == merkle.EMPTY_ROOT
    # Domain separation: a leaf and a node over the same bytes never collide.
    assert merkle.leaf_hash(b"ab") == sha(b"\x00ab")
    assert merkle.node_hash(b"a", b"b") == sha(b"\x01ab")


def test_growing_the_frontier_leaf_by_leaf_gives_the_recursive_root() -> None:
    es = entries(100)
    frontier: merkle.Frontier = []
    for n in range(1, 101):
        frontier = merkle.append(frontier, merkle.leaf_hash(es[n - 1]))
        want = mth(es[:n])
        assert merkle.frontier_root(frontier) == want, n
        assert merkle.root([merkle.leaf_hash(e) for e in es[:n]]) == want, n
        # The frontier is one perfect subtree per set bit of n, largest first.
        heights = [h for h, _ in frontier]
        assert heights == [b for b in reversed(range(n.bit_length())) if n >> b & 1], n


def test_every_inclusion_proof_up_to_twenty_leaves_verifies() -> None:
    for n in range(1, 21):
        es = entries(n)
        hashes = [merkle.leaf_hash(e) for e in es]
        root = mth(es)
        for m in range(n):
            proof = merkle.inclusion_proof(m, hashes)
            assert proof == path(m, es), (m, n)
            assert merkle.verify_inclusion(m, n, hashes[m], proof, root), (m, n)


def test_a_wrong_leaf_index_size_root_or_path_does_not_verify() -> None:
    for n in range(1, 21):
        es = entries(n)
        hashes = [merkle.leaf_hash(e) for e in es]
        root = mth(es)
        other = merkle.leaf_hash(b"not in the tree")
        for m in range(n):
            proof = merkle.inclusion_proof(m, hashes)
            assert not merkle.verify_inclusion(m, n, other, proof, root)
            assert not merkle.verify_inclusion(m, n, hashes[m], proof, sha(b"another root"))
            assert not merkle.verify_inclusion(m, n, hashes[m], proof, mth(es[: n - 1]))
            for wrong in {m - 1, m + 1, n, -1} - {m}:
                assert not merkle.verify_inclusion(wrong, n, hashes[m], proof, root), (wrong, m, n)
            if n > 1:
                # Another leaf's hash at this index fails too: the index is bound, not only the path.
                assert not merkle.verify_inclusion(m, n, hashes[(m + 1) % n], proof, root)
                assert not merkle.verify_inclusion(m, n, hashes[m], proof[:-1], root)
                assert not merkle.verify_inclusion(m, n, hashes[m], [*proof, other], root)
                for i in range(len(proof)):
                    bent = [*proof[:i], sha(proof[i]), *proof[i + 1 :]]
                    assert not merkle.verify_inclusion(m, n, hashes[m], bent, root)
            else:
                assert not merkle.verify_inclusion(m, n, hashes[m], [other], root)


def test_a_proof_for_a_leaf_outside_the_tree_is_refused() -> None:
    hashes = [merkle.leaf_hash(e) for e in entries(5)]
    with pytest.raises(IndexError):
        merkle.inclusion_proof(5, hashes)
    with pytest.raises(IndexError):
        merkle.inclusion_proof(-1, hashes)
    assert not merkle.verify_inclusion(0, 0, hashes[0], [], merkle.EMPTY_ROOT)
