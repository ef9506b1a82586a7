"""Event store throughput: appends against bare XADD, cold loads against cached ones.

Two figures, measured side by side in one run, on the same server and the same client:

- ``appends``: single-event appends per second through :class:`RedisEventStore` (sealing,
  the compare-and-append script, a command id each) against bare ``XADD`` of an entry of the
  same size, in alternating rounds so that drift hits both alike. Aim: at least half the
  bare rate.
- ``loads``: loads per second of one 2,000-event game through :class:`FoldCache`, cold (an
  empty cache: read, verify, decode and fold every event) and cached (the game unchanged:
  one read that finds nothing new). Aim: cached at least 20 times faster.
- ``cold_phases``: the parts of one cold load of that game, each timed on its own over
  the same loads, by the functions :meth:`RedisEventStore.read` runs: ``read`` (the pages
  and their reply parsing: :meth:`RedisEventStore.entries`), ``checks`` (each entry's id
  and each body's hash: :func:`checked_entries`), ``decode`` (JSON, the envelope, the event
  at its current schema, each envelope's link to the one before: :func:`decoded_entries`)
  and ``fold``; with their sum and the cost per event.
- ``before_and_after`` (only with ``--before DIR``): CPU milliseconds per cold load of that
  same game by this checkout and by an older one at ``DIR`` (such as the code before the
  performance work), each in a worker process of its own (``bench/cold_load.py``) reading
  from the same server, taking turns load by load; their medians and the ratio after /
  before (aim: at most half), and the same for a read alone (``RedisEventStore.read``: no
  fold, no cache). Only the client's CPU is counted, not the server's.

By default a private redis-server (AOF, ``appendfsync always``) runs in a temporary
directory for the run. ``--redis-url`` uses another server instead: only use a scratch one,
since the benchmark writes games (ids ``bench-...``) and their partition feed entries.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bench import BenchUsageError, positive_int
from bench.redis_usage import NOTHING, SCRIPT_COMMANDS, RedisUsage, per_unit, read_usage
from events.chain import GENESIS_HASH
from events.entries import checked_entries, decoded_entries
from events.envelope import RecordedEvent
from events.fold_cache import FoldCache
from events.redis_store import RedisEventStore, game_key
from events.types import (
    BidMade,
    BidPassed,
    CardPlayed,
    DeckCut,
    DeckShuffled,
    Event,
    GameCreated,
    TrumpNamed,
    event_to_data,
)
from service.processes.embedded_redis import EmbeddedRedis

APPEND_AIM = 0.5
"""The least share of the bare XADD rate the store's appends should reach."""
SPEEDUP_AIM = 20.0
"""The least speed-up of a cached load of an unchanged game over a cold one."""
BEFORE_AIM = 0.5
"""The most CPU a cold load may cost, as a share of the code before (``--before``)."""

