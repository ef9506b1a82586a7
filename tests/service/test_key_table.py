"""docs/operating.md's table of every key the service stores, held to a Redis of this test's
own: games (with an auditor, a claimed seat, an API key, rate limits on), a kept upload and a
drive are played, the workers run, the finished games are archived, and then every key of the
Redis is one of the table's, and none holds more than its row says.

The test's checks are keyed by the table's key patterns, and the table must list exactly
those patterns: a key added to the code without a row (or a row without its check) fails.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient
from http_table import Table, bearer

from engine.fold import fold
from engine.profiles import PROFILES
from events.keys import drive_key, game_key, log_key
from events.redis_store import RedisEventStore
from events.store import PARTITIONS
from events.transparency_log import CHUNK, HEX_SIZE
from service.application import access_log
from service.application.commands import new_cache
from service.http.apikeys import KeyRegistry
from service.http.app import create_app
from service.http.limits import CLASSES
from service.http.uploads import DEFAULT_MAX_BYTES, DEFAULT_TTL
from service.processes.embedded_redis import EmbeddedRedis
from workers import context, integrity, retention
from workers.projections import RECENT_LIMIT
from workers.runner import run_worker

OPERATING = Path(__file__).resolve().parents[2] / "docs" / "operating.md"
SECTION = "## What the service stores, and for how long"


def documented_patterns() -> list[str]:
    """The key of each row of docs/operating.md's storage table."""
    text = OPERATING.read_text("utf-8").split(SECTION, 1)[1]
    table = text.split("\n| record | key | bound | lives |\n", 1)[1].split("\n\n", 1)[0]
    rows = table.splitlines()[1:]  # Less the line under the head.
    patterns = []
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        found = re.fullmatch(r"`([^`]+)`", cells[1])
        assert found, f"the key cell of {row!r} is not one `key`"
        patterns.append(found.group(1))
    return patterns


def _regex(pattern: str) -> re.Pattern[str]:
    """The keys *pattern* names: ``<NNN>`` three digits, any other ``<...>`` one or more
    characters."""
    parts = re.split(r"(<[^>]+>)", pattern)
    regex = "".join(r"\d{3}" if part == "<NNN>" else ".+" if part.startswith("<")
                    else re.escape(part) for part in parts)
    return re.compile(regex)


class Scan:
    """What the checks need to know about the Redis under test."""

    def __init__(self, client: redis.Redis, store: RedisEventStore) -> None:
        self.client = client
        self.store = store

    def tag(self, key: str) -> str:
        """The game or drive id at the end of *key*."""
        return key.rsplit(":", 1)[1]

    def version(self, aggregate_key: str) -> int:
        """The version of the stream *aggregate_key* (its last entry id's sequence)."""
        top = self.client.xrevrange(aggregate_key, count=1)
        return int(top[0][0].rsplit("-", 1)[1]) if top else 0

    def deals(self, game_id: str) -> int:
        """How many deals *game_id* has (from its stream or its archive)."""
        deal = fold(recorded.event for recorded in self.store.read(game_id)).deal
        return deal.number if deal is not None else 0

    def archived(self, game_id: str) -> bool:
        return self.store.tombstone(game_id) is not None


Check = Callable[[Scan, str], None]


def _stream_of_events(scan: Scan, key: str) -> None:
    assert scan.client.xlen(key) == scan.version(key) >= 1, "one entry per event"


def _commands(stream: Callable[[str], str]) -> Check:
    def check(scan: Scan, key: str) -> None:
        # One field per command that appended, and the head the append script keeps ("").
        events = stream(scan.tag(key))
        version = scan.version(events)
        assert scan.client.hlen(key) <= version + 1
        top = scan.client.xrevrange(events, count=1)
        assert scan.client.hget(key, "") == f"{version} {top[0][1]['hash']}", "the kept head"
    return check


def _seats(scan: Scan, key: str) -> None:
    fields = scan.client.hkeys(key)
    assert len(fields) <= 21
    assert all(re.fullmatch(r"(seat|claim):\d+|auditor", field) for field in fields), fields


def _checkpoints(scan: Scan, key: str) -> None:
    deals = scan.deals(scan.tag(key))
    for field, value in scan.client.hgetall(key).items():
        assert field == "latest" or (field.startswith("deal:") and 1 <= int(field[5:]) <= deals)
        assert json.loads(value)["signature"] and len(value) < 1024, "one signed checkpoint"


