"""Several seed nodes in ``REDIS_URL``: with the first seed dead, a new API process and a new
worker start on the cluster all the same (the client tries the seeds in turn), and play a game
through it."""

from __future__ import annotations

import contextlib
from pathlib import Path

from serve_helpers import create_game, serving, wait_until
from test_cluster_workers import worker

from service.application.signing import write_key
from service.processes.embedded_cluster import EmbeddedCluster
from service.processes.embedded_redis import EmbeddedRedis


def _a_replica(cluster: EmbeddedCluster) -> EmbeddedRedis:
    """A running node that is a replica now: killing it leaves every slot served."""
    for node in cluster.nodes:
        if node.running:
            with contextlib.closing(cluster.client(node)) as client:
                if client.execute_command("ROLE")[0] == "slave":
                    return node
    raise AssertionError("the cluster has no replica")


def test_an_api_process_and_a_worker_start_while_the_first_seed_is_dead(
    tmp_path: Path, cluster_env: dict[str, str], redis_cluster: EmbeddedCluster
) -> None:
    first = _a_replica(redis_cluster)
    others = [node.url for node in redis_cluster.nodes if node.running and node is not first]
    seeds = ",".join([first.url, *others[:2]])
    env = {**cluster_env, "REDIS_URL": seeds}
    key = tmp_path / "service-key.pem"
    write_key(key)
    redis_cluster.kill(first)
    try:
        with (
            serving(tmp_path, "--no-worker", "--redis-cluster", "--signing-key", str(key),
                    env=env) as served,
            worker(tmp_path / "worker.log", env, "--redis-cluster", "--signing-key",
                   str(key)) as runner,
        ):
            game = create_game(served, ["bot", "bot"], target=15)
            wait_until(lambda: (served.json(f"/v1/games/{game['id']}") or {}).get("phase")
                       == "over", "a bot game played by the new worker to its end")
            assert runner.poll() is None, (tmp_path / "worker.log").read_text()
            assert served.json("/readyz") is not None, "the API process reaches the store"
    finally:
        redis_cluster.revive(first)

