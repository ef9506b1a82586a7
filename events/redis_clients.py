"""What a redis-py client's error means, and where the client points: the facts the event store
(:mod:`events.redis_store`) and the service's error handlers (:mod:`service.http.errors`) both need
about a client, standalone or Cluster."""

from __future__ import annotations

import urllib.parse
from typing import Any

import redis
import redis.cluster
from redis.exceptions import (
    ClusterDownError,
    MasterDownError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)

REFUSALS = ("OOM", "MISCONF")
"""Error prefixes of a server refusing writes: out of memory, or failing to persist."""
UNAVAILABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    getattr(redis.exceptions, "OutOfMemoryError", ReadOnlyError),  # not in the stubs
    ReadOnlyError,
    MasterDownError,
    ClusterDownError,
    TryAgainError,
    SlotNotCoveredError,
)
"""Errors of a server that cannot serve now (down, loading, failing over, out of memory)."""
CLUSTER_UNREACHABLE = ("Redis Cluster cannot be connected", "Failed to connect", "timed out")
"""Messages of a cluster client's own errors when no node (or not the slot's) answers."""


def is_unavailable(error: BaseException) -> bool:
    """Returns whether a Redis client's *error* means the server cannot serve now (down,
    loading, failing over, out of memory, failing to persist) rather than a fault of the
    command: the difference between :class:`StoreUnavailableError` and :class:`StoreError`."""
    if isinstance(error, UNAVAILABLE):
        return True
    if isinstance(error, RedisClusterException) and any(
        phrase in str(error) for phrase in CLUSTER_UNREACHABLE
    ):
        return True
    return isinstance(error, ResponseError) and str(error).startswith(REFUSALS)


def error_message(error: BaseException) -> str:
    """Returns the message of *error*, or its type name when it has none."""
    return str(error) or type(error).__name__


def seed_urls(url: str) -> list[str]:
    """Returns the addresses *url* names: one URL, or several separated by commas (the seed
    nodes of a Redis Cluster, any one of which is enough to find the others).

    >>> seed_urls("redis://a:7000, redis://b:7000")
    ['redis://a:7000', 'redis://b:7000']
    """
    return [part.strip() for part in url.split(",") if part.strip()]


def url_address(url: str) -> str:
    """Returns ``scheme://host:port`` of *url* (``unix://path`` of a socket), without
    credentials or query; of several seed nodes, each, separated by commas."""
    seeds = seed_urls(url)
    if len(seeds) > 1:
        return ",".join(url_address(seed) for seed in seeds)
    try:
        parts = urllib.parse.urlsplit(url)
        scheme = parts.scheme or "redis"
        if scheme == "unix":
            return f"unix://{parts.path}"
        host, port = parts.hostname or "localhost", parts.port or 6379
    except ValueError:
        return f"{shown_url(url)} (an invalid address)"
    return f"{scheme}://{host}:{port}"


def shown_url(url: str) -> str:
    """Returns *url* as given, less its credentials and its query (either may hold a
    password, ``?password=``), to name it in an error."""
    head = url.split("?", 1)[0].split("#", 1)[0]
    scheme, separator, rest = head.partition("://")
    if not separator:
        scheme, rest = "", head
    authority, slash, path = rest.partition("/")
    return f"{scheme}{separator}{authority.rpartition('@')[2]}{slash}{path}"


def check_url(url: str, *, cluster: bool = False) -> None:
    """Checks that redis-py can use *url*: one URL, or on a Redis Cluster (*cluster*) several
    seed nodes separated by commas (:func:`seed_urls`).

    :raises ValueError: naming *url* (:func:`shown_url`) and what is wrong with it.
    """
    seeds = seed_urls(url)
    if not seeds:
        raise ValueError(f"invalid Redis URL {url!r}: it names no address")
    if len(seeds) > 1 and not cluster:
        raise ValueError(
            f"invalid Redis URL {','.join(map(shown_url, seeds))!r}: several addresses are the "
            "seed nodes of a Redis Cluster; set REDIS_CLUSTER=true (or --redis-cluster) for "
            "one, or name a single Redis")
    for seed in seeds:
        try:
            redis.connection.parse_url(seed)
        except ValueError as error:
            raise ValueError(
                f"invalid Redis URL {shown_url(seed)!r}: {error_message(error)}") from None


def cluster_nodes(url: str) -> list[tuple[str, int]]:
    """Returns ``(host, port)`` of each seed node *url* names (:func:`seed_urls`).

    :raises ValueError: for a URL redis-py cannot use.
    """
    nodes = []
    for seed in seed_urls(url):
        options = redis.connection.parse_url(seed)
        nodes.append((str(options.get("host", "localhost")), int(options.get("port", 6379))))
    return nodes


def client_address(client: Any) -> str:
    """Returns ``redis://host:port`` of *client*'s first server."""
    if isinstance(client, redis.cluster.RedisCluster):
        node: Any = client.get_default_node()
        return f"redis://{node.host}:{node.port}"
    kwargs = client.connection_pool.connection_kwargs
    return f"redis://{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}"


def socket_timeout(client: Any) -> float | None:
    """Returns *client*'s socket timeout in seconds (``None``: no timeout)."""
    if isinstance(client, redis.cluster.RedisCluster):
        node: Any = client.get_default_node()
        kwargs = node.redis_connection.connection_pool.connection_kwargs
    else:
        kwargs = client.connection_pool.connection_kwargs
    timeout = kwargs.get("socket_timeout")
    return None if timeout is None else float(timeout)
