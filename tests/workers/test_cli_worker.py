"""``fortyfive worker``: it needs a store, and says how to get one."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from worker_helpers import entropy

from engine.fold import fold
from events.embedded import EmbeddedRedis
from events.redis_store import RedisEventStore
from service import commands
from service.cli import UsageError, worker


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


def test_a_burst_run_works_off_what_is_due(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "redis") as server:
        with RedisEventStore.from_url(server.url) as store:
            game_id = commands.create_game(
                store, "classic", {}, ["bot", "bot"], entropy=entropy("cli")
            ).game_id
            args = _parse("--redis-url", server.url, "--burst")
            assert args.func(args) == 0
            assert fold(recorded.event for recorded in store.read(game_id)).phase == "over"
