"""How the processes reach the event store: one Redis, or a Redis Cluster through seed nodes.

The environment says it once for every process (``fortyfive serve``'s gunicorn workers, its
supervised worker, ``fortyfive worker``); ``--redis-cluster`` sets ``REDIS_CLUSTER`` for them.

- ``REDIS_CLUSTER`` (true/false, default false): ``REDIS_URL`` names seed nodes of a Redis
  Cluster, one or several separated by commas, tried in turn
  (:func:`events.redis_clients.seed_urls`). The queue (RQ, which does not support Cluster)
  then needs a Redis of its own: ``RQ_REDIS_URL`` is required wherever workers run.
- ``REDIS_WAIT_REPLICAS`` (default 1 on a cluster, else 0): replicas of a game's master that
  must have an append before it is acknowledged (``WAIT``; :mod:`events.replication`).
- ``REDIS_WAIT_TIMEOUT_MS`` (default 1000): the longest an append waits for them; after it the
  request is answered 503 (the write is applied: a retry with the same command id settles it).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any

from events.redis_store import RedisEventStore

CLUSTER_ENV = "REDIS_CLUSTER"
RQ_URL_ENV = "RQ_REDIS_URL"
REPLICAS_ENV = "REDIS_WAIT_REPLICAS"
TIMEOUT_ENV = "REDIS_WAIT_TIMEOUT_MS"
DEFAULT_TIMEOUT_MS = 1000

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})


@dataclasses.dataclass(frozen=True, slots=True)
class StoreSettings:
    """Whether the store is a cluster, and how many replicas an append waits for."""

    cluster: bool = False
    replicas: int = 0
    replica_timeout_ms: int = DEFAULT_TIMEOUT_MS

    def open(self, url: str, **options: Any) -> RedisEventStore:
        """Returns a store on *url* with these settings (*options*: see
        :meth:`RedisEventStore.from_url`).

        :raises events.errors.StoreUnavailableError: if *url* cannot be used.
        """
        return RedisEventStore.from_url(
            url, cluster=self.cluster, replicas=self.replicas,
            replica_timeout_ms=self.replica_timeout_ms, **options)


def store_settings(environ: Mapping[str, str] | None = None) -> StoreSettings:
    """Returns the settings the environment (*environ*, default ``os.environ``) gives.

    :raises ValueError: naming a variable that is not valid.
    """
    env = os.environ if environ is None else environ
    flag = env.get(CLUSTER_ENV, "").strip().lower()
    if flag not in _TRUE | _FALSE:
        raise ValueError(f"{CLUSTER_ENV} must be true or false, got {env[CLUSTER_ENV]!r}")
    cluster = flag in _TRUE
    replicas = _whole(env, REPLICAS_ENV, 1 if cluster else 0, least=0)
    timeout = _whole(env, TIMEOUT_ENV, DEFAULT_TIMEOUT_MS, least=1)
    return StoreSettings(cluster, replicas, timeout)


def rq_url(store_url: str, settings: StoreSettings, given: str | None = None,
           environ: Mapping[str, str] | None = None) -> str:
    """Returns the queue's Redis: *given*, else ``RQ_REDIS_URL``, else (not on a cluster)
    the store's *store_url*.

    :raises ValueError: on a cluster without one (RQ cannot use a Redis Cluster).
    """
    env = os.environ if environ is None else environ
    url = given or env.get(RQ_URL_ENV)
    if url:
        return url
    if settings.cluster:
        raise ValueError(
            f"{CLUSTER_ENV} is set, so the queue needs a Redis of its own (RQ does not support "
            f"Redis Cluster): set {RQ_URL_ENV} (or pass --rq-redis-url) to a single Redis"
        )
    return store_url


def _whole(env: Mapping[str, str], name: str, default: int, *, least: int) -> int:
    value = env.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < least:
        raise ValueError(f"{name} must be a whole number of {least} or more, got {value!r}")
    return int(value)
