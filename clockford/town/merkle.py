"""RFC 6962 (Certificate Transparency) Merkle trees, as the Archive uses them.

Leaf hash SHA-256(0x00 || entry), node hash SHA-256(0x01 || left || right); a tree of n leaves splits
at the largest power of two smaller than n. A frontier (the roots of the tree's perfect subtrees,
left to right) lets the tree grow leaf by leaf without keeping the leaves in memory.
"""

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(entry: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
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


class Blocks:
    """Which blocks of `size` leaves (the Archive's ArchiveBlock: leaves b*size to b*size + size - 1) can
    be made from leaves handed over in index order, and their roots: exactly the blocks whose leaves are
    all handed over. A leaf missing spoils its own block and no other: the blocks after it are made.
    The one rule for the fold, the migration that made the blocks of an existing town, and `archive
    verify`, so that none of them makes or expects a block the others would not."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.block = -1
        self.hashes: list[bytes] | None = None  # the current block's leaves so far; None once it is spoilt

    def add(self, index: int, leaf: bytes) -> tuple[int, bytes] | None:
        """Take leaf `index`; the block it completes and that block's root, or None."""
        block = index // self.size
        if block != self.block:
            self.block = block
            self.hashes = [] if index % self.size == 0 else None
        hashes = self.hashes
        if hashes is None:
            return None
        if index != block * self.size + len(hashes):
            self.hashes = None  # a leaf of this block is missing
            return None
        hashes.append(leaf)
        if len(hashes) < self.size:
            return None
        self.hashes = None
        return block, root(hashes)


def whole_blocks(leaves: Iterable[tuple[int, bytes]], size: int) -> Iterator[tuple[int, bytes]]:
    """The blocks of `size` leaves that `leaves` (index and hash, in index order) hold whole, each with
    its root, in order (Blocks)."""
    blocks = Blocks(size)
    for index, leaf in leaves:
        if (made := blocks.add(index, leaf)) is not None:
            yield made


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


# MTH(D[lo:hi]) of a tree's leaves, however it is had: from the leaves, or from subtrees' roots kept.
Subtree = Callable[[int, int], bytes]


def inclusion_proof(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """The audit path for leaf `index` in the tree of `leaves` (RFC 6962 section 2.1.1)."""
    return inclusion_path(index, len(leaves), lambda lo, hi: root(leaves[lo:hi]))


def inclusion_path(index: int, size: int, subtree: Subtree) -> list[bytes]:
    """inclusion_proof for leaf `index` of a tree of `size` leaves, asking `subtree` for the roots it needs."""
    if not 0 <= index < size:
        raise IndexError(index)
    return _path(index, 0, size, subtree)


def _path(index: int, lo: int, hi: int, subtree: Subtree) -> list[bytes]:
    n = hi - lo
    if n == 1:
        return []
    k = split(n)
    if index < lo + k:
        return [*_path(index, lo, lo + k, subtree), subtree(lo + k, hi)]
    return [*_path(index, lo + k, hi, subtree), subtree(lo, lo + k)]


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


def consistency_proof(old_size: int, leaves: Sequence[bytes]) -> list[bytes]:
    """RFC 6962 section 2.1.2: PROOF(m, D[n]), the nodes that show the tree of the first `old_size`
    leaves is a prefix of the tree of all `leaves` (empty when m is 0 or n)."""
    return consistency_path(old_size, len(leaves), lambda lo, hi: root(leaves[lo:hi]))


def consistency_path(old_size: int, size: int, subtree: Subtree) -> list[bytes]:
    """consistency_proof between the trees of `old_size` and `size` leaves, asking `subtree` for the
    roots it needs."""
    if not 0 <= old_size <= size:
        raise IndexError(old_size)
    if old_size in (0, size):
        return []
    return _subproof(old_size, 0, size, True, subtree)


def _subproof(m: int, lo: int, hi: int, whole: bool, subtree: Subtree) -> list[bytes]:
    n = hi - lo
    if m == n:
        return [] if whole else [subtree(lo, hi)]
    k = split(n)
    if m <= k:
        return [*_subproof(m, lo, lo + k, whole, subtree), subtree(lo + k, hi)]
    return [*_subproof(m - k, lo + k, hi, False, subtree), subtree(lo, lo + k)]


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> bool:
    """RFC 9162 section 2.1.4.2: whether `proof` shows the tree of `old_size` leaves with `old_root` is
    a prefix of the tree of `new_size` leaves with `new_root`. A shrinking tree never verifies."""
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # an exact power of two: the old root is itself a node
        path = [old_root, *path]
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0
