"""A dispatcher on a real Redis Cluster while its feeds are idle: it reads no feed while no
master counted a new ``XADD``, picks up the first entry after the idle spell on its next pass,
and reads every feed all the same once :data:`FULL_PASS_SECONDS` passed."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import pytest
from rq import Queue

from events.redis_store import RedisEventStore
from service.application import commands
from service.processes.embedded_cluster import EmbeddedCluster
from workers import context, dispatcher, keys
from workers.dispatcher import Dispatcher


@pytest.fixture
def store(redis_cluster: EmbeddedCluster) -> Iterator[RedisEventStore]:
    with RedisEventStore.from_url(redis_cluster.url, cluster=True, replicas=1) as opened:
        yield opened


@pytest.fixture
def queue(rq_url: str) -> Queue:
    return context.make_queue(context.rq_connection(rq_url), f"idle-{uuid.uuid4().hex[:8]}")


def _feed_reads(cluster: EmbeddedCluster) -> int:
    """Returns how many XRANGE and XREAD the cluster's masters have served."""
    total = 0
    for node in cluster.nodes:
        with contextlib.closing(cluster.client(node)) as client:
            if client.execute_command("ROLE")[0] != "master":
                continue
            stats = client.info("commandstats")
            total += sum(int(stats.get(f"cmdstat_{name}", {}).get("calls", 0))
                         for name in ("xrange", "xread"))
    return total


def test_an_idle_dispatcher_reads_no_feed_until_an_append_and_then_enqueues_its_jobs(
    redis_cluster: EmbeddedCluster, store: RedisEventStore, queue: Queue
) -> None:
    polling = Dispatcher(store, queue, name=f"idle-{uuid.uuid4().hex[:8]}", start="end")
    assert polling.poll() == 0  # A full read that finds nothing.
    before = _feed_reads(redis_cluster)
    assert [polling.poll() for _ in range(5)] == [0] * 5
    assert _feed_reads(redis_cluster) == before  # Idle passes: no XRANGE, no XREAD.

    game_id = commands.create_game(store, "classic", {}, ["bot", "bot"]).game_id
    version = store.version(game_id)
    assert polling.poll() == version  # The very next pass reads the feeds.
    assert keys.bot_job_id(game_id, version) in queue.job_ids
    assert _feed_reads(redis_cluster) > before


def test_an_idle_dispatcher_reads_every_feed_once_the_full_pass_is_due(
    redis_cluster: EmbeddedCluster, store: RedisEventStore, queue: Queue,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    polling = Dispatcher(store, queue, name=f"idle-{uuid.uuid4().hex[:8]}", start="end")
    polling.poll()
    monkeypatch.setattr(dispatcher, "FULL_PASS_SECONDS", 0.0)
    before = _feed_reads(redis_cluster)
    assert polling.poll() == 0
    assert _feed_reads(redis_cluster) - before == len(polling.partitions)
