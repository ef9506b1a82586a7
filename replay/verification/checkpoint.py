"""Verifying a signed checkpoint against a hand history (docs/verification.md section 8).

A checkpoint is the service's signed statement that the game had a given hash at a given
event. It must have the checkpoint's form, verify with one of the keys given (unless none are),
be of this game, and the history must reach its version with the same hash there: which
catches a history cut short, or rewritten since.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events import checkpoints
from replay.verification.state import Run

CODES = ("checkpoint",)
"""``checkpoint``: a checkpoint does not verify, or the history does not reach it with the same
hash."""


def check(run: Run, checkpoint: Mapping[str, Any], keys: Mapping[str, bytes] | None,
          what: str, where: str | None) -> None:
    """Checks *checkpoint* is signed by one of *keys* (unless None) and that the history has
    the checkpoint's hash at its version."""
    try:
        if keys is None:
            checkpoints.check_form(checkpoint)
        else:
            checkpoints.check(checkpoint, keys)
    except checkpoints.CheckpointError as error:
        run.problem("checkpoint", f"{what}: {error}", None, where)
        return
    if keys is not None:
        run.checked["checkpoints"] = run.checked.get("checkpoints", 0) + 1
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
        run.notes.append(
            f"{what} (signed at {checkpoint['signed_at']} with {checkpoint['key_id']}"
            + (", signature verified" if keys is not None else ", signature not checked: no "
               "keys given") + f") matches event {version}")
