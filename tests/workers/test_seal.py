"""Sealed deals: the auditor's hand history of each finished deal, stored once, that verifies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import redis
from rq import Queue
from worker_helpers import drive, state_of, work

from events import checkpoints
from events.errors import StoreUnavailableError
from events.redis_store import RedisEventStore
from replay.formats.jsonformat import read_json
from replay.verification.verify import verify
from service.application import signing
from workers import jobs, keys
from workers.dispatcher import Dispatcher, enqueue
from workers.plan import PlannedJob, finished_deals


def test_every_finished_deal_is_sealed_with_a_history_that_verifies(
    dispatcher: Dispatcher,
    queue: Queue,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    drive(dispatcher, queue)
    deals = finished_deals(state_of(game_id))
    assert len(deals) >= 2
    for number in deals:
        text = redis_client.get(keys.sealed_key(game_id, number))
        assert text is not None, f"deal {number} is sealed"
        history, problems = read_json(text)
        assert history is not None and not problems
        assert (history.game_id, history.view.viewer, history.view.deal) == (
            game_id, "auditor", number
        )
        published = checkpoints.read_keys(
            {"keys": signing.published_keys(redis_client)})
        report = verify(history, keys=published)
        assert report.ok, report.problems
        assert history.checkpoint is not None
        assert history.checkpoint["version"] == history.events[-1].version
        assert any("signature verified" in note for note in report.notes)
        kept = signing.latest_deal_end(redis_client, game_id, upto=history.events[-1].version)
        assert kept == history.checkpoint


def test_sealing_twice_keeps_the_first_history(
    configured: None,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    jobs.play_bots(game_id, store.version(game_id))
    version = store.version(game_id)
    assert jobs.seal_deal(game_id, 1, version)
    first = redis_client.get(keys.sealed_key(game_id, 1))
    assert not jobs.seal_deal(game_id, 1, version)
    assert redis_client.get(keys.sealed_key(game_id, 1)) == first


def test_a_deal_still_in_play_is_not_sealed(
    configured: None,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "human"])
    version = store.version(game_id)
    assert not jobs.seal_deal(game_id, 1, version)
    assert redis_client.get(keys.sealed_key(game_id, 1)) is None


def test_a_sealing_that_ran_leaves_no_job_behind_while_bot_jobs_are_kept(
    dispatcher: Dispatcher,
    queue: Queue,
    rq_redis: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    drive(dispatcher, queue)
    deals = finished_deals(state_of(game_id))
    assert len(deals) >= 2
    finished = queue.finished_job_registry.get_job_ids()
    for number in deals:
        job_id = keys.seal_job_id(game_id, number)
        assert queue.fetch_job(job_id) is None, f"the sealing of deal {number} is not kept"
        assert not rq_redis.exists(f"rq:results:{job_id}")
        assert job_id not in finished
    assert any(job_id.startswith("bot-") for job_id in finished), \
        "a bot job keeps its id taken against a feed entry read again"


def test_a_sealing_enqueued_again_once_its_job_is_gone_changes_nothing(
    dispatcher: Dispatcher,
    queue: Queue,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    drive(dispatcher, queue)
    sealed = redis_client.get(keys.sealed_key(game_id, 1))
    assert sealed is not None
    # A dispatcher that looked for the sealed key just before the first job wrote it.
    again = PlannedJob("seal_deal", (game_id, 1, store.version(game_id)),
                       keys.seal_job_id(game_id, 1))
    assert enqueue(queue, again), "the finished sealing's id is free"
    assert not enqueue(queue, again), "while the copy waits, its id is taken"
    work(queue)
    assert redis_client.get(keys.sealed_key(game_id, 1)) == sealed
    assert queue.fetch_job(again.job_id) is None


def test_a_sealing_that_fails_is_kept_to_be_retried(
    dispatcher: Dispatcher,
    queue: Queue,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
    error_logs: Any,
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    jobs.play_bots(game_id, store.version(game_id))

    def unavailable(*args: object, **kwargs: object) -> None:
        raise StoreUnavailableError("the store went away mid-seal")

    monkeypatch.setattr(jobs, "replay_log", unavailable)
    dispatcher.poll()
    work(queue)
    assert any("the store went away mid-seal" in record.getMessage()
               for record in error_logs.records)
    error_logs.records.clear()
    job = queue.fetch_job(keys.seal_job_id(game_id, 1))
    assert job is not None and job.get_status() == "scheduled", "its retry is due later"
    assert redis_client.get(keys.sealed_key(game_id, 1)) is None
    assert not enqueue(queue, PlannedJob("seal_deal", (game_id, 1, store.version(game_id)),
                                         keys.seal_job_id(game_id, 1)))
