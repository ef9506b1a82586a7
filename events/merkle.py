"""The Merkle tree of the transparency log, as RFC 9162 section 2.1 defines it (no I/O).

A leaf's hash is ``SHA-256(0x00 || leaf)``, an interior node's ``SHA-256(0x01 || left ||
right)``; the hash of a list of *n* > 1 leaves splits it at *k*, the largest power of two below
*n*, and hashes the two halves' hashes (the empty list's hash is ``SHA-256()``). An audit path
(``PATH``) and a consistency proof (``PROOF``) are lists of such hashes of sublists: this module
names those sublists as ranges ``(start, end)`` (:func:`inclusion_ranges`,
:func:`consistency_ranges`), so that a store can answer a proof from the hashes it keeps of
*complete* subtrees, never from the leaves: every range of a proof is made of at most
``log2(n)`` complete subtrees (:func:`subtrees`), aligned on their size, and a node
``(level, index)`` is the complete subtree of leaves ``[index * 2**level, (index + 1) *
2**level)``. Appending a leaf completes the nodes :func:`appended_nodes` returns.

The verifiers follow RFC 9162 sections 2.1.3.2 and 2.1.4.2 step by step, independently of how
proofs are made. The hashing is ``hashlib``'s SHA-256: a tree is a few lines of it, and a
library would add a dependency for them (docs/verification.md, "The log").

>>> leaves = [leaf_hash(bytes([i])) for i in range(7)]
>>> path = [root(leaves[a:b]) for a, b in inclusion_ranges(3, 7)]
>>> verify_inclusion(leaves[3], 3, 7, path, root(leaves))
>>> proof = [root(leaves[a:b]) for a, b in consistency_ranges(3, 7)]
>>> verify_consistency(3, 7, proof, root(leaves[:3]), root(leaves))
>>> try:
...     verify_consistency(3, 7, proof, root(leaves[:4]), root(leaves))
... except ProofError as error:
...     print(error)
the consistency proof does not lead to the first tree's root hash
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence

LEAF_PREFIX = b"\x00"
"""Prefixes a leaf before it is hashed (RFC 9162's domain separation)."""

NODE_PREFIX = b"\x01"
"""Prefixes the two child hashes of an interior node before they are hashed."""

HASH_SIZE = 32
"""Bytes in every hash of the tree (SHA-256)."""

Range = tuple[int, int]
"""Leaves ``[start, end)`` of a tree, by index."""

Node = tuple[int, int]
"""A complete subtree ``(level, index)``: leaves ``[index * 2**level, (index + 1) * 2**level)``."""


class ProofError(ValueError):
    """A proof that does not verify, or a request for one that cannot exist."""


def leaf_hash(leaf: bytes) -> bytes:
    """Returns the hash of the leaf *leaf* (its bytes as logged)."""
    return hashlib.sha256(LEAF_PREFIX + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """Returns the hash of the interior node with children hashed *left* and *right*."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def split(size: int) -> int:
    """Returns the largest power of two below *size* (which must be 2 or more).

    >>> [split(n) for n in (2, 3, 4, 5, 8, 9)]
    [1, 2, 2, 4, 4, 8]
    """
    if size < 2:
        raise ValueError(f"only a tree of 2 leaves or more splits, not {size}")
    return 1 << ((size - 1).bit_length() - 1)


def root(leaf_hashes: Sequence[bytes]) -> bytes:
    """Returns the root hash (RFC 9162's ``MTH``) of the leaves hashed *leaf_hashes*."""
    if not leaf_hashes:
        return hashlib.sha256(b"").digest()
    if len(leaf_hashes) == 1:
        return leaf_hashes[0]
    middle = split(len(leaf_hashes))
    return node_hash(root(leaf_hashes[:middle]), root(leaf_hashes[middle:]))


def inclusion_ranges(index: int, size: int) -> list[Range]:
    """Returns the ranges whose root hashes, in order, are the audit path (``PATH``) of leaf
    *index* in the tree of the first *size* leaves: the leaf's sibling first, the root's
    child last.

    :raises ProofError: if the leaf is not in that tree.
    """
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size} leaves")
    ranges: list[Range] = []
    start, end = 0, size
    while end - start > 1:
        middle = start + split(end - start)
        if index < middle:
            ranges.append((middle, end))
            end = middle
        else:
            ranges.append((start, middle))
            start = middle
    return ranges[::-1]


def consistency_ranges(first: int, second: int) -> list[Range]:
    """Returns the ranges whose root hashes, in order, are the consistency proof (``PROOF``)
    between the trees of the first *first* and *second* leaves: empty when either tree is
    empty or both are the same size.

    :raises ProofError: unless ``0 <= first <= second``.
    """
    if not 0 <= first <= second:
        raise ProofError(f"no consistency proof from a tree of {first} leaves to one of "
                         f"{second}")
    if first in (0, second):
        return []
    ranges: list[Range] = []
    start, end, whole = 0, second, True
    while first != end - start:
        middle = split(end - start)
        if first <= middle:
            ranges.append((start + middle, end))
            end = start + middle
        else:
            ranges.append((start, start + middle))
            first -= middle
            start, whole = start + middle, False
    if not whole:
        ranges.append((start, end))
    return ranges[::-1]


def subtrees(start: int, end: int) -> list[Node]:
    """Returns the complete subtrees, left to right, whose hashes make the root hash of leaves
    ``[start, end)``: a range of a proof, which starts on a multiple of the least power of two
    it fits in.

    >>> subtrees(0, 7), subtrees(8, 12), subtrees(5, 6)
    ([(2, 0), (1, 2), (0, 6)], [(2, 2)], [(0, 5)])

    :raises ValueError: for an empty range, or one not aligned so.
    """
    size = end - start
    if size < 1 or start < 0:
        raise ValueError(f"no leaves in the range [{start}, {end})")
    if start % (1 << (size - 1).bit_length()):
        raise ValueError(f"the range [{start}, {end}) is not a subtree of any tree")
    nodes: list[Node] = []
    while start < end:
        level = (end - start).bit_length() - 1
        nodes.append((level, start >> level))
        start += 1 << level
    return nodes


def range_hash(start: int, end: int, nodes: Mapping[Node, bytes]) -> bytes:
    """Returns the root hash of leaves ``[start, end)`` from the hashes of its
    :func:`subtrees` in *nodes*.

    :raises KeyError: if *nodes* lacks one of them.
    """
    parts = [nodes[node] for node in subtrees(start, end)]
    result = parts[-1]
    for part in reversed(parts[:-1]):
        result = node_hash(part, result)
    return result


def siblings(index: int) -> list[Node]:
    """Returns the complete subtrees that the leaf appended at *index* completes nodes with:
    the left sibling of each node it completes, lowest first."""
    return [(level, (index >> level) - 1)
            for level in range((~index & (index + 1)).bit_length() - 1)]


def appended_nodes(index: int, hashed: bytes, nodes: Mapping[Node, bytes]) -> dict[Node, bytes]:
    """Returns every node the leaf hashed *hashed*, appended at *index*, completes (the leaf's
    own ``(0, index)`` first), given its :func:`siblings` in *nodes*.

    >>> sorted(appended_nodes(3, b"d", {(0, 2): b"c", (1, 0): b"ab"}))
    [(0, 3), (1, 1), (2, 0)]
    """
    made = {(0, index): hashed}
    current = hashed
    for level, left in siblings(index):
        current = node_hash(nodes[(level, left)], current)
        made[(level + 1, left // 2)] = current
    return made


def _right_shift_until(first: int, second: int, *, odd: bool) -> tuple[int, int]:
    """Shifts both right while *first*'s lowest bit is unset (or, with *odd*, set) and
    *first* is not 0."""
    while first and bool(first & 1) == odd:
        first, second = first >> 1, second >> 1
    return first, second


def _walk(position: int, last: int, path: Sequence[bytes], proof: str,
          trees: str) -> Iterator[tuple[bytes, bool]]:
    """Yields each hash of *path* with whether it joins on the left, climbing from leaf
    *position* of a tree whose last leaf is *last*: the walk RFC 9162 (sections 2.1.3.2 and
    2.1.4.2) shares between inclusion and consistency proofs.

    :raises ProofError: if *path* is longer or shorter than the tree is deep (*proof* and
        *trees* name them in the message).
    """
    for hashed in path:
        if last == 0:
            raise ProofError(f"{proof} is longer than {trees} deep")
        on_left = bool(position & 1) or position == last
        yield hashed, on_left
        if on_left and not position & 1:
            position, last = _right_shift_until(position, last, odd=False)
        position, last = position >> 1, last >> 1
    if last != 0:
        raise ProofError(f"{proof} is shorter than {trees} deep")


def verify_inclusion(hashed: bytes, index: int, size: int, path: Sequence[bytes],
                     expected_root: bytes) -> None:
    """Checks that *path* proves the leaf hashed *hashed* is leaf *index* of the tree of *size*
    leaves with root hash *expected_root* (RFC 9162 section 2.1.3.2).

    :raises ProofError: saying why not.
    """
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size} leaves")
    result = hashed
    for sibling, on_left in _walk(index, size - 1, path, "the audit path", "the tree is"):
        result = node_hash(sibling, result) if on_left else node_hash(result, sibling)
    if result != expected_root:
        raise ProofError("the audit path does not lead to the tree's root hash")


def verify_consistency(first: int, second: int, proof: Sequence[bytes], first_root: bytes,
                       second_root: bytes) -> None:
    """Checks that *proof* proves the tree of *first* leaves with root hash *first_root* is a
    prefix of the tree of *second* leaves with root hash *second_root* (RFC 9162 section
    2.1.4.2; trees of the same size need an empty proof and the same root, and the empty tree
    is a prefix of every tree).

    :raises ProofError: saying why not.
    """
    if not 0 <= first <= second:
        raise ProofError(f"a tree of {first} leaves cannot be a prefix of one of {second}")
    if first in (0, second):
        if proof:
            raise ProofError("the consistency proof must be empty for these sizes")
        if first == second and first_root != second_root:
            raise ProofError("two trees of the same size have different root hashes")
        return
    if not proof:
        raise ProofError("the consistency proof is empty")
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    position, last = _right_shift_until(first - 1, second - 1, odd=True)
    first_result = second_result = path[0]
    for hashed, on_left in _walk(position, last, path[1:], "the consistency proof",
                                 "the trees are"):
        if on_left:
            first_result = node_hash(hashed, first_result)
            second_result = node_hash(hashed, second_result)
        else:
            second_result = node_hash(second_result, hashed)
    if first_result != first_root:
        raise ProofError("the consistency proof does not lead to the first tree's root hash")
    if second_result != second_root:
        raise ProofError("the consistency proof does not lead to the second tree's root hash")
