"""The Merkle tree against RFC 9162's definitions, written out here a second time the way the RFC
states them (recursion on the leaves), for every tree up to 40 leaves: the ranges the store
answers proofs from, the subtrees it keeps, and the verifiers, which must pass every true proof
and refuse every proof with one hash, the index, the leaf or the length changed (a size comes
with its root, in a signed head, so a size alone is not a proof's to hold)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events import merkle

LEAVES = [f"leaf {i}".encode() for i in range(40)]


def mth(leaves: list[bytes]) -> bytes:
    """RFC 9162 2.1.1, over the leaves themselves."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def path(m: int, leaves: list[bytes]) -> list[bytes]:
    """RFC 9162 2.1.3.1."""
    n = len(leaves)
    if n == 1:
        return []
    k = merkle.split(n)
    if m < k:
        return path(m, leaves[:k]) + [mth(leaves[k:])]
    return path(m - k, leaves[k:]) + [mth(leaves[:k])]


def subproof(m: int, leaves: list[bytes], whole: bool) -> list[bytes]:
    """RFC 9162 2.1.4.1."""
    n = len(leaves)
    if m == n:
        return [] if whole else [mth(leaves)]
    k = merkle.split(n)
    if m <= k:
        return subproof(m, leaves[:k], whole) + [mth(leaves[k:])]
    return subproof(m - k, leaves[k:], False) + [mth(leaves[:k])]


def hashes(ranges: list[tuple[int, int]], leaves: list[bytes]) -> list[bytes]:
    return [mth(leaves[start:end]) for start, end in ranges]


def stored_nodes(count: int) -> dict[merkle.Node, bytes]:
    """The nodes a store holds after appending the first *count* leaves one by one."""
    nodes: dict[merkle.Node, bytes] = {}
    for index in range(count):
        nodes.update(merkle.appended_nodes(index, merkle.leaf_hash(LEAVES[index]), nodes))
    return nodes


def tampered(proof: list[bytes]) -> list[list[bytes]]:
    return [proof[:i] + [bytes([proof[i][0] ^ 1]) + proof[i][1:]] + proof[i + 1:]
            for i in range(len(proof))]


def test_the_root_is_the_rfc_root_and_comes_from_the_stored_subtrees() -> None:
    nodes = stored_nodes(len(LEAVES))
    for size in range(1, len(LEAVES) + 1):
        expected = mth(LEAVES[:size])
        assert merkle.root([merkle.leaf_hash(leaf) for leaf in LEAVES[:size]]) == expected
        assert merkle.range_hash(0, size, nodes) == expected
    assert merkle.root([]) == hashlib.sha256(b"").digest()


def test_a_node_is_stored_only_once_its_subtree_is_complete() -> None:
    nodes = stored_nodes(7)
    assert sorted(nodes) == [(0, i) for i in range(7)] + [(1, 0), (1, 1), (1, 2), (2, 0)]
    assert nodes[(2, 0)] == mth(LEAVES[:4])


def test_audit_paths_are_the_rfc_paths_and_verify() -> None:
    nodes = stored_nodes(len(LEAVES))
    for size in range(1, len(LEAVES) + 1):
        leaves = LEAVES[:size]
        for index in range(size):
            ranges = merkle.inclusion_ranges(index, size)
            proof = hashes(ranges, leaves)
            assert proof == path(index, leaves)
            assert [merkle.range_hash(a, b, nodes) for a, b in ranges] == proof
            merkle.verify_inclusion(merkle.leaf_hash(leaves[index]), index, size, proof,
                                    mth(leaves))


def test_consistency_proofs_are_the_rfc_proofs_and_verify() -> None:
    nodes = stored_nodes(len(LEAVES))
    for second in range(1, len(LEAVES) + 1):
        for first in range(1, second):
            ranges = merkle.consistency_ranges(first, second)
            proof = hashes(ranges, LEAVES[:second])
            assert proof == subproof(first, LEAVES[:second], True)
            assert [merkle.range_hash(a, b, nodes) for a, b in ranges] == proof
            merkle.verify_consistency(first, second, proof, mth(LEAVES[:first]),
                                      mth(LEAVES[:second]))


