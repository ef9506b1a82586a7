"""The API on a real Redis Cluster through two ``fortyfive serve --no-worker`` processes:
every request of a game goes to the other process than the one before, so whatever one
process caches (folded games, seat token digests, head hashes) must follow the other's
appends, and ``If-Match`` still decides."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

from serve_helpers import DEADLINE, Served, create_game, serving

from service.processes.embedded_cluster import EmbeddedCluster


def _answer(server: Served, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """Sends a request as a client should: again while the store is unavailable (503), for up
    to DEADLINE seconds. The session's cluster has a node timeout of a second, so on a loaded
    machine a master can be taken for failed and replaced, and for that moment the API rightly
    answers 503; an action sent again with its Idempotency-Key then gets its first result."""
    end = time.monotonic() + DEADLINE
    while True:
        status, _, answer = server.call(method, path, body, headers)
        if status != 503 or time.monotonic() > end:
            return status, answer
        time.sleep(0.2)


def _logs(*servers: Served) -> str:
    """Returns the end of each server's log, for a failure's message."""
    return "\n".join(f"--- {server.port}:\n{server.log_text()[-3000:]}" for server in servers)


def test_every_request_of_a_game_alternates_between_two_api_processes(
    tmp_path: Path, cluster_env: dict[str, str], redis_cluster: EmbeddedCluster
) -> None:
    # Each process has its own seed node: any node leads to the whole cluster.
    other_seed = {**cluster_env, "REDIS_URL": redis_cluster.urls[1]}
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    with (
        serving(tmp_path / "a", "--no-worker", "--redis-cluster", env=cluster_env) as first,
        serving(tmp_path / "b", "--no-worker", env=other_seed) as second,
    ):
        assert "in the Redis Cluster at REDIS_URL" in first.log_text()
        servers = itertools.cycle([first, second])
        game = create_game(next(servers), ["human", "human"], target=45)
        path = f"/v1/games/{game['id']}"
        actions = 0
        while True:
            status, body = _answer(next(servers), "GET", path)
            assert status == 200, (body, _logs(first, second))
            view = json.loads(body)
            if view["phase"] == "over":
                break
            assert view["turn"] is not None, view
            auth = {"Authorization": f"Bearer {game['seats'][view['turn']]['token']}"}
            status, body = _answer(next(servers), "GET", path, headers=auth)
            assert status == 200, (body, _logs(first, second))
            mine = json.loads(body)
            assert mine["version"] == view["version"]
            action = mine["legal_actions"][0]
            if mine["version"] > 1:
                # The other process decides on the version too: a stale one is refused.
                stale, body = _answer(
                    next(servers), "POST", f"{path}/actions", action,
                    {**auth, "If-Match": f'"{mine["version"] - 1}"'})
                assert stale == 412, (body, _logs(first, second))
            key = {"Idempotency-Key": f"a-{mine['version']}"}
            status, body = _answer(
                next(servers), "POST", f"{path}/actions", action,
                {**auth, "If-Match": f'"{mine["version"]}"', **key})
            assert status == 201, (body, _logs(first, second))
            # The same action again, on the other process: the first result, nothing appended.
            again, repeated = _answer(
                next(servers), "POST", f"{path}/actions", action,
                {**auth, "If-Match": f'"{mine["version"]}"', **key})
            assert again == 201, (repeated, _logs(first, second))
            assert json.loads(repeated)["version"] == json.loads(body)["version"]
            actions += 1
            assert actions < 2000, "the game does not end"
        events = [json.loads(_answer(server, "GET", f"{path}/events?limit=1000")[1])
                  for server in (first, second)]
        assert events[0] == events[1]
        assert events[0]["events"][-1]["version"] == view["version"]
        assert actions > 10