def _drive_checkpoints(scan: Scan, key: str) -> None:
    fields = scan.client.hgetall(key)
    # One per round that ended and one at the drive's end: each is an event of the drive.
    assert len(fields) <= scan.client.xlen(drive_key(key.rsplit(":", 1)[1]))
    for field, value in fields.items():
        assert re.fullmatch(r"finished|round:[1-9]\d*", field), field
        assert json.loads(value)["signature"] and len(value) < 1024, "one signed checkpoint"


def _access(scan: Scan, key: str) -> None:
    assert scan.client.xlen(key) <= access_log.KEPT
    assert not scan.archived(scan.tag(key)), "moved into the tombstone on archival"


def _sealed(scan: Scan, key: str) -> None:
    _, game_id, deal = key.rsplit(":", 2)
    assert not scan.archived(game_id), "deleted on archival"
    assert 1 <= int(deal) <= scan.deals(game_id)


def _archive(scan: Scan, key: str) -> None:
    assert set(scan.client.hkeys(key)) <= {
        "version", "head", "archived_at", "checkpoint", "events", "format",
        access_log.ARCHIVE_FIELD}
    assert scan.client.exists(game_key(scan.tag(key))) == 0


def _short_string(scan: Scan, key: str) -> None:
    assert scan.client.type(key) == "string" and scan.client.strlen(key) < 256


def _drive_secrets(scan: Scan, key: str) -> None:
    fields = scan.client.hkeys(key)
    assert all(re.fullmatch(r"director|token:\d+|round:\d+:game_seed|seed:.+", field)
               for field in fields), fields


def _feed(scan: Scan, key: str) -> None:
    positions = [int(str(scan.client.get(name)).rsplit("-", 1)[1])
                 for name in scan.client.scan_iter(match=key.replace(":feed", ":dispatch:*"))]
    first = scan.client.xrange(key, count=1)
    if positions and first:
        assert int(first[0][0].rsplit("-", 1)[1]) >= min(positions), "trimmed"


def _dispatch(scan: Scan, key: str) -> None:
    assert re.fullmatch(r"\d+-\d+", scan.client.get(key) or ""), key


def _at_most(limit: int) -> Check:
    def check(scan: Scan, key: str) -> None:
        kind = scan.client.type(key)
        size = {"zset": scan.client.zcard, "hash": scan.client.hlen,
                "set": scan.client.scard}[kind](key)
        assert size <= limit
    return check


def _games_indexed(archived: bool | None) -> Check:
    """Every member is a game that exists; with *archived* False, one not archived yet."""
    def check(scan: Scan, key: str) -> None:
        kind = scan.client.type(key)
        members = (scan.client.zrange(key, 0, -1) if kind == "zset"
                   else scan.client.hkeys(key) if kind == "hash" else scan.client.smembers(key))
        for game_id in members:
            assert scan.store.read(game_id, limit=1), game_id
            if archived is False:
                assert not scan.archived(game_id), game_id
    return check


def _finished(scan: Scan, key: str) -> None:
    assert key.rsplit(":", 1)[1] in PROFILES
    _games_indexed(None)(scan, key)


def _heartbeats(scan: Scan, key: str) -> None:
    fields = scan.client.hkeys(key)
    assert all(re.fullmatch(r"(worker|dispatcher):.+", field) for field in fields), fields


def _api_key(scan: Scan, key: str) -> None:
    assert set(scan.client.hkeys(key)) <= {"name", "digest", "created_at", "revoked"}


def _expires(longest: int) -> Check:
    def check(scan: Scan, key: str) -> None:
        assert 0 < scan.client.ttl(key) <= longest, f"{key} does not expire"
    return check


def _rq_job(scan: Scan, key: str) -> None:
    """A job still to run (a bot's cut scheduled for its nonce window's end, say) lives until
    it runs; a job that ran expires."""
    if scan.client.hget(key, "status") in ("queued", "scheduled", "deferred"):
        return
    _expires(context.FAILURE_TTL)(scan, key)


def _upload(scan: Scan, key: str) -> None:
    _expires(DEFAULT_TTL)(scan, key)
    assert scan.client.strlen(key) <= DEFAULT_MAX_BYTES


