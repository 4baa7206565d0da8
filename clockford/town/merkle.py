"""RFC 6962 (Certificate Transparency) Merkle trees, as the Archive uses them.

Leaf hash SHA-256(0x00 || entry), node hash SHA-256(0x01 || left || right); a tree of n leaves splits
at the largest power of two smaller than n. A frontier (the roots of the tree's perfect subtrees,
left to right) lets the tree grow leaf by leaf without keeping the leaves in memory.
"""

import hashlib
from collections.abc import Sequence

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(entry: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n >= 2)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH over leaf hashes (not entries)."""
    if not leaves:
        return EMPTY_ROOT
    # Bottom-up: pair neighbours level by level; an odd last node is carried up unchanged,
    # which gives the same tree as RFC 6962's recursive split.
    level = list(leaves)
    while len(level) > 1:
        nxt = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


Frontier = list[tuple[int, bytes]]  # (height, subtree root), heights strictly decreasing


def append(frontier: Frontier, leaf: bytes) -> Frontier:
    node, height = leaf, 0
    out = list(frontier)
    while out and out[-1][0] == height:
        _, left = out.pop()
        node = node_hash(left, node)
        height += 1
    out.append((height, node))
    return out


def frontier_root(frontier: Frontier) -> bytes:
    if not frontier:
        return EMPTY_ROOT
    node = frontier[-1][1]
    for _, left in reversed(frontier[:-1]):
        node = node_hash(left, node)
    return node


def inclusion_proof(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """The audit path for leaf `index` in the tree of `leaves` (RFC 6962 section 2.1.1)."""
    n = len(leaves)
    if not 0 <= index < n:
        raise IndexError(index)
    if n == 1:
        return []
    k = _split(n)
    if index < k:
        return [*inclusion_proof(index, leaves[:k]), root(leaves[k:])]
    return [*inclusion_proof(index - k, leaves[k:]), root(leaves[:k])]


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], expected_root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2: recompute the root from a leaf and its audit path."""
    if not 0 <= index < size:
        return False
    fn, sn = index, size - 1
    node = leaf
    for p in proof:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            node = node_hash(p, node)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            node = node_hash(node, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and node == expected_root
