"""``fortyfive history verify --log [--tree-head]`` and ``fortyfive log monitor`` against a
service served over real HTTP: what passes, what fails (exit 1) and what cannot be done
(exit 2, one line)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from log_helpers import finished_game, fresh_head, history_of, served

from events.redis_store import RedisEventStore
from service.cli import main
from service.cli.log import STATE_FORMAT


@pytest.fixture
def live(redis_url: str) -> Iterator[tuple[str, Flask]]:
    with served(redis_url) as found:
        yield found


@pytest.fixture
def history_file(live: tuple[str, Flask], redis_url: str, store: RedisEventStore,
                 tmp_path: Path) -> Path:
    _, app = live
    path = tmp_path / "game.json"
    path.write_text(json.dumps(history_of(app, finished_game(redis_url, store))))
    return path


def _write(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value))
    return path


def test_a_history_whose_checkpoint_is_logged_verifies_against_the_log(
    live: tuple[str, Flask], history_file: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, app = live
    kept = _write(tmp_path / "head.json", fresh_head(app))
    assert main(["history", "verify", str(history_file), "--log", url,
                 "--tree-head", str(kept)]) == 0
    out = capsys.readouterr().out
    assert "log: the checkpoint at version" in out
    assert "extends the tree of" in out
    assert main(["history", "verify", str(history_file), "--log", url, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["log"]["ok"] and report["log"]["leaf_index"] >= 0


def test_a_checkpoint_the_log_does_not_have_fails(
    live: tuple[str, Flask], history_file: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, _ = live
    history = json.loads(history_file.read_text())
    history["checkpoint"]["signed_at"] = "2001-01-01T00:00:00Z"  # Not the checkpoint logged.
    forged = _write(tmp_path / "forged.json", history)
    assert main(["history", "verify", str(forged), "--log", url]) == 1
    out = capsys.readouterr().out
    assert "FAILED: log: the log does not include it: no leaf hashed" in out


def test_a_tree_head_not_signed_by_the_service_fails(
    live: tuple[str, Flask], history_file: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, app = live
    head = fresh_head(app)
    forged = _write(tmp_path / "head.json", {**head, "tree_size": head["tree_size"] + 1})
    assert main(["history", "verify", str(history_file), "--log", url,
                 "--tree-head", str(forged)]) == 1
    assert ("FAILED: log: the tree head you kept: the signature does not match"
            in capsys.readouterr().out)


def test_what_cannot_be_asked_is_a_usage_error(
    history_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["history", "verify", str(history_file), "--tree-head", "x.json"]) == 2
    assert "--tree-head needs --log" in capsys.readouterr().err
    bad = _write(tmp_path / "head.json", {"tree_size": -1})
    assert main(["history", "verify", str(history_file), "--log", "http://127.0.0.1:9",
                 "--tree-head", str(bad)]) == 2
    assert "tree_size must be a whole number" in capsys.readouterr().err
    assert main(["history", "verify", str(history_file), "--log", "http://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "fortyfive history verify: cannot reach http://127.0.0.1:9" in err
    assert len(err.strip().splitlines()) == 1


def test_the_monitor_accepts_a_log_that_grows_and_keeps_its_head(
    live: tuple[str, Flask], redis_url: str, store: RedisEventStore, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, app = live
    state = tmp_path / "monitor.json"
    fresh_head(app)
    assert main(["log", "monitor", url, "--state", str(state)]) == 0
    assert "first run: accepted the tree of" in capsys.readouterr().out
    first = json.loads(state.read_text())
    assert first["format"] == STATE_FORMAT and first["url"] == url
    history_of(app, finished_game(redis_url, store))
    fresh_head(app)
    assert main(["log", "monitor", url, "--state", str(state), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"]
    assert report["previous_tree_head"] == first["tree_head"]
    assert report["latest_tree_head"]["tree_size"] > first["tree_head"]["tree_size"]
    assert json.loads(state.read_text())["tree_head"] == report["latest_tree_head"]


def test_the_monitor_refuses_a_state_it_cannot_use(
    live: tuple[str, Flask], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    url, _ = live
    state = _write(tmp_path / "monitor.json", {"format": "something else"})
    assert main(["log", "monitor", url, "--state", str(state)]) == 2
    assert "is not a monitor's state" in capsys.readouterr().err
    assert main(["log", "monitor", "http://127.0.0.1:9", "--state",
                 str(tmp_path / "new.json")]) == 2
    assert "cannot reach http://127.0.0.1:9" in capsys.readouterr().err
    assert not (tmp_path / "new.json").exists()


def test_the_monitor_reading_entries_checks_them_against_the_head(
    live: tuple[str, Flask], redis_url: str, store: RedisEventStore, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, app = live
    state = tmp_path / "monitor.json"
    history_of(app, finished_game(redis_url, store))
    first = fresh_head(app)
    assert main(["log", "monitor", url, "--state", str(state), "--entries"]) == 0
    kept = json.loads(state.read_text())["entries"]
    assert kept["size"] == first["tree_size"] and len(kept["points"]) >= 1
    history_of(app, finished_game(redis_url, store))
    second = fresh_head(app)
    capsys.readouterr()
    assert main(["log", "monitor", url, "--state", str(state), "--entries"]) == 0
    assert json.loads(state.read_text())["entries"]["size"] == second["tree_size"]
