"""The restore drill of docs/operating.md, run for real with the page's own steps: while games
are played over HTTP on a ``fortyfive serve`` (one finished game archived), the backup script
of the page takes a snapshot of its store, the restore script restores it into a new data
directory, a second ``fortyfive serve`` starts on it with the service's signing key, and there
every action acknowledged before the backup is in its game and every game's history verifies
(the archived one as before, signed by the same key).

The two scripts are read from the page (the fenced blocks that begin ``# Backup:`` and
``# Restore:``) and run with bash, so the page and the drill cannot say different things.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import DEADLINE, Served, command_ids, serving, wait_until

from events.redis_store import RedisEventStore
from service.application.commands import new_cache
from service.application.keeper_status import read_status
from service.processes.embedded_redis import find_redis_server
from service.processes.free_ports import free_ports
from workers import keys, retention

OPERATING = Path(__file__).resolve().parents[2] / "docs" / "operating.md"


def documented_script(first_line: str) -> str:
    """The fenced ``sh`` block of docs/operating.md that begins with *first_line*."""
    blocks = OPERATING.read_text("utf-8").split("```sh\n")[1:]
    found = [block.split("\n```", 1)[0] for block in blocks if block.startswith(first_line)]
    assert len(found) == 1, f"docs/operating.md has no one script beginning {first_line!r}"
    return found[0]


def run_script(script: str, **variables: str) -> None:
    """Runs *script* with bash (``-euo pipefail``), *variables* in its environment and the
    redis-server's own redis-cli first on ``PATH``."""
    tools = str(Path(find_redis_server()).parent)
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}",
           **variables}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], env=env,
                          capture_output=True, text=True, timeout=DEADLINE * 2)
    assert done.returncode == 0, f"the script failed:\n{done.stdout}\n{done.stderr}"


class Players:
    """Plays two-seat classic games over HTTP in a thread, every seat human; records the
    command id of each action acknowledged (201) per game."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.games: dict[str, dict[str, Any]] = {}
        self.acked: dict[str, list[str]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def create(self) -> dict[str, Any]:
        status, _, body = self.served.call("POST", "/v1/games", {
            "profile": "classic", "options": {"target": 45}, "auditor": True,
            "seats": [{"type": "human"}, {"type": "human"}]})
        assert status == 201, body
        game: dict[str, Any] = json.loads(body)
        with self._lock:
            self.games[game["id"]] = game
            self.acked[game["id"]] = []
        return game

    def act(self, game: dict[str, Any]) -> bool:
        """Takes the first legal action of the seat to act; False once the game is over."""
        path = f"/v1/games/{game['id']}"
        view = self.served.json(path)
        assert view is not None
        if view["phase"] == "over":
            return False
        seat = view["turn"]
        auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
        mine = self.served.json(path, headers=auth)
        key = f"{game['id']}-{mine['version']}"
        status, _, body = self.served.call(
            "POST", f"{path}/actions", mine["legal_actions"][0],
            {**auth, "If-Match": f'"{mine["version"]}"', "Idempotency-Key": key})
        assert status == 201, body
        with self._lock:
            self.acked[game["id"]].append(f"seat:{seat}:{key}")
        return True

    def count(self) -> int:
        with self._lock:
            return sum(len(acked) for acked in self.acked.values())

    def snapshot(self) -> dict[str, set[str]]:
        """The actions acknowledged so far, per game."""
        with self._lock:
            return {game_id: set(acked) for game_id, acked in self.acked.items()}

    def _run(self) -> None:
        try:
            playing = [self.create(), self.create()]
            while not self._stop.is_set():
                for game in list(playing):
                    if not self.act(game):
                        playing.remove(game)
                        playing.append(self.create())
        except BaseException as error:  # noqa: BLE001 - reported by stop()
            self.failure = error

    @contextmanager
    def playing(self) -> Iterator[Players]:
        self._thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            self._thread.join(DEADLINE)
        assert self.failure is None, self.failure


def _history(served: Served, game: dict[str, Any], over: bool) -> bytes:
    """The game's auditor history as the API sends it."""
    query = "?view=auditor" if over else ""
    status, _, body = served.call("GET", f"/v1/games/{game['id']}/history{query}",
                                  headers={"Authorization": f"Bearer {game['auditor_token']}"})
    assert status == 200, body
    return body



def test_the_documented_backup_restores_every_acknowledged_action_while_games_are_played(
    tmp_path: Path,
) -> None:
    if shutil.which("bash") is None:
        pytest.fail("the drill runs the documented scripts with bash")
    backup_script = documented_script("# Backup:")
    restore_script = documented_script("# Restore:")
    backup = tmp_path / "backup.rdb"
    (tmp_path / "live").mkdir()
    with serving(tmp_path / "live", "--no-worker") as live:
        status = read_status(tmp_path / "live" / "redis")
        assert status is not None
        url = f"redis://127.0.0.1:{status['port']}"
        players = Players(live)
        finished = players.create()
        while players.act(finished):
            pass
        with RedisEventStore.from_url(url) as store:
            store.client.zadd(keys.OVER_KEY, {finished["id"]: 0})  # What the project job does.
            done = retention.run(store, new_cache(store), retention.Policy(None, 0),
                                 now=time.time())
            assert [item.game_id for item in done.archived] == [finished["id"]]
        archived_history = _history(live, finished, over=True)
        with players.playing():
            wait_until(lambda: players.count() >= 40 or players.failure, "games under way")
            before = players.snapshot()
            run_script(backup_script, REDIS_URL=url, BACKUP=str(backup))
            after_backup = players.count()
            wait_until(lambda: players.count() > after_backup + 10 or players.failure,
                       "play going on after the backup")
        games = dict(players.games)

    restored_dir = tmp_path / "restored"
    try:
        run_script(restore_script, BACKUP=str(backup), DATA_DIR=str(restored_dir),
                   PORT=str(free_ports()[0]))
    finally:  # A script stopped half-way must not leave its redis-server behind.
        pid_file = restored_dir / "redis" / "restore.pid"
        if pid_file.exists():
            subprocess.run(["kill", pid_file.read_text().strip()], capture_output=True)
    shutil.copy(tmp_path / "live" / "signing-key.pem", restored_dir / "signing-key.pem")
    with serving(restored_dir, "--no-worker") as restored:
        again = json.loads(_history(restored, finished, over=True))
        was = json.loads(archived_history)
        # The checkpoint is signed when asked for (signed_at): the same key, the same head.
        assert again.pop("checkpoint")["key_id"] == was.pop("checkpoint")["key_id"]
        assert again == was
        for game_id, game in games.items():
            view = restored.json(f"/v1/games/{game_id}")
            if game_id not in before and view is None:
                continue  # Created after the backup began: in the next one.
            assert view is not None, f"game {game_id} was created before the backup"
            missing = before.get(game_id, set()) - command_ids(restored, game)
            assert not missing, f"acknowledged before the backup, not restored: {missing}"
            history = json.loads(_history(restored, game, over=view["phase"] == "over"))
            status, _, body = restored.call("POST", "/v1/histories", {"history": history})
            report = json.loads(body)
            assert status == 200 and report["ok"] is True, report
        assert sum(len(ids) for ids in before.values()) >= 40
