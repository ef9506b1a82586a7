"""Generates the transparency log's test vectors (docs/verification.md section 11) in
docs/vectors/log.json.

    python tests/make_log_vectors.py          # writes docs/vectors/log.json
    python tests/make_log_vectors.py --check  # exit 1 if the committed file would change

A tree of seven leaves (checkpoints signed with the TEST key of docs/vectors/checkpoint.json,
never the service's): every leaf's hash, the root of every prefix, the audit path of every leaf
in every prefix, the consistency proof between every two prefixes, two signed tree heads with
the bytes they sign, and proofs and heads that must fail. Everything comes from fixed inputs,
so the file never changes unless the specification does; tests/test_log_vectors.py checks it
with nothing but hashlib and an Ed25519 verification.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from events import checkpoints, merkle, tree_heads  # noqa: E402
from events.codec import canonical_json  # noqa: E402

VECTORS = ROOT / "docs" / "vectors"
NAME = "log.json"
TEST_KEY_SEED = bytes(range(32))
"""The TEST key of docs/vectors/checkpoint.json (RFC 8032 seed), published, never the
service's."""
LEAVES = 7
"""Leaves of the vector tree: not a power of two, so every kind of split shows."""
TIMESTAMP = "2026-01-02T03:04:05Z"


def _hex(values: list[bytes]) -> list[str]:
    return [value.hex() for value in values]


def _flip(hashes: list[str], index: int) -> list[str]:
    """Returns *hashes* with the lowest bit of hash *index* flipped."""
    changed = bytearray.fromhex(hashes[index])
    changed[-1] ^= 1
    return [*hashes[:index], changed.hex(), *hashes[index + 1:]]


def build() -> dict[str, Any]:
    """Returns the content of docs/vectors/log.json."""
    key = Ed25519PrivateKey.from_private_bytes(TEST_KEY_SEED)
    public = checkpoints.public_bytes(key)
    leaves = [canonical_json(checkpoints.sign(key, f"vector-{i % 3}", i + 1, f"{i:02x}" * 32,
                                              TIMESTAMP)) for i in range(LEAVES)]
    hashes = [merkle.leaf_hash(leaf) for leaf in leaves]

    def root(size: int) -> str:
        return merkle.root(hashes[:size]).hex()

    def path(index: int, size: int) -> list[str]:
        return [merkle.root(hashes[a:b]).hex() for a, b in merkle.inclusion_ranges(index, size)]

    def proof(first: int, second: int) -> list[str]:
        return [merkle.root(hashes[a:b]).hex()
                for a, b in merkle.consistency_ranges(first, second)]

    heads = []
    for size in (4, LEAVES):
        head = tree_heads.sign(key, size, root(size), TIMESTAMP)
        heads.append({"tree_head": head, "message_hex": tree_heads.message(head).hex(),
                      "message_text": tree_heads.message(head).decode()})
    inclusion = [{"leaf_index": index, "tree_size": size, "leaf_hash": hashes[index].hex(),
                  "audit_path": path(index, size), "root_hash": root(size)}
                 for size in range(1, LEAVES + 1) for index in range(size)]
    consistency = [{"first": first, "second": second, "first_root": root(first),
                    "second_root": root(second), "proof": proof(first, second)}
                   for second in range(1, LEAVES + 1) for first in range(1, second + 1)]
    case = {"leaf_index": 2, "tree_size": LEAVES, "leaf_hash": hashes[2].hex(),
            "audit_path": path(2, LEAVES), "root_hash": root(LEAVES)}
    link = {"first": 3, "second": LEAVES, "first_root": root(3), "second_root": root(LEAVES),
            "proof": proof(3, LEAVES)}
    signed = heads[1]["tree_head"]
    return {
        "description": "docs/verification.md section 11: a tree of seven leaves (checkpoints "
                       "signed with the TEST key of checkpoint.json); leaf hash = SHA-256(0x00 "
                       "|| leaf), node hash = SHA-256(0x01 || left || right) (RFC 9162); the "
                       "root of every prefix, every audit path, every consistency proof, "
                       "signed tree heads, and proofs and heads that must fail.",
        "private_key_seed_hex": TEST_KEY_SEED.hex(),
        "public_key_hex": public.hex(),
        "key_id": checkpoints.key_id(public),
        "leaves": [{"leaf_index": i, "leaf": leaf.decode(), "leaf_hash": hashes[i].hex()}
                   for i, leaf in enumerate(leaves)],
        "roots": [{"tree_size": size, "root_hash": root(size)} for size in range(LEAVES + 1)],
        "tree_heads": heads,
        "inclusion": inclusion,
        "consistency": consistency,
        "must_fail": {
            "inclusion": [
                {**case, "why": "a hash of the path changed",
                 "audit_path": _flip(case["audit_path"], 1)},
                {**case, "why": "another leaf's index", "leaf_index": 3},
                {**case, "why": "another leaf's hash", "leaf_hash": hashes[3].hex()},
                {**case, "why": "the path cut short", "audit_path": case["audit_path"][:-1]},
                {**case, "why": "the path made longer",
                 "audit_path": [*case["audit_path"], case["audit_path"][-1]]},
                {**case, "why": "the root of another tree", "root_hash": root(LEAVES - 1)},
                {**case, "why": "a leaf beyond the tree", "leaf_index": LEAVES},
            ],
            "consistency": [
                {**link, "why": "a hash of the proof changed", "proof": _flip(link["proof"], 0)},
                {**link, "why": "the first root is another tree's", "first_root": root(2)},
                {**link, "why": "the second root is another tree's",
                 "second_root": root(LEAVES - 1)},
                {**link, "why": "the proof cut short", "proof": link["proof"][:-1]},
                {**link, "why": "the proof made longer",
                 "proof": [*link["proof"], link["proof"][0]]},
                {**link, "why": "an empty proof between different sizes", "proof": []},
                {"first": LEAVES, "second": LEAVES, "first_root": root(LEAVES),
                 "second_root": root(LEAVES - 1), "proof": [],
                 "why": "one size, two roots: a fork"},
                {"first": LEAVES, "second": 4, "first_root": root(LEAVES),
                 "second_root": root(4), "proof": [], "why": "the later tree is smaller"},
            ],
            "tree_heads": [
                {"why": "the size changed", "tree_head": {**signed, "tree_size": 6}},
                {"why": "the root changed", "tree_head": {**signed, "root_hash": root(6)}},
                {"why": "the time changed",
                 "tree_head": {**signed, "timestamp": "2026-01-02T03:04:06Z"}},
            ],
        },
    }


def render(data: dict[str, Any]) -> bytes:
    """Returns *data* as the file holds it: indented JSON, ASCII, a final newline."""
    return (json.dumps(data, indent=2, ensure_ascii=True) + "\n").encode()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file would change")
    args = parser.parse_args(argv)
    path, data = VECTORS / NAME, render(build())
    if args.check:
        if not path.exists() or path.read_bytes() != data:
            print(f"stale vectors: {NAME} (run python tests/make_log_vectors.py)")
            return 1
        return 0
    path.write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
