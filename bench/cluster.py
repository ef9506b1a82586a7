"""Redis Cluster capacity: appends with one and three masters, the cost of waiting for a
replica, a failover under load, and actions per API process.

Everything runs on private clusters (:class:`service.processes.embedded_cluster.EmbeddedCluster`,
AOF with ``appendfsync always`` on every node unless ``--fsync everysec``, loopback) in a
temporary directory:

- ``wait_cost``: single-event appends one after another by one client on a cluster of one
  master and its replica, without and with ``WAIT 1`` after the script: the latency each
  adds (p50, mean) is the price of an append no failover can lose;
- ``appends``: appends per second by ``--processes`` processes of ``--threads`` threads,
  each thread its own game, on one master (and replica) and on three masters (with a
  replica each), waiting for the replica;
- ``failover``: the same load on the three masters, then the master of one game killed with
  SIGKILL: how long until that game is appended to again, how many answers were
  "unavailable" meanwhile, and how many acknowledged appends are missing after (must be 0);
- ``api``: actions per second through ``fortyfive serve --no-worker --redis-cluster`` (one
  gunicorn worker each) on the three masters, with one API process and with ``--api``
  processes, the clients spread over them (the clients of :mod:`bench.http`).

The client is Python on the same machine as every server, so on a small machine the figures
measure the machine more than Redis: compare them with each other.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench import positive_int
from bench.http import _ApiClient, _Pool, _wait_until_up, measure, summarize
from events.errors import StoreUnavailableError
from events.keys import game_key
from events.redis_store import RedisEventStore
from events.types import BidMade
from service.processes.embedded_cluster import EmbeddedCluster
from service.processes.free_ports import free_ports
from service.processes.lifeline import parent_death_signal
from service.processes.supervisor import stop_process


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--appends", type=positive_int, default=1000,
                        help="sequential appends of each side of wait_cost (default 1000)")
    parser.add_argument("--seconds", type=positive_int, default=5,
                        help="seconds of each throughput run (default 5)")
    parser.add_argument("--processes", type=positive_int, default=2,
                        help="client processes of the throughput runs (default 2)")
    parser.add_argument("--threads", type=positive_int, default=8,
                        help="threads per client process (default 8)")
    parser.add_argument("--node-timeout-ms", type=positive_int, default=1000,
                        help="cluster-node-timeout of the nodes (default 1000)")
    parser.add_argument("--fsync", choices=("always", "everysec"), default="always",
                        help="appendfsync of every node (default always)")
    parser.add_argument("--api", type=positive_int, default=2,
                        help="API processes of the second api run (default 2)")
    parser.add_argument("--clients", type=positive_int, default=8,
                        help="HTTP clients of the api runs (default 8)")
    parser.add_argument("--actions", type=positive_int, default=1500,
                        help="most actions of each api run (default 1500)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs the benchmark and returns its figures.

    :raises service.processes.embedded_redis.EmbeddedRedisError: if a cluster does not start.
    """
    figures: dict[str, Any] = {"setup": {
        "cpus": os.cpu_count(), "client_processes": args.processes,
        "threads_each": args.threads, "node_timeout_ms": args.node_timeout_ms,
        "redis": f"private cluster nodes, appendfsync {args.fsync}, loopback"}}
    with tempfile.TemporaryDirectory(prefix="fortyfive-bench-cluster-") as tmp:
        with EmbeddedCluster(Path(tmp) / "one", masters=1, appendfsync=args.fsync,
                             node_timeout_ms=args.node_timeout_ms) as one:
            figures["wait_cost"] = wait_cost(one.url, args.appends)
            figures["appends"] = {"one_master": throughput(
                one.url, args.seconds, args.processes, args.threads)}
        with EmbeddedCluster(Path(tmp) / "three", masters=3, appendfsync=args.fsync,
                             node_timeout_ms=args.node_timeout_ms) as three:
            figures["appends"]["three_masters"] = throughput(
                three.url, args.seconds, args.processes, args.threads)
            figures["api"] = {
                "one_process": api_rate(three, Path(tmp), 1, args.clients, args.actions,
                                        args.seconds),
                f"{args.api}_processes": api_rate(three, Path(tmp), args.api, args.clients,
                                                  args.actions, args.seconds),
            }
            figures["failover"] = failover(three, args.threads)
    return figures


def wait_cost(url: str, appends: int) -> dict[str, Any]:
    """Returns the latency of sequential appends without and with ``WAIT 1``."""
    sides: dict[str, list[float]] = {"no_wait": [], "wait_1": []}
    stores = {"no_wait": RedisEventStore.from_url(url, cluster=True),
              "wait_1": RedisEventStore.from_url(url, cluster=True, replicas=1)}
    versions = dict.fromkeys(sides, 0)
    games = {side: f"bench-wait-{uuid.uuid4().hex}" for side in sides}
    bid = [BidMade(seat=0, amount=20)]
    try:
        for _ in range(appends):
            for side, store in stores.items():  # Alternating, so drift hits both alike.
                start = time.perf_counter()
                versions[side] = store.append(games[side], versions[side], bid, actor=0,
                                              command_id=f"c{versions[side] + 1}").version
                sides[side].append(time.perf_counter() - start)
    finally:
        for store in stores.values():
            store.close()
    result: dict[str, Any] = {side: _latency(samples) for side, samples in sides.items()}
    result["added_ms_p50"] = round(result["wait_1"]["p50_ms"] - result["no_wait"]["p50_ms"], 3)
    result["added_ms_mean"] = round(
        result["wait_1"]["mean_ms"] - result["no_wait"]["mean_ms"], 3)
    return result


