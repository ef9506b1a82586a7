"""Verifying a signed checkpoint against a hand history (docs/verification.md section 8).

A checkpoint is the service's signed statement that the game had a given hash at a given
event. It must have the checkpoint's form and a signature that verifies with the key it names,
be of this game, and the history must reach its version with the same hash there: which
catches a history cut short, or rewritten since.

A signature present is a signature checked. The key comes from the keys the caller gives
(``--keys``, the answer of ``GET /v1/keys``: a trust root the user chose) or else, for the
checkpoint a history carries, from the key the history carries with it (``checkpoint_key``),
which proves the checkpoint unchanged since that key signed it but not that the key is the
service's. Each checkpoint's :class:`~replay.verification.findings.Signature` says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events import checkpoints
from replay.verification.findings import Signature
from replay.verification.state import Run

CODES = ("checkpoint",)
"""``checkpoint``: a checkpoint does not verify with the key it names, or the history does not
reach it with the same hash."""


def check(run: Run, checkpoint: Mapping[str, Any], keys: Mapping[str, bytes] | None,
          what: str, where: str | None, *, carried_key: Any = None) -> None:
    """Checks *checkpoint*'s signature with *keys* (the caller's trust root) or, when none are
    given, with *carried_key* (the key the history carries, a ``GET /v1/keys`` entry), and that
    the history has the checkpoint's hash at its version."""
    try:
        checkpoints.check_form(checkpoint)
    except checkpoints.CheckpointError as error:
        run.problem("checkpoint", f"{what}: {error}", None, where)
        return
    kid = checkpoint["key_id"]
    if keys is not None:
        trust = "keys_given"
        against: Mapping[str, bytes] | None = keys
    elif carried_key is not None:
        trust = "history_key"
        try:
            against = checkpoints.read_keys({"keys": [carried_key]})
        except checkpoints.CheckpointError as error:
            run.problem("checkpoint", f"{what}: the key the history carries is not valid: "
                        f"{error}", None, "/checkpoint_key")
            return
        if kid not in against:
            run.problem("checkpoint", f"{what} is signed with key {kid}, but the key the "
                        f"history carries is {', '.join(against)}", None, where)
            return
    else:
        trust, against = "none", None
    if against is not None:
        try:
            checkpoints.check(checkpoint, against)
        except checkpoints.CheckpointError as error:
            run.problem("checkpoint", f"{what}: {error}", None, where)
            return
        run.checked["checkpoints"] = run.checked.get("checkpoints", 0) + 1
    run.signatures.append(Signature(what, kid, trust, checkpoint["version"]))
    history = run.history
    version, head = checkpoint["version"], checkpoint["head"]
    if checkpoint["game_id"] != history.game_id:
        run.problem("checkpoint", f"{what} is of game {checkpoint['game_id']!r}, not of "
                    f"{history.game_id!r}", None, where)
        return
    last = history.events[-1].version
    if version > last:
        run.problem("checkpoint", f"{what} vouches for event {version}, but the history stops "
                    f"at event {last}: it was cut short", last, where)
        return
    found = next((event for event in history.events if event.version == version), None)
    start = history.start
    if found is None and start is not None and start.version == version:
        stored: str | None = start.hash
    elif found is None:
        run.problem("checkpoint", f"{what} vouches for event {version}, which this history "
                    "does not hold", None, where)
        return
    else:
        stored = found.hash
    if stored is None:
        run.problem("checkpoint", f"{what} vouches for event {version}, whose hash this view "
                    "withholds, so it cannot be compared", version, where)
    elif stored != head:
        run.problem("checkpoint", f"{what} says event {version} has hash {head[:16]}..., the "
                    f"history has {stored[:16]}...: it was rewritten", version, where)
    else:
        run.vouched.append(version)
        said = {"keys_given": "signature verified with the keys given",
                "history_key": "signature verified with the key the history carries",
                "none": "signature not checked: no keys given"}[trust]
        run.notes.append(f"{what} (signed at {checkpoint['signed_at']} with {kid}, {said}) "
                         f"matches event {version}")
