"""``fortyfive serve``'s own redis-server under its keeper, for real: killed with SIGKILL three
times in a row, it is started again each time on the same data, ``/readyz`` says so, and every
action acknowledged before each kill is in the game afterwards; a killed keeper is replaced
and the server with it.

Each test runs its own ``serve`` without the RQ worker and plays a two-seat classic game over
HTTP, both seats human, so every event of the game is an action acknowledged here.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

from serve_helpers import Served, alive, command_ids, serving, wait_until

from service.application.keeper_status import read_status


def _readyz(served: Served) -> tuple[int, dict[str, Any]]:
    """``/readyz``'s status and body, (0, {}) while the server does not answer."""
    try:
        status, _, body = served.call("GET", "/readyz")
    except OSError:
        return 0, {}
    return status, json.loads(body)


def _create(served: Served) -> dict[str, Any]:
    status, _, body = served.call("POST", "/v1/games", {
        "profile": "classic", "options": {"target": 45}, "auditor": True,
        "seats": [{"type": "human"}, {"type": "human"}]})
    assert status == 201, body
    game: dict[str, Any] = json.loads(body)
    return game


def _act(served: Served, game: dict[str, Any], count: int) -> list[str]:
    """Takes *count* actions (the first legal one of the seat to act); returns the command ids
    of those acknowledged (201): ``seat:<seat>:<Idempotency-Key>``."""
    acked: list[str] = []
    path = f"/v1/games/{game['id']}"
    while len(acked) < count:
        view = served.json(path)
        assert view is not None and view["phase"] != "over", "the game ended too soon"
        token = game["seats"][view["turn"]]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        mine = served.json(path, headers=auth)
        key = f"{game['id']}-{mine['version']}"
        status, _, body = served.call(
            "POST", f"{path}/actions", mine["legal_actions"][0],
            {**auth, "If-Match": f'"{mine["version"]}"', "Idempotency-Key": key})
        assert status == 201, body
        acked.append(f"seat:{view['turn']}:{key}")
    return acked



def test_a_redis_server_killed_three_times_is_started_again_and_loses_nothing(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, "--no-worker") as served:
        data_dir = tmp_path / "redis"
        status, ready = wait_until(lambda: (r := _readyz(served))[0] == 200 and r, "readiness")
        assert ready["embedded_redis"]["state"] == "up"
        assert ready["embedded_redis"]["restarts"] == 0
        assert ready["embedded_redis"]["last_exit"] is None
        game = _create(served)
        acked: list[str] = []
        for kill in range(1, 4):
            acked += _act(served, game, 4)
            before = read_status(data_dir)
            assert before is not None and before["state"] == "up"
            os.kill(before["pid"], signal.SIGKILL)
            status, ready = wait_until(
                lambda: (r := _readyz(served))[0] == 200
                and r[1]["embedded_redis"]["restarts"] == kill and r,  # noqa: B023
                f"readiness after kill {kill}")
            kept = ready["embedded_redis"]
            assert kept["state"] == "up" and kept["pid"] not in (None, before["pid"])
            assert kept["last_exit"]["pid"] == before["pid"]
            assert kept["last_exit"]["how"] == "was killed by SIGKILL"
            assert kept["error"] is None
            missing = set(acked) - command_ids(served, game)
            assert not missing, f"acknowledged before kill {kill}, lost: {sorted(missing)}"
            assert read_status(data_dir)["port"] == before["port"], "the same address"
        acked += _act(served, game, 2)  # It plays on.
        assert set(acked) <= command_ids(served, game)
        log = served.log_text()
        assert log.count("was killed by SIGKILL after") == 3
        assert "restarted redis-server (pid" in log and "restart 3)" in log


def test_a_killed_keeper_is_replaced_and_its_server_with_it(tmp_path: Path) -> None:
    with serving(tmp_path, "--no-worker") as served:
        data_dir = tmp_path / "redis"
        wait_until(lambda: _readyz(served)[0] == 200, "readiness")
        game = _create(served)
        acked = _act(served, game, 3)
        before = read_status(data_dir)
        assert before is not None
        os.kill(before["keeper_pid"], signal.SIGKILL)
        wait_until(lambda: not alive(before["pid"]), "the server stopping with its keeper")
        after = wait_until(
            lambda: (status := read_status(data_dir)) and status["keeper_pid"]
            != before["keeper_pid"] and status["state"] == "up" and status,
            "a new keeper and server")
        wait_until(lambda: _readyz(served)[0] == 200, "readiness again")
        assert after["port"] == before["port"] and after["restarts"] == 1
        assert after["last_exit"]["pid"] == before["pid"]
        assert after["last_exit"]["how"] == "was stopped when its keeper died"
        assert set(acked) <= command_ids(served, game)
        assert f"the embedded redis-server's keeper (pid {before['keeper_pid']}) is gone" \
            in served.log_text()

        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(30) == 0
        assert not alive(after["keeper_pid"]) and not alive(after["pid"]), \
            "serve stops its keeper and server"
