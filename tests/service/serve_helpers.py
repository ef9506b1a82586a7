"""Helpers of the tests that run ``fortyfive serve`` for real: HTTP calls, the server's
processes, waiting with a deadline, and playing a game's human seats over HTTP."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from service.processes.embedded_redis import START_ATTEMPTS
from service.processes.free_ports import free_ports
from service.processes.lifeline import parent_death_signal
from service.processes.supervisor import stop_process

DEADLINE = 60.0
"""Seconds a test waits for what must happen (generous: a loaded 2-core machine)."""


def _seat(kind: str) -> dict[str, str]:
    """A seat of a new game: a bot at the basic level, whose decisions take microseconds
    (a test of the strong level names it)."""
    return {"type": kind, "level": "basic"} if kind == "bot" else {"type": kind}


def call(port: int, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """Sends one request to 127.0.0.1:*port*; returns status, headers and body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        payload = json.dumps(body) if body is not None else None
        sent = {**({"Content-Type": "application/json"} if payload else {}), **(headers or {})}
        connection.request(method, path, body=payload, headers=sent)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def wait_until(condition: Callable[[], Any], what: str, deadline: float = DEADLINE) -> Any:
    """Polls *condition* until it returns something true, and returns that; fails saying
    *what* did not happen within *deadline* seconds."""
    end = time.monotonic() + deadline
    while True:
        result = condition()
        if result:
            return result
        assert time.monotonic() < end, f"{what} did not happen within {deadline:.0f} s"
        time.sleep(0.05)


class Served:
    """A running ``fortyfive serve``: its port, process and log file (stdout and stderr)."""

    def __init__(self, port: int, process: subprocess.Popen[bytes], log: Path) -> None:
        self.port = port
        self.process = process
        self.log = log

    def log_text(self) -> str:
        """Returns what the server logged so far."""
        return self.log.read_text("utf-8", errors="replace")

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """Sends one request to the server."""
        return call(self.port, method, path, body, headers)

    def json(self, path: str, headers: dict[str, str] | None = None) -> Any:
        """GETs *path* and returns its JSON body, or ``None`` unless it answers 200."""
        try:
            status, _, body = self.call("GET", path, headers=headers)
        except OSError:
            return None
        return json.loads(body) if status == 200 else None

    def supervisor_pid(self) -> int:
        """Returns the pid of the supervisor process ``serve`` started."""
        found = self._supervisors()
        assert len(found) == 1, f"expected one supervisor, found {found}"
        return found[0]

    def runner_pid(self) -> int | None:
        """Returns the pid of the worker runner while one runs (none while ``serve`` is
        between a killed supervisor and its new one)."""
        found = self._supervisors()
        assert len(found) <= 1, f"expected one supervisor at most, found {found}"
        running = children(found[0]) if found else []
        return running[0] if running else None

    def _supervisors(self) -> list[int]:
        return [pid for pid in children(self.process.pid)
                if b"service.processes.supervisor" in cmdline(pid)]


def children(pid: int) -> list[int]:
    """Returns the pids of the living children of *pid* (Linux ``/proc``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return [child for child in found if alive(child)]


def cmdline(pid: int) -> bytes:
    """Returns the command line of *pid* (empty once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pid: int) -> bool:
    """True while *pid* runs (a zombie counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@contextmanager
def serving(
    tmp_path: Path, *args: str, env: Mapping[str, str] | None = None, own_session: bool = False
) -> Iterator[Served]:
    """Runs ``fortyfive serve`` on a free port with *args*, its data and log (all it prints)
    under *tmp_path*, until it answers ``/healthz``; stops it at the end if it still runs
    (SIGTERM, so it stops its own redis-server and worker; SIGKILL if it does not stop).

    When another process takes the port before gunicorn binds it, serve starts again on
    another one. *env* is added to the environment, from which ``REDIS_URL`` is removed unless
    *env* sets it. With *own_session*, serve runs in a session (and process group) of its
    own, as under a terminal: a test may signal the whole group, as Ctrl+C does.
    """
    environ = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
    environ.update(env or {})
    log = tmp_path / "serve.log"
    for _ in range(START_ATTEMPTS):
        served = _start(free_ports()[0], tmp_path, args, environ, log, own_session)
        try:
            if wait_until(partial(_listening, served), "fortyfive serve answering /healthz") > 0:
                break
        except BaseException:
            stop_process(served.process, 20.0)
            raise
        stop_process(served.process, 20.0)
    else:
        raise AssertionError(f"every port tried was taken; the log ends:\n{log.read_text()}")
    try:
        yield served
    finally:
        stop_process(served.process, 20.0)


def _start(port: int, tmp_path: Path, args: tuple[str, ...], environ: Mapping[str, str],
           log: Path, own_session: bool = False) -> Served:
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
             "serve", "--port", str(port), "--workers", "1", "--threads", "4",
             "--data-dir", str(tmp_path), *args],
            env=environ, stdout=sink, stderr=subprocess.STDOUT, start_new_session=own_session,
            preexec_fn=parent_death_signal(),  # It stops when the suite dies.
        )
    return Served(port, process, log)


def _listening(served: Served) -> int:
    """1 once gunicorn listens on the port and answers, -1 if the port was taken, else 0.

    Gunicorn's own "Listening at" line makes sure the answer is not another process's server
    on the same port."""
    text = served.log_text()
    if "Connection in use" in text or "Address already in use" in text:
        return -1
    assert served.process.poll() is None, text
    if f"Listening at: http://127.0.0.1:{served.port} " not in text:
        return 0
    try:
        return 1 if served.call("GET", "/healthz")[0] == 200 else 0
    except OSError:
        return 0


def create_game(served: Served, seats: list[str], **options: Any) -> dict[str, Any]:
    """Creates a classic game with *seats* (``human`` or ``bot``) over HTTP."""
    status, _, body = served.call(
        "POST", "/v1/games",
        {"profile": "classic", "options": options, "seats": [_seat(kind) for kind in seats]},
    )
    assert status == 201, body
    created: dict[str, Any] = json.loads(body)
    return created


def play_human_turn(served: Served, game: Mapping[str, Any]) -> bool:
    """Plays the first legal action of the human seat to act, if one is; returns True if
    the game is over. Tolerates a store that is down (503) and a move that raced."""
    path = f"/v1/games/{game['id']}"
    view = served.json(path)
    if view is None:
        return False
    if view["phase"] == "over":
        return True
    token = game["seats"][view["turn"]]["token"] if view["turn"] is not None else None
    if token is None:
        return False  # A bot's turn: the worker plays it.
    auth = {"Authorization": f"Bearer {token}"}
    mine = served.json(path, headers=auth)
    if mine is None or mine["version"] != view["version"] or not mine["legal_actions"]:
        return False
    try:
        served.call("POST", f"{path}/actions", mine["legal_actions"][0],
                    {**auth, "If-Match": f'"{mine["version"]}"',
                     "Idempotency-Key": f"{game['id']}-{mine['version']}"})
    except OSError:
        pass
    return False


def command_ids(served: Served, game: Mapping[str, Any]) -> set[str]:
    """The command ids of every event of *game*, as its auditor reads them page by page: what
    a test compares with the actions it saw acknowledged."""
    auth = {"Authorization": f"Bearer {game['auditor_token']}"}
    found: set[str] = set()
    after: int | None = 0
    while after is not None:
        page = served.json(f"/v1/games/{game['id']}/events?view=auditor&after={after}",
                           headers=auth)
        assert page is not None
        found |= {event["command_id"] for event in page["events"] if event["command_id"]}
        after = page["next_after"]
    return found