Fold = tuple[Callable[[], Any], Callable[[Any, RecordedEvent], Any]]
"""An initial-state factory and a fold step, as :class:`FoldCache` takes them."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--appends", type=positive_int, default=2000,
                        help="single-event appends, and as many bare XADDs (default 2000)")
    parser.add_argument("--events", type=positive_int, default=2000,
                        help="events in the game loaded cold and cached (default 300)")
    parser.add_argument("--loads", type=positive_int, default=30,
                        help="cold loads to time; cached loads are 20 times as many "
                        "(default 30)")
    parser.add_argument("--fold", choices=("digest", "engine"), default="engine",
                        help="fold of the loaded game: the engine's fold over a bruff match "
                        "it plays itself (default), or a hash over each event's data")
    parser.add_argument("--fsync", choices=("always", "everysec"), default="always",
                        help="appendfsync of the private server (default always)")
    parser.add_argument("--redis-url", default=None,
                        help="use this (scratch) server instead of a private one")
    parser.add_argument("--before", type=_checkout, default=None, metavar="DIR",
                        help="an older checkout of fortyfive: load the same game cold by "
                        "it and by this one in turns, and report CPU ms per load and their "
                        "ratio (engine fold only)")  # fmt: skip


def _checkout(text: str) -> pathlib.Path:
    path = pathlib.Path(text)
    needed = ("events/redis_store.py", "events/fold_cache.py", "engine/fold.py")
    if not all((path / name).is_file() for name in needed):
        raise argparse.ArgumentTypeError(
            f"expected a checkout of fortyfive (with {', '.join(needed)}), got {text!r}")
    return path


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs the benchmark and returns its figures.

    :raises events.store.StoreError: if the store cannot be reached or started.
    """
    if args.before is not None and args.fold != "engine":
        raise BenchUsageError("fortyfive bench store: --before loads the game with the engine's "
                              "fold; leave out --fold digest")
    fold, game = _engine_game(args.events) if args.fold == "engine" else _digest_game(args.events)
    with _server(args.redis_url, args.fsync) as (url, embedded):
        with RedisEventStore.from_url(url) as store:
            info = store.client.info("server")
            fsync = store.client.config_get("appendfsync").get("appendfsync", "?")
            game_id = store_game(store, game)
            figures = {
                "server": {
                    "redis_version": info.get("redis_version", "?"),
                    "appendfsync": fsync,
                    "embedded": embedded,
                },
                "appends": measure_appends(store, args.appends),
                **measure_loads(store, game_id, len(game), fold, args.loads, args.fold),
            }
            if args.before is not None:
                figures["before_and_after"] = measure_before(url, game_id, args.before, args.loads)
            return figures


