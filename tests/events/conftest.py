"""Fixtures of the event store tests: a single-node Redis Cluster and a reply-dropping proxy."""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from events.redis_store import RedisEventStore
from service.processes.embedded_cluster import EmbeddedCluster
from service.processes.embedded_redis import EmbeddedRedis


@pytest.fixture(scope="session")
def cluster_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """A private cluster-enabled redis-server owning all 16384 slots."""
    server = EmbeddedRedis(Path(tmp_path_factory.mktemp("cluster")), cluster=True)
    with server:
        client = redis.Redis(port=server.port, decode_responses=True)
        try:
            major = int(str(client.info("server")["redis_version"]).split(".")[0])
            if major >= 7:
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", 0, 16383)
            else:
                client.execute_command("CLUSTER", "ADDSLOTS", *range(16384))
            deadline = time.monotonic() + 10
            while "cluster_state:ok" not in client.execute_command("CLUSTER", "INFO"):
                assert time.monotonic() < deadline, "the cluster never became ok"
                time.sleep(0.02)
        finally:
            client.close()
        yield server


@pytest.fixture(params=["standalone", "cluster", "cluster-3-masters"])
def contract_store(
    request: pytest.FixtureRequest, redis_url: str
) -> Iterator[RedisEventStore]:
    """The store under the contract: on the session server, on a single-node cluster, and
    on the session's cluster of three masters with a replica each (appends waiting for the
    replica)."""
    if request.param == "standalone":
        event_store = RedisEventStore.from_url(redis_url)
    elif request.param == "cluster-3-masters":
        cluster: EmbeddedCluster = request.getfixturevalue("redis_cluster")
        event_store = RedisEventStore.from_url(cluster.url, cluster=True, replicas=1)
    else:
        server: EmbeddedRedis = request.getfixturevalue("cluster_server")
        event_store = RedisEventStore.from_url(server.url, cluster=True)
    with event_store:
        yield event_store


class LossyProxy:
    """A TCP proxy to a Redis server that can lose the reply to a script call.

    When armed, the next EVALSHA or EVAL is passed to the server, and the server's reply to
    it is dropped and the client's connection closed: the append happened, but the client
    never hears of it.
    """

    def __init__(self, upstream_port: int) -> None:
        self._upstream = upstream_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._armed = 0
        self.dropped = 0
        self._lock = threading.Lock()
        self._closing = False
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def drop_next_script_reply(self) -> None:
        with self._lock:
            self._armed += 1

    def close(self) -> None:
        self._closing = True
        self._listener.close()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self._upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, client: socket.socket, upstream: socket.socket) -> None:
        drop_reply = False
        try:
            while True:
                ready, _, _ = select.select([client, upstream], [], [], 0.5)
                if self._closing:
                    return
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client:
                        with self._lock:
                            if self._armed and (b"EVALSHA" in data or b"EVAL" in data):
                                self._armed -= 1
                                drop_reply = True
                        upstream.sendall(data)
                    elif drop_reply:
                        self.dropped += 1
                        return
                    else:
                        client.sendall(data)
        except OSError:
            return
        finally:
            client.close()
            upstream.close()


@pytest.fixture
def lossy_proxy(redis_server: EmbeddedRedis) -> Iterator[LossyProxy]:
    """A proxy to the session's server that drops a script reply on demand."""
    proxy = LossyProxy(redis_server.port)
    try:
        yield proxy
    finally:
        proxy.close()
