"""Fixtures of the worker tests: a queue of their own, a dispatcher, a way to run both, and a
test client of the API on the same Redis.

Every test gets its own queue name and dispatcher name on the session's redis-server, and its
dispatcher starts at the current end of the feeds, so jobs and feed entries of other tests
never reach it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import Queue
from worker_helpers import entropy

from engine.levels import BASIC
from events.redis_store import RedisEventStore
from service.application import commands
from service.http.app import create_app
from workers import context
from workers.dispatcher import Dispatcher


@pytest.fixture
def rq_redis(redis_url: str) -> Iterator[redis.Redis]:
    """A client of the queue's Redis (here the session's server, replies not decoded)."""
    client = context.rq_connection(redis_url)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def queue(rq_redis: redis.Redis) -> Queue:
    """A queue no other test uses."""
    return context.make_queue(rq_redis, f"test-{uuid.uuid4().hex[:12]}")


@pytest.fixture
def configured(redis_url: str) -> None:
    """Makes the jobs of this process use the session's store."""
    context.configure(redis_url)


@pytest.fixture
def dispatcher(store: RedisEventStore, queue: Queue, configured: None) -> Dispatcher:
    """A dispatcher of its own name, starting at the current end of every feed."""
    return Dispatcher(store, queue, name=f"test-{uuid.uuid4().hex[:12]}", start="end")


@pytest.fixture
def new_game(store: RedisEventStore) -> Callable[..., str]:
    """Creates a game (seeded deals) and returns its id; its bots are basic, whose decisions
    take microseconds, unless *bot_levels* names their levels."""

    def create(profile: str, seats: Sequence[str], *,
               bot_levels: Sequence[str | None] | None = None, **options: Any) -> str:
        levels = bot_levels or [BASIC if kind == "bot" else None for kind in seats]
        created = commands.create_game(store, profile, options, seats, entropy=entropy(profile),
                                       bot_levels=levels)
        return created.game_id

    return create


@pytest.fixture
def client(redis_url: str) -> Iterator[FlaskClient]:
    """A test client of the API on the session's redis-server."""
    app: Flask = create_app({"REDIS_URL": redis_url, "TESTING": True})
    yield app.test_client()
    app.extensions["fortyfive"].streams.close()
    app.extensions["fortyfive"].store.close()
