"""Whether a hand history holds the whole game, or stops before its end (a prefix).

A history cut at an event of a game that went on (``?at=103``, or a file cut short) verifies:
nothing in it is contradicted. So the report says first, before anything else, that it stops
at an event of a game that was not over, and, where a checkpoint given or carried vouches for a
later event, how many events at least are missing. A one-deal history is a part of its game by
design, and is not called a prefix.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from events import checkpoints
from replay.verification.findings import Prefix
from replay.verification.fold import ended_over
from replay.verification.state import Run

CODES: tuple[str, ...] = ()
"""None: a prefix is not a failure by itself (a checkpoint it does not reach is the checkpoint
check's)."""


def check(run: Run, vouching: Iterable[Mapping[str, Any] | None]) -> None:
    """Records in ``run.prefix`` whether the history stops before the game's end; *vouching*
    are the checkpoints given or carried (None for absent ones)."""
    history = run.history
    if history.view.deal is not None:
        return
    last = history.events[-1].version
    later = [checkpoint["version"] for checkpoint in vouching
             if checkpoint is not None and _of_game(checkpoint, history.game_id)
             and checkpoint["version"] > last]
    vouched = max(later) if later else None
    if ended_over(run) is False or vouched is not None:
        run.prefix = Prefix(last, vouched)


def _of_game(checkpoint: Mapping[str, Any], game_id: str | None) -> bool:
    try:
        checkpoints.check_form(checkpoint)
    except checkpoints.CheckpointError:
        return False
    return bool(checkpoint["game_id"] == game_id)
