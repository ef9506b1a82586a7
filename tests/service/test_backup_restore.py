"""The backup and restore procedure of docs/operating.md, run for real: games are written over
HTTP (one archived), a backup is taken both ways (an RDB snapshot with BGSAVE, and a copy of
the append-only file after BGREWRITEAOF), a fresh redis-server is started from each copy, and
every game still verifies there, answering exactly as before."""

from __future__ import annotations

import json
import random
import shutil
import time
from pathlib import Path

import redis
from http_table import Table, bearer

from events.redis_store import RedisEventStore
from service.application.commands import new_cache
from service.http.app import create_app
from service.processes.embedded_redis import EmbeddedRedis
from workers import keys, retention


def _wait_until_done(client: redis.Redis, field: str, section: str = "persistence") -> None:
    """Waits for a background save or rewrite (*field* of INFO) to finish."""
    for _ in range(500):
        if int(client.info(section)[field]) == 0:
            return
        time.sleep(0.02)
    raise AssertionError(f"{field} never finished")


def _written(url: str) -> dict[str, tuple[str, bytes]]:
    """Writes games over HTTP (finished, in progress, one archived); returns each game's
    auditor token and auditor history as the API sent it."""
    app = create_app({"REDIS_URL": url, "TESTING": True})
    client = app.test_client()
    finished = Table.create(client, "classic", options={"target": 5})
    finished.play_out(random.Random(11))
    archived = Table.create(client, "classic", options={"target": 5})
    archived.play_out(random.Random(12))
    live = Table.create(client, "bruff")
    for _ in range(7):
        live.step()
    store = app.extensions["fortyfive"].store
    store.client.zadd(keys.OVER_KEY, {archived.id: 0})  # What the project job records.
    done = retention.run(store, new_cache(store), retention.Policy(None, 0), now=time.time())
    assert [item.game_id for item in done.archived] == [archived.id]
    histories = {
        table.id: (table.auditor, client.get(f"{table.path}/history",
                                             headers=bearer(table.auditor)).get_data())
        for table in (finished, archived, live)
    }
    store.close()
    return histories


def _check(url: str, histories: dict[str, tuple[str, bytes]]) -> None:
    """Every game answers on the restored server as before, and verifies."""
    app = create_app({"REDIS_URL": url, "TESTING": True})
    client = app.test_client()
    for game_id, (token, before) in histories.items():
        auditor = client.get(f"/v1/games/{game_id}/history", headers=bearer(token))
        assert auditor.get_data() == before
        report = client.post("/v1/histories", json={"history": auditor.get_json()}).get_json()
        assert report["ok"] is True, report["verification"]["problems"]
    with RedisEventStore.from_url(url) as store:
        for game_id, (_, before) in histories.items():
            assert store.read(game_id)[-1].envelope.hash == json.loads(before)["head"]
    app.extensions["fortyfive"].store.close()


def test_games_survive_a_backup_and_restore_from_rdb_and_from_aof(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "live") as live:
        histories = _written(live.url)
        client = redis.Redis.from_url(live.url)
        # RDB: a snapshot, written in the background, then copied.
        client.bgsave()
        _wait_until_done(client, "rdb_bgsave_in_progress")
        (tmp_path / "from-rdb").mkdir()
        shutil.copy(live.data_dir / "dump.rdb", tmp_path / "from-rdb" / "dump.rdb")
        # AOF: rewritten to its compact form, then the append-only file(s) copied.
        client.bgrewriteaof()
        _wait_until_done(client, "aof_rewrite_in_progress")
        (tmp_path / "from-aof").mkdir()
        aof_dir = live.data_dir / "appendonlydir"
        if aof_dir.is_dir():  # Redis 7: a directory with a manifest.
            shutil.copytree(aof_dir, tmp_path / "from-aof" / "appendonlydir")
        else:  # Redis 6: one file.
            shutil.copy(live.data_dir / "appendonly.aof", tmp_path / "from-aof")
        client.close()

    # An RDB file is loaded only with AOF off; AOF is then switched on, which writes it anew.
    with EmbeddedRedis(tmp_path / "from-rdb", extra_args=("--appendonly", "no")) as restored:
        _check(restored.url, histories)
        restored_client = redis.Redis.from_url(restored.url)
        restored_client.config_set("appendonly", "yes")
        _wait_until_done(restored_client, "aof_rewrite_in_progress")
        restored_client.close()
    with EmbeddedRedis(tmp_path / "from-rdb") as reopened:  # Now from its own new AOF.
        _check(reopened.url, histories)
    with EmbeddedRedis(tmp_path / "from-aof") as restored:
        _check(restored.url, histories)
