"""The runner: dispatcher plus RQ worker, in burst mode and as a long-running service.

These tests start their own redis-server: the runner's dispatcher reads every feed from the
beginning, as it does in production, so it must not see the games of other tests.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from freezegun import freeze_time
from rq import Queue
from rq.exceptions import StopRequested
from rq.serializers import JSONSerializer
from worker_helpers import entropy

from engine.fold import fold
from engine.state import GameState
from events.redis_store import RedisEventStore
from service.application import commands, heartbeats
from service.application.backoff import Backoff
from service.processes.embedded_redis import EmbeddedRedis
from workers import context
from workers.resilient import (
    ABANDON_MARGIN,
    BEAT_SECONDS,
    STUCK_SECONDS,
    Outage,
    ResilientWorker,
)
from workers.runner import SCHEDULER_LOCK_SECONDS, SchedulerDuty, rq_url_for, run_worker


@pytest.fixture
def private_url(tmp_path: Path) -> Iterator[str]:
    """The URL of a redis-server of this test's own."""
    with EmbeddedRedis(tmp_path / "redis") as server:
        yield server.url


@pytest.fixture
def private_store(private_url: str) -> Iterator[RedisEventStore]:
    with RedisEventStore.from_url(private_url) as store:
        yield store


def _all_bot_game(store: RedisEventStore) -> str:
    created = commands.create_game(store, "classic", {}, ["bot", "bot"], entropy=entropy("run"))
    return created.game_id


def _state(store: RedisEventStore, game_id: str) -> GameState:
    return fold(recorded.event for recorded in store.read(game_id))


def test_a_burst_run_plays_an_all_bot_game_to_its_end_with_the_queue_elsewhere(
    private_url: str, private_store: RedisEventStore
) -> None:
    game_id = _all_bot_game(private_store)
    assert run_worker(private_url, burst=True, rq_url=f"{private_url}/1") == 0
    assert _state(private_store, game_id).phase == "over"
    assert not list(private_store.client.scan_iter(match="rq:*")), "the queue lives in db 1"
    queue_db = context.rq_connection(f"{private_url}/1")
    assert list(queue_db.scan_iter(match="rq:*"))
    queue_db.close()


def test_the_service_plays_games_as_they_come_and_stops_on_sigterm(
    private_url: str, private_store: RedisEventStore
) -> None:
    process = multiprocessing.get_context("spawn").Process(target=run_worker, args=(private_url,))
    process.start()
    try:
        game_id = _all_bot_game(private_store)
        deadline = time.monotonic() + 60
        while _state(private_store, game_id).phase != "over" or None in (
            beats := heartbeats.latest(private_store.client)
        ).values():
            assert time.monotonic() < deadline, "the game did not finish in 60 s"
            assert process.is_alive(), "the runner died"
            time.sleep(0.1)
        assert beats["dispatcher"] is not None and beats["dispatcher"]["lag_entries"] == 0
    finally:
        process.terminate()
        process.join(30)
    assert process.exitcode == 0, "SIGTERM stops the runner cleanly"
    assert heartbeats.latest(private_store.client) == {"worker": None, "dispatcher": None}


def test_an_outage_is_logged_once_when_it_begins_and_once_when_it_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    answers = iter([redis.exceptions.ConnectionError("down")] * 5 + [None])

    def probe() -> None:
        answer = next(answers)
        if answer is not None:
            raise answer

    outage = Outage("worker", probe, threading.Event(), backoff=lambda: Backoff(initial=0.001))
    with caplog.at_level(logging.WARNING, logger="workers.resilient"):
        assert outage.wait(redis.exceptions.ConnectionError("refused")) is True
    assert [record.getMessage() for record in caplog.records] == [
        "worker: Redis is unavailable (refused); waiting for it",
        caplog.records[1].getMessage(),
    ]
    assert caplog.records[1].getMessage().startswith("worker: Redis is back after ")
    assert next(answers, "spent") == "spent", "probed until it answered"


def test_an_outage_wait_ends_when_the_runner_stops() -> None:
    stop = threading.Event()
    stop.set()
    outage = Outage("dispatcher", lambda: None, stop)
    assert outage.wait(redis.exceptions.ConnectionError("refused")) is False


def test_the_queue_defaults_to_the_stores_redis() -> None:
    assert rq_url_for("redis://a:1", {}) == "redis://a:1"
    assert rq_url_for("redis://a:1", {"RQ_REDIS_URL": "redis://b:2"}) == "redis://b:2"


def _resilient_worker(queue: Queue, beats: list[float]) -> ResilientWorker:
    stop = threading.Event()
    return ResilientWorker(
        [queue], connection=queue.connection, serializer=JSONSerializer,
        outage=Outage("worker", queue.connection.ping, stop), stopping=stop,
        on_heartbeat=lambda: beats.append(time.monotonic()),
    )


def test_a_running_job_keeps_its_worker_beating(queue: Queue) -> None:
    queue.enqueue("time.sleep", 2.5)
    beats: list[float] = []
    started = time.monotonic()
    assert _resilient_worker(queue, beats).work(burst=True)
    during = [beat for beat in beats if started + 0.5 < beat < started + 2.5]
    assert len(during) >= 1, "a heartbeat every second of a 2.5 s job"


