"""Free TCP ports on loopback for the servers this project starts (redis-server, gunicorn).

A port is chosen at random *outside* the kernel's ephemeral range: the kernel hands ports of
that range to outgoing connections, so a listening port taken from it can be claimed by any
client on the machine between the moment it is chosen and the moment the server binds it, or
while a server is down for a restart. Each candidate is bound to check it is free (and so are
its companions, such as a cluster node's bus port at +10000), and the chosen ports are held
until all are found, so they are distinct. A server can still lose its port to another process
between the choice and its own bind: callers retry with a fresh port when the bind fails
(:meth:`service.processes.embedded_redis.EmbeddedRedis.start` does).
"""

from __future__ import annotations

import contextlib
import random
import socket
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

LOWEST_PORT = 1024
"""Ports below this one are privileged."""
HIGHEST_PORT = 65535
CLUSTER_BUS_OFFSET = 10000
"""A Redis Cluster node also listens on its port + 10000 (the cluster bus)."""
EPHEMERAL_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")
DEFAULT_EPHEMERAL_RANGE = (32768, 60999)
"""Linux's default, assumed where the kernel does not say (the IANA range is 49152-65535)."""
MAX_CANDIDATES = 1000
"""Candidates tried before giving up: each is rejected only when a port is in use."""

_random = random.SystemRandom()
"""Never the global generator: a test plugin may seed that one identically in every process
on the machine, which would make concurrent test suites pick the same ports."""


class NoFreePortError(OSError):
    """Raised when no free port (with its companions) was found."""


def free_ports(
    count: int = 1,
    *,
    companions: Sequence[int] = (),
    host: str = "127.0.0.1",
    candidates: Iterable[int] | None = None,
) -> list[int]:
    """Returns *count* distinct ports *p*, free on *host* a moment ago, such that every
    ``p + offset`` for *offset* in *companions* is a valid port and free as well (and none of
    all these ports is another's). For Redis Cluster nodes pass
    ``companions=(CLUSTER_BUS_OFFSET,)``.

    *candidates* replaces the random ports tried (for tests); the first :data:`MAX_CANDIDATES`
    are tried.

    :raises ValueError: if *count* is below 1.
    :raises NoFreePortError: if the candidates ran out before *count* ports were found.
    """
    if count < 1:
        raise ValueError(f"invalid port count {count!r}: expected 1 or more")
    offsets = (0, *companions)
    tried = candidates if candidates is not None else random_candidates(offsets)
    chosen: list[int] = []
    with contextlib.ExitStack() as held:
        for tries, port in enumerate(tried, start=1):
            needed = [port + offset for offset in offsets]
            if all(LOWEST_PORT <= each <= HIGHEST_PORT for each in needed):
                sockets = _bind_all(host, needed)
                if sockets is not None:
                    for sock in sockets:
                        held.enter_context(sock)
                    chosen.append(port)
                    if len(chosen) == count:
                        return chosen
            if tries >= MAX_CANDIDATES:
                break
    raise NoFreePortError(
        f"found only {len(chosen)} of {count} free ports on {host} (with companions at "
        f"{list(companions)}) in the ports tried"
    )


def random_candidates(
    offsets: Sequence[int] = (0,), ephemeral: tuple[int, int] | None = None
) -> Iterator[int]:
    """Yields random ports *p* such that every ``p + offset`` is unprivileged, at most
    65535 and outside the *ephemeral* range (the kernel's by default); anywhere unprivileged
    if nothing is outside it."""
    low, high = ephemeral or ephemeral_range()
    reach_down, reach_up = min(offsets), max(offsets)
    spans = [
        span for span in (
            (LOWEST_PORT - reach_down, low - 1 - reach_up),
            (high + 1 - reach_down, HIGHEST_PORT - reach_up),
        ) if span[0] <= span[1]
    ] or [(LOWEST_PORT - reach_down, HIGHEST_PORT - reach_up)]  # fmt: skip
    weights = [last - first + 1 for first, last in spans]
    while True:
        first, last = _random.choices(spans, weights)[0]
        yield _random.randint(first, last)


def ephemeral_range(path: Path = EPHEMERAL_RANGE_FILE) -> tuple[int, int]:
    """Returns the kernel's range of ports for outgoing connections (Linux's default where
    *path* cannot be read)."""
    try:
        low, high = (int(field) for field in path.read_text("ascii").split())
    except (OSError, ValueError):
        return DEFAULT_EPHEMERAL_RANGE
    return low, high


def _bind_all(host: str, ports: Sequence[int]) -> list[socket.socket] | None:
    """Binds a socket to each of *ports*; returns them, or ``None`` (nothing left bound) if
    one of the ports is in use."""
    bound: list[socket.socket] = []
    for port in ports:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind((host, port))
        except OSError:
            sock.close()
            for other in bound:
                other.close()
            return None
        bound.append(sock)
    return bound