def throughput(url: str, seconds: int, processes: int, threads: int) -> dict[str, Any]:
    """Returns appends per second by *processes* x *threads* writers for *seconds*."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        counts = pool.starmap(_write_for, [(url, seconds, threads)] * processes)
    total = sum(counts)
    return {"appends": total, "per_second": round(total / seconds, 1)}


def _write_for(url: str, seconds: int, threads: int) -> int:
    """Appends from *threads* threads for *seconds* (a client process); returns how many."""
    store = RedisEventStore.from_url(url, cluster=True, replicas=1)
    counts = [0] * threads
    end = time.monotonic() + seconds

    def write(index: int) -> None:
        game_id, version = f"bench-load-{uuid.uuid4().hex}", 0
        while time.monotonic() < end:
            try:
                version = store.append(game_id, version, [BidMade(seat=0, amount=20)],
                                       actor=0, command_id=f"c{version + 1}").version
            except StoreUnavailableError:
                continue
            counts[index] += 1

    writers = [threading.Thread(target=write, args=(index,)) for index in range(threads)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    store.close()
    return sum(counts)


def failover(cluster: EmbeddedCluster, threads: int) -> dict[str, Any]:
    """Kills the master of one game under load; returns how long that game could not be
    appended to, the unavailable answers, and the acknowledged appends lost (must be 0)."""
    store = RedisEventStore.from_url(cluster.url, cluster=True, replicas=1)
    games = [f"bench-failover-{uuid.uuid4().hex}" for _ in range(threads)]
    acked = dict.fromkeys(games, 0)
    unavailable = [0]
    stop = threading.Event()

    def write(game_id: str) -> None:
        version = 0
        while not stop.is_set():
            try:
                version = acked[game_id] = store.append(
                    game_id, version, [BidMade(seat=0, amount=20)], actor=0,
                    command_id=f"c{version + 1}").version
            except StoreUnavailableError:
                unavailable[0] += 1
                time.sleep(0.01)

    writers = [threading.Thread(target=write, args=(game,), daemon=True) for game in games]
    for writer in writers:
        writer.start()
    time.sleep(1.0)
    victim = cluster.master_of(game_key(games[0]))
    before = acked[games[0]]
    cluster.kill(victim)
    killed = time.monotonic()
    while acked[games[0]] == before and time.monotonic() - killed < 120:
        time.sleep(0.005)
    gap = time.monotonic() - killed
    time.sleep(1.0)
    stop.set()
    for writer in writers:
        writer.join(30)
    store.close()
    cluster.revive(victim)
    with RedisEventStore.from_url(cluster.url, cluster=True) as fresh:
        lost = 0
        for game_id, version in acked.items():
            ids = [event.envelope.command_id for event in fresh.read(game_id)][:version]
            lost += sum(1 for number, found in enumerate(ids, 1) if found != f"c{number}")
            lost += max(0, version - len(ids))
    return {"served_again_s": round(gap, 2), "unavailable_answers": unavailable[0],
            "acknowledged": sum(acked.values()), "acknowledged_lost": lost}


def api_rate(cluster: EmbeddedCluster, tmp: Path, processes: int, clients: int,
             actions: int, seconds: int) -> dict[str, Any]:
    """Returns actions per second through *processes* API processes on *cluster*."""
    with _api_processes(cluster, tmp, processes) as ports, contextlib.ExitStack() as stack:
        # One pool of keep-alive connections per API process; the clients take them in turn.
        pools = [stack.enter_context(_Pool(port, clients)) for port in ports]
        cycle = itertools.cycle(pools)
        lock = threading.Lock()

        def client() -> _ApiClient:
            with lock:
                return _ApiClient(next(cycle), 1)

        sample = measure(client, clients, actions, seconds)
    figures = summarize([sample])
    figures["per_api_process"] = round(figures["per_second"] / processes, 1)
    return figures


@contextlib.contextmanager
def _api_processes(cluster: EmbeddedCluster, tmp: Path, count: int) -> Iterator[list[int]]:
    """Runs *count* ``fortyfive serve --no-worker --redis-cluster`` processes."""
    env = {**os.environ, "REDIS_URL": cluster.url, "REDIS_CLUSTER": "true"}
    code = "import sys; from service.cli import main; sys.exit(main())"
    started: list[tuple[int, Any, Any]] = []
    try:
        for index, port in enumerate(free_ports(count)):
            log_path = tmp / f"serve-{count}-{index}.log"
            log = log_path.open("w+")
            process = subprocess.Popen(
                [sys.executable, "-c", code, "serve", "--port", str(port), "--workers", "1",
                 "--no-worker", "--data-dir", str(tmp)], env=env, stdout=log, stderr=log,
                preexec_fn=parent_death_signal())
            started.append((port, process, log))
            _wait_until_up(port, process, log_path)
        yield [port for port, _, _ in started]
    finally:
        for _, process, log in started:
            stop_process(process, 20)
            log.close()


def _latency(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50_ms": round(ordered[len(ordered) // 2] * 1000, 3),
            "p99_ms": round(ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)] * 1000, 3),
            "mean_ms": round(statistics.fmean(ordered) * 1000, 3)}

