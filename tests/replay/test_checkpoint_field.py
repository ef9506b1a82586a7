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
