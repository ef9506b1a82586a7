"""When a bot or the turn clock may cut a ``/2`` deal: the nonce window (docs/verification.md,
section 6).

A ``/2`` deck depends on every nonce recorded before the cut. A bot's or the clock's cut comes
from the game's committed contribution secret, so its position is fixed before any seed; what
is left is *when* it lands. Cut at once, it would shut out the human seats' nonces, and the
server, which knew every other input when it drew the seed, could have chosen the deck. So the
game commits in ``game_created`` to a window (:data:`NONCE_WINDOW` seconds), counted from the
``occurred_at`` of the deal's shuffle:

- a bot's or the clock's cut is recorded only once every human seat has sent its nonce, or once
  the window has closed (:func:`cut_wait`);
- in a deal a bot is to cut, a nonce is taken only while the window is open
  (:func:`nonce_too_late`), so the nonces in the deck are exactly those that came in time,
  whenever after the window the bot's cut lands: the server cannot choose, by the moment it
  cuts, whether a late nonce counts.

Every time involved is in the history, so a verifier checks both (these functions are the
rule's one statement, used by the workers, the command path and the verifier alike).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.shuffle import ALGORITHM_2
from engine.state import GameState, Seat

NONCE_WINDOW = 2
"""Seconds a ``/2`` deal waits for its human seats' nonces before a bot's or the clock's cut
(the web table sends its nonce as soon as the deal waits for its cut, well within it)."""


def missing_nonces(seat_types: Sequence[str], contributed: Collection[Seat]) -> tuple[Seat, ...]:
    """Returns the human seats of *seat_types* that are not in *contributed*."""
    return tuple(seat for seat, kind in enumerate(seat_types)
                 if kind == "human" and seat not in contributed)


def awaited(state: GameState) -> tuple[Seat, ...]:
    """Returns the human seats whose nonce a bot's or the clock's cut of the deal in *state*
    waits for: none unless a ``/2`` deal waits for its cut."""
    deal = state.deal
    if deal is None or state.phase != "cut" or deal.algorithm != ALGORITHM_2:
        return ()
    return missing_nonces(state.seat_types, {seat for seat, _ in deal.nonces})


def cut_wait(window: int | None, waited: float, missing: Collection[Seat]) -> float:
    """Returns how many more seconds a bot's or the clock's cut must wait, *waited* seconds
    after its deal's shuffle, while the human seats *missing* have sent no nonce: 0 when none
    is missing, when the game has no *window*, or once the window has closed."""
    if window is None or not missing:
        return 0.0
    return max(0.0, window - waited)


def nonce_too_late(window: int | None, waited: float, bot_cuts: bool) -> bool:
    """True when a nonce recorded *waited* seconds after its deal's shuffle comes too late:
    a bot is to cut the deal (*bot_cuts*) and the *window* has closed."""
    return window is not None and bot_cuts and waited >= window


def window_of(state: GameState) -> int:
    """Returns the nonce window of *state*'s game in seconds. A game created before the rule
    recorded none: the service keeps it to :data:`NONCE_WINDOW` all the same (though no
    verifier can hold it to that)."""
    return state.nonce_window if state.nonce_window is not None else NONCE_WINDOW


def wait_in(state: GameState, waited: float) -> float:
    """Returns :func:`cut_wait` for the deal in *state*, *waited* seconds after its shuffle."""
    return cut_wait(window_of(state), waited, awaited(state))
