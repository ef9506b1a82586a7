"""Free ports for the servers the project starts: valid for what each server needs, distinct,
outside the kernel's ephemeral range, and a fresh one when another process takes a port."""

from __future__ import annotations

import itertools
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from service.processes import embedded_redis as embedded
from service.processes import free_ports as ports
from service.processes.embedded_redis import EmbeddedRedis
from service.processes.free_ports import (
    CLUSTER_BUS_OFFSET,
    NoFreePortError,
    free_ports,
    random_candidates,
)

BUS = (CLUSTER_BUS_OFFSET,)
LOW_CANDIDATES = range(20000, 20200)
"""Ports whose bus port is valid; far from the ephemeral range, so nearly all are free."""


def _held(port: int, *, listen: bool = False) -> socket.socket:
    """A socket bound to *port* on loopback (listening if asked), as another process's."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", port))
    if listen:
        sock.listen()
    return sock


def test_a_cluster_port_never_has_its_bus_port_above_65535() -> None:
    # The bug: a port above 55535 has no bus port, and the kernel offers ports up to 60999.
    high = range(55536, 65536)
    with pytest.raises(NoFreePortError, match="found only 0 of 1"):
        free_ports(companions=BUS, candidates=high)
    offered = itertools.chain(high[-500:], LOW_CANDIDATES)
    (port,) = free_ports(companions=BUS, candidates=offered)
    assert port in LOW_CANDIDATES
    assert port + CLUSTER_BUS_OFFSET <= 65535


def test_a_plain_server_may_use_a_high_port() -> None:
    # Only a cluster node needs room for its bus: the top port is fine otherwise.
    candidates = [65535, *LOW_CANDIDATES]
    assert free_ports(candidates=candidates)[0] in candidates


def test_ports_in_use_and_ports_whose_bus_is_in_use_are_skipped() -> None:
    taken, bus_taken, free = free_ports(3, companions=BUS, candidates=LOW_CANDIDATES)
    with _held(taken, listen=True), _held(bus_taken + CLUSTER_BUS_OFFSET):
        assert free_ports(companions=BUS, candidates=[taken, bus_taken, free]) == [free]


def test_n_cluster_ports_and_their_bus_ports_are_all_distinct() -> None:
    first = LOW_CANDIDATES[0]
    # A repeat, and a candidate that is the first one's bus port, are both refused.
    candidates = [first, first, first + CLUSTER_BUS_OFFSET, *LOW_CANDIDATES[1:]]
    chosen = free_ports(6, companions=BUS, candidates=candidates)
    assert len(chosen) == 6
    everything = chosen + [port + CLUSTER_BUS_OFFSET for port in chosen]
    assert len(set(everything)) == 12
    assert all(port + CLUSTER_BUS_OFFSET <= 65535 for port in chosen)


def test_too_few_ports_and_a_bad_count_are_clear_errors() -> None:
    with pytest.raises(NoFreePortError, match="found only 0 of 2"):
        free_ports(2, candidates=[80, 65536, 70000])
    with pytest.raises(ValueError, match="invalid port count 0"):
        free_ports(0)


@pytest.mark.parametrize(
    ("ephemeral", "offsets"),
    [((32768, 60999), (0,)), ((32768, 60999), (0, 10000)), ((49152, 65535), (0, 10000)),
     ((1024, 65535), (0, 10000))],
)
def test_random_candidates_stay_valid_and_outside_the_ephemeral_range(
    ephemeral: tuple[int, int], offsets: tuple[int, ...]
) -> None:
    low, high = ephemeral
    everywhere = ephemeral == (1024, 65535)
    for port in itertools.islice(random_candidates(offsets, ephemeral), 5000):
        for each in (port + offset for offset in offsets):
            assert 1024 <= each <= 65535
            assert everywhere or not low <= each <= high


def test_the_kernels_ephemeral_range_is_read(tmp_path: Path) -> None:
    (tmp_path / "range").write_text("40000\t50000\n")
    assert ports.ephemeral_range(tmp_path / "range") == (40000, 50000)
    assert ports.ephemeral_range(tmp_path / "missing") == ports.DEFAULT_EPHEMERAL_RANGE


def test_a_cluster_node_starts_even_when_only_high_ports_are_offered_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def offered(offsets: object = (), ephemeral: object = None) -> Iterator[int]:
        yield from range(60999, 55535, -11)  # 497 ports the bus cannot follow
        yield from LOW_CANDIDATES

    monkeypatch.setattr(ports, "random_candidates", offered)
    with EmbeddedRedis(tmp_path, cluster=True) as server:
        assert server.port in LOW_CANDIDATES
        with redis.Redis(port=server.port) as client:
            assert client.info("cluster")["cluster_enabled"] == 1


def test_a_cluster_node_refuses_a_fixed_port_without_a_bus_port(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="invalid port 55536 for a cluster node"):
        EmbeddedRedis(tmp_path, 55536, cluster=True)


def _offer(monkeypatch: pytest.MonkeyPatch, first: int) -> list[int]:
    """Makes the embedded server's first choice *first*, then free ports; returns the list
    of choices made."""
    choices: list[int] = []

    def choose(count: int = 1, **options: object) -> list[int]:
        port = first if not choices else free_ports(candidates=LOW_CANDIDATES[len(choices):])[0]
        choices.append(port)
        return [port]

    monkeypatch.setattr(embedded, "free_ports", choose)
    return choices


def test_a_port_taken_by_a_listener_between_choice_and_start_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (squatted,) = free_ports(candidates=LOW_CANDIDATES)
    with _held(squatted, listen=True):
        choices = _offer(monkeypatch, squatted)
        with EmbeddedRedis(tmp_path) as server, redis.Redis(port=server.port) as client:
            assert choices[0] == squatted and server.port == choices[-1] != squatted
            assert client.ping()


def test_another_redis_server_on_the_chosen_port_is_not_taken_for_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another suite's server took the port first: it answers, but it is not our child.
    with EmbeddedRedis(tmp_path / "theirs") as theirs:
        _offer(monkeypatch, theirs.port)
        with EmbeddedRedis(tmp_path / "ours") as ours, redis.Redis(port=ours.port) as client:
            assert ours.port != theirs.port
            assert client.info("server")["process_id"] == ours.pid != theirs.pid