def _rq(scan: Scan, key: str) -> None:
    """RQ's own keys: a worker's record expires; registries hold members, the queue is empty
    once the burst is done."""
    if key.startswith("rq:worker:"):
        _expires(24 * 3600)(scan, key)
    if key.startswith("rq:queue:"):
        assert scan.client.llen(key) == 0


def _key_games(scan: Scan, key: str) -> None:
    for member in scan.client.zrange(key, 0, -1):
        assert scan.client.exists(drive_key(member)) or scan.store.read(member, limit=1), member


def _paced(scan: Scan, key: str) -> None:
    assert scan.client.type(key) == "zset"
    games = sum(1 for _ in scan.client.scan_iter(match="f45:{p*}:game:*", count=1000))
    assert scan.client.zcard(key) <= games, "at most one held bot job per game"


def _log_size(scan: Scan) -> int:
    return int(scan.client.get(log_key("size")) or 0)


def _log_per_leaf(scan: Scan, key: str) -> None:
    assert scan.client.hlen(key) <= _log_size(scan), "at most one field per leaf"


def _log_head(scan: Scan, key: str) -> None:
    head = json.loads(scan.client.get(key))
    assert head["signature"] and head["tree_size"] <= _log_size(scan)


def _log_nodes(scan: Scan, key: str) -> None:
    level, chunk = (int(part) for part in key.rsplit(":", 2)[1:])
    assert scan.client.strlen(key) <= CHUNK * HEX_SIZE, "one chunk of subtree hashes"
    # A complete subtree of 2**level leaves: none beyond the leaves appended.
    assert chunk * CHUNK << level < max(_log_size(scan), 1)


def _nothing(scan: Scan, key: str) -> None:
    """A record whose bound is a count of other things (one per partition, per game, per API
    key): it exists, and the table's row says what it counts."""


CHECKS: dict[str, Check] = {
    "f45:{p<NNN>}:game:<id>": _stream_of_events,
    "f45:{p<NNN>}:cmd:<id>": _commands(game_key),
    "f45:{p<NNN>}:seats:<id>": _seats,
    "f45:{p<NNN>}:checkpoints:<id>": _checkpoints,
    "f45:{p<NNN>}:access:<id>": _access,
    "f45:{p<NNN>}:sealed:<id>:<deal>": _sealed,
    "f45:{p<NNN>}:archive:<id>": _archive,
    "f45:{p<NNN>}:rematch:<id>": _short_string,
    "f45:{commit:<commitment>}": _short_string,
    "f45:{p<NNN>}:drive:<drive id>": _stream_of_events,
    "f45:{p<NNN>}:drivecmd:<drive id>": _commands(drive_key),
    "f45:{p<NNN>}:drivesecret:<drive id>": _drive_secrets,
    "f45:{p<NNN>}:drivecheckpoints:<drive id>": _drive_checkpoints,
    "f45:{p<NNN>}:feed": _feed,
    "f45:{p<NNN>}:dispatch:<name>": _dispatch,
    "f45:{p<NNN>}:replicated": _short_string,
    "f45:{proj}:recent": _at_most(RECENT_LIMIT),
    "f45:{proj}:recent:info": _at_most(RECENT_LIMIT),
    "f45:{proj}:live": _games_indexed(False),
    "f45:{proj}:over": _games_indexed(False),
    "f45:{proj}:finished:<profile>": _finished,
    "f45:{integrity}:chain:failures": _games_indexed(None),
    "f45:{integrity}:chain:anchors": _games_indexed(None),
    "f45:{integrity}:chain:last": _short_string,
    "f45:{workers}:heartbeats": _heartbeats,
    "f45:{workers}:paced:<queue>": _paced,
    "f45:{keys}:index": _nothing,
    "f45:{keys}:key:<key id>": _api_key,
    "f45:{keys}:games:<key id>": _key_games,
    "f45:{keys}:signing": _nothing,
    "f45:{log}:size": _short_string,
    "f45:{log}:entries": _log_per_leaf,
    "f45:{log}:leaves": _log_per_leaf,
    "f45:{log}:subjects": _log_per_leaf,
    "f45:{log}:head": _log_head,
    "f45:{log}:mark": _short_string,
    "f45:{log}:nodes:<level>:<chunk>": _log_nodes,
    "f45:{rate:<who>}:<class>": _expires(3600),
    "f45:history:h-<id>": _upload,
    "rq:job:<job id>": _rq_job,
    "rq:results:<job id>": _expires(context.FAILURE_TTL),
    "rq:<name>": _rq,
}


