"""Generates the test vectors of docs/verification.md sections 1-3 and 8 in docs/vectors/.

    python tests/make_record_vectors.py          # writes envelope, rules-digest and checkpoint.json
    python tests/make_record_vectors.py --check  # exit 1 if a committed file would change

Everything is computed by the engine from fixed inputs (a golden game, every profile, a fixed
test key), so the files never change unless the specification does;
tests/test_record_vectors.py checks every vector against the code.
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

from engine.profiles import PROFILES, make_ruleset, profile_players  # noqa: E402
from events import checkpoints  # noqa: E402
from events.chain import envelope_hash  # noqa: E402
from events.codec import canonical_json  # noqa: E402
from events.envelope import Envelope  # noqa: E402

VECTORS = ROOT / "docs" / "vectors"
GOLDEN = ROOT / "tests" / "replay" / "golden"
CHAIN_GAME = "all-pass-redeal"
CHAIN_LENGTH = 8
"""The chain vector: the first deal of a golden game (creation, shuffle, cut, four passes, the
seed's reveal)."""

TEST_KEY_SEED = bytes(range(32))
"""The private key of the checkpoint vectors (RFC 8032 seed): a TEST key, published here, that
the service never uses."""

CANONICAL_CASES: list[Any] = [
    {"b": [1, "x", True, None], "a": {"d": 0, "c": -7}},
    {"\u20ac": 1, "\r": 2, "\U0001f600": 3, "\uff61": 4, "a": 5},
    ["caf\u00e9", "tab\there", "quote\" and backslash\\", "\u0001", "/", "\u2028"],
    [0, -0, 9007199254740991, -9007199254740991, 1, 100],
]
"""Values whose canonical JSON shows each rule: key order by UTF-16 code units (U+1F600 sorts
before U+FF61), escapes, UTF-8 output, integers."""


def envelope_vectors() -> dict[str, Any]:
    """Returns docs/vectors/envelope.json: canonical JSON cases, each envelope of a short
    chain with the bytes it hashes and its hash, a redacted event rebuilt, and the head."""
    auditor = json.loads((GOLDEN / f"{CHAIN_GAME}.json").read_bytes())
    seat = json.loads((GOLDEN / f"{CHAIN_GAME}.seat2.json").read_bytes())
    game_id = auditor["game_id"]
    events = []
    for event in auditor["events"][:CHAIN_LENGTH]:
        envelope = _envelope(game_id, event)
        body = canonical_json(envelope.body())
        events.append({"history_event": event, "envelope": envelope.body(),
                       "canonical_json": body.decode("utf-8"),
                       "hash": envelope_hash(envelope)})
    redacted = next(event for event in seat["events"] if event.get("redacted"))
    full = next(event for event in auditor["events"] if event["version"] == redacted["version"])
    rebuilt = {**redacted["data"], "seed": full["data"]["seed"]}
    rebuilt_envelope = _envelope(game_id, {**redacted, "data": rebuilt})
    return {
        "description": "docs/verification.md sections 1 and 2: canonical JSON (RFC 8785), the "
                       "envelope rebuilt from a history event (game_id added from the history, "
                       "hash and redacted dropped), its hash (hex SHA-256 of the canonical "
                       "JSON), and the chain's head.",
        "canonical_json": [{"value": value, "canonical_json": canonical_json(value).decode(
            "utf-8"), "utf8_hex": canonical_json(value).hex()} for value in CANONICAL_CASES],
        "game_id": game_id,
        "chain": events,
        "head": events[-1]["hash"],
        "genesis_prev_hash": "0" * 64,
        "redacted_event": {
            "seen_by": seat["view"]["viewer"],
            "history_event": redacted,
            "revealed_by_version": next(
                event["version"] for event in seat["events"]
                if event["type"] == "seed_revealed"
                and event["data"]["deal"] == redacted["data"]["deal"]),
            "rebuilt_data": rebuilt,
            "canonical_json": canonical_json(rebuilt_envelope.body()).decode("utf-8"),
            "hash": envelope_hash(rebuilt_envelope),
        },
    }


def _envelope(game_id: str, event: dict[str, Any]) -> Envelope:
    return Envelope.from_dict({**{key: value for key, value in event.items()
                                  if key != "redacted"}, "game_id": game_id})


def rules_vectors() -> dict[str, Any]:
    """Returns docs/vectors/rules-digest.json: every profile at every table size with its
    defaults, and a few chosen options."""
    cases: list[tuple[str, dict[str, Any], int]] = []
    for profile in PROFILES:
        low, high = profile_players(profile)
        cases += [(profile, {}, players) for players in range(low, high + 1)]
    cases += [("bruff", {"target": 25, "turn_seconds": 60}, 6),
              ("auction", {"min_bid": 15, "match_games": 3}, 4),
              ("classic", {"layout": "individuals", "finish": "deal_end", "joker": "below_ah"}, 4)]
    vectors = []
    for profile, chosen, players in cases:
        rules = make_ruleset(profile, chosen, players)
        body = {"options": rules.options(), "players": players, "profile": profile}
        vectors.append({"profile": profile, "players": players, "chosen": chosen,
                        "options": rules.options(), "input": canonical_json(body).decode(),
                        "digest": rules.digest()})
    return {"description": "docs/verification.md section 3: the rules digest is the hex SHA-256 "
                           "of the canonical JSON of {options, players, profile}, options being "
                           "every option of the profile with its value (defaults filled in).",
            "vectors": vectors}


def checkpoint_vectors() -> dict[str, Any]:
    """Returns docs/vectors/checkpoint.json: the test key, checkpoints with their message bytes
    and signatures, and checkpoints that must fail."""
    key = Ed25519PrivateKey.from_private_bytes(TEST_KEY_SEED)
    public = checkpoints.public_bytes(key)
    envelope = envelope_vectors()
    good = [
        checkpoints.sign(key, envelope["game_id"], CHAIN_LENGTH, envelope["head"],
                         "2026-01-02T03:04:05Z"),
        checkpoints.sign(key, "g-\u00e9t\u00e9", 1, "ab" * 32, "2026-12-31T23:59:59Z"),
    ]
    vectors = [{"checkpoint": checkpoint,
                "message_hex": checkpoints.message(checkpoint).hex(),
                "message_text": checkpoints.message(checkpoint).decode("utf-8")}
               for checkpoint in good]
    base = good[0]
    flipped = ("1" if base["signature"][0] == "0" else "0") + base["signature"][1:]
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
    failing = [
        {"why": "version changed after signing", "checkpoint": {**base, "version": 7}},
        {"why": "head changed after signing", "checkpoint": {**base, "head": "00" * 32}},
        {"why": "signature altered", "checkpoint": {**base, "signature": flipped}},
        {"why": "signed by another key under this key's id",
         "checkpoint": {**checkpoints.sign(other, base["game_id"], base["version"],
                                           base["head"], base["signed_at"]),
                        "key_id": base["key_id"]}},
        {"why": "unknown key id", "checkpoint": checkpoints.sign(
            other, base["game_id"], base["version"], base["head"], base["signed_at"])},
    ]
    drive = checkpoints.sign(key, "dr-" + "0123456789" * 2, 6, "cd" * 32,
                             "2026-01-02T03:04:05Z", subject="drive_id")
    drive_vectors = [{"checkpoint": drive, "message_hex": checkpoints.message(drive).hex(),
                      "message_text": checkpoints.message(drive).decode("utf-8")}]
    return {
        "description": "docs/verification.md section 8: a TEST Ed25519 key (never the "
                       "service's), its id, checkpoints with the exact bytes signed "
                       "(b'fortyfive/checkpoint/1' + canonical JSON of the five fields other "
                       "than signature) and their signatures, and checkpoints that must fail; "
                       "drive_vectors: a drive's checkpoint (drive_id for game_id), signed "
                       "the same way.",
        "private_key_seed_hex": TEST_KEY_SEED.hex(),
        "public_key_hex": public.hex(),
        "key_id": checkpoints.key_id(public),
        "keys_document": {"keys": [{
            "key_id": checkpoints.key_id(public), "algorithm": "ed25519",
            "public_key": public.hex(), "created_at": "2026-01-01T00:00:00Z",
            "retired_at": None}]},
        "vectors": vectors,
        "must_fail": failing,
        "drive_vectors": drive_vectors,
    }


FILES = {"envelope.json": envelope_vectors, "rules-digest.json": rules_vectors,
         "checkpoint.json": checkpoint_vectors}


def render(value: Any) -> bytes:
    """Returns a vector file's bytes: indented JSON, UTF-8, one trailing newline."""
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    args = parser.parse_args(argv)
    stale = []
    for name, build in FILES.items():
        path = VECTORS / name
        data = render(build())
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
        else:
            VECTORS.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if stale:
        print(f"stale vectors: {', '.join(stale)} (run python tests/make_record_vectors.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