def test_an_audit_path_with_anything_changed_fails() -> None:
    for size in (1, 2, 5, 8, 13):
        leaves = LEAVES[:size]
        for index in range(size):
            proof = path(index, leaves)
            leaf, root = merkle.leaf_hash(leaves[index]), mth(leaves)
            for bad in tampered(proof):
                with pytest.raises(merkle.ProofError):
                    merkle.verify_inclusion(leaf, index, size, bad, root)
            for other in {index - 1, index + 1} & set(range(size)):
                with pytest.raises(merkle.ProofError):
                    merkle.verify_inclusion(leaf, other, size, proof, root)
            with pytest.raises(merkle.ProofError):
                merkle.verify_inclusion(leaf, index, size, [*proof, proof[-1] if proof else leaf],
                                        root)
            with pytest.raises(merkle.ProofError):
                merkle.verify_inclusion(merkle.leaf_hash(b"other"), index, size, proof, root)


def test_a_consistency_proof_with_anything_changed_fails() -> None:
    for second in (2, 3, 7, 8, 13):
        for first in range(1, second):
            proof = subproof(first, LEAVES[:second], True)
            old, new = mth(LEAVES[:first]), mth(LEAVES[:second])
            for bad in tampered(proof):
                with pytest.raises(merkle.ProofError):
                    merkle.verify_consistency(first, second, bad, old, new)
            with pytest.raises(merkle.ProofError):
                merkle.verify_consistency(first, second, proof, mth(LEAVES[1:first + 1]), new)
            with pytest.raises(merkle.ProofError):
                merkle.verify_consistency(first, second, proof, old, mth(LEAVES[1:second + 1]))
            with pytest.raises(merkle.ProofError):
                merkle.verify_consistency(first, second, proof[:-1], old, new)
            with pytest.raises(merkle.ProofError):
                merkle.verify_consistency(first, second, [], old, new)


def test_equal_and_empty_trees() -> None:
    root = mth(LEAVES[:5])
    merkle.verify_consistency(5, 5, [], root, root)
    merkle.verify_consistency(0, 5, [], mth([]), root)
    assert merkle.consistency_ranges(5, 5) == merkle.consistency_ranges(0, 5) == []
    with pytest.raises(merkle.ProofError, match="same size have different root"):
        merkle.verify_consistency(5, 5, [], root, mth(LEAVES[:4]))
    with pytest.raises(merkle.ProofError, match="must be empty"):
        merkle.verify_consistency(5, 5, [root], root, root)
    with pytest.raises(merkle.ProofError, match="cannot be a prefix"):
        merkle.verify_consistency(6, 5, [], root, root)
    with pytest.raises(merkle.ProofError, match="not in a tree of 5"):
        merkle.inclusion_ranges(5, 5)


def test_unaligned_ranges_are_refused() -> None:
    with pytest.raises(ValueError, match="not a subtree"):
        merkle.subtrees(2, 5)
    with pytest.raises(ValueError, match="no leaves"):
        merkle.subtrees(3, 3)


@given(st.integers(1, 2**40), st.data())
def test_proofs_of_large_trees_need_few_subtrees(size: int, data: st.DataObject) -> None:
    """Every range of a proof is a handful of stored subtrees: about 2 log2(n) in all."""
    index = data.draw(st.integers(0, size - 1))
    first = data.draw(st.integers(1, size))
    depth = size.bit_length()
    for ranges in (merkle.inclusion_ranges(index, size), merkle.consistency_ranges(first, size)):
        assert len(ranges) <= depth + 1
        assert len({node for a, b in ranges for node in merkle.subtrees(a, b)}) <= 2 * depth
