"""Live streams: many spectators of one game on ``fortyfive serve``, and the API meanwhile.

One run starts ``fortyfive serve`` (gevent workers, no RQ worker) on a free port and its own
embedded Redis, creates a two-seat classic game, and opens ``--streams`` concurrent event
streams on it as spectators, all from one child process that drives raw non-blocking sockets
with :mod:`selectors` (so the load generator costs little CPU and has its own interpreter).
With every stream held, this process plays the game through the API (the first legal
action of the seat to act, every ``--interval`` seconds, up to ``--actions`` or the game's
end) while a probe reads ``GET /v1/games/{id}`` every ``--probe-interval`` seconds.

Reported: the streams held (and refused), the events each should have received and those
delivered, how many streams got every event in order and nothing else, and the p50/p99 of
the probe's reads (and of the actions), and how often this process and the probe had to
reconnect (``api_reconnects``: gunicorn closes a keep-alive connection idle for 5 s, as the
API's is while the streams open; a request it closed unread is sent again once, as a client
would, the actions with an ``Idempotency-Key``). Aim: every stream complete and the reads' p99 under
250 ms. Loopback only; bounded by ``--seconds`` in all.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from bench import positive_int
from bench.http import _percentile, api_server
from bench.http_client import Connection

AIM_P99_MS = 250.0
"""The largest p99 of ``GET /v1/games/{id}`` the aim allows while the streams are held."""

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--streams", type=positive_int, default=1000,
                        help="concurrent spectator streams on the one game (default 1000)")
    parser.add_argument("--actions", type=positive_int, default=200,
                        help="actions to play while the streams are held, at most (default "
                        "200; fewer if the game ends)")
    parser.add_argument("--interval", type=_seconds, default=0.1,
                        help="seconds between two actions (default 0.1)")
    parser.add_argument("--probe-interval", type=_seconds, default=0.02,
                        help="seconds between two reads of the game by the probe (default 0.02)")
    parser.add_argument("--seconds", type=positive_int, default=180,
                        help="time limit of the whole run (default 180)")
    parser.add_argument("--workers", type=positive_int, default=2,
                        help="gunicorn workers of the server (default 2)")
    parser.add_argument("--max-streams", type=positive_int, default=1000,
                        help="the server's bound of streams per worker (default 1000)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs the benchmark and returns its figures.

    :raises RuntimeError: if the server or the spectators do not start.
    """
    deadline = time.monotonic() + args.seconds
    extra = ["--max-streams", str(args.max_streams)]
    with tempfile.TemporaryDirectory(prefix="fortyfive-bench-stream-") as data_dir:
        with api_server(Path(data_dir), args.workers, 16, extra) as (port, _):
            api = _Api(port)
            # To 1000 points, so that the game outlasts the actions and events keep coming.
            game = api.call("POST", "/v1/games",
                            {"profile": "classic", "options": {"target": 1000}})
            path = f"/v1/games/{game['id']}"
            start_version = api.call("GET", path)["version"]
            spectators = _Spectators(port, path, args.streams, start_version, deadline)
            try:
                opened = spectators.opened()
                probe = _Probe(port, path, args.probe_interval)
                probe.start()
                played = _play(api, path, game, args.actions, args.interval, deadline)
                probe.stop()
                expected = _events(api, path, start_version)
                delivery = spectators.check(expected)
            finally:
                spectators.close()
            api.close()
            reconnects = api.connects - 1 + probe.connects - 1
    complete = delivery["complete"]
    return {
        "setup": {
            "streams": args.streams, "gunicorn_workers": args.workers,
            "max_streams_per_worker": args.max_streams, "cpus": os.cpu_count(),
            "interval_s": args.interval, "probe_interval_s": args.probe_interval,
        },
        "streams_held": opened["held"],
        "streams_refused": opened["refused"],
        "seconds_to_open": opened["seconds"],
        "actions": played["count"],
        "game_over": played["over"],
        "events_per_stream": len(expected),
        "events_expected": len(expected) * opened["held"],
        "events_delivered": delivery["delivered"],
        "streams_complete": complete,
        "streams_incomplete": delivery["incomplete"],
        "get_game": probe.summary(),
        "post_action": _summary(played["latencies"]),
        "api_reconnects": reconnects,
        "aim": {"streams_complete": args.streams, "get_game_p99_ms": AIM_P99_MS},
        "aim_met": complete == args.streams and probe.summary()["p99_ms"] < AIM_P99_MS,
    }


