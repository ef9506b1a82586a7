"""``fortyfive serve``'s worker under supervision, for real: a killed worker is restarted and
its games go on, a hung one makes ``/readyz`` degraded, and a Redis outage neither ends the
worker nor loses a game.

Each test runs its own ``serve`` (one gunicorn worker) and plays a classic game to 25 between
a human seat, played here over HTTP, and a bot seat, played by the supervised worker.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from serve_helpers import (
    DEADLINE,
    Served,
    alive,
    children,
    create_game,
    play_human_turn,
    serving,
    wait_until,
)

from service.processes.embedded_redis import EmbeddedRedis


def _finish(served: Served, game: dict[str, object]) -> None:
    """Plays the human seat until the game is over (the bot seat is the worker's). A job the
    killed worker held comes back only by RQ's abandoned-job path, and a bot cutter waits for
    the human's nonce at every deal: a generous deadline."""
    wait_until(lambda: play_human_turn(served, game), "the game's end", deadline=180)


def _version(served: Served, game: dict[str, object]) -> int:
    view = served.json(f"/v1/games/{game['id']}")
    return int(view["version"]) if view else 0


def test_a_worker_killed_mid_game_is_restarted_and_the_game_finishes(tmp_path: Path) -> None:
    with serving(tmp_path) as served:
        first = wait_until(served.runner_pid, "the worker's start")
        game = create_game(served, ["human", "bot"], target=25)
        wait_until(lambda: play_human_turn(served, game) or _version(served, game) >= 6,
                   "a few moves")
        play_human_turn(served, game)  # The bot's job may be queued or running now.
        assert (served.json(f"/v1/games/{game['id']}") or {}).get("phase") != "over"

        os.kill(first, signal.SIGKILL)
        second = wait_until(lambda: (pid := served.runner_pid()) != first and pid,
                            "the worker's restart")
        _finish(served, game)  # Every bot move after the kill is the restarted worker's.

        log = served.log_text()
        assert f"worker (pid {first}) was killed by SIGKILL after" in log
        assert f"restarted worker (pid {second}, restart 1)" in log

        supervisor = served.supervisor_pid()
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(30) == 0
        wait_until(lambda: not alive(supervisor) and not alive(second),
                   "the supervisor and the worker stopping with serve")


def test_readyz_is_degraded_while_the_worker_is_hung_and_ready_after_its_restart(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, env={"READY_STALE_SECONDS": "3"}) as served:
        def readiness() -> tuple[int, dict[str, object]]:
            status, _, body = served.call("GET", "/readyz")
            return status, json.loads(body)

        ready = wait_until(lambda: (r := readiness())[0] == 200 and r, "readiness")[1]
        assert ready["workers_required"] is True and ready["stale"] == []
        runner = wait_until(served.runner_pid, "the worker's start")

        os.kill(runner, signal.SIGSTOP)  # Hung: alive, but neither part beats any more.
        # Each part goes stale when its own last beat is old enough: wait for both.
        status, degraded = wait_until(
            lambda: (r := readiness())[1]["stale"] == ["worker", "dispatcher"] and r,
            "both parts stale",
        )
        assert status == 503 and degraded["status"] == "degraded"
        assert degraded["worker"]["heartbeat_age_s"] > 3

        os.kill(runner, signal.SIGKILL)
        wait_until(lambda: readiness()[0] == 200, "readiness after the restart")
        assert served.runner_pid() != runner


def test_a_redis_outage_mid_game_ends_nothing_and_the_game_finishes(tmp_path: Path) -> None:
    redis_server = EmbeddedRedis(tmp_path / "store").start()
    try:
        with serving(tmp_path, env={"REDIS_URL": redis_server.url}) as served:
            runner = wait_until(served.runner_pid, "the worker's start")
            game = create_game(served, ["human", "bot"], target=25)
            wait_until(lambda: play_human_turn(served, game) or _version(served, game) >= 6,
                       "a few moves")
            play_human_turn(served, game)  # The bot's job may be queued or running now.
            assert (served.json(f"/v1/games/{game['id']}") or {}).get("phase") != "over"

            redis_server.kill()
            wait_until(lambda: "worker: Redis is unavailable" in served.log_text()
                       and "dispatcher: Redis is unavailable" in served.log_text(),
                       "the worker and the dispatcher noticing the outage")
            redis_server.restart()
            wait_until(lambda: "worker: Redis is back after" in served.log_text()
                       and "dispatcher: Redis is back after" in served.log_text(),
                       "the worker and the dispatcher carrying on")

            _finish(served, game)
            log = served.log_text()
            assert served.runner_pid() == runner, "the worker rode out the outage"
            assert "was killed" not in log and "exited with status" not in log
            assert log.count("worker: Redis is unavailable") == 1, "logged once per outage"
    finally:
        redis_server.stop()


def test_a_killed_supervisor_is_started_again_and_its_orphaned_worker_stops(
    tmp_path: Path,
) -> None:
    with serving(tmp_path) as served:
        old_runner = wait_until(served.runner_pid, "the worker's start")
        old_supervisor = served.supervisor_pid()
        os.kill(old_supervisor, signal.SIGKILL)
        try:
            # The runner's warm shutdown lets a running job end first: a generous bound, as
            # for the bots' end, with the service's log to say what it was doing.
            wait_until(lambda: not alive(old_runner), "the orphaned worker stopping",
                       DEADLINE * 3)
        except AssertionError as error:
            raise AssertionError(f"{error}; the service's log ends:\n"
                                 f"{served.log_text()[-4000:]}") from None
        new_runner = wait_until(
            lambda: (pids := children(served.process.pid)) and old_supervisor not in pids
            and served.runner_pid(), "a new supervisor starting a new worker")
        new_supervisor = served.supervisor_pid()
        bots = create_game(served, ["bot", "bot"], target=15)
        wait_until(lambda: (served.json(f"/v1/games/{bots['id']}") or {}).get("phase") == "over",
                   "the new worker playing an all-bot game")
        log = served.log_text()
        assert f"the worker's supervisor (pid {old_supervisor}) is gone" in log
        assert f"the supervisor (pid {old_supervisor}) is gone; stopping the runner" in log
        assert f"started a new supervisor of the worker (pid {new_supervisor})" in log

        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(30) == 0
        wait_until(lambda: not alive(new_supervisor) and not alive(new_runner),
                   "the new supervisor and worker stopping with serve")
