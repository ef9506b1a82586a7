"""Projections: recent games and finished games per profile, idempotent and forward only."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import redis

from events.redis_store import RedisEventStore
from service.application import commands
from workers import context, jobs, projections


def test_a_game_is_projected_as_it_goes_and_counted_once_when_over(
    configured: None,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    finished_before = projections.finished_count(redis_client, "classic")
    game_id = new_game("classic", ["bot", "bot"])
    created = store.version(game_id)
    assert jobs.project(game_id, created)
    first = _summary(redis_client, game_id)
    assert first["version"] == created
    assert first["phase"] == "cut" and first["winner"] is None

    jobs.play_bots(game_id, created)
    over = store.version(game_id)
    assert jobs.project(game_id, over)
    assert not jobs.project(game_id, over), "a second run writes nothing"
    assert not jobs.project(game_id, created), "an older job writes nothing"
    last = _summary(redis_client, game_id)
    assert last["version"] == over
    assert last["phase"] == "over" and last["winner"] in (0, 1)
    assert last["profile"] == "classic"
    assert projections.finished_count(redis_client, "classic") == finished_before + 1


def test_recent_games_come_latest_first(
    configured: None,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    older = new_game("classic", ["human", "human"])
    newer = new_game("classic", ["human", "human"])
    jobs.project(newer, store.version(newer))
    jobs.project(older, store.version(older))
    recent = [game["game_id"] for game in projections.recent_games(redis_client, 1000)]
    assert recent.index(newer) < recent.index(older)


def _summary(client: redis.Redis, game_id: str) -> dict[str, object]:
    for game in projections.recent_games(client, projections.RECENT_LIMIT):
        if game["game_id"] == game_id:
            return game
    raise AssertionError(f"game {game_id} is not among the recent games")


def test_a_projection_refuses_a_last_event_that_is_not_the_states_own(
    configured: None,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["human", "human"])
    state = commands.load(context.games(), game_id).state
    first, last = store.read(game_id)
    projector = projections.Projector(redis_client)
    with pytest.raises(ValueError, match=f"event 1 is not the last of game {game_id}"):
        projector.project(store, game_id, state, first)
    assert projector.project(store, game_id, state, last)
    assert _summary(redis_client, game_id)["last_event_at"] == last.envelope.occurred_at
