"""Turn clocks: scheduled when a human's turn begins, acting only if it is still their turn."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from freezegun import freeze_time
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from worker_helpers import drive_with_nonces, state_of, work

from engine.bots import choose_action
from events.redis_store import RedisEventStore
from service.application import commands
from workers import context, jobs, keys
from workers.dispatcher import Dispatcher
from workers.runner import dispatch_until

TURN_SECONDS = 600
"""Long enough that no clock falls due by itself while a test sets up, however loaded the
machine: the tests move time past it with freezegun instead."""


@pytest.fixture
def waiting_game(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str]
) -> tuple[str, int]:
    """A game whose bot has played up to the human's turn; returns its id and version."""
    game_id = new_game("classic", ["bot", "human"], turn_seconds=TURN_SECONDS)
    state = drive_with_nonces(dispatcher, queue, game_id)
    assert state.turn == 1
    return game_id, state.version


def _scheduled_at(queue: Queue, job_id: str) -> datetime:
    registry = ScheduledJobRegistry(queue=queue)
    assert job_id in registry.get_job_ids()
    return registry.get_scheduled_time(job_id)


def test_the_clock_is_scheduled_turn_seconds_after_the_turn_begins(
    dispatcher: Dispatcher, queue: Queue, store: RedisEventStore, new_game: Callable[..., str]
) -> None:
    game_id = new_game("classic", ["bot", "human"], turn_seconds=TURN_SECONDS)
    # RQ keeps whole seconds: the time is due between these two, rounded down.
    earliest = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=TURN_SECONDS)
    drive_with_nonces(dispatcher, queue, game_id)
    latest = datetime.now(UTC) + timedelta(seconds=TURN_SECONDS)
    due = _scheduled_at(queue, keys.clock_job_id(game_id, store.version(game_id)))
    assert earliest <= due <= latest


def test_the_clock_acts_for_the_seat_once_its_time_is_up(
    waiting_game: tuple[str, int], queue: Queue, store: RedisEventStore
) -> None:
    game_id, version = waiting_game
    # Before the time is up the clock waits and the game stands (a job left over from the cut,
    # such as a bot's cut held for the nonce window, may fall due meanwhile: it finds the deal
    # cut and does nothing).
    work(queue)
    assert store.version(game_id) == version
    assert keys.clock_job_id(game_id, version) in ScheduledJobRegistry(queue=queue).get_job_ids()
    with freeze_time(datetime.now(UTC) + timedelta(seconds=TURN_SECONDS + 1), tick=True):
        assert work(queue)
    assert store.version(game_id) > version
    acted = store.read(game_id, after=version, limit=1)[0].envelope
    assert acted.command_id == jobs.clock_command_id(game_id, version)
    assert acted.actor == "server", "the clock, not the seat, made the move"
    assert acted.data["seat"] == 1, "the clock acted for the seat whose time ran out"
    job = Job.fetch(keys.clock_job_id(game_id, version), connection=queue.connection,
                    serializer=queue.serializer)
    assert job.return_value() is True


def test_the_clock_does_nothing_when_the_seat_acted_in_time(
    waiting_game: tuple[str, int], queue: Queue, store: RedisEventStore
) -> None:
    game_id, version = waiting_game
    state = state_of(game_id)
    action = choose_action(state, 1, _FirstChoice())
    assert action is not None
    commands.act(store, context.games(), game_id, 1, action, expected_version=version)
    acted = store.version(game_id)
    with freeze_time(datetime.now(UTC) + timedelta(seconds=TURN_SECONDS + 1), tick=True):
        assert work(queue)
    job = Job.fetch(keys.clock_job_id(game_id, version), connection=queue.connection,
                    serializer=queue.serializer)
    assert job.return_value() is False
    assert store.version(game_id) == acted


def test_the_dispatch_loop_moves_a_clock_that_fell_due_onto_the_queue(
    waiting_game: tuple[str, int], dispatcher: Dispatcher, queue: Queue
) -> None:
    game_id, version = waiting_game
    job_id = keys.clock_job_id(game_id, version)
    job = Job.fetch(job_id, connection=queue.connection, serializer=queue.serializer)
    ScheduledJobRegistry(queue=queue).schedule(job, datetime.now(UTC) - timedelta(seconds=1))
    stop = threading.Event()
    loop = threading.Thread(target=dispatch_until, args=(dispatcher, queue, stop))
    loop.start()
    try:
        deadline = time.monotonic() + 10
        while job_id not in queue.job_ids:
            assert time.monotonic() < deadline, "the clock was not enqueued in 10 s"
            time.sleep(0.05)
    finally:
        stop.set()
        loop.join(10)
    assert not loop.is_alive()


def test_a_clock_for_another_seat_does_nothing(
    waiting_game: tuple[str, int], store: RedisEventStore, configured: None
) -> None:
    game_id, version = waiting_game
    assert jobs.turn_clock(game_id, version, 0) is False
    assert store.version(game_id) == version


class _FirstChoice:
    """Chance that always draws 0."""

    def randrange(self, stop: int) -> int:
        del stop  # Unused.
        return 0
