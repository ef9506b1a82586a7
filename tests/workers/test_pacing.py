"""The bots' pace in a game with a person: each bot action is held for the game's pace by the
dispatcher (to the millisecond, in Redis), never slept for by a worker; bot-only games and
games created without a pace play at once."""

from __future__ import annotations

import time

import pytest
from rq import Queue
from worker_helpers import entropy, state_of, work

from engine.actions import start_game_and_apply
from events.keys import paced_key
from events.redis_store import RedisEventStore
from events.types import GameCreated
from service.application import commands
from workers import context, keys, pacing
from workers.dispatcher import Dispatcher, enqueue
from workers.plan import bot_pace, plan

PACE_MS = 700


def _opening(seats: list[str], pace: int) -> GameCreated:
    seeds = entropy("pace-opening")
    events, _ = start_game_and_apply("classic", {}, seats, seeds(), seeds(), bot_pace_ms=pace)
    created = events[0]
    assert isinstance(created, GameCreated)
    return created


def test_the_pace_is_recorded_only_where_a_person_plays_with_a_bot() -> None:
    assert _opening(["human", "bot"], PACE_MS).bot_pace_ms == PACE_MS
    assert _opening(["bot", "bot"], PACE_MS).bot_pace_ms is None, "no person to follow"
    assert _opening(["human", "human"], PACE_MS).bot_pace_ms is None, "no bot to pace"
    assert _opening(["human", "bot"], 0).bot_pace_ms is None, "zero: no wait recorded"


def _paced_game(store: RedisEventStore, pace: int = PACE_MS) -> str:
    """Creates a human-and-bot game and brings it to a bot's turn that waits for nothing but
    its pace (the person's nonce sent if a bot is to cut)."""
    for _ in range(64):
        game_id = commands.create_game(store, "classic", {}, ["human", "bot"],
                                       entropy=entropy("pace"), bot_pace_ms=pace).game_id
        state = state_of(game_id)
        if state.turn == 1:
            commands.act(store, context.games(), game_id, 0,
                         {"type": "contribute", "nonce": "5a" * 32},
                         expected_version=state.version)
            return game_id
    pytest.fail("no seed gave the bot the first turn")


def test_a_paced_bot_job_is_held_until_its_time_to_the_millisecond(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore
) -> None:
    game_id = _paced_game(store)
    state = state_of(game_id)
    assert state.turn == 1 and bot_pace(state) == pytest.approx(0.7)
    before = time.time()
    dispatcher.poll()
    after = time.time()
    bot_job = keys.bot_job_id(game_id, state.version)
    assert bot_job not in queue.job_ids, "no bot acts before the pace"
    held = queue.connection.zrange(paced_key(queue.name), 0, -1, withscores=True)
    assert len(held) == 1
    due = held[0][1]
    assert before + 0.7 - 0.001 <= due <= after + 0.7 + 0.001
    assert pacing.wait_ms(queue, due - 0.25, 1000) == 250, "the dispatcher wakes up for it"
    assert pacing.wait_ms(queue, due - 5, 1000) == 1000
    assert pacing.wait_ms(queue, due + 1, 1000) == 0

    assert pacing.release_due(queue, due - 0.001, enqueue) == 0
    assert bot_job not in queue.job_ids
    assert pacing.release_due(queue, due, enqueue) == 1
    assert bot_job in queue.job_ids
    assert queue.connection.zcard(paced_key(queue.name)) == 0

    version = store.version(game_id)
    assert work(queue)
    assert store.version(game_id) == version + 1, "one bot action per paced job"
    dispatcher.poll()
    if state_of(game_id).turn == 1:
        assert queue.connection.zcard(paced_key(queue.name)) == 1, "the next one is held"


def test_holding_a_job_twice_keeps_its_first_due_time(
    queue: Queue, store: RedisEventStore, configured: None
) -> None:
    game_id = _paced_game(store)
    job = next(job for job in plan(game_id, state_of(game_id)) if job.name == "play_bots")
    assert job.pace == pytest.approx(0.7)
    assert enqueue(queue, job, now=1000.0)
    assert not enqueue(queue, job, now=2000.0), "a feed entry read again holds nothing new"
    assert queue.connection.zrange(paced_key(queue.name), 0, -1, withscores=True)[0][1] == 1000.7


def test_bot_only_and_unpaced_games_play_at_once(
    store: RedisEventStore, configured: None
) -> None:
    unpaced = _paced_game(store, pace=0)
    jobs = [job for job in plan(unpaced, state_of(unpaced)) if job.name == "play_bots"]
    assert [job.pace for job in jobs] == [None]
    bots = commands.create_game(store, "classic", {}, ["bot", "bot"], entropy=entropy("pace-b"),
                                bot_pace_ms=PACE_MS).game_id
    jobs = [job for job in plan(bots, state_of(bots)) if job.name == "play_bots"]
    assert [job.pace for job in jobs] == [None]
