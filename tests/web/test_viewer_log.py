"""The viewer tells whether a history's checkpoint is in the service's transparency log, with
the tree head's signature and the audit path checked in the browser: a finished game's history
fetched from the service is included; a checkpoint the service never signed is not."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from web_helpers import LiveServer, by_id, console_errors, wait_for

from events import checkpoints
from events.redis_store import RedisEventStore
from service.application import commands
from service.processes.embedded_redis import EmbeddedRedis
from workers import context, jobs

OTHER_KEY = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"not the service").digest())


def _finished(redis_server: EmbeddedRedis) -> str:
    context.configure(redis_server.url)
    with RedisEventStore.from_url(redis_server.url) as store:
        game_id = commands.create_game(store, "classic", {}, ["bot", "bot"]).game_id
        jobs.play_bots(game_id, store.version(game_id))
    return game_id


def _log_status(browser: Any) -> Any:
    return wait_for(browser, lambda b: by_id(b, "log-status") if by_id(b, "log-status")
                    .get_attribute("data-log") not in (None, "", "checking") else None)


def test_the_viewer_finds_a_service_history_in_the_log(
    live: LiveServer, browser: Any, redis_server: EmbeddedRedis,
) -> None:
    game_id = _finished(redis_server)
    browser.get(f"{live.url}/viewer?game={game_id}")
    status = _log_status(browser)
    assert status.get_attribute("data-log") == "included", status.text
    assert "is in this service's transparency log: entry" in status.text
    assert console_errors(browser) == []


def test_the_viewer_says_a_checkpoint_is_not_in_the_log(
    live: LiveServer, browser: Any, redis_server: EmbeddedRedis, tmp_path: Path,
) -> None:
    game_id = _finished(redis_server)
    doc = live.app.test_client().get(f"/v1/games/{game_id}/history").get_json()
    mine = doc["checkpoint"]
    doc["checkpoint"] = checkpoints.sign(OTHER_KEY, game_id, mine["version"], mine["head"],
                                         mine["signed_at"])
    path = tmp_path / "other.json"
    path.write_text(json.dumps(doc), "utf-8")
    browser.get(f"{live.url}/viewer")
    by_id(browser, "history-file").send_keys(str(path))
    status = _log_status(browser)
    assert status.get_attribute("data-log") == "missing", status.text
    assert "is not in this service's transparency log" in status.text
