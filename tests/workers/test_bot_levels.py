"""The workers make each bot decide at its seat's level, as the game's creation records it,
through the level registry; a strong bot gets the budget of ``BOT_BUDGET_MS``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from rq import Queue
from worker_helpers import drive, state_of

from engine import bot_levels
from engine.bots import Chance
from engine.state import GameState, Seat
from events.redis_store import RedisEventStore
from events.types import GameCreated
from workers import jobs
from workers.dispatcher import Dispatcher

Calls = list[tuple[str, Seat, int]]


def _spy(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Replaces every level's decision function by one that records (level, seat, budget)
    and then decides as the level did."""
    calls: Calls = []
    for level, decider in list(bot_levels.DECIDERS.items()):
        def recorded(state: GameState, seat: Seat, chance: Chance, budget_ms: int,
                     level: str = level, decider: bot_levels.Decide = decider,
                     ) -> dict[str, Any] | None:
            calls.append((level, seat, budget_ms))
            return decider(state, seat, chance, budget_ms)
        monkeypatch.setitem(bot_levels.DECIDERS, level, recorded)
    return calls


def test_each_bot_decides_at_its_own_level_with_the_configured_budget(
    monkeypatch: pytest.MonkeyPatch, dispatcher: Dispatcher, queue: Queue,
    new_game: Callable[..., str],
) -> None:
    monkeypatch.setenv("BOT_BUDGET_MS", "7")
    calls = _spy(monkeypatch)
    game_id = new_game("classic", ["bot", "bot", "bot", "bot"],
                       bot_levels=["strong", "basic", "strong", "basic"], target=15)
    assert state_of(game_id).seat_levels == ("strong", "basic", "strong", "basic")
    drive(dispatcher, queue)
    assert state_of(game_id).phase == "over"
    by_seat = {seat: {level for level, at, _ in calls if at == seat} for seat in range(4)}
    assert by_seat == {0: {"strong"}, 1: {"basic"}, 2: {"strong"}, 3: {"basic"}}
    assert {budget for _, _, budget in calls} == {7}


def test_a_game_of_basic_bots_records_no_levels_and_plays_basic_bots(
    monkeypatch: pytest.MonkeyPatch, dispatcher: Dispatcher, queue: Queue,
    store: RedisEventStore, new_game: Callable[..., str],
) -> None:
    # Its creation keeps the bytes of a game created before levels: no bot_levels at all.
    calls = _spy(monkeypatch)
    game_id = new_game("classic", ["bot", "bot"], bot_levels=["basic", "basic"], target=15)
    created = store.read(game_id, limit=1)[0]
    assert isinstance(created.event, GameCreated) and created.event.bot_levels is None
    assert "bot_levels" not in created.envelope.data
    drive(dispatcher, queue)
    assert state_of(game_id).phase == "over"
    assert calls and {level for level, _, _ in calls} == {"basic"}


def test_a_bad_budget_is_refused_naming_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_BUDGET_MS", "fast")
    with pytest.raises(ValueError, match="BOT_BUDGET_MS must be a whole number of milliseconds"):
        jobs.bot_budget()
    monkeypatch.delenv("BOT_BUDGET_MS")
    assert jobs.bot_budget() == bot_levels.DEFAULT_BUDGET_MS == 100


def test_a_drive_s_bots_keep_their_levels_at_their_tables(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, store: RedisEventStore,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 15}, "format": "progressive", "rounds": 1,
        "players": [{"name": "Ann", "type": "human"},
                    {"name": "B1", "type": "bot", "level": "basic"},
                    {"name": "B2", "type": "bot"}],
        "fill_with_bots": True})
    assert created.status_code == 201, created.json
    # Unnamed, and the bot added to fill the table: strong, as a person plays in the drive
    # (docs/bots.md).
    assert [(p["name"], p["level"]) for p in created.json["players"]] == [
        ("Ann", None), ("B1", "basic"), ("B2", "strong"), ("Bot 1", "strong")]
    drive(dispatcher, queue)
    view = client.get(f"/v1/drives/{created.json['id']}").json
    [table] = view["rounds"][0]["tables"]
    levels = {p["name"]: p["level"] for p in table["players"]}
    assert levels == {"Ann": None, "B1": "basic", "B2": "strong", "Bot 1": "strong"}
    game = state_of(table["game"])
    assert {p["name"]: game.seat_levels[p["seat"]] for p in table["players"]} == levels


def test_a_drive_of_bots_only_is_basic_and_an_unknown_level_is_refused(
        client: FlaskClient) -> None:
    bots = [{"name": f"B{n}", "type": "bot"} for n in range(4)]
    created = client.post("/v1/drives", json={
        "profile": "classic", "format": "progressive", "rounds": 1, "players": bots})
    assert created.status_code == 201, created.json
    assert {p["level"] for p in created.json["players"]} == {"basic"}
    refused = client.post("/v1/drives", json={
        "profile": "classic", "format": "progressive", "rounds": 1,
        "players": [*bots[:3], {"name": "X", "type": "bot", "level": "expert"}]})
    assert refused.status_code == 422 and refused.json["code"] == "unknown_bot_level"
    assert "player 'X'" in refused.json["detail"]
