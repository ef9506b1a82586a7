"""``fortyfive worker``: it needs a store and the web service's signing key, and says how
to get them."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from worker_helpers import entropy

from engine.fold import fold
from events.redis_store import RedisEventStore
from service.application import commands
from service.application.signing import KEY_ENV, write_key
from service.cli import UsageError, worker
from service.processes.embedded_redis import EmbeddedRedis
from service.processes.free_ports import free_ports


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="fortyfive")
    worker.register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["worker", *argv])


def test_without_a_store_it_says_to_set_redis_url_or_run_serve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    args = _parse()
    with pytest.raises(UsageError, match="REDIS_URL.*fortyfive serve"):
        args.func(args)


@pytest.mark.parametrize(("argv", "named"), [
    (["--redis-url", "localhost:6379"], "'localhost:6379'"),
    (["--redis-url", "redis://127.0.0.1:1", "--rq-redis-url", "redis://q:s3cret@host:port/0"],
     "'redis://host:port/0'"),
])
def test_an_invalid_redis_url_is_named_before_anything_starts(
    argv: list[str], named: str
) -> None:
    args = _parse(*argv)
    with pytest.raises(UsageError) as refused:
        args.func(args)
    assert str(refused.value).startswith(f"fortyfive worker: invalid Redis URL {named}: ")
    assert "s3cret" not in str(refused.value)


@pytest.fixture
def signing_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A signing key in a file, and none in the environment (restored after: a run sets it)."""
    monkeypatch.setenv(KEY_ENV, "")
    key = tmp_path / "signing-key.pem"
    write_key(key)
    return key


def test_a_burst_run_on_a_store_it_cannot_reach_says_so_in_one_line(signing_key: Path) -> None:
    nobody = f"redis://127.0.0.1:{free_ports()[0]}"
    args = _parse("--redis-url", nobody, "--burst", "--signing-key", str(signing_key))
    with pytest.raises(UsageError) as refused:
        args.func(args)
    assert str(refused.value).startswith("fortyfive worker: store unavailable: ")
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("key", ["", "not a key"])
def test_without_the_services_signing_key_it_does_not_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    """A key of its own would retire the web service's: the worker must be given that one."""
    monkeypatch.setenv(KEY_ENV, "")  # Unset, and restored after (the run sets it).
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1")
    if key:
        bad = tmp_path / "key.pem"
        bad.write_text(key)
        monkeypatch.setenv(KEY_ENV, str(bad))
    args = _parse()
    with pytest.raises(UsageError, match="--signing-key" if not key else "key"):
        args.func(args)


def test_a_burst_run_works_off_what_is_due(tmp_path: Path, signing_key: Path) -> None:
    with EmbeddedRedis(tmp_path / "redis") as server:
        with RedisEventStore.from_url(server.url) as store:
            game_id = commands.create_game(
                store, "classic", {}, ["bot", "bot"], entropy=entropy("cli")
            ).game_id
            args = _parse("--redis-url", server.url, "--burst", "--signing-key",
                          str(signing_key))
            assert args.func(args) == 0
            assert fold(recorded.event for recorded in store.read(game_id)).phase == "over"
