"""Failover on a real Redis Cluster: a master killed with SIGKILL mid-game is replaced by its
replica; meanwhile the store raises only "unavailable" (the API answers 503 with
``Retry-After``, never 500), and no append acknowledged before, during or after the kill is
lost, because an append is acknowledged only once the replica has it (``WAIT``)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from serve_helpers import DEADLINE, create_game, serving, wait_until

from events.errors import StoreUnavailableError
from events.keys import game_key
from events.redis_store import RedisEventStore
from events.types import BidMade
from service.processes.embedded_cluster import EmbeddedCluster


def test_a_killed_master_fails_over_and_no_acknowledged_append_is_lost(
    redis_cluster: EmbeddedCluster,
) -> None:
    store = RedisEventStore.from_url(redis_cluster.url, cluster=True, replicas=1)
    games = [f"g-failover-{uuid.uuid4().hex}" for _ in range(6)]
    acked = dict.fromkeys(games, 0)
    faults: list[BaseException] = []
    unavailable = [0]
    stop = threading.Event()

    def write(game_id: str) -> None:
        version = 0
        while not stop.is_set():
            try:
                result = store.append(game_id, version, [BidMade(seat=0, amount=20)], actor=0,
                                      command_id=f"c{version + 1}")
            except StoreUnavailableError:
                unavailable[0] += 1
                time.sleep(0.02)
                continue
            except BaseException as error:  # noqa: BLE001 - reported below
                faults.append(error)
                return
            version = acked[game_id] = result.version

    writers = [threading.Thread(target=write, args=(game,), daemon=True) for game in games]
    for writer in writers:
        writer.start()
    victim = redis_cluster.master_of(game_key(games[0]))
    try:
        wait_until(lambda: min(acked.values()) >= 20 or faults, "20 appends to every game")
        before = acked[games[0]]
        redis_cluster.kill(victim)
        killed = time.monotonic()
        wait_until(lambda: acked[games[0]] > before or faults, "an append after the failover")
        served_again = time.monotonic() - killed
        wait_until(lambda: acked[games[0]] > before + 10 or faults, "appends after it")
    finally:
        stop.set()
        for writer in writers:
            writer.join(DEADLINE)
        redis_cluster.revive(victim)
    assert not faults, faults
    print(f"failover: served again {served_again:.2f} s after the kill, "
          f"{unavailable[0]} unavailable answers")
    assert unavailable[0] > 0  # The master was down for a while.
    with RedisEventStore.from_url(redis_cluster.url, cluster=True) as fresh:
        for game_id, version in acked.items():
            events = fresh.read(game_id)  # Verified link by link.
            assert len(events) >= version
            assert [event.envelope.command_id for event in events[:version]] == [
                f"c{number}" for number in range(1, version + 1)]
    store.close()


def test_the_api_answers_503_during_a_failover_and_keeps_every_acknowledged_action(
    tmp_path: Path, cluster_env: dict[str, str], redis_cluster: EmbeddedCluster
) -> None:
    statuses: dict[int, int] = {}
    acknowledged: list[str] = []
    victim = None
    with serving(tmp_path, "--no-worker", "--redis-cluster", env=cluster_env) as served:
        game = create_game(served, ["human", "human"], target=45)
        path = f"/v1/games/{game['id']}"

        def act() -> bool:
            """Plays one action, retrying it (same key) until it is acknowledged; False if
            the game is over."""
            while True:
                status, headers, body = served.call("GET", path)
                statuses[status] = statuses.get(status, 0) + 1
                if status == 503:
                    assert int(headers["Retry-After"]) >= 1
                    time.sleep(0.05)
                    continue
                assert status == 200, body
                view = json.loads(body)
                if view["phase"] == "over":
                    return False
                auth = {"Authorization": f"Bearer {game['seats'][view['turn']]['token']}"}
                status, headers, body = served.call("GET", path, headers=auth)
                statuses[status] = statuses.get(status, 0) + 1
                if status != 200:
                    assert status == 503 and int(headers["Retry-After"]) >= 1, body
                    continue
                mine: dict[str, Any] = json.loads(body)
                key = f"k{mine['version']}"
                while True:
                    status, headers, body = served.call(
                        "POST", f"{path}/actions", mine["legal_actions"][0],
                        {**auth, "If-Match": f'"{mine["version"]}"', "Idempotency-Key": key})
                    statuses[status] = statuses.get(status, 0) + 1
                    if status != 503:
                        break
                    assert int(headers["Retry-After"]) >= 1
                    time.sleep(0.05)
                assert status == 201, body
                acknowledged.append(key)
                return True

        for _ in range(8):
            assert act()
        victim = redis_cluster.master_of(game_key(game["id"]))
        try:
            redis_cluster.kill(victim)
            for _ in range(8):
                if not act():
                    break
        finally:
            redis_cluster.revive(victim)
        assert 500 not in statuses, statuses
        assert statuses.get(503, 0) > 0, statuses
        with RedisEventStore.from_url(redis_cluster.url, cluster=True) as store:
            ids = [event.envelope.command_id or "" for event in store.read(game["id"])]
        # Each acknowledged action is there, once (its events carry its key).
        seen = list(dict.fromkeys(command.rsplit(":", 1)[1] for command in ids if command))
        assert seen == acknowledged, (seen, acknowledged)
