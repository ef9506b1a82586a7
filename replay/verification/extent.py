"""How much of the game a hand history holds, and how much of it a signature vouches for.

A history cut at an event of a game that went on (``?at=103``, or a file cut short) verifies:
nothing in it is contradicted. So the report says first, before anything else, that it stops
at an event of a game that was not over, and, where a checkpoint given or carried vouches for a
later event, how many events at least are missing. A one-deal history is a part of its game by
design, and is called a prefix only when it stops before its deal has ended
(``?deal=1&at=15``, the game going on).

The other way round, a history may run on past the checkpoint it carries: a genuine early
checkpoint (``?at=37`` makes the service sign one) attached to events rewritten after it
vouches for those first events only. The service signs a checkpoint at the final event of
every finished game, and at the last event of every one-deal history it hands out, so a history
of a finished game, or a one-deal history of an ended deal, judged by signatures (it carries or
is given a checkpoint, or the caller gives keys) whose latest matching checkpoint is earlier
than its last event leaves the events after it unchecked: no signature vouches for them.
A history of deals the service dealt (shuffled by the server) is always judged by
signatures: with no checkpoint whose signature was checked, no signature vouches for any of its
events, and it is not complete. Only a table record written by hand (deals recorded at a
table, no server seeds) may be judged by nothing but its integrity
(docs/verification.md section 8, "Extent").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from events import checkpoints
from replay.verification.findings import UNSIGNED, Prefix, Unchecked
from replay.verification.fold import deal_ended, ended_over, server_dealt
from replay.verification.state import Run

CODES: tuple[str, ...] = ()
"""None: a prefix, or events no checkpoint covers, are not failures by themselves (a
checkpoint the history does not reach is the checkpoint check's); they make the history
incomplete."""


def check(run: Run, vouching: Iterable[Mapping[str, Any] | None], *,
          keys_given: bool = False) -> None:
    """Records in ``run.prefix`` whether the history stops before the game's end, and in
    ``run.unchecked`` the events of a finished game (or an ended deal) no checkpoint vouches
    for; *vouching* are the checkpoints given or carried (None for absent ones), *keys_given*
    whether the caller gave a trust root."""
    history = run.history
    one_deal = history.view.deal is not None
    present = [checkpoint for checkpoint in vouching if checkpoint is not None]
    last = history.events[-1].version
    later = [checkpoint["version"] for checkpoint in present
             if _of_game(checkpoint, history.game_id) and checkpoint["version"] > last]
    vouched = max(later) if later else None
    ended = deal_ended(run) if one_deal else ended_over(run)
    # A one-deal history ends where its deal does: a later checkpoint is the game going on.
    if ended is False or (vouched is not None and not one_deal):
        run.prefix = Prefix(last, vouched)
    if ended is not True or not (present or keys_given or server_dealt(run)):
        return  # A table record written by hand: its integrity alone is checked.
    through = max(run.vouched, default=None)
    run.signed_through = through
    if through is not None and through >= last:
        return
    first = 1 if through is None else through + 1
    covered = ("no checkpoint here whose signature was checked matches this history"
               if through is None else
               f"the latest checkpoint here vouches for event {through} only")
    signs = ("at the last event of every history of an ended deal it hands out" if one_deal
             else "at the final event of every finished game")
    run.unchecked.append(Unchecked(
        first, last, UNSIGNED,
        f"{covered}, and the service signs one {signs}: no signature vouches for these events "
        "(fetch the history again, or give the final checkpoint you kept with --checkpoint)"))


def _of_game(checkpoint: Mapping[str, Any], game_id: str | None) -> bool:
    try:
        checkpoints.check_form(checkpoint)
    except checkpoints.CheckpointError:
        return False
    return bool(checkpoint["game_id"] == game_id)
