"""Fixtures of the tests on a real Redis Cluster (three masters with a replica each, the
session's ``redis_cluster``): the queue's own Redis, and the environment of processes that
use the cluster."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from service.processes.embedded_cluster import EmbeddedCluster
from service.processes.embedded_redis import EmbeddedRedis

# The helpers that run `fortyfive serve` for real live beside the HTTP tests.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "service"))

RQ_DB = 7
"""The database of the session's standalone server that holds the cluster tests' queue."""


@pytest.fixture
def rq_url(redis_server: EmbeddedRedis) -> Iterator[str]:
    """The queue's Redis (RQ does not support Cluster): an empty database of the session's
    standalone server."""
    url = f"{redis_server.url}/{RQ_DB}"
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
        yield url
    finally:
        client.close()


@pytest.fixture
def cluster_env(redis_cluster: EmbeddedCluster, rq_url: str) -> dict[str, str]:
    """The environment of a process on the cluster: a seed node, the switch, the queue."""
    return {"REDIS_URL": redis_cluster.url, "REDIS_CLUSTER": "true", "RQ_REDIS_URL": rq_url}
