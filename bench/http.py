"""HTTP throughput: plays posted through ``fortyfive serve`` against a bare XADD endpoint.

One run starts two servers with the same gunicorn settings (gevent workers, as ``serve``
runs them by default; ``--worker-class gthread`` for thread workers): ``fortyfive serve`` on
a free port and on its own embedded redis-server (AOF, ``appendfsync always``), and a bare
Flask app whose one endpoint does a single ``XADD`` on that same Redis. Concurrent clients
(threads, loopback only) then:

- play games through the API, two-seat classic ones and six-seat bruff ones in turn (each of
  ``--profiles`` is a side of its own), ``--games`` games per client at once, each
  action on the next of its games in turn, with ``If-Match`` and an ``Idempotency-Key`` of
  its own (so the append script's command-id path runs on every action). Every request takes
  whichever keep-alive connection of a shared pool is free, so a game's actions reach the
  workers in no fixed order and a worker often has to catch up on events another one wrote.
  A client reads a seat's view once per deal and then works out its legal plays itself from
  the responses (the engine's ``legal_cards``), so nearly every request is an action;
- post to the bare endpoint as fast as it answers, through a pool of the same size.

Both sides' pools use the same minimal keep-alive client (``bench/http_client.py``): the
clients share the machine's cores with the servers, so a client that costs more per answer
of one side (``http.client`` parses every header in Python) would lower that side's figures.

Reported: for each side every request it served (the API's creations and views too) and
the time they took together, actions (or bare requests) per second and their p50/p99
latency, and the ratio of API actions per second to bare requests per second (aim: 0.6).
``cpu_ratio`` sets the CPU one bare request costs against the CPU one API action costs,
counting redis-server's CPU on both sides (``INFO cpu``, read before and after each side's
turn) and charging the API's creations and views to its actions. From ``INFO commandstats``
(:mod:`bench.redis_usage`): the Redis time of the append script per call against a bare
``XADD``'s, and what Redis spends per action with the API alone (no RQ worker), or with
``--with-worker`` the API and its RQ worker together (``serve`` with its worker): then each
API turn ends only once the worker has settled (redis-server runs no more than an idle
worker's commands for :data:`SETTLE_SECONDS`), so the Redis time of the jobs a turn's actions
caused is charged to that turn's actions, and so is the worker's CPU (a child of ``serve``).
The sides take turns over ``--rounds`` rounds, so that other load on the machine hits them
alike; each is bounded by ``--actions`` and by ``--seconds`` in all.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import http.client
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from bench import positive_int
from bench.http_client import Connection
from bench.redis_usage import NOTHING, SCRIPT_COMMANDS, RedisUsage, per_unit, read_usage
from engine.cards import Suit, parse_cards
from engine.legality import legal_cards
from engine.profiles import PROFILES, make_ruleset
from engine.ranking import ranking
from service.http.server import (
    DEFAULT_WORKER_CLASS,
    WORKER_CLASSES,
    GunicornServer,
    gunicorn_options,
)
from service.processes.free_ports import free_ports
from service.processes.lifeline import parent_death_signal
from service.processes.supervisor import stop_process

AIM = 0.6
"""The least share of the bare endpoint's throughput the API's actions should reach."""

SETTLE_SECONDS = 1.0
"""With ``--with-worker``: how long redis-server must run no more than :data:`IDLE_CALLS`
commands for the worker to count as done with an API turn's jobs."""

IDLE_CALLS = 60
"""With ``--with-worker``: the most commands per :data:`SETTLE_SECONDS` of a worker with
nothing to do (its dispatcher's blocking read, pacing and scheduler passes, heartbeats: about
a dozen a second)."""

SETTLE_LIMIT_SECONDS = 300.0
"""With ``--with-worker``: the longest an API turn waits for the worker to settle."""

