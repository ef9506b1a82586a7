"""Appends that wait for a replica, on a real Redis Cluster: what a replica that does not
answer in time means for the caller, and how the retry settles it; a drive's appends wait
as a game's do."""

from __future__ import annotations

import contextlib
import os
import signal
import uuid
from collections.abc import Iterator

import pytest
from serve_helpers import DEADLINE

from events.chain import GENESIS_HASH
from events.drive_store import DriveStore
from events.drive_types import RoundStarted
from events.keys import drive_key, game_key
from events.redis_store import RedisEventStore
from events.replication import NotReplicatedError
from events.store import StoreUnavailableError
from events.types import BidMade
from service.processes.embedded_cluster import EmbeddedCluster
from service.processes.embedded_redis import EmbeddedRedis


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


@contextlib.contextmanager
def _hung(cluster: EmbeddedCluster, replica: EmbeddedRedis) -> Iterator[None]:
    """Stops *replica* (SIGSTOP: it confirms nothing) for the block, then lets it go on."""
    with contextlib.closing(cluster.client(replica)) as client:
        pid = int(client.info("server")["process_id"])
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def _drive_event(number: int) -> RoundStarted:
    return RoundStarted(number, (f"g{number}",), ())


def test_a_drive_append_is_acknowledged_once_the_replica_has_it(
    redis_cluster: EmbeddedCluster,
) -> None:
    drive_id = f"dr-{uuid.uuid4().hex[:20]}"
    # A bound the replica meets on any machine, however loaded: the append waits only as long
    # as the replica takes.
    with RedisEventStore.from_url(redis_cluster.url, cluster=True, replicas=1,
                                  replica_timeout_ms=int(DEADLINE * 1000)) as store:
        master = redis_cluster.master_of(drive_key(drive_id))
        (replica,) = redis_cluster.replicas_of(master)
        with contextlib.closing(redis_cluster.client(master)) as on_master, \
                contextlib.closing(redis_cluster.client(replica)) as on_replica:
            waits = on_master.info("commandstats").get("cmdstat_wait", {}).get("calls", 0)
            version = DriveStore(store).append(drive_id, 0, [_drive_event(1)],
                                               head=GENESIS_HASH, command_id="d1")
            on_replica.execute_command("READONLY")
            copied = on_replica.xrange(drive_key(drive_id), "-", "+")
            after = on_master.info("commandstats")["cmdstat_wait"]["calls"]
    assert version == 1
    assert len(copied) == 1  # On the replica the moment the append was acknowledged.
    assert after > waits  # The master was asked to WAIT.


def test_a_drive_append_no_replica_confirmed_is_unavailable_as_a_game_append_is(
    redis_cluster: EmbeddedCluster,
) -> None:
    drive_id = f"dr-{uuid.uuid4().hex[:20]}"
    with RedisEventStore.from_url(redis_cluster.url, cluster=True, replicas=1,
                                  replica_timeout_ms=200) as store:
        drives = DriveStore(store)
        drives.append(drive_id, 0, [_drive_event(1)], head=GENESIS_HASH, command_id="d1")
        head = drives.read(drive_id)[0].hash
        (replica,) = redis_cluster.replicas_of(redis_cluster.master_of(drive_key(drive_id)))
        with _hung(redis_cluster, replica), pytest.raises(
            NotReplicatedError, match=f"the append to drive '{drive_id}' was written but 0 of 1 "
            "replicas confirmed it within 200 ms; retry with the same command id",
        ) as raised:
            drives.append(drive_id, 1, [_drive_event(2)], head=head, command_id="d2")
        assert isinstance(raised.value, StoreUnavailableError)  # 503, with Retry-After
        assert len(drives.read(drive_id)) == 2  # Written on the master all the same.
        # The retry finds the command id and waits for the (now answering) replica again.
        assert drives.append(drive_id, 1, [_drive_event(2)], head=head, command_id="d2") == 2
        with _hung(redis_cluster, replica), pytest.raises(NotReplicatedError):
            drives.append(drive_id, 1, [_drive_event(2)], head=head, command_id="d2")
        redis_cluster.wait_ok()


def test_a_store_refuses_a_negative_replica_count() -> None:
    with pytest.raises(ValueError, match="invalid replicas -1"):
        RedisEventStore(None, url="redis://x:1", replicas=-1)  # type: ignore[arg-type]


def test_a_log_append_waits_for_the_replica_as_an_event_append_does(
    redis_cluster: EmbeddedCluster,
) -> None:
    from events.keys import log_key
    from events.transparency_log import TransparencyLog

    name = f"t-{uuid.uuid4().hex}"
    with RedisEventStore.from_url(redis_cluster.url, cluster=True, replicas=1,
                                  replica_timeout_ms=200) as store:
        log = TransparencyLog.of(store, name=name)
        assert log.append(b"leaf 0", b"subject 0").new
        (replica,) = redis_cluster.replicas_of(redis_cluster.master_of(log_key("size", name)))
        with _hung(redis_cluster, replica), pytest.raises(
                NotReplicatedError, match="a log append was written but 0 of 1 replicas"):
            log.append(b"leaf 1", b"subject 1")
        assert log.size() == 2  # Written on the master all the same.
        again = log.append(b"leaf 1", b"subject 1")  # Appending again settles it.
        assert (again.index, again.new) == (1, False)
        redis_cluster.wait_ok()