def test_sigterm_stops_an_idle_worker_at_its_next_wait_for_a_job_not_inside_a_read(
    queue: Queue, monkeypatch: pytest.MonkeyPatch
) -> None:
    interrupted: list[str] = []
    read_response = redis.connection.AbstractConnection.read_response

    def recording(self: redis.connection.AbstractConnection, *args: Any, **kwargs: Any) -> Any:
        try:
            return read_response(self, *args, **kwargs)
        except StopRequested:
            interrupted.append("a reply from Redis")
            raise

    monkeypatch.setattr(redis.connection.AbstractConnection, "read_response", recording)
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    # The signal is sent once the worker beats in its wait for a job (its own handlers are in
    # place then), while it waits on Redis; were it never to stop, a second SIGTERM (RQ's
    # cold shutdown) fails the test.
    timers = [threading.Timer(delay, os.kill, (os.getpid(), signal.SIGTERM))
              for delay in (0.3, 30)]

    def first_beat() -> None:
        if not timers[0].is_alive() and not timers[0].finished.is_set():
            for timer in timers:
                timer.start()

    stopping = threading.Event()
    worker = ResilientWorker(
        [queue], connection=queue.connection, serializer=JSONSerializer,
        outage=Outage("worker", queue.connection.ping, stopping), stopping=stopping,
        on_heartbeat=first_beat,
    )
    try:
        assert worker.work() is False
    finally:
        for timer in timers:
            timer.cancel()
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    assert stopping.is_set()
    assert interrupted == [], "the stop request interrupted a reply"
    assert worker.get_state() != "busy" and not queue.connection.llen(
        queue.intermediate_queue_key), "no job left half taken"


def test_the_command_channel_stops_within_seconds_when_no_message_wakes_it(
    queue: Queue, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = _resilient_worker(queue, [])
    handled = threading.Event()
    monkeypatch.setattr(worker, "handle_payload", lambda message: handled.set())
    worker.subscribe()
    thread = worker.pubsub_thread
    try:
        # Once a command is handled the thread is back in its wait for the next one.
        while not handled.wait(0.1):
            queue.connection.publish(worker.pubsub_channel_name, '{"command": "none"}')
        stopper = threading.Thread(target=thread.stop, daemon=True)
        stopper.start()
        # RQ's thread waited up to 60 s for a message before it saw the stop.
        stopper.join(15)
        assert not stopper.is_alive() and not thread.is_alive(), "the stop is seen promptly"
    finally:
        worker.pubsub.close()


def test_a_job_whose_worker_died_is_abandoned_soon_and_retried_by_rq(queue: Queue) -> None:
    job = queue.enqueue("time.sleep", 0, retry=context.retry())
    worker = _resilient_worker(queue, [])
    worker.register_birth()
    worker.prepare_execution(job)
    worker.prepare_job_execution(job)  # ... and the worker is killed while the job runs.
    registry = queue.started_job_registry
    [(_, expires)] = queue.connection.zrange(registry.key, 0, -1, withscores=True)
    assert expires <= time.time() + BEAT_SECONDS + ABANDON_MARGIN + 1
    registry.cleanup(timestamp=expires + 1)  # What RQ's maintenance does then.
    job.refresh()
    assert job.get_status() == "scheduled" and job.retries_left == context.retry().max - 1


def test_a_job_whose_worker_died_taking_it_is_retried_within_seconds_not_a_minute(
    queue: Queue,
) -> None:
    job = queue.enqueue("time.sleep", 0, retry=context.retry())
    worker = _resilient_worker(queue, [])
    worker.register_birth()
    # The worker takes the job (RQ moves it to the intermediate queue), registers its
    # execution, and is killed before it marks the job started.
    assert queue.connection.lmove(queue.key, queue.intermediate_queue_key) == job.id.encode()
    worker.prepare_execution(job)
    registry = queue.started_job_registry
    [(_, expires)] = queue.connection.zrange(registry.key, 0, -1, withscores=True)
    registry.cleanup(timestamp=expires + 1)
    # RQ's recovery of abandoned jobs drops the expired execution of a job never started,
    # and leaves the job taken and queued, in nobody's hands.
    assert job.get_status() == "queued" and job.id not in registry
    assert job.id in queue.intermediate_queue.get_job_ids()

    worker.clean_registries()  # The first pass that sees it stuck (RQ's waits a minute).
    assert job.get_status() == "queued"
    later = datetime.now(UTC) + timedelta(seconds=STUCK_SECONDS)
    with freeze_time(later):
        worker.clean_registries()  # The next pass, MAINTENANCE_SECONDS later at most.
    job.refresh()
    assert job.get_status() == "scheduled" and job.retries_left == context.retry().max - 1
    assert job.id not in queue.intermediate_queue.get_job_ids()


def test_the_scheduling_duty_passes_to_another_runner_soon_after_its_holder_dies(
    queue: Queue,
) -> None:
    holder, other = (SchedulerDuty([queue], connection=queue.connection,
                                   serializer=JSONSerializer) for _ in range(2))
    assert holder.acquire_locks() == {queue.name}
    assert other.acquire_locks() == set(), "one runner schedules at a time"
    lock = SchedulerDuty.get_locking_key(queue.name)
    assert 0 < queue.connection.pttl(lock) <= SCHEDULER_LOCK_SECONDS * 1000
    assert holder.acquire_locks() == {queue.name}, "refreshed by its holder's next pass"
    # The holder is killed: its lock lapses unrefreshed (here at once), and the other takes it.
    queue.connection.pexpire(lock, 1)
    time.sleep(0.01)
    due = queue.enqueue_at(datetime.now(UTC) - timedelta(seconds=1), "time.sleep", 0)
    assert other.acquire_locks() == {queue.name}
    other.enqueue_scheduled_jobs()
    assert due.get_status(refresh=True) == "queued"
    assert holder.acquire_locks() == set(), "a holder that was only slow stops scheduling"
