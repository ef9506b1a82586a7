"""``fortyfive history verify --checkpoint --keys``: a kept checkpoint catches a history cut
short or rewritten since, and a checkpoint that is not the service's."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import checkpoints
from events.chain import GENESIS_HASH, seal
from events.envelope import RecordedEvent
from events.upcasting import decode
from replay.formats.build import build_history
from replay.formats.jsonformat import dumps, read_json
from service.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "replay"))
from replay_helpers import forked_game, golden, recorded, signed  # noqa: E402

GAME = "all-pass-redeal"
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))


def _keys_doc(*keys: Ed25519PrivateKey) -> dict[str, Any]:
    return {"keys": [{"key_id": checkpoints.key_id(checkpoints.public_bytes(key)),
                      "algorithm": "ed25519", "public_key": checkpoints.public_bytes(key).hex(),
                      "created_at": "2026-01-01T00:00:00Z", "retired_at": None}
                     for key in keys]}


def _checkpoint(key: Ed25519PrivateKey = KEY) -> dict[str, Any]:
    history = golden(GAME)
    assert history.game_id is not None and history.head is not None
    return checkpoints.sign(key, history.game_id, history.events[-1].version, history.head,
                            "2026-01-02T03:04:05Z")


def _write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_bytes(value if isinstance(value, bytes) else json.dumps(value).encode())
    return str(path)


def _verify(capsys: pytest.CaptureFixture[str], tmp_path: Path, history: bytes,
            checkpoint: dict[str, Any], keys: dict[str, Any]) -> tuple[int, str]:
    status = main(["history", "verify", _write(tmp_path, "h.json", history),
                   "--checkpoint", _write(tmp_path, "cp.json", checkpoint),
                   "--keys", _write(tmp_path, "keys.json", keys)])
    return status, capsys.readouterr().out


def _resealed(events: list[RecordedEvent], change: dict[int, dict[str, Any]]) -> bytes:
    """Returns the auditor's history of *events*, each version in *change* given new data,
    the chain re-hashed throughout and every result rebuilt: a forger's best effort."""
    prev, out = GENESIS_HASH, []
    for item in events:
        old = item.envelope
        envelope, _ = seal(game_id=old.game_id, version=old.version, event_type=old.type,
                           schema=old.schema, data=change.get(old.version, old.data),
                           actor=old.actor, command_id=old.command_id,
                           occurred_at=old.occurred_at, prev_hash=prev)
        out.append(RecordedEvent(envelope, decode(envelope)))
        prev = envelope.hash
    return dumps(build_history(out[0].envelope.game_id, out, "auditor"))


def test_the_untouched_history_reaches_its_checkpoint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    status, out = _verify(capsys, tmp_path, dumps(golden(GAME)), _checkpoint(), _keys_doc(KEY))
    assert status == 0, out
    assert "signature verified" in out and "matches event" in out


def test_a_history_with_its_last_deal_cut_off_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    events = recorded(golden(GAME))
    last_deal = max(i for i, item in enumerate(events) if item.envelope.type == "deck_shuffled")
    cut = _resealed(events[:last_deal], {})
    shorter, diagnostics = read_json(cut)
    assert shorter is not None and not diagnostics
    assert main(["history", "verify", _write(tmp_path, "alone.json", cut)]) == 0
    alone = capsys.readouterr().out
    last = shorter.events[-1].version
    assert alone.splitlines()[0] == (
        f"PREFIX: this history stops at event {last} of a game that was not over")
    status, out = _verify(capsys, tmp_path, cut, _checkpoint(), _keys_doc(KEY))
    assert status == 1 and "cut short" in out
    total = golden(GAME).events[-1].version
    assert out.splitlines()[0] == (
        f"PREFIX: this history stops at event {last} of a game that was not over; a "
        f"checkpoint vouches for event {total}, so at least {total - last} events of the game "
        "are missing from it")


def test_a_rewritten_and_rehashed_history_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """An event changed where no rule looks (its time), the chain re-hashed and the results
    rebuilt: the history verifies alone, but not against the checkpoint kept before."""
    events = recorded(golden(GAME))
    changed = _resealed_times(events, events[-3].envelope.version)
    assert main(["history", "verify", _write(tmp_path, "alone.json", changed)]) == 0
    capsys.readouterr()
    status, out = _verify(capsys, tmp_path, changed, _checkpoint(), _keys_doc(KEY))
    assert status == 1 and "rewritten" in out


def _resealed_times(events: list[RecordedEvent], version: int) -> bytes:
    prev, out = GENESIS_HASH, []
    for item in events:
        old = item.envelope
        occurred = "2030-01-01T00:00:00.000000Z" if old.version == version else old.occurred_at
        envelope, _ = seal(game_id=old.game_id, version=old.version, event_type=old.type,
                           schema=old.schema, data=old.data, actor=old.actor,
                           command_id=old.command_id, occurred_at=occurred, prev_hash=prev)
        out.append(RecordedEvent(envelope, decode(envelope)))
        prev = envelope.hash
    return dumps(build_history(out[0].envelope.game_id, out, "auditor"))


