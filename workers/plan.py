"""What a game needs from the workers at its current version: a pure function of its state.

The dispatcher folds each game it sees in the feed and asks :func:`plan` which jobs are due.
Every job is named by what it is for (game, version or deal), so planning the same state
twice plans the same jobs, and the queue refuses the copies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import Literal, TypeAlias

from engine.nonce_window import awaited, window_of
from engine.state import GameState
from workers import keys
from workers.drives import drive_reason

JobName: TypeAlias = Literal[
    "play_bots", "turn_clock", "seal_deal", "project", "sweep_chains", "retain", "advance_drive",
    "sign_tree_head",
]
"""The name of a function of :mod:`workers.jobs`."""


@dataclasses.dataclass(frozen=True, slots=True)
class PlannedJob:
    """A job to enqueue: which function of :mod:`workers.jobs`, its arguments and its id."""

    name: JobName
    args: tuple[str | int, ...]
    job_id: str
    delay: int | None = None
    """Seconds to wait before it runs (a turn clock), or ``None`` to run it now."""
    pace: float | None = None
    """Seconds, to the millisecond, a bot job is held first for the game's pace
    (:mod:`workers.pacing`), or ``None``."""


def finished_deals(state: GameState) -> tuple[int, ...]:
    """Returns the numbers of the deals of *state* that are over, oldest first."""
    numbers = [deal.number for deal in state.past_deals]
    if state.deal is not None and state.deal.phase == "over":
        numbers.append(state.deal.number)
    return tuple(numbers)


def bot_pace(state: GameState) -> float | None:
    """Returns how long a bot of *state* waits before each action (the game's pace, so that a
    person can follow the play), or ``None`` for no wait: a game without a person, or created
    without a pace."""
    if state.bot_pace_ms <= 0 or "human" not in state.seat_types:
        return None
    return state.bot_pace_ms / 1000


def plan(
    game_id: str, state: GameState, sealed: Collection[int] = ()
) -> list[PlannedJob]:
    """Returns the jobs due for *game_id* in *state* (at version ``state.version``), whose
    deals numbered in *sealed* have their histories stored already.

    - ``seal_deal`` for every finished deal not yet sealed;
    - ``play_bots`` when a bot seat is to act; a bot's cut of a ``/2`` deal after the
      game's nonce window (:mod:`engine.nonce_window`) while a human seat has not sent its
      nonce: the job itself holds the cut until the window has closed by the shuffle's
      recorded time (:func:`workers.jobs.play_bots`), since the queue may run it early; otherwise
      after the game's pace (:func:`bot_pace`);
    - ``turn_clock`` after ``turn_seconds`` when a human seat is to act and the game has a
      clock. Any new event starts a new clock: the old one then finds the game moved on.
    - ``advance_drive`` when a game of a drive waits for its drive (a duplicate board's
      reveal, the next board) or is over.

    The projections follow every change too, but as no job: the dispatcher writes them
    itself (:mod:`workers.projections`).
    """
    version = state.version
    drive = drive_reason(game_id, version, len(finished_deals(state)), state.phase)
    jobs = [] if drive is None else [
        PlannedJob("advance_drive", (drive[0],), keys.drive_job_id(*drive))]
    jobs += [
        PlannedJob("seal_deal", (game_id, number, version), keys.seal_job_id(game_id, number))
        for number in finished_deals(state)
        if number not in sealed
    ]
    seat = state.turn
    if seat is None or state.phase == "over":
        return jobs
    if state.seat_types[seat] == "bot":
        waits = awaited(state)
        jobs.append(PlannedJob("play_bots", (game_id, version), keys.bot_job_id(game_id, version),
                               delay=window_of(state) if waits else None,
                               pace=None if waits else bot_pace(state)))
    elif state.rules.turn_seconds is not None:
        jobs.append(
            PlannedJob(
                "turn_clock",
                (game_id, version, seat),
                keys.clock_job_id(game_id, version),
                delay=state.rules.turn_seconds,
            )
        )
    return jobs