@pytest.fixture
def private(tmp_path: Path) -> Iterator[tuple[str, RedisEventStore]]:
    with EmbeddedRedis(tmp_path / "redis") as server, \
            RedisEventStore.from_url(server.url) as store:
        yield server.url, store


def _play(url: str, store: RedisEventStore) -> None:
    """Games, a kept upload and a drive over HTTP, with an API key and the limits on."""
    # Windows of an hour: the counters must outlive the play, the worker and the sweeps, which
    # take more than the default minute on a loaded machine.
    hourly = ", ".join(f"{name}=100000/3600" for name in CLASSES)
    app = create_app({"REDIS_URL": url, "TESTING": True, "REQUIRE_API_KEY": True,
                      "ENFORCE_RATE_LIMITS": True, "RATE_LIMITS": hourly})
    client: FlaskClient = app.test_client()
    _, api_key = KeyRegistry(store.client).create("key-table")
    client.environ_base["HTTP_X_API_KEY"] = api_key
    rng = random.Random(29)
    watched = Table.create(client, "classic", options={"target": 15})
    for _ in range(3):  # The auditor's reads of a live deal.
        assert client.get(watched.path, headers=bearer(watched.auditor)).status_code == 200
    watched.play_out(rng)
    Table.create(client, "bruff").play_out(rng)
    live = Table.create(client, "auction")
    for _ in range(5):
        live.step(rng)
    assert client.get(live.path, headers=bearer(live.auditor)).status_code == 200
    claimable = client.post("/v1/games", json={
        "profile": "classic",
        "seats": [{"type": "human", "claimable": True}, {"type": "bot"}]})
    assert claimable.status_code == 201, claimable.get_json()
    invite = claimable.json["seats"][0]["claim"]
    claimed = client.post(invite["url"], json={"code": invite["code"]})
    assert claimed.status_code == 201, claimed.get_json()
    history = client.get(f"{watched.path}/history", headers=bearer(watched.auditor)).get_json()
    kept = client.post("/v1/histories", query_string={"mode": "keep"},
                       json={"history": history})
    assert kept.status_code == 201, kept.get_json()
    drive = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 15}, "format": "progressive",
        "rounds": 1, "players": [{"name": f"B{n}", "type": "bot"} for n in range(4)]})
    assert drive.status_code == 201, drive.get_json()
    app.extensions["fortyfive"].streams.close()
    app.extensions["fortyfive"].store.close()


def test_every_key_is_in_the_documented_table_and_within_its_bound(
    private: tuple[str, RedisEventStore],
) -> None:
    url, store = private
    patterns = documented_patterns()
    assert sorted(patterns) == sorted(CHECKS), "the table and this test list the same keys"
    _play(url, store)
    assert run_worker(url, burst=True, log_level="WARNING") == 0
    integrity.sweep(store)
    done = retention.run(store, new_cache(store), retention.Policy(None, 0), now=time.time())
    assert len(done.archived) == 3, done  # Two finished games and the drive's one table.
    scan = Scan(store.client, store)
    # The most specific pattern first: the one with the most literal characters.
    ordered = sorted(patterns, key=lambda p: -len(re.sub(r"<[^>]+>", "", p)))
    compiled = [(pattern, _regex(pattern)) for pattern in ordered]
    seen: dict[str, int] = {}
    for key in store.client.scan_iter(count=1000):
        pattern = next((p for p, regex in compiled if regex.fullmatch(key)), None)
        assert pattern is not None, f"{key!r} is not in docs/operating.md's table"
        if partition := re.match(r"f45:\{p(\d{3})\}", key):
            assert int(partition.group(1)) < PARTITIONS
        CHECKS[pattern](scan, key)
        seen[pattern] = seen.get(pattern, 0) + 1
    expected = {"f45:{p<NNN>}:game:<id>", "f45:{p<NNN>}:access:<id>",
                "f45:{p<NNN>}:archive:<id>", "f45:{p<NNN>}:checkpoints:<id>",
                "f45:{p<NNN>}:drive:<drive id>", "f45:{keys}:games:<key id>",
                "f45:{rate:<who>}:<class>", "f45:history:h-<id>", "f45:{commit:<commitment>}",
                "rq:job:<job id>"}
    assert expected <= set(seen), f"the play left none of {sorted(expected - set(seen))}"