_EMBEDDED_LINE = re.compile(r"embedded redis-server at (redis://[^\s),]+)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--clients", type=positive_int, default=8,
                        help="concurrent clients (default 8)")
    parser.add_argument("--games", type=positive_int, default=4,
                        help="games each client plays at once (default 4)")
    parser.add_argument("--actions", type=positive_int, default=3000,
                        help="actions to post through the API, and as many bare requests "
                        "(default 3000)")
    parser.add_argument("--seconds", type=positive_int, default=60,
                        help="time limit of each side (default 60)")
    parser.add_argument("--rounds", type=positive_int, default=4,
                        help="alternating rounds of each side, so that the machine's other "
                        "load hits both alike (default 4)")
    parser.add_argument("--workers", type=positive_int, default=2,
                        help="gunicorn workers of each server (default 2)")
    parser.add_argument("--worker-class", choices=sorted(WORKER_CLASSES),
                        default=DEFAULT_WORKER_CLASS,
                        help=f"gunicorn workers of each server (default {DEFAULT_WORKER_CLASS})")
    parser.add_argument("--profiles", type=_profiles, default=("classic", "bruff"),
                        help="the games played through the API, each a side of its own, "
                        "comma-separated (default classic,bruff); the first gives the "
                        "top-level figures")
    parser.add_argument("--threads", type=positive_int, default=16,
                        help="threads per gunicorn worker with --worker-class gthread "
                        "(default 16)")
    parser.add_argument("--with-worker", action="store_true",
                        help="serve the API with its RQ worker (default: serve --no-worker) "
                        "and charge the worker's Redis time and CPU to the actions")


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs the benchmark and returns its figures.

    :raises RuntimeError: if a server does not start.
    """
    with tempfile.TemporaryDirectory(prefix="fortyfive-bench-http-") as data_dir:
        classes = ["--worker-class", args.worker_class]
        with _api_process(Path(data_dir), args.workers, args.threads, classes,
                          worker=args.with_worker) as (api_port, redis_url, api_pid):
            with _bare_server(Path(data_dir), redis_url, args.workers, args.threads,
                              args.worker_class) as (bare_port, bare_pid):
                redis = _redis_reader(redis_url)
                settled = _settled_reader(redis) if args.with_worker else redis
                sides: dict[str, list[Sample]] = {name: [] for name in (*args.profiles, "bare")}
                share = max(1, args.actions // args.rounds)
                seconds = args.seconds / args.rounds
                for _ in range(args.rounds):
                    for profile in args.profiles:
                        # Fresh pools each turn: the other sides' turns outlast keep-alive.
                        with _Pool(api_port, args.clients) as pool:
                            player = functools.partial(_ApiClient, pool, args.games, profile)
                            sides[profile].append(measure(
                                player, args.clients, share, seconds,
                                lambda: server_cpu_seconds(api_pid), redis, settled,
                            ))
                    with _Pool(bare_port, args.clients) as pool:
                        sides["bare"].append(measure(
                            lambda: _BareClient(pool), args.clients, share, seconds,
                            lambda: server_cpu_seconds(bare_pid), redis,
                        ))
    bare = summarize(sides["bare"])
    profiles = {name: compare(summarize(sides[name]), bare) for name in args.profiles}
    first = profiles[args.profiles[0]]
    return {
        "setup": {
            "clients": args.clients, "games_per_client": args.games,
            "connections": args.clients, "gunicorn_workers": args.workers,
            "worker_class": args.worker_class, "threads": args.threads,
            "cpus": os.cpu_count(), "profiles": list(args.profiles),
            "redis": ("embedded, appendfsync always, "
                      + ("the API and its RQ worker" if args.with_worker
                         else "API alone (no RQ worker)")),
            "with_worker": args.with_worker,
        },
        "profile": args.profiles[0],
        **first,
        "bare_xadd": bare,
        "ratio_of": "API actions per second / bare requests per second",
        "cpu_ratio_of": "bare CPU per request / API CPU per action, each counting its "
                        "gunicorn server and redis-server, the API's views and creations "
                        "charged to its actions",
        "cpu_ratio_without_redis_of": "bare server CPU per request / API server CPU per "
                                      "request (views and creations counted as requests; "
                                      "redis-server left out): the cpu_ratio of before",
        "profiles": profiles,
        "aim": AIM,
        "aim_met": all(figures["ratio"] >= AIM for figures in profiles.values()),
    }


def compare(api: dict[str, Any], bare: dict[str, Any]) -> dict[str, Any]:
    """Returns the figures of one API side against the bare side (both :func:`summarize` d)."""

    def ratio(numerator: float | None, denominator: float | None) -> float | None:
        return round(numerator / denominator, 3) if numerator and denominator else None

    api_redis, bare_redis = api["redis"], bare["redis"]
    script = api_redis["script_usec_per_call"]
    xadd = bare_redis["xadd_usec_per_call"]
    return {
        "api_actions": api,
        "ratio": ratio(api["per_second"], bare["per_second"]) or 0.0,
        "cpu_ratio": ratio(bare["cpu_ms_per_action"], api["cpu_ms_per_action"]),
        "cpu_ratio_without_redis": ratio(bare["server_cpu_ms_per_request"],
                                         api["server_cpu_ms_per_request"]),
        "redis": {
            "script_usec_per_call": script,
            "bare_xadd_usec_per_call": xadd,
            "script_to_xadd": ratio(script, xadd),
            "script_usec_per_action": api_redis["script_usec_per_action"],
            "script_usec_per_action_to_xadd": ratio(api_redis["script_usec_per_action"], xadd),
            "redis_cpu_us_per_action": api_redis["per_action"]["redis_cpu_us"],
            "redis_cpu_us_per_bare_request": bare_redis["per_action"]["redis_cpu_us"],
            "redis_cpu_action_to_bare": ratio(api_redis["per_action"]["redis_cpu_us"],
                                              bare_redis["per_action"]["redis_cpu_us"]),
        },
    }


@dataclasses.dataclass
class Sample:
    """One round of one side: the latency of each step, the other requests, the time."""

    latencies: list[float]
    other_requests: int
    seconds: float
    cpu_seconds: float | None = None
    """The server's CPU time over the round (``None`` where it cannot be read)."""
    redis: RedisUsage | None = None
    """What redis-server used over the round (``None`` where it was not read)."""


