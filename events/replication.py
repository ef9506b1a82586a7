"""Waiting for a replica after a write: the append script and ``WAIT`` on one connection.

Redis replicates asynchronously, so a master that dies right after acknowledging an append can
take it with it. ``WAIT n timeout`` blocks until *n* replicas acknowledged every write the
*same connection* made before, or the timeout passes, and returns how many did. It cannot run
inside a script, so :class:`ReplicaWait` sends the script and ``WAIT`` in one pipeline on one
connection to the master of the game's slot (on a Redis Cluster, a node's own client: the
cluster client would route each command on a connection of its own). A cluster whose topology
moved under it (a connection refused, ``MOVED``, ``CLUSTERDOWN``) is asked for its slots again
before the next try; the caller retries, which the append script makes safe.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import redis
import redis.cluster
from redis.exceptions import (
    ClusterDownError,
    MovedError,
    RedisClusterException,
    ResponseError,
    TryAgainError,
)

from events.errors import StoreUnavailableError

Command = Sequence[Any]


class NotReplicatedError(StoreUnavailableError):
    """Raised when a write was applied on the master but fewer replicas than required
    acknowledged it within the timeout: its durability is unknown (a failover now could lose
    it), so it is not acknowledged. Retrying with the same command id settles it: the script
    answers with the first result, and the retry waits for the replicas again."""

_TOPOLOGY_ERRORS = ("MOVED", "ASK", "CLUSTERDOWN", "TRYAGAIN")
"""Prefixes of a node's errors that mean the slot is elsewhere or in transit."""


class ReplicaWait:
    """Runs writes then ``WAIT`` for up to *replicas* replicas, *timeout_ms* at most.

    A master is asked how many replicas it has online (``ROLE``, at most once per
    *refresh_s* seconds per master, and again when a ``WAIT`` falls short): it waits for as
    many as it has, up to *replicas*. A master whose replica is gone (it died, or took over
    from this very node when that one died) has nobody to wait for: it acknowledges on its
    own, as a standalone server with ``appendfsync always`` does, until a replica joins.
    """

    def __init__(self, replicas: int, timeout_ms: int, refresh_s: float = 1.0) -> None:
        self.replicas = replicas
        self.timeout_ms = timeout_ms
        self._refresh_s = refresh_s
        self._online: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()

    def run(self, client: Any, key: str, commands: Sequence[Command]) -> tuple[list[Any], int, int]:
        """Runs *commands* then ``WAIT`` in one pipeline on one connection to the master of
        *key* (*client* standalone or cluster); returns the commands' replies (an error is
        returned, not raised), how many replicas acknowledged them and how many were
        needed (the replicas the master has online, up to :attr:`replicas`).

        :raises redis.exceptions.ConnectionError: (or ``TimeoutError``,
            ``ClusterDownError``) when the master cannot be reached or the slot moved; on a
            cluster the slot map is refreshed first.
        """
        target, name = _master_client(client, key)
        online = self._known(name)
        if online is None:
            online = self._refresh(client, target, name)
        needed = min(self.replicas, online)
        replies = _pipeline(client, key, target, [
            *commands, *((("WAIT", needed, self.timeout_ms),) if needed else ())])
        acknowledged = 0
        if needed:
            acknowledged = replies.pop()
            if isinstance(acknowledged, Exception):
                raise acknowledged
            acknowledged = int(acknowledged)
            if acknowledged < needed:
                # Did the replica leave? Then the master has nobody to wait for.
                needed = min(self.replicas, self._refresh(client, target, name))
        return replies, acknowledged, needed

    def _known(self, name: str) -> int | None:
        with self._lock:
            found = self._online.get(name)
        if found is None or time.monotonic() - found[0] > self._refresh_s:
            return None
        return found[1]

    def _refresh(self, client: Any, target: Any, name: str) -> int:
        """Asks the master *target* how many replicas it has online, and remembers it."""
        (role,) = _pipeline(client, name, target, [("ROLE",)])
        if isinstance(role, Exception):
            raise role
        online = len(role[2]) if _text(role[0]) == "master" else 0
        with self._lock:
            self._online[name] = (time.monotonic(), online)
        return online


def _pipeline(client: Any, key: str, target: Any, commands: Sequence[Command]) -> list[Any]:
    """Runs *commands* in one pipeline on *target*; returns their replies.

    :raises redis.exceptions.ConnectionError: (or ``TimeoutError``, ``ClusterDownError``)
        when the node cannot be reached or answers that the slot is elsewhere (the cluster's
        slot map is refreshed first).
    """
    pipe = target.pipeline(transaction=False)
    for command in commands:
        pipe.execute_command(*command)
    try:
        replies: list[Any] = pipe.execute(raise_on_error=False)
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
        _refresh(client)
        raise
    for reply in replies:
        if isinstance(reply, MovedError | ClusterDownError | TryAgainError) or (
            isinstance(reply, ResponseError) and str(reply).startswith(_TOPOLOGY_ERRORS)
        ):
            _refresh(client)
            raise ClusterDownError(f"the slot of {key} moved or is in transit: {reply}")
    return replies


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _master_client(client: Any, key: str) -> tuple[Any, str]:
    """Returns the client of the master of *key*'s slot (*client* itself if standalone) and
    the master's name."""
    if not isinstance(client, redis.cluster.RedisCluster):
        return client, "standalone"
    node: Any = client.get_node_from_key(key)
    return client.get_redis_connection(node), str(node.name)


def _refresh(client: Any) -> None:
    """Asks a cluster for its slot map again (nothing for a standalone client)."""
    if isinstance(client, redis.cluster.RedisCluster):
        try:
            client.nodes_manager.initialize()
        except (redis.exceptions.RedisError, RedisClusterException):
            pass  # The next try asks again.
