"""``fortyfive serve`` for real: gunicorn with gevent workers on its own embedded Redis;
and ``fortyfive openapi``."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_helpers import alive, create_game, serving, wait_until
from serve_helpers import call as _call

from service.cli import main
from service.http.server import gunicorn_options, host_port
from service.processes.embedded_redis import EmbeddedRedis
from service.processes.free_ports import free_ports


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    """``fortyfive serve`` on a free port, its data in a temporary directory."""
    with serving(tmp_path, "--no-worker") as server:
        yield server.port, server.process, tmp_path


def test_serve_plays_streams_and_stops_cleanly(
    served: tuple[int, subprocess.Popen[bytes], Path],
) -> None:
    port, process, data = served
    # Without a worker, readiness does not wait for one: the workers are reported, not required.
    status, _, body = _call(port, "GET", "/readyz")
    ready = json.loads(body)
    assert status == 200 and ready["status"] == "ready"
    assert ready["workers_required"] is False
    assert ready["stale"] == ["worker", "dispatcher"], "reported, but not required"
    assert ready["worker"]["heartbeat_age_s"] is None
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

    # Two idle streams are held by the one worker; other requests still pass while both are
    # open. Held up behind a stream, a probe would wait for it to end (30 s), past its own
    # socket timeout (10 s).
    streams = [http.client.HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(2)]
    for stream in streams:
        stream.request("GET", f"{path}/stream?wait=30")
        assert stream.getresponse().status == 200
    for _ in range(5):
        assert _call(port, "GET", "/healthz")[0] == 200
    for stream in streams:
        stream.close()

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
    assert f"{stale} is out of date: run `fortyfive openapi`" in capsys.readouterr().err
    missing = tmp_path / "missing.yaml"
    assert main(["openapi", "--check", "--output", str(missing)]) == 1
    assert capsys.readouterr().err == (f"{missing} does not exist: run `fortyfive openapi` to "
                                       "regenerate it\n")
    assert main(["openapi", "--output", str(stale)]) == 0
    assert main(["openapi", "--check", "--output", str(stale)]) == 0


@pytest.mark.parametrize("verbose", [False, True], ids=["quiet", "verbose"])
def test_serve_says_where_it_listens_and_logs_jobs_only_when_verbose(
    tmp_path: Path, verbose: bool
) -> None:
    with serving(tmp_path, *(["--verbose"] if verbose else [])) as server:
        game = create_game(server, ["bot", "bot"], target=15)
        wait_until(lambda: (server.json(f"/v1/games/{game['id']}") or {}).get("phase")
                   == "over", "the bots finishing the game")
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(30) == 0
        printed = server.log_text()
    lines = printed.splitlines()
    assert f"fortyfive: serving http://127.0.0.1:{server.port}/ (the API under /v1, the " \
        "table at /)" in lines
    assert f"fortyfive: data in {tmp_path.resolve() / 'redis'} (embedded redis-server" \
        in printed
    assert any(line.startswith("fortyfive: stop with Ctrl+C") for line in lines)
    # RQ says "Job OK" (and more) for each job: bots, sealing.
    jobs = [line for line in lines if "Job OK" in line]
    assert (len(jobs) > 3) if verbose else not jobs, printed[-2000:]


def test_serve_on_data_a_leftover_server_holds_says_what_to_do_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    with EmbeddedRedis(tmp_path / "redis") as leftover:
        pid = leftover.pid
        assert main(["serve", "--data-dir", str(tmp_path), "--port", str(free_ports()[0])]) == 1
    printed = capsys.readouterr().err
    assert "Traceback" not in printed
    error = printed.splitlines()[-1]  # After the line on keys and limits.
    assert error.startswith(f"fortyfive: a redis-server (pid {pid}) still runs on")
    assert f"stop it with `kill {pid}`" in error


def test_ctrl_c_stops_gunicorn_then_the_worker_then_redis_without_tracebacks(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, own_session=True) as server:
        runner = wait_until(server.runner_pid, "the worker's start")
        redis_pid = int((tmp_path / "redis" / "redis.pid").read_text())
        os.killpg(server.process.pid, signal.SIGINT)  # What a terminal's Ctrl+C does.
        assert server.process.wait(30) == 0
        printed = server.log_text()
    assert not alive(runner) and not alive(redis_pid)
    assert "Traceback" not in printed and "SystemExit" not in printed, printed
    assert "Redis is unavailable" not in printed, "Redis stopped before the worker"
    redis_log = (tmp_path / "redis" / "redis.log").read_text()
    assert "Received SIGTERM" in redis_log and "Received SIGINT" not in redis_log


@pytest.mark.parametrize(("args", "env", "named"), [
    ([], {"TRUSTED_PROXIES": "abc"}, "TRUSTED_PROXIES"),
    ([], {"RATE_LIMITS": "garbage"}, "RATE_LIMITS"),
    ([], {"RATE_LIMITS": "creation=5"}, "RATE_LIMITS"),
    ([], {"READY_STALE_SECONDS": "soon"}, "READY_STALE_SECONDS"),
    ([], {"KEPT_HISTORY_TTL": "-1"}, "KEPT_HISTORY_TTL"),
    ([], {"REQUIRE_API_KEY": "maybe"}, "REQUIRE_API_KEY"),
    ([], {"ABANDON_AFTER": "3 days"}, "ABANDON_AFTER"),
    ([], {"ARCHIVE_AFTER": "-5"}, "ARCHIVE_AFTER"),
    ([], {"REDIS_URL": "localhost:6379"}, "invalid Redis URL 'localhost:6379'"),
    ([], {"RQ_REDIS_URL": "localhost:6380"}, "invalid Redis URL 'localhost:6380'"),
    (["--port", "70000"], {}, "--port"),
    (["--port", "0"], {}, "--port"),
    (["--workers", "0"], {}, "--workers"),
    (["--threads", "0"], {}, "--threads"),
])
def test_a_bad_setting_stops_serve_before_it_starts_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    args: list[str], env: dict[str, str], named: str,
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    status = main(["serve", "--data-dir", str(tmp_path), "--port", str(free_ports()[0]), *args])
    printed = capsys.readouterr().err
    assert status == 2
    assert len(printed.splitlines()) == 1 and named in printed, printed
    assert printed.startswith("fortyfive serve"), printed
    assert not (tmp_path / "redis").exists(), "nothing started"


@pytest.mark.parametrize(("host", "bind", "url"), [
    ("127.0.0.1", "127.0.0.1:8045", "http://127.0.0.1:8045/"),
    ("::1", "[::1]:8045", "http://[::1]:8045/"),
    ("[::1]", "[::1]:8045", "http://[::1]:8045/"),
    ("::", "[::]:8045", "http://[::]:8045/"),
])
def test_an_ipv6_host_is_bound_in_brackets(host: str, bind: str, url: str) -> None:
    assert gunicorn_options(host, 8045, 1, 1)["bind"] == bind
    assert f"http://{host_port(host, 8045)}/" == url
