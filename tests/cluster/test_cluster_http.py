"""The API on a real Redis Cluster through two ``fortyfive serve --no-worker`` processes:
every request of a game goes to the other process than the one before, so whatever one
process caches (folded games, seat token digests, head hashes) must follow the other's
appends, and ``If-Match`` still decides."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from serve_helpers import create_game, serving

from events.embedded_cluster import EmbeddedCluster


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
            view = next(servers).json(path)
            assert view is not None
            if view["phase"] == "over":
                break
            assert view["turn"] is not None, view
            auth = {"Authorization": f"Bearer {game['seats'][view['turn']]['token']}"}
            mine = next(servers).json(path, headers=auth)
            assert mine is not None and mine["version"] == view["version"]
            action = mine["legal_actions"][0]
            if mine["version"] > 1:
                # The other process decides on the version too: a stale one is refused.
                stale, _, _ = next(servers).call(
                    "POST", f"{path}/actions", action,
                    {**auth, "If-Match": f'"{mine["version"] - 1}"'})
                assert stale == 412
            key = {"Idempotency-Key": f"a-{mine['version']}"}
            status, _, body = next(servers).call(
                "POST", f"{path}/actions", action,
                {**auth, "If-Match": f'"{mine["version"]}"', **key})
            assert status == 201, body
            # The same action again, on the other process: the first result, nothing appended.
            again, _, repeated = next(servers).call(
                "POST", f"{path}/actions", action,
                {**auth, "If-Match": f'"{mine["version"]}"', **key})
            assert again == 201 and json.loads(repeated)["version"] == json.loads(body)["version"]
            actions += 1
            assert actions < 2000, "the game does not end"
        events = [json.loads(server.call("GET", f"{path}/events?limit=1000")[2])
                  for server in (first, second)]
        assert events[0] == events[1]
        assert events[0]["events"][-1]["version"] == view["version"]
        assert actions > 10
