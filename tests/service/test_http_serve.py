"""``fortyfive serve`` for real: gunicorn with gthread workers on its own embedded Redis;
and ``fortyfive openapi``."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from events.embedded import START_ATTEMPTS
from events.ports import free_ports
from service.cli import main


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


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    """``fortyfive serve`` on a free port, its data in a temporary directory (on another port
    when another process takes the chosen one before gunicorn binds it)."""
    env = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
    log_path = tmp_path / "serve.log"
    for _ in range(START_ATTEMPTS):
        port = free_ports()[0]
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
                 "serve", "--port", str(port), "--workers", "1",
                 "--threads", "4", "--no-worker", "--data-dir", str(tmp_path)],
                env=env, stdout=subprocess.DEVNULL, stderr=log,
            )
        if _wait_until_serving(port, process, log_path):
            break
        _stop(process)
    else:
        pytest.fail(f"every port tried was taken; the log ends:\n{log_path.read_text()[-2000:]}")
    try:
        yield port, process, tmp_path
    finally:
        _stop(process)


def _wait_until_serving(port: int, process: subprocess.Popen[bytes], log_path: Path) -> bool:
    """Waits until gunicorn listens on *port* and answers; False if the port was taken."""
    deadline = time.monotonic() + 30
    while True:
        log = log_path.read_text(errors="replace")
        if "Address already in use" in log or "Connection in use" in log:
            return False
        # Gunicorn's own line: a server of another process on the port does not count.
        if f"Listening at: http://127.0.0.1:{port} " in log:
            try:
                if _call(port, "GET", "/healthz")[0] == 200:
                    return True
            except OSError:
                pass
        assert process.poll() is None, f"fortyfive serve exited; its log ends:\n{log[-2000:]}"
        assert time.monotonic() < deadline, f"fortyfive serve did not come up:\n{log[-2000:]}"
        time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stops ``serve`` as an operator would (SIGTERM stops its redis-server too), or kills it
    when it does not stop."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


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
