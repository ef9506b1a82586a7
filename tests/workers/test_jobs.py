"""Bots play through the command path: driven by the feed, idempotent, and only when due."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from freezegun import freeze_time
from rq import Queue
from worker_helpers import drive, state_of, work

from engine.profiles import PROFILES, profile_players
from events.envelope import SERVER
from events.redis_store import RedisEventStore
from service.application import commands
from workers import context, jobs
from workers.dispatcher import Dispatcher


def test_bots_play_until_the_humans_turn(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    # The clock stands still: no deal's 2 s nonce window closes before the nonce is sent,
    # however slow the machine.
    with freeze_time(datetime.now(UTC)):
        # The first dealer follows the game's seed: take the first game whose cutter is a bot.
        game_id = next(game for game in (
            new_game("bruff", ["human", "bot", "bot", "bot", "bot", "bot"]) for _ in range(64))
            if state_of(game).turn != 0)
        created = store.version(game_id)
        drive(dispatcher, queue)
        state = state_of(game_id)
        if state.phase == "cut":
            # A bot cutter waits for the human seat's nonce (engine.nonce_window); sent, the
            # bots play on at once.
            assert state.turn != 0 and not state.deal.nonces
            commands.act(store, context.games(), game_id, 0,
                         {"type": "contribute", "nonce": "a5" * 32},
                         expected_version=state.version)
            drive(dispatcher, queue)
            state = state_of(game_id)
            assert state.deal.nonces == ((0, "a5" * 32),)
    assert state.phase != "over"
    assert state.turn == 0, "the game waits for its one human"
    actors = {recorded.envelope.actor for recorded in store.read(game_id, after=created)}
    actors.discard(0)  # Its nonce, if a bot was to cut.
    assert actors and actors <= {1, 2, 3, 4, 5}, "only bot seats acted"


@pytest.mark.parametrize("profile", PROFILES)
def test_an_all_bot_game_plays_to_its_end(
    profile: str,
    dispatcher: Dispatcher,
    queue: Queue,
    store: RedisEventStore,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game(profile, ["bot"] * profile_players(profile)[0])
    drive(dispatcher, queue)
    state = state_of(game_id)
    assert state.phase == "over"
    assert state.winner is not None
    assert store.version(game_id) == state.version


def test_play_bots_run_twice_appends_nothing_the_second_time(
    configured: None, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    version = store.version(game_id)
    assert jobs.play_bots(game_id, version) > 0
    played = store.version(game_id)
    assert jobs.play_bots(game_id, version) == 0
    assert store.version(game_id) == played


def test_a_bot_action_already_taken_under_its_command_id_is_not_taken_again(
    configured: None, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    # A copy of the job that lost the race acts at the same version with the same command
    # id: the store hands back the first result and appends nothing.
    game_id = new_game("classic", ["bot", "bot"])
    version = store.version(game_id)
    seat = state_of(game_id).turn
    assert seat is not None
    assert jobs.play_bots(game_id, version) > 0
    played = store.version(game_id)
    again = commands.act(
        store, context.games(), game_id, seat, _action_at(store, game_id, version + 1),
        expected_version=version, command_id=jobs.bot_command_id(game_id, version),
    )
    assert again.duplicate
    assert store.version(game_id) == played


def _action_at(store: RedisEventStore, game_id: str, version: int) -> dict[str, object]:
    """Returns the action (as posted) that produced event *version*."""
    recorded = store.read(game_id, after=version - 1, limit=1)[0]
    action = commands.action_of(recorded.event)
    assert action is not None
    return action


def test_jobs_for_a_stale_version_do_nothing(
    configured: None, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    # The first dealer follows the game's seed: take the first game whose bot is to act.
    game_id = next(game for game in (
        new_game("classic", ["bot", "human"], turn_seconds=5) for _ in range(64))
        if state_of(game).turn == 0)
    version = store.version(game_id)
    jobs.play_bots(game_id, version)
    moved = store.version(game_id)
    state = state_of(game_id)
    assert state.turn == 1 and moved > version
    assert jobs.play_bots(game_id, version) == 0
    assert jobs.play_bots(game_id, moved - 1) == 0
    assert jobs.turn_clock(game_id, moved - 1, 1) is False
    assert store.version(game_id) == moved


def test_a_job_for_a_future_version_does_nothing(
    configured: None, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    version = store.version(game_id)
    assert jobs.play_bots(game_id, version + 1) == 0
    assert store.version(game_id) == version


def test_jobs_run_from_the_queue_with_the_json_serializer(
    configured: None, queue: Queue, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    version = store.version(game_id)
    job = queue.enqueue(jobs.play_bots, game_id, version)
    assert work(queue)
    job.refresh()
    assert job.is_finished
    assert 0 < job.return_value() < store.version(game_id) - version, "each action's events"
    assert state_of(game_id).phase == "over"
    assert SERVER not in {r.envelope.actor for r in store.read(game_id, after=version)}
