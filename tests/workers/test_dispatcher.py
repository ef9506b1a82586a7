"""The dispatcher: feed entries become jobs once, and its positions survive a restart."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import redis
from rq import Queue

from events.redis_store import RedisEventStore
from events.store import partition_of
from workers import jobs, keys, projections
from workers.dispatcher import Dispatcher, schedule_sweep


def test_a_new_game_gets_its_jobs_and_a_second_poll_finds_nothing(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    version = store.version(game_id)
    assert dispatcher.poll() == version, "one feed entry per event"
    assert queue.job_ids == [keys.bot_job_id(game_id, version)]
    assert dispatcher.poll() == 0
    assert len(queue) == 1


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


def test_one_pass_stores_the_position_of_every_partition_it_read_and_none_moves_back(
    dispatcher: Dispatcher, store: RedisEventStore, queue: Queue,
    new_game: Callable[..., str], redis_client: redis.Redis,
) -> None:
    games = [new_game("classic", ["human", "human"]) for _ in range(6)]
    partitions = {partition_of(game_id) for game_id in games}
    assert len(partitions) > 1
    dispatcher.poll()
    stored = {p: redis_client.get(keys.cursor_key(p, dispatcher.name)) for p in partitions}
    assert stored == {p: dispatcher.cursors[p] for p in partitions}
    # A copy that lags behind on every one of them stores nothing over them.
    behind = {p: "0-1" for p in partitions}
    lagging = Dispatcher(store, queue, name=dispatcher.name)
    lagging._store_positions(behind)
    assert {p: redis_client.get(keys.cursor_key(p, dispatcher.name)) for p in partitions} \
        == stored


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


def test_it_projects_each_game_it_reads_at_its_latest_version_without_a_job(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str],
    redis_client: redis.Redis,
) -> None:
    game_id = new_game("classic", ["human", "human"])
    assert dispatcher.poll() == store.version(game_id) == 2
    projected = _recent(redis_client, game_id)
    assert projected["version"] == 2
    assert projected["last_event_at"] == store.read(game_id)[-1].envelope.occurred_at
    assert dispatcher.projected == 1, "one projection per game per pass, not per event"
    assert not queue.job_ids, "a human to act and no clock: nothing to queue"


def test_a_projection_lost_in_a_crash_is_written_when_the_feed_is_read_again(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str],
    redis_client: redis.Redis,
) -> None:
    before = dict(dispatcher.cursors)
    game_id = new_game("classic", ["bot", "bot"])
    dispatcher.poll()
    # The dispatcher died before its projection was written, and so before its position was
    # stored: the projection is gone, the position is the old one.
    redis_client.hdel(keys.RECENT_INFO_KEY, game_id)
    partition = partition_of(game_id)
    redis_client.set(keys.cursor_key(partition, dispatcher.name), before[partition])
    restarted = Dispatcher(store, queue, name=dispatcher.name)
    assert restarted.poll() > 0
    assert _recent(redis_client, game_id)["version"] == store.version(game_id)


def test_a_game_that_cannot_be_projected_stops_no_other(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str],
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch, error_logs: Any,
) -> None:
    broken = new_game("classic", ["bot", "bot"])
    sound = new_game("classic", ["bot", "bot"])
    record = projections.Projector.record

    def failing(self: projections.Projector, game_id: str, *args: Any) -> bool:
        if game_id == broken:
            raise ValueError("a bug in one game's projection")
        return record(self, game_id, *args)

    monkeypatch.setattr(projections.Projector, "record", failing)
    assert dispatcher.poll() == store.version(broken) + store.version(sound)
    assert _recent(redis_client, sound)["version"] == store.version(sound)
    assert keys.bot_job_id(broken, store.version(broken)) in queue.job_ids
    assert dispatcher.poll() == 0, "its position moved past both games"
    assert [record.getMessage() for record in error_logs.records] == [
        f"game {broken} could not be projected at version {store.version(broken)}"]
    error_logs.records.clear()


def test_a_deal_seen_sealed_is_not_asked_about_again(
    store: RedisEventStore, queue: Queue, configured: None, new_game: Callable[..., str],
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One entry a pass, so that every pass dispatches the same game again.
    stepwise = Dispatcher(store, queue, name=f"test-sealed-{queue.name}", start="end", count=1)
    game_id = new_game("classic", ["bot", "bot"])
    jobs.play_bots(game_id, store.version(game_id))
    redis_client.set(keys.sealed_key(game_id, 1), "{}")
    asked: list[int] = []
    sealed_key = keys.sealed_key

    def spy(game: str, number: int) -> str:
        asked.append(number)
        return sealed_key(game, number)

    monkeypatch.setattr(keys, "sealed_key", spy)
    assert stepwise.poll() == 1
    finished = sorted(set(asked))
    assert finished[:2] == [1, 2], "every finished deal is asked about once"
    seals = {job_id for job_id in queue.job_ids if job_id.startswith("seal-")}
    assert seals == {keys.seal_job_id(game_id, number) for number in finished[1:]}
    asked.clear()
    assert stepwise.poll() == 1
    assert asked == finished[1:], "the deal seen sealed is not asked about again"


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


def _recent(client: redis.Redis, game_id: str) -> dict[str, Any]:
    """Returns the recent-games summary of *game_id*."""
    body = client.hget(keys.RECENT_INFO_KEY, game_id)
    assert body is not None, f"game {game_id} is not projected"
    return dict(json.loads(body))


def _calls(client: redis.Redis, command: str) -> int:
    """Returns how many times the server has run *command*."""
    return int(client.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0))