def measure(
    make_client: Callable[[], Any], clients: int, total: int, seconds: float,
    cpu: Callable[[], float | None] = lambda: None,
    redis: Callable[[], RedisUsage | None] = lambda: None,
    redis_after: Callable[[], RedisUsage | None] | None = None,
) -> Sample:
    """Runs *clients* threads, each calling ``step()`` of its own client (after three
    untimed warm-up steps) until *total* steps or *seconds* have passed; *cpu* returns the
    server's CPU seconds so far, *redis* what redis-server used so far, and *redis_after*
    (default *redis*) reads it at the end, once what the steps set off has run (the
    worker's jobs): the server's CPU is read after it."""
    latencies: list[float] = []
    others = [0]
    lock = threading.Lock()
    remaining = [total]
    barrier = threading.Barrier(clients + 1)
    deadline = [0.0]

    def work() -> None:
        client = make_client()
        for _ in range(3):
            client.step()  # Warm-up: connections, caches, the first game.
        client.other_requests = 0
        barrier.wait()
        mine: list[float] = []
        while time.monotonic() < deadline[0]:
            with lock:
                if remaining[0] <= 0:
                    break
                remaining[0] -= 1
            mine.append(client.step())
        with lock:
            latencies.extend(mine)
            others[0] += client.other_requests
        client.close()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    deadline[0] = time.monotonic() + 3600
    barrier.wait()
    cpu_before, redis_before = cpu(), redis()
    start = time.monotonic()
    deadline[0] = start + seconds
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    redis_end = (redis_after or redis)()
    cpu_after = cpu()
    used = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    redis_used = (None if redis_before is None or redis_end is None
                  else redis_end.since(redis_before))
    return Sample(latencies, others[0], elapsed, used, redis_used)


