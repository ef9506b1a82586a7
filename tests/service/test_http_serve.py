"""``fortyfive serve`` for real: gunicorn with gthread workers on its own embedded Redis;
and ``fortyfive openapi``."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from events.embedded import EmbeddedRedis
from service.cli import main


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _call(port: int, method: str, path: str, body: Any = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        payload = json.dumps(body) if body is not None else None
        sent = {**({"Content-Type": "application/json"} if payload else {}), **(headers or {})}
        connection.request(method, path, body=payload, headers=sent)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def _wait_up(port: int, process: subprocess.Popen[bytes], output: Callable[[], str]) -> None:
    """Waits until the server on *port* answers ``/healthz``; fails with its *output* if it
    exits first."""
    deadline = time.monotonic() + 30
    while True:
        try:
            if _call(port, "GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        assert process.poll() is None, output()
        assert time.monotonic() < deadline, "fortyfive serve did not come up"
        time.sleep(0.1)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    """``fortyfive serve`` on a free port, its data in a temporary directory."""
    port = _free_port()
    env = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
         "serve", "--port", str(port), "--workers", "1",
         "--threads", "4", "--no-worker", "--data-dir", str(tmp_path)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    _wait_up(port, process, lambda: process.stderr.read().decode() if process.stderr else "")
    try:
        yield port, process, tmp_path
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stderr:
            process.stderr.close()


def test_serve_plays_streams_and_stops_cleanly(
    served: tuple[int, subprocess.Popen[bytes], Path],
) -> None:
    port, process, data = served
    assert _call(port, "GET", "/readyz")[0] == 200
    status, _, body = _call(port, "POST", "/v1/games", {"profile": "classic"})
    assert status == 201
    game = json.loads(body)
    path = f"/v1/games/{game['id']}"
    seat = json.loads(_call(port, "GET", path)[2])["turn"]
    auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    view = json.loads(_call(port, "GET", path, headers=auth)[2])
    status, headers, _ = _call(port, "POST", f"{path}/actions", view["legal_actions"][0],
                               {**auth, "If-Match": f'"{view["version"]}"'})
    assert status == 201 and headers["ETag"] == '"3"'

    # Two idle streams hold two threads of the one worker; other requests still pass.
    streams = [threading.Thread(target=_call, args=(port, "GET", f"{path}/stream?wait=2"))
               for _ in range(2)]
    for stream in streams:
        stream.start()
    time.sleep(0.3)
    start = time.monotonic()
    for _ in range(5):
        assert _call(port, "GET", "/healthz")[0] == 200
    assert time.monotonic() - start < 2
    for stream in streams:
        stream.join(10)

    # No debugger page, ever: errors are problems.
    status, headers, body = _call(port, "GET", "/nope")
    assert status == 404 and headers["Content-Type"] == "application/problem+json"

    process.send_signal(signal.SIGTERM)
    assert process.wait(20) == 0
    assert (data / "redis").is_dir()
    assert any((data / "redis").rglob("*.aof")) or any((data / "redis").rglob("appendonly*"))


def test_openapi_check_passes_on_the_committed_file(capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[2]
    assert main(["openapi", "--check", "--output", str(root / "openapi.yaml")]) == 0


def test_openapi_check_names_the_command_when_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "openapi.yaml"
    stale.write_text("openapi: 3.0.3\n")
    assert main(["openapi", "--check", "--output", str(stale)]) == 1
    assert "run `fortyfive openapi`" in capsys.readouterr().err
    assert main(["openapi", "--output", str(stale)]) == 0
    assert main(["openapi", "--check", "--output", str(stale)]) == 0


def _serve_a_bot_game(data: Path, *options: str) -> str:
    """Runs ``fortyfive serve`` (with its worker) until its bots finished a game, stops it
    with SIGTERM, and returns all it printed (stdout and stderr)."""
    port = _free_port()
    env = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
    log = data / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
             "serve", "--port", str(port), "--workers", "1", "--threads", "4",
             "--data-dir", str(data), *options],
            env=env, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        _wait_up(port, process, log.read_text)
        status, _, body = _call(port, "POST", "/v1/games", {
            "profile": "classic", "options": {"target": 15},
            "seats": [{"type": "bot"}, {"type": "bot"}],
        })
        assert status == 201
        path = f"/v1/games/{json.loads(body)['id']}"
        deadline = time.monotonic() + 60
        while json.loads(_call(port, "GET", path)[2])["phase"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return log.read_text("utf-8")


@pytest.mark.parametrize("verbose", [False, True], ids=["quiet", "verbose"])
def test_serve_says_where_it_listens_and_logs_jobs_only_when_verbose(
    tmp_path: Path, verbose: bool
) -> None:
    printed = _serve_a_bot_game(tmp_path, *(["--verbose"] if verbose else []))
    lines = printed.splitlines()
    listening = [line for line in lines if line.startswith("fortyfive: serving http://")]
    assert len(listening) == 1 and ":" in listening[0].split("//")[1]
    assert f"fortyfive: data in {(tmp_path / 'redis').resolve()} (embedded redis-server" \
        in printed
    assert any(line.startswith("fortyfive: stop with Ctrl+C") for line in lines)
    # RQ says "Job OK" (and more) for each job: bots, projections, sealing.
    jobs = [line for line in lines if "Job OK" in line]
    assert (len(jobs) > 3) if verbose else not jobs, printed[-2000:]


def test_serve_on_data_a_leftover_server_holds_says_what_to_do_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    with EmbeddedRedis(tmp_path / "redis") as leftover:
        pid = leftover.pid
        assert main(["serve", "--data-dir", str(tmp_path), "--port", str(_free_port())]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error
    assert error.startswith(f"fortyfive: a redis-server (pid {pid}) still runs on")
    assert f"stop it with `kill {pid}`" in error
