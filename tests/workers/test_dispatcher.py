"""The dispatcher: feed entries become jobs once, and its positions survive a restart."""

from __future__ import annotations

from collections.abc import Callable

import redis
from rq import Queue

from events.redis_store import RedisEventStore
from events.store import partition_of
from workers import jobs, keys
from workers.dispatcher import Dispatcher, schedule_sweep


def test_a_new_game_gets_its_jobs_and_a_second_poll_finds_nothing(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    version = store.version(game_id)
    assert dispatcher.poll() == version, "one feed entry per event"
    assert sorted(queue.job_ids) == sorted(
        [keys.project_job_id(game_id, version), keys.bot_job_id(game_id, version)]
    )
    assert dispatcher.poll() == 0
    assert len(queue) == 2


def test_reading_the_feed_again_after_a_crash_enqueues_no_duplicate(
    dispatcher: Dispatcher,
    queue: Queue,
    store: RedisEventStore,
    new_game: Callable[..., str],
    redis_client: redis.Redis,
) -> None:
    before = dict(dispatcher.cursors)
    game_id = new_game("classic", ["bot", "bot"])
    dispatcher.poll()
    enqueued = sorted(queue.job_ids)
    partition = partition_of(game_id)
    key = keys.cursor_key(partition, dispatcher.name)
    assert redis_client.get(key) == dispatcher.cursors[partition] != before[partition]

    # The dispatcher died after enqueueing, before its position was stored.
    redis_client.set(key, before[partition])
    restarted = Dispatcher(store, queue, name=dispatcher.name)
    assert restarted.cursors[partition] == before[partition]
    assert restarted.poll() > 0
    assert restarted.enqueued == 0
    assert restarted.refused == len(enqueued)
    assert sorted(queue.job_ids) == enqueued


def test_a_restarted_dispatcher_resumes_from_its_stored_positions(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    new_game("classic", ["bot", "bot"])
    dispatcher.poll()
    restarted = Dispatcher(store, queue, name=dispatcher.name)
    assert restarted.cursors == dispatcher.cursors
    assert restarted.poll() == 0


def test_a_stored_position_never_moves_back(
    dispatcher: Dispatcher,
    queue: Queue,
    store: RedisEventStore,
    new_game: Callable[..., str],
    redis_client: redis.Redis,
) -> None:
    lagging = Dispatcher(store, queue, name=dispatcher.name, count=1)
    game_id = new_game("classic", ["bot", "bot"])
    key = keys.cursor_key(partition_of(game_id), dispatcher.name)
    dispatcher.poll()
    ahead = redis_client.get(key)
    assert lagging.poll() == 1, "the lagging copy reads one entry of the two"
    assert redis_client.get(key) == ahead


def test_deals_already_sealed_are_not_planned_again(
    dispatcher: Dispatcher,
    queue: Queue,
    store: RedisEventStore,
    new_game: Callable[..., str],
    redis_client: redis.Redis,
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    dispatcher.poll()
    queue.empty()
    jobs.play_bots(game_id, store.version(game_id))
    redis_client.set(keys.sealed_key(game_id, 1), "{}")
    dispatcher.poll()
    seals = {job_id for job_id in queue.job_ids if job_id.startswith("seal-")}
    assert keys.seal_job_id(game_id, 1) not in seals
    assert keys.seal_job_id(game_id, 2) in seals


def test_the_chain_sweep_and_the_retention_pass_are_enqueued_once_per_period(
    queue: Queue,
) -> None:
    assert schedule_sweep(queue, 480_000)
    assert not schedule_sweep(queue, 480_000)
    assert schedule_sweep(queue, 480_001)
    assert sorted(queue.job_ids) == sorted([
        keys.sweep_job_id(480_000), keys.retain_job_id(480_000),
        keys.sweep_job_id(480_001), keys.retain_job_id(480_001)])



def test_its_lag_counts_the_entries_beyond_its_batch_until_it_catches_up(
    store: RedisEventStore, queue: Queue, configured: None, new_game: Callable[..., str]
) -> None:
    small = Dispatcher(store, queue, name=f"test-lag-{queue.name}", start="end", count=1)
    game_id = new_game("classic", ["bot", "bot"])
    assert store.version(game_id) == 2, "two events, two entries in its partition's feed"
    assert small.poll() == 1
    assert small.lag_entries == 1 and small.lag_s >= 0
    while small.poll():
        pass
    assert small.lag_entries == 0 and small.lag_s == 0