def summarize(samples: list[Sample]) -> dict[str, Any]:
    """Returns the rate and latency percentiles of one side over all its rounds."""
    ordered = sorted(latency for sample in samples for latency in sample.latencies)
    elapsed = sum(sample.seconds for sample in samples)
    others = sum(sample.other_requests for sample in samples)
    cpu = [sample.cpu_seconds for sample in samples]
    requests = len(ordered) + others
    cpu_ms = (round(sum(c for c in cpu if c is not None) / requests * 1000, 3)
              if requests and None not in cpu else None)
    usages = [sample.redis for sample in samples]
    redis = sum((usage for usage in usages if usage is not None), NOTHING)
    read = bool(ordered) and None not in cpu and None not in usages
    server_ms = sum(c for c in cpu if c is not None) / len(ordered) * 1000 if read else None
    redis_ms = redis.cpu_seconds / len(ordered) * 1000 if read else None
    script = redis.usec_per_call(SCRIPT_COMMANDS)
    script_calls = sum(redis.commands.get(name, (0, 0))[0] for name in SCRIPT_COMMANDS)
    script_usec = sum(redis.commands.get(name, (0, 0))[1] for name in SCRIPT_COMMANDS)
    xadd = redis.usec_per_call(("xadd",))
    return {
        "count": len(ordered),
        "other_requests": others,
        "requests": len(ordered) + others,
        "seconds": round(elapsed, 3),
        "per_second": round(len(ordered) / elapsed, 1) if elapsed else 0.0,
        "requests_per_second": round(requests / elapsed, 1) if elapsed else 0.0,
        "server_cpu_ms_per_request": cpu_ms,
        "server_cpu_ms_per_action": _rounded(server_ms),
        "redis_cpu_ms_per_action": _rounded(redis_ms),
        "cpu_ms_per_action": (_rounded(server_ms + redis_ms)
                              if server_ms is not None and redis_ms is not None else None),
        "redis": {
            "per_action": per_unit(redis, len(ordered)),
            "script_usec_per_call": _rounded(script, 2),
            "script_calls_per_action": (round(script_calls / len(ordered), 3)
                                        if ordered else None),
            "script_usec_per_action": (round(script_usec / len(ordered), 1)
                                       if ordered and script_calls else None),
            "xadd_usec_per_call": _rounded(xadd, 2),
        },
        "p50_ms": round(_percentile(ordered, 50) * 1000, 2),
        "p99_ms": round(_percentile(ordered, 99) * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2) if ordered else 0.0,
    }


def _rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


def _redis_reader(url: str) -> Callable[[], RedisUsage | None]:
    """Returns a function reading what the redis-server at *url* used so far."""
    import redis

    client = redis.Redis.from_url(url)
    return lambda: read_usage(client)


def _settled_reader(read: Callable[[], RedisUsage | None]) -> Callable[[], RedisUsage | None]:
    """Returns a function that waits until redis-server has run no more than
    :data:`IDLE_CALLS` commands over :data:`SETTLE_SECONDS` (the worker is done), then returns
    what it used so far, read through *read*.

    :raises RuntimeError: if it has not settled within :data:`SETTLE_LIMIT_SECONDS`.
    """
    def settled() -> RedisUsage | None:
        last = read()
        deadline = time.monotonic() + SETTLE_LIMIT_SECONDS
        while last is not None:
            time.sleep(SETTLE_SECONDS)
            now = read()
            if now is None or sum(calls for calls, _ in now.since(last).commands.values()) \
                    <= IDLE_CALLS:
                return now
            if time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not settle within {SETTLE_LIMIT_SECONDS} s")
            last = now
        return last

    return settled


def _profiles(text: str) -> tuple[str, ...]:
    """Returns the comma-separated profiles of *text*, each once, in order."""
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in names if name not in PROFILES]
    if not names or unknown:
        raise argparse.ArgumentTypeError(
            f"expected profiles from {', '.join(PROFILES)}, comma-separated, got {text!r}")
    return names


def _percentile(ordered: list[float], percent: float) -> float:
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(percent / 100 * len(ordered)) - 1))
    return ordered[index]


class _Pool:
    """Keep-alive connections to a local server, shared by every client of one side: each
    request takes whichever is free, so no game keeps to one connection (and so to one
    worker). Both sides' pools use the same lean client (:mod:`bench.http_client`), so the
    load generator costs the same per request whatever the server's answers."""

    def __init__(self, port: int, size: int) -> None:
        self._free: queue.Queue[Connection] = queue.Queue()
        self._all = [Connection("127.0.0.1", port, timeout=30) for _ in range(size)]
        for connection in self._all:
            self._free.put(connection)

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        payload = orjson.dumps(body) if body is not None else None
        sent = {"Content-Type": "application/json"} if payload is not None else {}
        connection = self._free.get()
        try:
            # On an error the connection closes itself, and reconnects on its next request.
            status, data = connection.request(method, path, payload,
                                              {**sent, **(headers or {})})
        finally:
            self._free.put(connection)
        return status, orjson.loads(data) if data else None

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        for connection in self._all:
            connection.close()


