"""Connections to a standalone Redis that the event store keeps for its scripts (the append,
the first page of a read): one command costs a send and a read, without the client's
per-command machinery (they are on every action's path). See :class:`DirectConnections`.
"""

from __future__ import annotations

import os
from typing import Any

import redis
from redis.exceptions import ResponseError


class DirectConnections:
    """Connections to a standalone Redis that the store keeps for its scripts, made
    like its client's pool makes them, and used without the client's per-command machinery
    (a connection checked out of the pool is polled for stray data before each command).

    A command is retried as the client retries it (its connections' :class:`redis.retry.
    Retry`: the same errors, tries and backoff, reconnecting in between). A connection goes
    back to the free list only once a whole reply has been read from it (an error reply
    included); on any other failure, an interrupted read among them, it is closed, so none
    ever holds part of an old reply. Thread-safe (the list's pop and append are atomic);
    after a fork the child starts with none of the parent's.
    """

    KEEP = 16
    """The most idle connections kept."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self._free: list[Any] = []
        self._pid = os.getpid()

    @classmethod
    def of(cls, client: Any) -> DirectConnections | None:
        """Returns direct connections for *client*, or ``None`` unless it is a plain
        standalone client on a plain pool without a client-side cache."""
        pool = getattr(client, "connection_pool", None)
        if (type(client) is not redis.Redis
                or type(pool) not in (redis.ConnectionPool, redis.BlockingConnectionPool)
                or getattr(pool, "cache", None) is not None):
            return None
        return cls(pool)

    def call(self, *command: Any) -> Any:
        """Sends *command* and returns its reply.

        :raises redis.exceptions.RedisError: as the client would.
        """
        if self._pid != os.getpid():
            self._free, self._pid = [], os.getpid()
        try:
            connection = self._free.pop()
        except IndexError:
            connection = self._pool.connection_class(**self._pool.connection_kwargs)
        packed = connection.pack_command(*command)

        def once() -> Any:
            connection.send_packed_command(packed, check_health=False)
            return connection.read_response()

        try:
            reply = connection.retry.call_with_retry(once, lambda _: connection.disconnect())
        except ResponseError:
            self._release(connection)  # The whole error reply was read.
            raise
        except BaseException:
            connection.disconnect()
            raise
        self._release(connection)
        return reply

    def close(self) -> None:
        """Closes the idle connections (one in use is closed when its call returns)."""
        while self._free:
            self._free.pop().disconnect()

    def _release(self, connection: Any) -> None:
        if len(self._free) < self.KEEP:
            self._free.append(connection)
        else:
            connection.disconnect()
