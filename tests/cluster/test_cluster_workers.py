"""The workers on a real Redis Cluster: two ``fortyfive worker --redis-cluster`` processes
share the feeds' partitions, their queue on a Redis of its own, and bot games finish through
them, also when one of them is killed mid-game (the other takes its partitions)."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from serve_helpers import DEADLINE, Served, create_game, serving, wait_until

from events.redis_store import RedisEventStore
from events.store import PARTITIONS
from service.application.commands import new_cache
from service.application.signing import KEY_ENV, write_key
from service.processes.embedded_cluster import EmbeddedCluster
from service.processes.lifeline import parent_death_signal
from service.processes.supervisor import stop_process
from workers import context, integrity, projections, retention
from workers.jobs import bot_command_id
from workers.resilient import ABANDON_MARGIN, BEAT_SECONDS, MAINTENANCE_SECONDS

RECOVERY_SECONDS = (
    BEAT_SECONDS + ABANDON_MARGIN + 2 * MAINTENANCE_SECONDS + context.retry().intervals[0])
"""The longest a job the killed worker had taken waits for its retry: its execution expires,
the survivor's registry maintenance finds it (a job the worker had not yet marked started is
failed at the pass after, :data:`workers.resilient.STUCK_SECONDS`), and RQ retries it after
the first interval."""


@contextmanager
def worker(log: Path, env: Mapping[str, str], *args: str) -> Iterator[subprocess.Popen[bytes]]:
    """Runs ``fortyfive worker`` with *args*, its output in *log*, until the block ends."""
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
             "worker", *args],
            env={**os.environ, **env}, stdout=sink, stderr=subprocess.STDOUT,
            preexec_fn=parent_death_signal())
    try:
        yield process
    finally:
        stop_process(process, 20.0)


def _shares(log: Path) -> list[int]:
    """Returns the partition counts the worker logged, in order."""
    return [int(line.split(" handles ", 1)[1].split()[0])
            for line in log.read_text("utf-8", "replace").splitlines() if " handles " in line]


def _over(served: Served, game_id: str) -> bool:
    return (served.json(f"/v1/games/{game_id}") or {}).get("phase") == "over"


def test_bot_games_finish_through_two_workers_that_share_the_partitions(
    tmp_path: Path, cluster_env: dict[str, str], redis_cluster: EmbeddedCluster
) -> None:
    logs = [tmp_path / "worker-1.log", tmp_path / "worker-2.log"]
    base = {name: value for name, value in cluster_env.items() if name != "REDIS_CLUSTER"}
    key = tmp_path / "service-key.pem"  # The service's key, given to all three.
    write_key(key)
    with (
        serving(tmp_path, "--no-worker", "--redis-cluster", "--signing-key", str(key),
                env=cluster_env) as served,
        worker(logs[0], base, "--redis-cluster", "--signing-key", str(key)) as first,
        worker(logs[1], {**cluster_env, KEY_ENV: str(key)}),
    ):
        # Each takes its share once it sees the other's heartbeat.
        wait_until(lambda: all(_shares(log) and _shares(log)[-1] < PARTITIONS for log in logs),
                   "the workers sharing the partitions")
        assert sum(_shares(log)[-1] for log in logs) == PARTITIONS
        games = [create_game(served, ["bot", "bot"], target=15) for _ in range(4)]
        wait_until(lambda: all(_over(served, game["id"]) for game in games[:2]),
                   "two bot games' end")
        first.send_signal(signal.SIGKILL)
        first.wait()
        # The survivor takes every partition, and the other games finish.
        wait_until(lambda: _shares(logs[1])[-1] == PARTITIONS, "the survivor taking over")
        later = create_game(served, ["bot", "bot"], target=15)
        wait_until(lambda: all(_over(served, game["id"]) for game in [*games, later]),
                   "every bot game's end", DEADLINE + RECOVERY_SECONDS)
        with RedisEventStore.from_url(redis_cluster.url, cluster=True) as store:
            for game in [*games, later]:
                events = store.read(game["id"])  # Verified link by link.
                runs = [(command, list(batch)) for command, batch in itertools.groupby(
                    events, key=lambda event: event.envelope.command_id)]
                bots = [(command, batch) for command, batch in runs if command]
                # Every bot action was decided once, by a job, on the version before it.
                assert len({command for command, _ in bots}) == len(bots) > 0
                for command, batch in bots:
                    assert command == bot_command_id(game["id"], batch[0].version - 1)
            # The periodic jobs on the cluster, while the workers still run the projections of
            # the last moves: the chain sweep scans every node, and the retention pass archives
            # the finished games (once their projection marked them over).
            recent = projections.recent_games(store.client, 500)
            assert {game["id"] for game in [*games, later]} <= {r["game_id"] for r in recent}
            swept = integrity.sweep(store)
            assert swept["checked"] >= len(games) + 1
            assert not {game["id"] for game in [*games, later]} & set(swept["failed"])
            archived: set[str] = set()

            def archive_pass() -> bool:
                done = retention.run(store, new_cache(store), retention.Policy(None, 1),
                                     now=time.time() + 60)
                archived.update(entry.game_id for entry in done.archived)
                return {game["id"] for game in [*games, later]} <= archived

            # A game's last projection may be the job the killed worker had taken.
            wait_until(archive_pass, "the finished games archived", DEADLINE + RECOVERY_SECONDS)
            assert store.tombstone(later["id"]) is not None
            assert len(store.read(later["id"])) == len(events)


def test_serve_runs_its_own_worker_on_the_cluster_with_the_queue_apart(
    tmp_path: Path, cluster_env: dict[str, str]
) -> None:
    with serving(tmp_path, env=cluster_env) as served:
        game = create_game(served, ["bot", "bot"], target=15)
        wait_until(lambda: _over(served, game["id"]), "a bot game's end")
        ready = wait_until(lambda: served.json("/readyz"), "/readyz answering 200")
        assert ready["status"] == "ready"
