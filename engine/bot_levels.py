"""The level registry: each bot level's decision function, the one place that maps a level
(:data:`engine.levels.LEVELS`) to how a bot at that level decides.

Everything that seats a bot at a game (the workers, ``fortyfive play``, ``fortyfive bot``) asks
:func:`decide` with the seat's level, so a new level is one entry here and one name in
:mod:`engine.levels`. (The rules vectors and ``bench grind`` call the basic bot itself: they
need its exact play, not a seat's level.) The decisions differ, the rules do not:
each function returns one of :func:`engine.actions.legal_actions`, and the engine checks it as
it checks a person's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from engine import bots, strong_bot
from engine.bots import Chance
from engine.levels import BASIC, LEVELS, STRONG, BotLevelError
from engine.state import GameState, Seat

DEFAULT_BUDGET_MS = 100
"""The CPU a strong bot may spend on one decision unless told otherwise, in milliseconds."""

Decide: TypeAlias = Callable[[GameState, Seat, Chance, int], "dict[str, Any] | None"]
"""A level's decision: (state, seat, chance, budget in ms of CPU) -> the action, or ``None``
when the seat has nothing to do. A level without a budget ignores it."""


def _basic(state: GameState, seat: Seat, chance: Chance, budget_ms: int) -> dict[str, Any] | None:
    return bots.choose_action(state, seat, chance)


def _strong(state: GameState, seat: Seat, chance: Chance,
            budget_ms: int) -> dict[str, Any] | None:
    return strong_bot.choose_action(state, seat, chance, budget_ms=budget_ms)


DECIDERS: dict[str, Decide] = {BASIC: _basic, STRONG: _strong}
"""Each level's decision function (tests replace an entry to see which one is called)."""
assert tuple(DECIDERS) == LEVELS, "every level of engine.levels has a decision function"


def decide(level: str | None, state: GameState, seat: Seat, chance: Chance, *,
           budget_ms: int = DEFAULT_BUDGET_MS) -> dict[str, Any] | None:
    """Returns the action a bot of *level* in *seat* takes now (``None``: nothing to do);
    *budget_ms* bounds the CPU of a level that searches. A seat without a level (``None``:
    a person's, acted for by the turn clock) decides as ``basic``.

    :raises BotLevelError: for a level that is not one of :data:`engine.levels.LEVELS`.
    """
    try:
        decider = DECIDERS[level or BASIC]
    except KeyError:
        raise BotLevelError(f"a bot's level is {' or '.join(LEVELS)}, not {level!r}") from None
    return decider(state, seat, chance, budget_ms)
