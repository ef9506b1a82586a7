"""A history's ``checkpoint``: kept by both encodings, and checked against the events."""

from __future__ import annotations

import dataclasses

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from replay_helpers import golden

from events import checkpoints
from replay.formats.document import HandHistory
from replay.formats.export import export_text
from replay.formats.importing import read_history
from replay.formats.jsonformat import dumps
from replay.verification.verify import verify

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
KEYS = {checkpoints.key_id(checkpoints.public_bytes(KEY)): checkpoints.public_bytes(KEY)}


def _with_checkpoint(version: int | None = None, head: str | None = None) -> HandHistory:
    history = golden("set-bid")
    last = history.events[-1]
    assert history.game_id is not None and last.hash is not None
    chosen = next(e for e in history.events if e.version == (version or last.version))
    assert chosen.hash is not None
    signed = checkpoints.sign(KEY, history.game_id, chosen.version, head or chosen.hash,
                              "2026-01-02T03:04:05Z")
    return dataclasses.replace(history, checkpoint=signed)


def test_both_encodings_keep_the_checkpoint() -> None:
    history = _with_checkpoint()
    for data in (dumps(history), export_text(history).encode()):
        result = read_history(data)
        assert result.history is not None and not result.diagnostics
        assert result.history.checkpoint == history.checkpoint
        assert dumps(result.history) == dumps(history)


def test_a_carried_checkpoint_is_checked_against_the_events() -> None:
    good = verify(_with_checkpoint(version=5), keys=KEYS)
    assert good.ok and any("signature verified" in note for note in good.notes)
    unsigned = verify(_with_checkpoint(version=5))
    assert unsigned.ok and any("signature not checked" in note for note in unsigned.notes)
    bad = verify(_with_checkpoint(version=5, head="0" * 64))
    assert [p.code for p in bad.problems] == ["checkpoint"]
    assert "rewritten" in bad.problems[0].message and bad.problems[0].version == 5


def _key_record(key: Ed25519PrivateKey = KEY) -> dict[str, object]:
    public = checkpoints.public_bytes(key)
    return {"key_id": checkpoints.key_id(public), "algorithm": "ed25519",
            "public_key": public.hex(), "created_at": "2026-01-01T00:00:00Z", "retired_at": None}


def test_both_encodings_keep_the_checkpoint_key() -> None:
    history = dataclasses.replace(_with_checkpoint(), checkpoint_key=_key_record())
    for data in (dumps(history), export_text(history).encode()):
        result = read_history(data)
        assert result.history is not None and not result.diagnostics
        assert result.history.checkpoint_key == history.checkpoint_key
        assert dumps(result.history) == dumps(history)


def test_a_carried_signature_is_checked_with_the_carried_key_and_says_so() -> None:
    history = dataclasses.replace(_with_checkpoint(version=5), checkpoint_key=_key_record())
    report = verify(history)
    assert report.ok, report.format()
    assert [s.trust for s in report.signatures] == ["history_key"]
    assert "no trust root you gave vouches for it" in report.format()
    given = verify(history, keys=KEYS)
    assert [s.trust for s in given.signatures] == ["keys_given"]
    assert "from the keys you gave (your trust root)" in given.format()
    unsigned = verify(_with_checkpoint(version=5))
    assert [s.trust for s in unsigned.signatures] == ["none"]
    assert "signature NOT checked" in unsigned.format()


def test_a_history_carrying_another_games_signature_fails_without_keys() -> None:
    history = dataclasses.replace(_with_checkpoint(), checkpoint_key=_key_record())
    assert history.checkpoint is not None
    other = checkpoints.sign(KEY, "g-another", 7, "ab" * 32, "2026-01-02T03:04:05Z")
    forged = {**history.checkpoint, "signature": other["signature"]}
    report = verify(dataclasses.replace(history, checkpoint=forged))
    assert [p.code for p in report.problems] == ["checkpoint"]
    assert "the signature does not match" in report.problems[0].message


def test_a_key_the_forger_carries_passes_only_as_the_historys_own_and_fails_with_keys() -> None:
    forger = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
    history = golden("set-bid")
    assert history.game_id is not None and history.head is not None
    signed = checkpoints.sign(forger, history.game_id, history.events[-1].version, history.head,
                              "2026-01-02T03:04:05Z")
    forged = dataclasses.replace(history, checkpoint=signed, checkpoint_key=_key_record(forger))
    alone = verify(forged)
    assert alone.ok and [s.trust for s in alone.signatures] == ["history_key"]
    with_keys = verify(forged, keys=KEYS)
    assert [p.code for p in with_keys.problems] == ["checkpoint"]
    assert "not among the published keys" in with_keys.problems[0].message


def test_a_carried_key_that_is_not_the_one_named_fails() -> None:
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
    history = dataclasses.replace(_with_checkpoint(), checkpoint_key=_key_record(other))
    report = verify(history)
    assert [p.code for p in report.problems] == ["checkpoint"]
    assert "the key the history carries is" in report.problems[0].message