def measure_appends(store: RedisEventStore, count: int, rounds: int = 5) -> dict[str, Any]:
    """Returns single-event appends per second through *store* against bare XADD."""
    game_id = f"bench-{uuid.uuid4().hex}"
    bare_key = game_key(f"bench-bare-{uuid.uuid4().hex}")
    sample = store.append(game_id, 0, [CardPlayed(0, "5S")], actor=0, command_id="warm-up")
    body = json.dumps(sample.recorded[0].envelope.body(), separators=(",", ":"))
    fields = {"body": body, "hash": sample.recorded[0].envelope.hash}
    client = store.client
    per_round = max(1, count // rounds)
    bare_seconds = store_seconds = 0.0
    bare_redis = store_redis = NOTHING
    bare_next, version = 1, 1
    for _ in range(rounds):
        before = read_usage(client)
        started = time.perf_counter()
        for _ in range(per_round):
            client.xadd(bare_key, fields, id=f"0-{bare_next}")
            bare_next += 1
        bare_seconds += time.perf_counter() - started
        between = read_usage(client)
        bare_redis += between.since(before)
        started = time.perf_counter()
        for _ in range(per_round):
            store.append(game_id, version, [CardPlayed(version % 6, "5S")], actor=version % 6,
                         command_id=f"c{version}")  # fmt: skip
            version += 1
        store_seconds += time.perf_counter() - started
        store_redis += read_usage(client).since(between)
    done = per_round * rounds
    bare_rate, store_rate = done / bare_seconds, done / store_seconds
    client.delete(bare_key)
    ratio = store_rate / bare_rate
    return {
        "count": done,
        "bare_xadd_per_second": round(bare_rate, 1),
        "store_per_second": round(store_rate, 1),
        "ratio_store_to_bare": round(ratio, 3),
        "aim": f">= {APPEND_AIM:g}",
        "within_aim": ratio >= APPEND_AIM,
        "redis": append_footprint(store_redis, bare_redis, done),
    }


def append_footprint(appends: RedisUsage, bare: RedisUsage, count: int) -> dict[str, Any]:
    """Returns what *count* appends and as many bare XADDs cost redis-server (see
    :mod:`bench.redis_usage`): the append script's microseconds per call against a bare
    XADD's, by ``INFO commandstats``, and redis-server's CPU per append against per XADD."""
    script = appends.usec_per_call(SCRIPT_COMMANDS)
    xadd = bare.usec_per_call(("xadd",))
    per_append, per_xadd = per_unit(appends, count), per_unit(bare, count)
    return {
        "script_usec_per_call": round(script, 2) if script is not None else None,
        "bare_xadd_usec_per_call": round(xadd, 2) if xadd is not None else None,
        "script_to_xadd": round(script / xadd, 2) if script and xadd else None,
        "script_to_xadd_aim": "<= 4",
        "redis_cpu_us_per_append": per_append["redis_cpu_us"],
        "redis_cpu_us_per_bare_xadd": per_xadd["redis_cpu_us"],
        "append_commands": per_append["commands"],
    }


def store_game(store: RedisEventStore, game: Sequence[Event]) -> str:
    """Appends *game* to a new game, one event per append, and returns the game's id."""
    game_id = f"bench-{uuid.uuid4().hex}"
    for version, event in enumerate(game):
        store.append(game_id, version, [event], actor="server")
    return game_id


def measure_loads(
    store: RedisEventStore, game_id: str, events: int, fold: Fold, loads: int, fold_name: str
) -> dict[str, Any]:
    """Returns loads per second of *game_id* (of *events* events) with an empty and a warm
    cache, and the parts of a cold load."""
    initial, apply = fold
    cache = FoldCache(store, initial, apply)
    reference = cache.load(game_id)
    cold_seconds = 0.0
    phases = dict.fromkeys(("read", "checks", "decode", "fold"), 0.0)
    for _ in range(loads):  # A cold load, then one in parts: drift hits both alike.
        started = time.perf_counter()
        cache.clear()
        assert cache.load(game_id).state == reference.state, "the fold is not deterministic"
        cold_seconds += time.perf_counter() - started
        for name, seconds in load_in_phases(store, game_id, fold, reference.state).items():
            phases[name] += seconds
    cold_rate = loads / cold_seconds
    cached_loads = loads * 20
    started = time.perf_counter()
    for _ in range(cached_loads):
        cache.load(game_id)
    cached_rate = cached_loads / (time.perf_counter() - started)
    speedup = cached_rate / cold_rate
    return {
        "loads": {
            "events": events,
            "fold": fold_name,
            "cold_per_second": round(cold_rate, 1),
            "cached_per_second": round(cached_rate, 1),
            "cold_milliseconds": round(1000 / cold_rate, 3),
            "cached_milliseconds": round(1000 / cached_rate, 3),
            "speedup_cached_over_cold": round(speedup, 1),
            "aim": f">= {SPEEDUP_AIM:g}",
            "within_aim": speedup >= SPEEDUP_AIM,
        },
        "cold_phases": _phases(phases, loads, events),
        "memory": _memory(cache, events),
    }


def measure_before(url: str, game_id: str, before: pathlib.Path, loads: int) -> dict[str, Any]:
    """Returns the CPU milliseconds per cold load of *game_id* by this checkout and by the
    one at *before*, each in a worker (``bench/cold_load.py``) of its own, taking turns.

    After a warm-up load each, the workers load the game *loads* times each, alternately
    (and which one goes first alternates too), so that drift hits both alike.

    :raises RuntimeError: if a worker fails, or the two reach different heads.
    """
    script = pathlib.Path(__file__).with_name("cold_load.py")
    roots = {"after": pathlib.Path(__file__).resolve().parents[1], "before": before.resolve()}
    workers = {
        side: subprocess.Popen([sys.executable, "-I", str(script), str(root), url, game_id],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for side, root in roots.items()
    }
    samples: dict[str, list[dict[str, Any]]] = {side: [] for side in workers}
    try:
        heads = {side: _cold_load(worker) for side, worker in workers.items()}  # Warm-ups.
        for turn in range(loads):
            for side in ("after", "before") if turn % 2 == 0 else ("before", "after"):
                samples[side].append(_cold_load(workers[side]))
    finally:
        for worker in workers.values():
            if worker.stdin is not None:
                worker.stdin.close()
            worker.wait(timeout=30)
    reached = {(sample["version"], sample["head"])
               for side in workers for sample in (heads[side], *samples[side])}
    if len(reached) != 1:
        raise RuntimeError(f"the two checkouts loaded different heads: {sorted(reached)}")
    figures: dict[str, Any] = {"loads": loads, "events": next(iter(reached))[0],
                               "directory": str(before)}
    for side in ("before", "after"):
        cpu = [sample["cpu_seconds"] * 1000 for sample in samples[side]]
        wall = [sample["wall_seconds"] * 1000 for sample in samples[side]]
        read = [sample["read_cpu_seconds"] * 1000 for sample in samples[side]]
        figures[side] = {
            "cpu_milliseconds": round(statistics.median(cpu), 3),
            "cpu_milliseconds_mean": round(statistics.fmean(cpu), 3),
            "wall_milliseconds": round(statistics.median(wall), 3),
            "read_cpu_milliseconds": round(statistics.median(read), 3),
        }
    ratio = figures["after"]["cpu_milliseconds"] / figures["before"]["cpu_milliseconds"]
    figures["ratio_cpu_after_to_before"] = round(ratio, 3)
    figures["ratio_read_cpu_after_to_before"] = round(
        figures["after"]["read_cpu_milliseconds"] / figures["before"]["read_cpu_milliseconds"], 3)
    figures["aim"] = f"<= {BEFORE_AIM:g}"
    figures["within_aim"] = ratio <= BEFORE_AIM
    return figures


def _cold_load(worker: subprocess.Popen[str]) -> dict[str, Any]:
    """Asks *worker* for one cold load and returns what it measured."""
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write("load\n")
    worker.stdin.flush()
    line = worker.stdout.readline()
    if not line:
        raise RuntimeError(f"the cold-load worker stopped (exit status {worker.wait()})")
    sample: dict[str, Any] = json.loads(line)
    return sample


def _memory(cache: FoldCache[Any], events: int) -> dict[str, Any]:
    """Returns the bytes the cache holds for the one game it holds, per game and per event."""
    stats = cache.stats()
    held = stats["bytes_per_game"] or 0
    return {
        "cached_games": stats["games"],
        "bytes_per_cached_game": held,
        "bytes_per_event": round(held / events, 1) if events else 0.0,
        "games_per_64_mib": (64 << 20) // held if held else None,
    }


def load_in_phases(
    store: RedisEventStore, game_id: str, fold: Fold, reference: Any
) -> dict[str, float]:
    """Loads *game_id* cold the way :meth:`RedisEventStore.read` and :class:`FoldCache` do
    (for a stream in the usual form), and returns the seconds of each part: read, checks,
    decode and fold."""
    initial, apply = fold
    started = time.perf_counter()
    entries = store.entries(game_id)
    read = time.perf_counter()
    checked = checked_entries(game_id, entries, 0)
    checks = time.perf_counter()
    recorded = decoded_entries(game_id, checked, GENESIS_HASH)
    decoded = time.perf_counter()
    assert len(recorded) == len(entries), "the stream is not in the usual form"
    state = initial()
    for event in recorded:
        state = apply(state, event)
    folded = time.perf_counter()
    assert state == reference, "the fold is not deterministic"
    return {
        "read": read - started,
        "checks": checks - read,
        "decode": decoded - checks,
        "fold": folded - decoded,
    }


def _phases(phases: dict[str, float], loads: int, events: int) -> dict[str, Any]:
    """Returns the mean milliseconds of each part of a cold load, their sum and shares."""
    total = sum(phases.values())
    result: dict[str, Any] = {"events": events}
    for name, seconds in phases.items():
        result[f"{name}_milliseconds"] = round(seconds / loads * 1000, 3)
    result["total_milliseconds"] = round(total / loads * 1000, 3)
    result["microseconds_per_event"] = round(total / loads / max(events, 1) * 1e6, 2)
    for name, seconds in phases.items():
        result[f"{name}_share"] = round(seconds / total, 3) if total else 0.0
    return result


def digest_fold() -> Fold:
    """Returns a deterministic fold that needs no engine: a running SHA-256 over each
    event's type and data (as sorted JSON), and a count per type."""

    def initial() -> tuple[bytes, tuple[tuple[str, int], ...]]:
        return b"", ()

    def apply(state: Any, recorded: RecordedEvent) -> Any:
        digest, counts = state
        event = recorded.event
        text = json.dumps(event_to_data(event), sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(digest + event.TYPE.encode() + text.encode()).digest()
        tally = dict(counts)
        tally[event.TYPE] = tally.get(event.TYPE, 0) + 1
        return digest, tuple(sorted(tally.items()))

    return initial, apply


def _digest_game(size: int) -> tuple[Fold, list[Event]]:
    """Returns the digest fold and a synthetic game of *size* events shaped like a real one."""
    chance = random.Random(size)
    cards = [rank + suit for suit in "SCDH" for rank in "A23456789TJQK"] + ["JK"]
    salt = uuid.uuid4().hex  # The store refuses a seed commitment used by another game.
    seed = hashlib.sha256(b"bench").hexdigest()
    game: list[Event] = [GameCreated("bruff", {"target": 25}, ("bot",) * 6, seed[:16])]
    while len(game) < size:
        seed = hashlib.sha256(f"bench/{salt}/{len(game)}".encode()).hexdigest()
        game += [
            DeckShuffled(len(game), "hmac-sha256-fy/1", seed, seed),
            DeckCut(chance.randrange(6), chance.randrange(1, 52)),
            BidMade(chance.randrange(6), 20),
            BidPassed(chance.randrange(6)),
            TrumpNamed(chance.randrange(6), chance.choice("SCDH")),
            *(CardPlayed(seat % 6, chance.choice(cards)) for seat in range(30)),
        ]
    return digest_fold(), game[:size]


def _engine_game(size: int) -> tuple[Fold, list[Event]]:
    """Returns the engine's fold and the first *size* events of a bruff match it plays with
    seeded random legal actions (the first seed whose match lasts that long, of a few)."""
    from engine.fold import apply_event

    game: list[Event] = []
    for attempt in range(20):
        game = _engine_match(size, random.Random(f"{size}/{attempt}"))
        if len(game) >= size:
            break

    def apply(state: Any, recorded: RecordedEvent) -> Any:
        return apply_event(state, recorded.event)

    return (lambda: None, apply), game[:size]


def _engine_match(size: int, chance: random.Random) -> list[Event]:
    """Returns up to *size* events of a bruff match of six bots playing at *chance*."""
    from engine.actions import decide, legal_actions, start_game
    from engine.fold import apply_event

    counter = iter(range(1 << 62))

    salt = uuid.uuid4().hex  # The store refuses a seed commitment used by another game.

    def entropy() -> bytes:
        return hashlib.sha256(f"bench/{salt}/{next(counter)}".encode()).digest()

    options = {"match_games": 9}
    game = list(start_game("bruff", options, ["bot"] * 6, entropy(), entropy()))
    state = None
    for event in game:
        state = apply_event(state, event)
    while len(game) < size and state is not None and state.phase != "over":
        seat = state.turn
        if seat is None:
            break
        actions = [action for action in legal_actions(state, seat) if action["type"] != "jink"]
        for event in decide(state, seat, chance.choice(actions), entropy=entropy()):
            state = apply_event(state, event)
            game.append(event)
    return game


@contextlib.contextmanager
def _server(url: str | None, fsync: str) -> Iterator[tuple[str, bool]]:
    """Yields the URL to measure against, and whether it is a private server of this run."""
    if url:
        yield url, False
        return
    with tempfile.TemporaryDirectory(prefix="fortyfive-bench-") as data_dir:
        server = EmbeddedRedis(data_dir, appendfsync="always" if fsync == "always" else "everysec")
        with server:
            yield server.url, True

