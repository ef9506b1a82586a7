"""The test vectors of docs/vectors/ (docs/verification.md sections 1-3 and 8) hold against the
code, and are what tests/make_record_vectors.py writes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from make_record_vectors import main as make_vectors

from engine.profiles import PROFILES, make_ruleset, profile_players
from events import checkpoints
from events.chain import GENESIS_HASH, envelope_hash, verify
from events.codec import canonical_json
from events.envelope import Envelope

VECTORS = Path(__file__).resolve().parents[1] / "docs" / "vectors"


def _load(name: str) -> Any:
    return json.loads((VECTORS / name).read_bytes())


def test_the_vector_files_are_up_to_date() -> None:
    assert make_vectors(["--check"]) == 0


def test_canonical_json_vectors() -> None:
    for case in _load("envelope.json")["canonical_json"]:
        encoded = canonical_json(case["value"])
        assert encoded.decode("utf-8") == case["canonical_json"]
        assert encoded.hex() == case["utf8_hex"]


def test_each_envelope_hashes_to_its_vector_and_the_chain_to_its_head() -> None:
    vectors = _load("envelope.json")
    game_id = vectors["game_id"]
    envelopes = []
    prev = vectors["genesis_prev_hash"]
    assert prev == GENESIS_HASH
    for item in vectors["chain"]:
        event = item["history_event"]
        rebuilt = {key: value for key, value in event.items() if key not in ("hash", "redacted")}
        rebuilt["game_id"] = game_id
        assert rebuilt == item["envelope"]
        assert canonical_json(rebuilt).decode("utf-8") == item["canonical_json"]
        assert hashlib.sha256(item["canonical_json"].encode()).hexdigest() == item["hash"]
        envelope = Envelope.from_dict({**rebuilt, "hash": item["hash"]})
        assert envelope_hash(envelope) == item["hash"] == event["hash"]
        assert envelope.prev_hash == prev
        prev = item["hash"]
        envelopes.append(envelope)
    assert verify(envelopes) == vectors["head"] == prev


def test_a_redacted_event_hashes_once_rebuilt() -> None:
    case = _load("envelope.json")["redacted_event"]
    event = case["history_event"]
    assert event["redacted"] == ["seed"] and event["data"]["seed"] is None
    body = {key: value for key, value in event.items() if key not in ("hash", "redacted")}
    body.update(game_id=_load("envelope.json")["game_id"], data=case["rebuilt_data"])
    assert canonical_json(body).decode("utf-8") == case["canonical_json"]
    assert hashlib.sha256(canonical_json(body)).hexdigest() == case["hash"] == event["hash"]


def test_rules_digest_vectors_cover_every_profile_and_table_size() -> None:
    vectors = _load("rules-digest.json")["vectors"]
    sizes = {(item["profile"], item["players"]) for item in vectors}
    for profile in PROFILES:
        low, high = profile_players(profile)
        assert {(profile, players) for players in range(low, high + 1)} <= sizes
    for item in vectors:
        rules = make_ruleset(item["profile"], item["chosen"], item["players"])
        assert rules.options() == item["options"]
        body = {"options": item["options"], "players": item["players"],
                "profile": item["profile"]}
        assert canonical_json(body).decode() == item["input"]
        assert hashlib.sha256(item["input"].encode()).hexdigest() == item["digest"]
        assert rules.digest() == item["digest"]


def test_checkpoint_vectors_sign_and_verify() -> None:
    vectors = _load("checkpoint.json")
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(vectors["private_key_seed_hex"]))
    public = checkpoints.public_bytes(key)
    assert public.hex() == vectors["public_key_hex"]
    assert checkpoints.key_id(public) == vectors["key_id"]
    assert hashlib.sha256(public).hexdigest()[:16] == vectors["key_id"].split(":")[1]
    keys = checkpoints.read_keys(vectors["keys_document"])
    for item in vectors["vectors"]:
        checkpoint = item["checkpoint"]
        assert checkpoints.message(checkpoint).hex() == item["message_hex"]
        fields = {name: checkpoint[name] for name in checkpoints.SIGNED_FIELDS}
        assert b"fortyfive/checkpoint/1" + canonical_json(fields) == bytes.fromhex(
            item["message_hex"])
        assert item["message_text"].encode() == bytes.fromhex(item["message_hex"])
        again = checkpoints.sign(key, checkpoint["game_id"], checkpoint["version"],
                                 checkpoint["head"], checkpoint["signed_at"])
        assert again == checkpoint  # Ed25519 signatures are deterministic.
        checkpoints.check(checkpoint, keys)


@pytest.mark.parametrize("index", range(5))
def test_checkpoint_vectors_that_must_fail_do(index: int) -> None:
    vectors = _load("checkpoint.json")
    case = vectors["must_fail"][index]
    with pytest.raises(checkpoints.CheckpointError):
        checkpoints.check(case["checkpoint"], checkpoints.read_keys(vectors["keys_document"]))


def test_a_drive_checkpoint_vector_signs_its_drive_and_is_no_games() -> None:
    vectors = _load("checkpoint.json")
    keys = checkpoints.read_keys(vectors["keys_document"])
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(vectors["private_key_seed_hex"]))
    (item,) = vectors["drive_vectors"]
    checkpoint = item["checkpoint"]
    fields = {name: checkpoint[name] for name in ("drive_id", "head", "key_id", "signed_at",
                                                   "version")}
    assert b"fortyfive/checkpoint/1" + canonical_json(fields) == bytes.fromhex(
        item["message_hex"]) == item["message_text"].encode("utf-8")
    assert checkpoints.sign(key, checkpoint["drive_id"], checkpoint["version"],
                            checkpoint["head"], checkpoint["signed_at"],
                            subject="drive_id") == checkpoint
    checkpoints.check(checkpoint, keys, "drive_id")
    with pytest.raises(checkpoints.CheckpointError, match="a checkpoint of a drive"):
        checkpoints.check(checkpoint, keys)
    as_game = {"game_id" if k == "drive_id" else k: v for k, v in checkpoint.items()}
    with pytest.raises(checkpoints.CheckpointError, match="signature does not match"):
        checkpoints.check(as_game, keys)
