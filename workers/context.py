"""Where jobs find the event store, and how the queue is set up.

Jobs take ids and numbers only (they cross Redis as JSON), so the store they act on is
configured once per process: :func:`configure` by the runner, or ``REDIS_URL`` from the
environment. The store and the fold cache are made on first use and remade after a fork, so
a forked job never shares a socket with its parent.

The queue may live on its own Redis (``RQ_REDIS_URL``, default: the store's): RQ does not
support Redis Cluster, while the store may be one.
"""

from __future__ import annotations

import dataclasses
import os
import threading

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry as RedisRetry
from rq import Queue, Retry
from rq.serializers import JSONSerializer

from events.redis_store import RedisEventStore
from events.transparency_log import TransparencyLog
from service.application.commands import GameCache, new_cache
from service.application.signing import Publisher
from service.application.store_settings import StoreSettings, store_settings

QUEUE_NAME = "fortyfive"
"""The RQ queue every job of this package goes to."""

RESULT_TTL = 3600
"""Seconds a finished job is kept. While it is, its id stays taken, so a feed entry read again
(after a dispatcher crash, within seconds) cannot enqueue it again; after that a copy would
only find the game moved on. Longer would cost memory for every append."""

KEPT_BY_THEIR_OWN_KEY = frozenset({"seal_deal"})
"""The jobs whose finished run is not kept (``result_ttl=0``: RQ deletes the job's hash as it
finishes and stores no result, no finished-registry entry, no expiries). A sealing writes its
deal's sealed key with ``SET NX`` before it finishes, and the dispatcher plans no sealing for a
deal whose key exists, so the key does what a kept job's taken id would: a deal is sealed once.
A copy enqueued in the moment between the dispatcher's look at the key and the job's end (its
id free again) finds the key and writes nothing. Bots and clocks have no such key: theirs are
kept (:data:`RESULT_TTL`). What it spares is memory (a kept sealing held about 6.7 KB for an
hour), not Redis time: RQ's deletion costs about as many commands as the keeping."""


def result_ttl(name: str) -> int:
    """Returns how long a finished job of *name* (a function of :mod:`workers.jobs`) is kept, in
    seconds: 0 (not at all) for :data:`KEPT_BY_THEIR_OWN_KEY`, else :data:`RESULT_TTL`."""
    return 0 if name in KEPT_BY_THEIR_OWN_KEY else RESULT_TTL


FAILURE_TTL = 7 * 24 * 3600
"""Seconds a job that failed all its retries is kept for an operator (its id stays taken, so
requeue it, e.g. with ``rq requeue``, once the cause is fixed)."""


def retry() -> Retry:
    """Returns the retry policy of every job: three more tries, after 10, 30 and 60 s."""
    return Retry(max=3, interval=[10, 30, 60])


def rq_connection(url: str) -> redis.Redis[bytes]:
    """Returns a client for the queue's Redis at *url*.

    RQ stores pickled or JSON bytes, so the client does not decode replies. A lost
    connection is retried 3 times within a second (as the store's client does), not over
    redis-py's default 10 s, so that the worker notices an outage, and its end, quickly.
    """
    return redis.Redis.from_url(url, retry=RedisRetry(ExponentialBackoff(cap=0.25, base=0.02), 3))


def make_queue(connection: redis.Redis[bytes], name: str = QUEUE_NAME) -> Queue:
    """Returns the jobs' queue *name* on *connection*, with the JSON serializer."""
    return Queue(name, connection=connection, serializer=JSONSerializer)


@dataclasses.dataclass(slots=True)
class _Resources:
    """The store and fold cache of one process (*pid*), on the store at *url*."""

    pid: int
    url: str
    settings: StoreSettings
    store: RedisEventStore
    games: GameCache
    signing: Publisher


_lock = threading.Lock()
_store_url: str | None = None
_settings: StoreSettings | None = None
_resources: _Resources | None = None


def configure(store_url: str, settings: StoreSettings | None = None) -> None:
    """Makes jobs of this process use the event store at *store_url* with *settings*
    (default: the environment's, :func:`service.application.store_settings.store_settings`)."""
    global _store_url, _settings, _resources
    with _lock:
        _store_url = store_url
        _settings = settings
        if _resources is not None and (
            _resources.url != store_url or (settings and _resources.settings != settings)
        ):
            _resources.store.close()
            _resources = None


def _current() -> _Resources:
    """Returns this process's store and fold cache, made on first use (and after a fork).

    :raises RuntimeError: if no store was configured and ``REDIS_URL`` is not set.
    """
    global _resources
    with _lock:
        url = _store_url or os.environ.get("REDIS_URL")
        if not url:
            raise RuntimeError(
                "workers have no event store: call workers.context.configure(url) or set "
                "REDIS_URL"
            )
        if _resources is None or _resources.pid != os.getpid() or _resources.url != url:
            settings = _settings or store_settings()
            store = settings.open(url)
            _resources = _Resources(os.getpid(), url, settings, store, new_cache(store),
                                    Publisher(store.client, log=TransparencyLog.of(store)))
        return _resources


def store() -> RedisEventStore:
    """Returns the event store jobs of this process use.

    :raises RuntimeError: if none is configured.
    """
    return _current().store


def games() -> GameCache:
    """Returns the fold cache of game states jobs of this process share.

    :raises RuntimeError: if no store is configured.
    """
    return _current().games


def signing() -> Publisher:
    """Returns the checkpoint signer of jobs of this process (the key of
    ``FORTYFIVE_SIGNING_KEY``, :mod:`service.application.signing`), publishing to their store.

    :raises RuntimeError: if no store is configured.
    """
    return _current().signing
