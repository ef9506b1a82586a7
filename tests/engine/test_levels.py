"""Bot levels: their defaults, the refusal of a level nobody knows, how a game's creation
records them (and reads a creation of before levels), and the registry that maps each level
to its decision function."""

from __future__ import annotations

from typing import Any

import pytest

from engine import bot_levels, bots, strong_bot
from engine.actions import start_game
from engine.errors import EventSequenceError
from engine.fold import fold
from engine.levels import LEVELS, BotLevelError, default_level, recorded_levels, seat_levels
from events.types import GameCreated


def test_an_unnamed_bot_is_strong_where_a_person_sits_and_basic_among_bots() -> None:
    assert default_level(["human", "bot"]) == "strong"
    assert default_level(["bot", "bot"]) == "basic"
    assert seat_levels(["human", "bot", "bot"]) == (None, "strong", "strong")
    assert seat_levels(["bot", "bot"]) == ("basic", "basic")
    assert seat_levels(["human", "bot", "bot"], [None, "basic", None]) == (
        None, "basic", "strong")
    created = fold(start_game("classic", {}, ["human", "bot"], b"\1" * 32, b"\2" * 32))
    assert created.seat_levels == (None, "strong")


@pytest.mark.parametrize(("seats", "levels", "says"), [
    (["human", "bot"], [None, "expert"], "seat 1: a bot's level is basic or strong, not "
                                         "'expert'"),
    (["human", "bot"], ["strong", None], "seat 0: only a bot has a level"),
    (["human", "bot"], ["strong"], "one level (or null) per seat: 2 seats, 1 levels"),
])
def test_a_level_nobody_knows_or_for_a_person_is_refused(
        seats: list[str], levels: list[str | None], says: str) -> None:
    with pytest.raises(BotLevelError, match=says.replace("(", r"\(").replace(")", r"\)")):
        seat_levels(seats, levels)
    with pytest.raises(BotLevelError):
        start_game("classic", {}, seats, b"\1" * 32, b"\2" * 32, bot_levels=levels)


def _created(seats: list[str], levels: list[str | None] | None = None) -> GameCreated:
    created = start_game("classic", {}, seats, b"\1" * 32, b"\2" * 32,
                         bot_levels=levels or ())[0]
    assert isinstance(created, GameCreated)
    return created


def test_the_creation_records_levels_unless_every_bot_is_basic() -> None:
    assert _created(["human", "bot", "bot"], [None, "strong", "basic"]).bot_levels == (
        None, "strong", "basic")
    assert _created(["human", "bot"]).bot_levels == (None, "strong")
    assert _created(["bot", "bot"], ["strong", "basic"]).bot_levels == ("strong", "basic")
    # Basic bots only: nothing recorded, the creation as every game's before levels.
    assert _created(["bot", "bot"]).bot_levels is None
    assert _created(["human", "bot"], [None, "basic"]).bot_levels is None
    assert _created(["human", "human"]).bot_levels is None


def test_the_fold_gives_each_seat_its_recorded_level_and_basic_before_levels() -> None:
    assert fold([_created(["human", "bot", "bot"], [None, "strong", "basic"])]).seat_levels == (
        None, "strong", "basic")
    old = GameCreated("classic", _created(["human", "bot"]).options, ("human", "bot"),
                      "00" * 32)
    assert fold([old]).seat_levels == (None, "basic")
    assert recorded_levels(("bot", "human"), None) == ("basic", None)


@pytest.mark.parametrize("levels", [("strong",), ("strong", "strong"), ("expert", None)])
def test_a_recorded_level_that_does_not_fit_its_seat_is_a_corrupt_log(
        levels: tuple[str | None, ...]) -> None:
    good = _created(["bot", "human"], ["strong", None])
    forged = GameCreated(good.profile, good.options, good.seats, good.seed, bot_levels=levels)
    with pytest.raises(EventSequenceError, match="do not fit the seats"):
        fold([forged])


def test_the_registry_has_a_decision_function_for_every_level_and_nothing_else() -> None:
    assert tuple(bot_levels.DECIDERS) == LEVELS == ("basic", "strong")
    with pytest.raises(BotLevelError, match="not 'expert'"):
        bot_levels.decide("expert", fold([_created(["bot", "bot"])]), 0, _NoChance())


class _NoChance:
    def randrange(self, stop: int, /) -> int:
        raise AssertionError("not drawn")


def test_decide_calls_the_level_s_own_module_with_its_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int | None]] = []

    def basic(state: Any, seat: int, chance: Any) -> dict[str, Any]:
        calls.append(("basic", None))
        return {"type": "pass"}

    def strong(state: Any, seat: int, chance: Any, *, budget_ms: int = 100) -> dict[str, Any]:
        calls.append(("strong", budget_ms))
        return {"type": "pass"}

    monkeypatch.setattr(bots, "choose_action", basic)
    monkeypatch.setattr(strong_bot, "choose_action", strong)
    state = fold([_created(["bot", "bot"], ["strong", "basic"])])
    bot_levels.decide("strong", state, 0, _NoChance(), budget_ms=25)
    bot_levels.decide("basic", state, 1, _NoChance(), budget_ms=25)
    bot_levels.decide(None, state, 1, _NoChance())  # A person's seat (the turn clock): basic.
    bot_levels.decide("strong", state, 0, _NoChance())
    assert calls == [("strong", 25), ("basic", None), ("basic", None), ("strong", 100)]