class _Api:
    """One keep-alive connection to the server, for JSON calls that must succeed.

    It reconnects as a client does (:class:`bench.http_client.Connection`): gunicorn closes a
    keep-alive connection idle for 5 s (as it is while a thousand streams open), and a
    request sent on a connection the server closed before any byte of the answer is sent
    once more on a new one. The actions :func:`_play` posts carry an ``Idempotency-Key``,
    so that retry can never play one twice.
    """

    def __init__(self, port: int) -> None:
        self._http = Connection("127.0.0.1", port, timeout=30)

    @property
    def connects(self) -> int:
        """How many connections were opened (one, plus one per reconnection)."""
        return self._http.connects

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> Any:
        """Returns the JSON answer of a 2xx call; raises ``RuntimeError`` for any other."""
        payload = json.dumps(body).encode() if body is not None else None
        sent = {"Content-Type": "application/json"} if payload is not None else {}
        status, data = self._http.request(method, path, payload, {**sent, **(headers or {})})
        if not 200 <= status < 300:
            raise RuntimeError(f"{method} {path} answered {status}: {data[:300]!r}")
        return json.loads(data)

    def timed_get(self, path: str) -> float:
        """Returns the seconds one successful GET of *path* took."""
        start = time.perf_counter()
        self.call("GET", path)
        return time.perf_counter() - start

    def close(self) -> None:
        self._http.close()


def _play(api: _Api, path: str, game: dict[str, Any], actions: int, interval: float,
          deadline: float) -> dict[str, Any]:
    """Plays the first legal action (not a jink) of the seat to act, *actions* times at most
    (or until the game ends, or *deadline*); returns the count, the latencies and whether it
    ended."""
    tokens = [{"Authorization": f"Bearer {seat['token']}"} for seat in game["seats"]]
    view = api.call("GET", path)
    latencies: list[float] = []
    while len(latencies) < actions and view["winner"] is None and time.monotonic() < deadline:
        seat = view["turn"]
        mine = api.call("GET", path, headers=tokens[seat])
        # A jink ends the game at once: play on instead, so that events keep coming.
        action = next((action for action in mine["legal_actions"] if action["type"] != "jink"),
                      mine["legal_actions"][0])
        start = time.perf_counter()
        view = api.call("POST", f"{path}/actions", action,
                        {**tokens[seat], "If-Match": f'"{mine["version"]}"',
                         "Idempotency-Key": uuid.uuid4().hex})
        latencies.append(time.perf_counter() - start)
        time.sleep(interval)
    return {"count": len(latencies), "latencies": latencies, "over": view["winner"] is not None}


def _events(api: _Api, path: str, after: int) -> list[list[Any]]:
    """Returns ``[version, type]`` of every event after *after*, as a spectator reads them."""
    events: list[list[Any]] = []
    while True:
        page = api.call("GET", f"{path}/events?after={after}&limit=1000")
        events += [[event["version"], event["type"]] for event in page["events"]]
        if page["next_after"] is None:
            return events
        after = page["next_after"]


class _Probe:
    """A thread reading the game every *interval* seconds on its own connection."""

    def __init__(self, port: int, path: str, interval: float) -> None:
        self._api = _Api(port)
        self._path = path
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.latencies: list[float] = []

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.latencies.append(self._api.timed_get(self._path))
            self._stop.wait(self._interval)

    @property
    def connects(self) -> int:
        """How many connections the probe opened."""
        return self._api.connects

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(60)
        self._api.close()

    def summary(self) -> dict[str, Any]:
        return _summary(self.latencies)


def _summary(latencies: list[float]) -> dict[str, Any]:
    ordered = sorted(latencies)
    return {
        "count": len(ordered),
        "p50_ms": round(_percentile(ordered, 50) * 1000, 2),
        "p99_ms": round(_percentile(ordered, 99) * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2) if ordered else 0.0,
    }


class _Spectators:
    """The child process holding the streams (see :func:`bench.spectators.spectate_main`)."""

    def __init__(self, port: int, path: str, streams: int, after: int, deadline: float) -> None:
        code = "import sys; from bench.spectators import spectate_main; sys.exit(spectate_main())"
        seconds = max(deadline - time.monotonic(), 1.0)
        self._process = subprocess.Popen(
            [sys.executable, "-c", code, str(port), path, str(streams), str(after),
             f"{seconds:.1f}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )

    def _answer(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the spectators exited with status {self._process.wait()}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def opened(self) -> dict[str, Any]:
        """Waits until every stream was answered; returns the held and refused counts."""
        return self._answer()

    def check(self, expected: list[list[Any]]) -> dict[str, Any]:
        """Sends the events every stream should have received; returns the delivery."""
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(expected) + "\n")
        self._process.stdin.flush()
        return self._answer()

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 60, got {text!r}")
    return value