def test_a_bad_signature_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    checkpoint = _checkpoint()
    flipped = ("1" if checkpoint["signature"][0] == "0" else "0") + checkpoint["signature"][1:]
    status, out = _verify(capsys, tmp_path, dumps(golden(GAME)),
                          {**checkpoint, "signature": flipped}, _keys_doc(KEY))
    assert status == 1 and "signature does not match" in out


def test_a_checkpoint_of_an_unknown_key_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    status, out = _verify(capsys, tmp_path, dumps(golden(GAME)), _checkpoint(OTHER),
                          _keys_doc(KEY))
    assert status == 1 and "not among the published keys" in out


def test_a_checkpoint_signed_by_another_key_under_this_id_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    forged = {**_checkpoint(OTHER), "key_id": checkpoints.key_id(checkpoints.public_bytes(KEY))}
    status, out = _verify(capsys, tmp_path, dumps(golden(GAME)), forged, _keys_doc(KEY))
    assert status == 1 and "signature does not match" in out


def test_a_checkpoint_needs_keys(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status = main(["history", "verify", _write(tmp_path, "h.json", dumps(golden(GAME))),
                   "--checkpoint", _write(tmp_path, "cp.json", _checkpoint())])
    assert status == 2 and "--checkpoint needs --keys" in capsys.readouterr().err


def test_a_history_carrying_another_games_signature_fails_without_keys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    history = golden(GAME)
    other = checkpoints.sign(KEY, "g-another-game", 3, "cd" * 32, "2026-01-02T03:04:05Z")
    key = _keys_doc(KEY)["keys"][0]
    genuine = dataclasses.replace(history, checkpoint=_checkpoint(), checkpoint_key=key)
    path = _write(tmp_path, "genuine.json", dumps(genuine))
    assert main(["history", "verify", path]) == 0
    out = capsys.readouterr().out
    assert "which the history carries itself: no trust root you gave vouches for it" in out
    forged = dataclasses.replace(genuine, checkpoint={
        **_checkpoint(), "signature": other["signature"]})
    assert main(["history", "verify", _write(tmp_path, "forged.json", dumps(forged))]) == 1
    assert "the signature does not match the checkpoint" in capsys.readouterr().out
    status, out = _verify(capsys, tmp_path, dumps(genuine), _checkpoint(), _keys_doc(KEY))
    assert status == 0
    assert "from the keys you gave (your trust root)" in out
    assert f"trust root: the keys in {tmp_path / 'keys.json'}" in out


def test_a_finished_game_rewritten_after_an_early_checkpoint_fails_complete(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """The genuine checkpoint of event N carried by a game written on after N: --complete
    fails, and neither the text nor the JSON says the keys vouch for the whole history."""
    genuine, forged, fork = forked_game()
    last = len(forged.recorded)
    doc = json.loads(dumps(build_history("g-fork", forged.recorded, "auditor")))
    doc["checkpoint"] = checkpoints.sign(KEY, "g-fork", fork,
                                         genuine.recorded[fork - 1].envelope.hash,
                                         "2026-01-02T03:04:05Z")
    history = _write(tmp_path, "forged.json", doc)
    keys = _write(tmp_path, "keys.json", _keys_doc(KEY))
    status = main(["history", "verify", history, "--keys", keys, "--complete"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert f"events {fork + 1}-{last}: signature not checked" in out
    assert (f"trust root: the keys in {keys}, which vouch for events 1-{fork} only (events "
            f"{fork + 1}-{last} are signed by no checkpoint)") in out
    assert "FAILED: --complete, and no signature vouches for the events after the latest " \
        "checkpoint" in out
    status = main(["history", "verify", history, "--keys", keys, "--json", "--complete"])
    body = json.loads(capsys.readouterr().out)
    assert status == 1 and body["ok"] is False
    report = body["verification"]
    assert report["complete"] is False and report["signed_through"] == fork
    assert report["signatures"][0]["version"] == fork
    assert main(["history", "verify", history, "--keys", keys]) == 0
    capsys.readouterr()


def test_complete_needs_a_signature_over_every_event_of_a_game_the_service_dealt(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """A finished game the service dealt, its checkpoint stripped (as a forger who rewrote it
    would): no signature vouches for any of its events, so --complete fails, with keys or
    without; carrying its final checkpoint it passes. A table record written by hand, which
    no server dealt, is still judged by its integrity alone."""
    genuine = forked_game()[0]
    last = len(genuine.recorded)
    history = build_history("g-fork", genuine.recorded, "auditor")
    bare = _write(tmp_path, "bare.json", dumps(history))
    keys = _write(tmp_path, "keys.json", _keys_doc(KEY))
    for extra in ([], ["--keys", keys]):
        status = main(["history", "verify", bare, "--complete", *extra])
        out = capsys.readouterr().out
        assert status == 1, out
        assert f"events 1-{last}: signature not checked" in out
        assert "FAILED: --complete, and no signature vouches for any of its events" in out
    assert main(["history", "verify", bare]) == 0
    capsys.readouterr()
    whole = _write(tmp_path, "signed.json", dumps(signed(history)))
    assert main(["history", "verify", whole, "--complete", "--keys", keys]) == 0, \
        capsys.readouterr().out
    capsys.readouterr()
    table = str(Path(__file__).resolve().parents[1] / "replay" / "golden"
                / "both-over-target.table.txt")
    assert main(["history", "verify", table, "--complete"]) == 0, capsys.readouterr().out