class _BareClient:
    """Posts to the bare XADD endpoint."""

    def __init__(self, pool: _Pool) -> None:
        self._connection = pool
        self.other_requests = 0

    def step(self) -> float:
        start = time.perf_counter()
        status, _ = self._connection.call("POST", "/bare", {"type": "play", "card": "5S"})
        assert status == 201, status
        return time.perf_counter() - start

    def close(self) -> None:
        """Nothing to close: the pool outlives the client."""


class _ApiClient:
    """Plays *games* games of *profile* through the API at once (two-seat classic, six-seat
    bruff), one action of the next game in turn per :meth:`step`."""

    def __init__(self, pool: _Pool, games: int, profile: str = "classic") -> None:
        self.other_requests = 0
        self._games = [_ApiGame(pool, self, profile) for _ in range(games)]
        self._next = 0

    def step(self) -> float:
        """Posts one action of the next game; returns its latency in seconds."""
        game = self._games[self._next]
        self._next = (self._next + 1) % len(self._games)
        return game.step()

    def close(self) -> None:
        """Nothing to close: the pool outlives the client."""


class _ApiGame:
    """One game after another of an :class:`_ApiClient`, one action per :meth:`step`."""

    def __init__(self, pool: _Pool, owner: _ApiClient, profile: str) -> None:
        self._connection = pool
        self._owner = owner
        self._profile = profile
        self._new_game()

    def _new_game(self) -> None:
        # The profile's smallest table: two seats of classic, six of bruff.
        status, created = self._connection.call("POST", "/v1/games", {"profile": self._profile})
        assert status == 201, created
        self._owner.other_requests += 1
        self._path = f"/v1/games/{created['id']}"
        self._rules = make_ruleset(self._profile, players=len(created["seats"]))
        self._auth = [{"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
        self._hands: dict[int, tuple[int, list[str]]] = {}
        self._view = self._get(0)

    def _get(self, seat: int) -> dict[str, Any]:
        status, view = self._connection.call("GET", self._path, headers=self._auth[seat])
        assert status == 200, view
        self._owner.other_requests += 1
        self._remember(view)
        return dict(view)

    def _remember(self, view: dict[str, Any]) -> None:
        """Keeps the viewer's hand of the deal in play (none before the cut)."""
        if view["phase"] == "play":
            self._hands[view["viewer"]] = (view["deal_number"], list(view["hand"] or []))

    def _action(self, seat: int) -> dict[str, Any]:
        """Returns the seat's next action: the view's first legal action when it is the
        seat's own view, else the first legal card worked out from its known hand."""
        view = self._view
        if view["viewer"] == seat:
            return dict(view["legal_actions"][0])
        known = self._hands.get(seat)
        if view["phase"] != "play" or known is None or known[0] != view["deal_number"]:
            self._view = view = self._get(seat)
            return dict(view["legal_actions"][0])
        current = view["deal"]["current_trick"]
        trick = parse_cards([play["card"] for play in current["cards"]]) if current else ()
        order = ranking(Suit.parse(view["trump"]), self._rules)
        cards, _ = legal_cards(parse_cards(known[1]), trick, order, self._rules)
        return {"type": "play", "card": cards[0].code()}

    def step(self) -> float:
        """Posts one action; returns its latency in seconds."""
        while self._view["winner"] is not None:
            self._new_game()
        seat = self._view["turn"]
        action = self._action(seat)
        start = time.perf_counter()
        status, view = self._connection.call(
            "POST", f"{self._path}/actions", action,
            {**self._auth[seat], "If-Match": f'"{self._view["version"]}"',
             "Idempotency-Key": uuid.uuid4().hex},
        )
        elapsed = time.perf_counter() - start
        assert status == 201, view
        self._remember(view)
        self._view = view
        return elapsed


def bare_app(redis_url: str) -> Any:
    """Returns the bare endpoint: ``POST /bare`` appends the body with one XADD."""
    import redis
    from flask import Flask, request

    app = Flask("bare")
    client = redis.Redis.from_url(redis_url)
    key = f"f45:{{p000}}:bench-bare:{os.getpid()}"

    @app.post("/bare")
    def bare() -> Any:
        entry = client.xadd(key, {"body": request.get_data()})
        return {"id": entry.decode()}, 201

    return app


def serve_bare(redis_url: str, port: int, workers: int, threads: int, worker_class: str) -> None:
    """Serves :func:`bare_app` with gunicorn as ``fortyfive serve`` serves the API."""
    options = gunicorn_options("127.0.0.1", port, workers, threads, worker_class=worker_class)
    options["loglevel"] = "warning"
    GunicornServer(lambda: bare_app(redis_url), options).run()


@contextmanager
def api_server(
    data_dir: Path, workers: int, threads: int, extra: Sequence[str] = ()
) -> Iterator[tuple[int, str]]:
    """Runs ``fortyfive serve`` (no RQ worker, with the *extra* options) on its own embedded
    Redis; yields its port and that Redis' URL."""
    with _api_process(data_dir, workers, threads, extra) as (port, url, _):
        yield port, url


@contextmanager
def _api_process(
    data_dir: Path, workers: int, threads: int, extra: Sequence[str] = (), *,
    worker: bool = False,
) -> Iterator[tuple[int, str, int]]:
    """:func:`api_server`, yielding the server's process id too; with *worker*, ``serve``
    runs its RQ worker."""
    port = _free_port()
    env = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
    code = "import sys; from service.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", code, "serve", "--port", str(port), "--workers",
               str(workers), "--threads", str(threads),
               *(() if worker else ("--no-worker",)), "--data-dir", str(data_dir), *extra]
    log = (data_dir / "serve.log").open("w+")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=log,
                               preexec_fn=parent_death_signal())
    try:
        _wait_until_up(port, process, data_dir / "serve.log")
        match = _EMBEDDED_LINE.search((data_dir / "serve.log").read_text())
        if match is None:
            raise RuntimeError("fortyfive serve did not say where its Redis is")
        yield port, match.group(1), process.pid
    finally:
        stop_process(process, 20)
        log.close()


