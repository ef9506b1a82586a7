"""Appends that wait for a replica, on a real Redis Cluster: what a replica that does not
answer in time means for the caller, and how the retry settles it."""

from __future__ import annotations

import contextlib
import os
import signal
import uuid

import pytest

from events.embedded_cluster import EmbeddedCluster
from events.keys import game_key
from events.redis_store import RedisEventStore
from events.replication import NotReplicatedError
from events.store import StoreUnavailableError
from events.types import BidMade


def test_an_append_no_replica_confirmed_is_unavailable_and_its_retry_settles_it(
    redis_cluster: EmbeddedCluster,
) -> None:
    game_id = f"g-{uuid.uuid4().hex}"
    bid = [BidMade(seat=0, amount=20)]
    with RedisEventStore.from_url(redis_cluster.url, cluster=True, replicas=1,
                                  replica_timeout_ms=200) as store:
        store.append(game_id, 0, bid, actor=0, command_id="c1")
        (replica,) = redis_cluster.replicas_of(redis_cluster.master_of(game_key(game_id)))
        with contextlib.closing(redis_cluster.client(replica)) as client:
            pid = int(client.info("server")["process_id"])
        os.kill(pid, signal.SIGSTOP)  # The replica hangs: it confirms nothing.
        try:
            with pytest.raises(NotReplicatedError, match="0 of 1 replicas confirmed it within "
                               "200 ms; retry with the same command id") as raised:
                store.append(game_id, 1, bid, actor=0, command_id="c2")
            assert isinstance(raised.value, StoreUnavailableError)  # 503, with Retry-After
            assert store.version(game_id) == 2  # Written on the master all the same.
        finally:
            os.kill(pid, signal.SIGCONT)
        again = store.append(game_id, 1, bid, actor=0, command_id="c2")
        assert again.duplicate and again.version == 2
        redis_cluster.wait_ok()


def test_a_store_refuses_a_negative_replica_count() -> None:
    with pytest.raises(ValueError, match="invalid replicas -1"):
        RedisEventStore(None, url="redis://x:1", replicas=-1)  # type: ignore[arg-type]
