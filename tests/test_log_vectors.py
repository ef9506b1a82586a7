"""docs/vectors/log.json holds against an outside implementation of docs/verification.md
section 11 written here with nothing but hashlib and an Ed25519 verification (the verifier an
outsider writes from the document), and against the service's own code (events.merkle,
events.tree_heads); and it is what tests/make_log_vectors.py writes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from make_log_vectors import main as make_vectors

from events import merkle, tree_heads

VECTORS = json.loads((Path(__file__).resolve().parents[1] / "docs" / "vectors" / "log.json")
                     .read_bytes())


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def outside_inclusion(case: dict[str, Any]) -> bool:
    """RFC 9162 2.1.3.2, as docs/verification.md section 11 states it."""
    index, size = case["leaf_index"], case["tree_size"]
    if index >= size:
        return False
    fn, sn = index, size - 1
    r = bytes.fromhex(case["leaf_hash"])
    for p in (bytes.fromhex(item) for item in case["audit_path"]):
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = _node(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = _node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r.hex() == case["root_hash"]


def outside_consistency(case: dict[str, Any]) -> bool:
    """RFC 9162 2.1.4.2, with section 11's rule for equal sizes."""
    first, second = case["first"], case["second"]
    proof = [bytes.fromhex(item) for item in case["proof"]]
    if first > second:
        return False
    if first == second:
        return not proof and case["first_root"] == case["second_root"]
    if not proof:
        return False
    if first & (first - 1) == 0:
        proof.insert(0, bytes.fromhex(case["first_root"]))
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = _node(c, fr), _node(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = _node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr.hex() == case["first_root"] and sr.hex() == case["second_root"]


def outside_head(head: dict[str, Any]) -> bool:
    signed = {name: head[name] for name in ("key_id", "root_hash", "timestamp", "tree_size")}
    message = b"fortyfive/tree-head/1" + json.dumps(
        signed, separators=(",", ":"), sort_keys=True).encode()
    if head["key_id"] != VECTORS["key_id"]:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(VECTORS["public_key_hex"])).verify(
            bytes.fromhex(head["signature"]), message)
    except InvalidSignature:
        return False
    return True


def test_the_vector_file_is_up_to_date() -> None:
    assert make_vectors(["--check"]) == 0


def test_leaves_and_roots() -> None:
    hashes = []
    for entry in VECTORS["leaves"]:
        hashed = hashlib.sha256(b"\x00" + entry["leaf"].encode()).hexdigest()
        assert hashed == entry["leaf_hash"]
        hashes.append(bytes.fromhex(hashed))
    for entry in VECTORS["roots"]:
        assert merkle.root(hashes[:entry["tree_size"]]).hex() == entry["root_hash"]
    assert VECTORS["roots"][0]["root_hash"] == hashlib.sha256(b"").hexdigest()


def test_every_proof_verifies_outside_and_inside() -> None:
    for case in VECTORS["inclusion"]:
        assert outside_inclusion(case), case
        merkle.verify_inclusion(bytes.fromhex(case["leaf_hash"]), case["leaf_index"],
                                case["tree_size"], [bytes.fromhex(p) for p in case["audit_path"]],
                                bytes.fromhex(case["root_hash"]))
    for case in VECTORS["consistency"]:
        assert outside_consistency(case), case
        merkle.verify_consistency(case["first"], case["second"],
                                  [bytes.fromhex(p) for p in case["proof"]],
                                  bytes.fromhex(case["first_root"]),
                                  bytes.fromhex(case["second_root"]))
    assert len(VECTORS["inclusion"]) == 28 and len(VECTORS["consistency"]) == 28


def test_the_tree_heads_are_signed_over_their_message() -> None:
    roots = {entry["tree_size"]: entry["root_hash"] for entry in VECTORS["roots"]}
    for entry in VECTORS["tree_heads"]:
        head = entry["tree_head"]
        assert outside_head(head)
        assert tree_heads.message(head).hex() == entry["message_hex"]
        assert bytes.fromhex(entry["message_hex"]).decode() == entry["message_text"]
        assert head["root_hash"] == roots[head["tree_size"]]
        tree_heads.check(head, {VECTORS["key_id"]: bytes.fromhex(VECTORS["public_key_hex"])})


@pytest.mark.parametrize("case", VECTORS["must_fail"]["inclusion"], ids=lambda c: c["why"])
def test_inclusion_proofs_that_must_fail(case: dict[str, Any]) -> None:
    assert not outside_inclusion(case)
    with pytest.raises(merkle.ProofError):
        merkle.verify_inclusion(bytes.fromhex(case["leaf_hash"]), case["leaf_index"],
                                case["tree_size"], [bytes.fromhex(p) for p in case["audit_path"]],
                                bytes.fromhex(case["root_hash"]))


@pytest.mark.parametrize("case", VECTORS["must_fail"]["consistency"], ids=lambda c: c["why"])
def test_consistency_proofs_that_must_fail(case: dict[str, Any]) -> None:
    assert not outside_consistency(case)
    with pytest.raises(merkle.ProofError):
        merkle.verify_consistency(case["first"], case["second"],
                                  [bytes.fromhex(p) for p in case["proof"]],
                                  bytes.fromhex(case["first_root"]),
                                  bytes.fromhex(case["second_root"]))


@pytest.mark.parametrize("case", VECTORS["must_fail"]["tree_heads"], ids=lambda c: c["why"])
def test_tree_heads_that_must_fail(case: dict[str, Any]) -> None:
    assert not outside_head(case["tree_head"])
    with pytest.raises(tree_heads.TreeHeadError):
        tree_heads.check(case["tree_head"],
                         {VECTORS["key_id"]: bytes.fromhex(VECTORS["public_key_hex"])})
