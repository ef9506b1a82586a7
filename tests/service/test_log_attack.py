"""The attack the transparency log is for (issue 24): an operator rewrites a finished game's
history in the store (every hash recomputed, so the history verifies on its own) and the
service re-signs its checkpoint. To hide the checkpoint it signed before, the operator also
rebuilds the log without it and signs a new tree head. A client that pinned a tree head earlier
catches it (the log's tree no longer extends the pinned one), and so does a monitor run before
and after. Each test has a redis-server of its own: the operator rewrites the whole log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from log_helpers import finished_game, fresh_head, history_of, served

from events.chain import seal
from events.envelope import Envelope
from events.keys import game_key, log_key
from events.redis_store import RedisEventStore
from events.transparency_log import TransparencyLog
from service.application import transparency
from service.cli import main
from service.processes.embedded_redis import EmbeddedRedis


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis(tmp_path / "redis") as server:
        yield server


def _rewrite_history(url: str, game_id: str) -> None:
    """Changes when event 5 happened and reseals every event from there on."""
    client = redis.Redis.from_url(url, decode_responses=True)
    entries = client.xrange(game_key(game_id))
    rewritten: list[tuple[str, dict[str, str]]] = []
    prev_hash = None
    for index, (entry_id, fields) in enumerate(entries):
        envelope = Envelope.from_dict({**json.loads(fields["body"]), "hash": fields["hash"]})
        if index < 4:
            rewritten.append((entry_id, fields))
            prev_hash = envelope.hash
            continue
        assert prev_hash is not None
        resealed, body = seal(
            game_id=envelope.game_id, version=envelope.version, event_type=envelope.type,
            schema=envelope.schema, data=envelope.data, actor=envelope.actor,
            command_id=envelope.command_id, prev_hash=prev_hash,
            occurred_at="2001-01-01T00:00:00Z" if index == 4 else envelope.occurred_at)
        rewritten.append((entry_id, {"body": body.decode(), "hash": resealed.hash}))
        prev_hash = resealed.hash
    client.delete(game_key(game_id))
    for entry_id, fields in rewritten:
        client.xadd(game_key(game_id), fields, id=entry_id)
    client.close()


def _rebuild_log_without(url: str, store: RedisEventStore, dropped: dict[str, Any]) -> None:
    """Rebuilds the service's log from its leaves, all but *dropped*."""
    log = TransparencyLog.of(store)
    leaves = [leaf for start in range(0, log.size(), 1000)
              for leaf in log.entries(start, log.size())]
    client = redis.Redis.from_url(url, decode_responses=True)
    client.delete(*client.keys(log_key("*")))
    client.close()
    rebuilt = TransparencyLog.of(store)
    for leaf in leaves:
        if leaf != transparency.leaf(dropped):
            rebuilt.append(leaf, transparency.subject(json.loads(leaf)))


def _write(path: Path, value: Any) -> str:
    path.write_text(json.dumps(value))
    return str(path)


def test_a_rewritten_game_and_a_rebuilt_log_are_caught_by_a_pinned_head_and_a_monitor(
    private_redis: EmbeddedRedis, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    url = private_redis.url
    with RedisEventStore.from_url(url) as store:
        game_id = finished_game(url, store)
        with served(url) as (address, app):
            original = history_of(app, game_id)
            pinned = _write(tmp_path / "pinned.json", fresh_head(app))
            kept = _write(tmp_path / "original.json", original)
            state = str(tmp_path / "monitor.json")
            assert main(["history", "verify", kept, "--log", address, "--tree-head",
                         pinned]) == 0
            assert main(["log", "monitor", address, "--state", state]) == 0
        capsys.readouterr()

        _rewrite_history(url, game_id)
        with served(url) as (address, app):  # The operator restarts the service.
            tampered = history_of(app, game_id)
            assert tampered["checkpoint"]["head"] != original["checkpoint"]["head"]
            assert tampered["checkpoint"]["version"] == original["checkpoint"]["version"]
            forged = _write(tmp_path / "tampered.json", tampered)
            # On its own, the rewritten history verifies, checkpoint and log included.
            assert main(["history", "verify", forged, "--log", address]) == 0
            _rebuild_log_without(url, store, original["checkpoint"])
            fresh_head(app)
            capsys.readouterr()

            assert main(["history", "verify", forged, "--log", address, "--tree-head",
                         pinned]) == 1
            out = capsys.readouterr().out
            assert "FAILED: log: the log's tree of" in out
            assert "does not extend the earlier tree of" in out

            assert main(["history", "verify", kept, "--log", address]) == 1
            assert "FAILED: log: the log does not include it" in capsys.readouterr().out

            before = json.loads(Path(state).read_text())
            assert main(["log", "monitor", address, "--state", state, "--json"]) == 1
            report = json.loads(capsys.readouterr().out)
            assert not report["ok"]
            assert "does not extend the earlier tree" in report["problem"]
            evidence = report["evidence"]
            assert evidence["previous_tree_head"] == before["tree_head"]
            assert evidence["latest_tree_head"]["tree_size"] >= 1
            assert json.loads(Path(state).read_text()) == before  # Still the last good head.
            assert main(["log", "monitor", address, "--state", state]) == 1
            assert "evidence (signed by the service)" in capsys.readouterr().out


def test_a_rewritten_game_in_a_log_left_alone_is_caught_by_a_monitor_reading_entries(
    private_redis: EmbeddedRedis, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """An operator who does not rebuild the log leaves the first checkpoint in it beside the
    new one: two checkpoints of one game's version with different heads. The log still only
    grows, so only a monitor that reads the entries (--entries) sees it."""
    url = private_redis.url
    state = str(tmp_path / "monitor.json")
    with RedisEventStore.from_url(url) as store:
        game_id = finished_game(url, store)
        with served(url) as (address, app):
            original = history_of(app, game_id)["checkpoint"]
            fresh_head(app)
            assert main(["log", "monitor", address, "--state", state, "--entries"]) == 0
        _rewrite_history(url, game_id)
        with served(url) as (address, app):
            tampered = history_of(app, game_id)["checkpoint"]
            fresh_head(app)
            capsys.readouterr()
            assert main(["log", "monitor", address, "--state", state]) == 0  # Only grew.
            assert main(["log", "monitor", address, "--state", state, "--entries",
                         "--json"]) == 1
    report = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert "sign one point with different heads: a history was rewritten" in report["problem"]
    shown = [item["checkpoint"] for item in report["evidence"]["checkpoints"]]
    assert shown == [original, tampered]


def test_the_log_survives_a_restart_of_its_redis(private_redis: EmbeddedRedis) -> None:
    with RedisEventStore.from_url(private_redis.url) as store:
        log = TransparencyLog.of(store)
        for i in range(5):
            log.append(f"leaf {i}".encode(), f"subject {i}".encode())
        root = log.root(5)
    private_redis.restart()
    with RedisEventStore.from_url(private_redis.url) as store:
        log = TransparencyLog.of(store)
        assert (log.size(), log.root(5)) == (5, root)
        assert log.append(b"leaf 5", b"subject 5").index == 5
