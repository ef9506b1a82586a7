"""Drive rounds: how long a round of bot tables takes, from its start to its last game's end.

A drive of ``--tables`` tables of bots (four seats each for classic and auction, six for
bruff) plays ``--rounds`` rounds through the real path: the dispatcher reads the feeds, the
jobs (bots, the drive's own advance) run on a worker in this process, one at a time, as on a
single-worker deployment. Figures: seconds per round (the mean, and the slowest), the games
and the actions they took, actions per second; and, per movement (``--movement`` picks the
one played), how many different partners and opponents a player meets over the rounds.

By default a private redis-server (AOF, ``appendfsync always``) runs in a temporary
directory for the run. ``--redis-url`` uses another server instead: only use a scratch one,
since the benchmark writes a drive, its games and feed entries, and a queue of its own.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import tempfile
import time
import uuid
from collections.abc import Iterator
from typing import Any

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from bench import BenchUsageError, positive_int
from engine.errors import DriveError
from engine.seating import (
    MOVEMENTS,
    SEATED_AT_START,
    meetings,
    schedule_of,
    table_size,
    winners_move,
)
from events.drive_store import DriveStore
from events.redis_store import RedisEventStore
from service.application import commands, drives
from service.processes.embedded_redis import EmbeddedRedis
from workers import context
from workers.dispatcher import Dispatcher


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--tables", type=positive_int, default=10,
                        help="tables of bots a round (default 10)")
    parser.add_argument("--rounds", type=positive_int, default=1, help="rounds (default 1)")
    parser.add_argument("--profile", choices=("classic", "auction", "bruff"), default="classic",
                        help="the games' profile (default classic)")
    parser.add_argument("--target", type=positive_int, default=None,
                        help="the games' target (default: the profile's)")
    parser.add_argument("--format", choices=("progressive", "duplicate"),
                        default="progressive", help="the drive's format (default progressive)")
    parser.add_argument("--movement", choices=MOVEMENTS, default="round_robin",
                        help="the drive's movement (default round_robin); the figures give "
                             "the partners and opponents every movement meets")
    parser.add_argument("--fsync", choices=("always", "everysec"), default="always",
                        help="appendfsync of the private server (default always)")
    parser.add_argument("--redis-url", default=None,
                        help="use this (scratch) server instead of a private one")  # fmt: skip


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs the benchmark and returns its figures.

    :raises events.store.StoreError: if the store cannot be reached or started.
    :raises BenchUsageError: for a drive that cannot be made (a duplicate drive of one table).
    """
    with _server(args.redis_url, args.fsync) as url:
        context.configure(url)
        with RedisEventStore.from_url(url) as store:
            return play_drive(store, url, tables=args.tables, rounds=args.rounds,
                              profile=args.profile, target=args.target, format=args.format,
                              movement=args.movement)


def play_drive(store: RedisEventStore, url: str, *, tables: int, rounds: int, profile: str,
               target: int | None, format: str,
               movement: str = "round_robin") -> dict[str, Any]:
    """Plays a drive of bots to its end through dispatcher and worker; returns the figures.

    :raises BenchUsageError: for a drive that cannot be made (a duplicate drive of one table).
    """
    connection = context.rq_connection(url)
    queue = context.make_queue(connection, f"bench-drive-{uuid.uuid4().hex[:12]}")
    dispatcher = Dispatcher(store, queue, name=f"bench-drive-{uuid.uuid4().hex[:12]}",
                            start="end")
    worker = SimpleWorker([queue], connection=connection, serializer=JSONSerializer)
    size = table_size(profile)
    players = [{"name": f"Bot {n}", "type": "bot"} for n in range(1, tables * size + 1)]
    options = {} if target is None else {"target": target}
    drive_store = DriveStore(store)
    started = time.perf_counter()
    try:
        drive_id, _, _ = drives.create_drive(drive_store, profile=profile, options=options,
                                             players=players, format=format, rounds=rounds,
                                             movement=movement)
    except DriveError as error:
        raise BenchUsageError(f"fortyfive bench drive: --tables {tables}: {error}") from None
    round_started: dict[int, float] = {}
    round_seconds: dict[int, float] = {}
    while True:
        handled = dispatcher.poll()
        ran = worker.work(burst=True, logging_level="WARNING")
        drive, _ = drives.load(drive_store, drive_id)
        now = time.perf_counter()
        for played in drive.played:
            round_started.setdefault(played.number, now)
            if played.ended:
                round_seconds.setdefault(played.number, now - round_started[played.number])
        if drive.finished:
            break
        if not handled and not ran:
            time.sleep(0.01)
    total = time.perf_counter() - started
    actions = sum(commands.load(context.games(), game).version
                  for played in drive.played for game in played.games)
    queue.delete(delete_jobs=True)
    connection.close()
    return {
        "drive": {"profile": profile, "format": format, "tables": tables, "rounds": rounds,
                  "target": target, "players": len(players), "movement": movement},
        "movements": movement_figures(len(players), size, rounds,
                                      played=(movement, drive.schedule)),
        "round_seconds": round(sum(round_seconds.values()) / len(round_seconds), 3),
        "slowest_round_seconds": round(max(round_seconds.values()), 3),
        "total_seconds": round(total, 3),
        "games": tables * rounds,
        "events": actions,
        "events_per_second": round(actions / total, 1),
    }


def movement_figures(
    players: int, size: int, rounds: int,
    played: tuple[str, tuple[tuple[tuple[int, ...], ...], ...]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Returns, per movement, the different partners and opponents a player meets over the
    evening: the mean and the fewest, and ``from``: the movement *played* (its name and the
    drive's schedule as played) counts its real rounds; the others count their schedule
    alone, and ``winners_move``, which seats each round from the last one's results, rounds
    whose moving sides are drawn at random (seeded, so the figures repeat)."""
    figures = {}
    for name in MOVEMENTS:
        if played is not None and played[0] == name:
            schedule, source = played[1], "played"
        elif name == SEATED_AT_START:
            schedule, source = _simulated_winners_move(players, size, rounds), "simulated"
        else:
            schedule, source = schedule_of(name, players, size, rounds), "schedule"
        partners, opponents = meetings(schedule, size // 2)
        figures[name] = {
            "partners_mean": round(sum(partners) / players, 2), "partners_min": min(partners),
            "opponents_mean": round(sum(opponents) / players, 2),
            "opponents_min": min(opponents), "from": source}
    return figures


def _simulated_winners_move(players: int, size: int,
                            rounds: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Returns a ``winners_move`` evening whose moving side at each table is drawn at random
    (seed 0)."""
    draw = random.Random(0)
    schedule = [schedule_of(SEATED_AT_START, players, size, 1)[0]]
    for _ in range(rounds - 1):
        movers = [draw.randrange(size // 2) for _ in schedule[-1]]
        schedule.append(winners_move(schedule[-1], movers, size // 2))
    return tuple(schedule)


@contextlib.contextmanager
def _server(url: str | None, fsync: str) -> Iterator[str]:
    """Yields the URL to measure against: *url*, or a private server of this run."""
    if url:
        yield url
        return
    with tempfile.TemporaryDirectory(prefix="fortyfive-bench-") as data_dir:
        server = EmbeddedRedis(data_dir, appendfsync="always" if fsync == "always" else "everysec")
        with server:
            yield server.url