def server_cpu_seconds(pid: int) -> float | None:
    """Returns the CPU seconds (user and system) used so far by process *pid* and its
    descendants but redis-server, from ``/proc`` (``None`` where there is none)."""
    proc = Path("/proc")
    if not (proc / str(pid) / "stat").exists():
        return None
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:]
        fields = rest.split()
        parents[int(entry.name)] = int(fields[1])
        if name != "redis-server":
            times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    total = 0.0
    for child, seconds in times.items():
        ancestor = child
        while ancestor not in (pid, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        if ancestor == pid:
            total += seconds
    return total


@contextmanager
def _bare_server(data_dir: Path, redis_url: str, workers: int, threads: int,
                 worker_class: str) -> Iterator[tuple[int, int]]:
    """Runs the bare XADD endpoint under gunicorn (its log in *data_dir*); yields its port
    and process id."""
    port = _free_port()
    log_path = data_dir / "bare.log"
    log = log_path.open("w+")
    code = ("import sys; from bench.http import serve_bare; "
            "serve_bare(sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5])")
    process = subprocess.Popen(
        [sys.executable, "-c", code, redis_url, str(port), str(workers), str(threads),
         worker_class],
        stdout=log, stderr=log, preexec_fn=parent_death_signal(),
    )
    try:
        _wait_until_up(port, process, log_path, path="/nothing")
        yield port, process.pid
    finally:
        stop_process(process, 20)
        log.close()


def _wait_until_up(port: int, process: subprocess.Popen[Any], log: Path | None,
                   path: str = "/healthz") -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = log.read_text()[-2000:] if log else ""
            raise RuntimeError(f"server exited with status {process.returncode}: {output}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", path)
            connection.getresponse().read()
            connection.close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server on port {port} did not answer within 30 s")


def _free_port() -> int:
    return free_ports()[0]

