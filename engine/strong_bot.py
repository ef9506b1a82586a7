"""TEMPORARY STAND-IN, replaced by the strong helper's module at merge.

The strong level's decision function will live here: a search under a budget of CPU per
decision (issue 27, point 2), written on another branch. This stand-in only fixes the
interface the level registry (:mod:`engine.bot_levels`) and the workers call, and decides as
the basic bot does, so that everything around the level can be built and tested first. It is
not the strong level: docs/bots.md's section on it is filled in from the real module.
"""

from __future__ import annotations

from typing import Any

from engine.bots import Chance
from engine.bots import choose_action as basic_choose_action
from engine.state import GameState, Seat


def choose_action(state: GameState, seat: Seat, chance: Chance, *,
                  budget_ms: int = 100) -> dict[str, Any] | None:
    """Returns the action the strong bot in *seat* takes now, or ``None`` if it has nothing
    to do, spending at most about *budget_ms* milliseconds of CPU.

    Stand-in, replaced by the strong helper's module at merge: decides as
    :func:`engine.bots.choose_action` and ignores *budget_ms*.
    """
    return basic_choose_action(state, seat, chance)
