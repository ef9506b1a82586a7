"""Retention over HTTP: an archived game answers as before (view, events, history, replay,
audit, stream, verification), an idle game ends as abandoned with an event that says so, and
the pass is safe to run twice.

These tests run on a redis-server of their own: a retention pass acts on every game of its
store, and the session's server holds the other tests' games.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import Table, bearer
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from engine.errors import EventSequenceError
from engine.fold import fold
from events import checkpoints
from events.drive_store import DriveStore
from events.redis_store import RedisEventStore, archive_key, game_key
from events.types import GameAbandoned
from service.application import drives
from service.application.commands import new_cache
from service.application.signing import Publisher
from service.cli import main
from service.http.app import create_app
from service.processes.embedded_redis import EmbeddedRedis
from workers import context, jobs, keys, retention
from workers.dispatcher import schedule_sweep

DAY = 24 * 3600


@pytest.fixture(scope="module")
def own_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with EmbeddedRedis(Path(tmp_path_factory.mktemp("retention"))) as server:
        yield server.url


def _app(url: str, **config: object) -> Flask:
    return create_app({"REDIS_URL": url, "TESTING": True, **config})


@pytest.fixture
def own_app(own_url: str) -> Iterator[Flask]:
    app = _app(own_url)
    yield app
    app.extensions["fortyfive"].store.close()


@pytest.fixture
def own(own_app: Flask) -> FlaskClient:
    return own_app.test_client()


@pytest.fixture
def own_store(own_url: str) -> Iterator[RedisEventStore]:
    context.configure(own_url)  # The project job below acts on this store.
    with RedisEventStore.from_url(own_url) as store:
        yield store


def _project(game_id: str) -> None:
    """Runs the projection job the feed brings after every append (it keeps the indexes)."""
    jobs.project(game_id, 1)


def _pass(store: RedisEventStore, now: float, **policy: int | None) -> retention.Pass:
    return retention.run(store, new_cache(store), retention.Policy(**policy), now=now,
                         measure=True)


def _answers(client: FlaskClient, table: Table) -> dict[str, bytes]:
    """Everything a reader gets of a finished game, as bytes."""
    paths = {
        "seat view": (table.path, table.tokens[0]),
        "spectator view": (table.path, None),
        "events": (f"{table.path}/events?after=2&limit=5", None),
        "history": (f"{table.path}/history", None),
        "auditor history": (f"{table.path}/history?view=auditor&format=text", None),
        "replay": (f"{table.path}/replay?at=4", table.tokens[1]),
        "audit": (f"{table.path}/audit", None),
    }
    answers = {}
    for name, (path, token) in paths.items():
        response = client.get(path, headers=bearer(token))
        assert response.status_code == 200, (name, response.get_json())
        answers[name] = response.get_data()
    return answers


def test_an_archived_game_answers_as_before_from_its_tombstone(
    own: FlaskClient, own_store: RedisEventStore, own_url: str
) -> None:
    # A game of a few deals: the tombstone's fixed part (the signed checkpoint, the fields)
    # would outweigh the events of one short deal, whose length the seeds decide.
    table = Table.create(own, "classic", options={"target": 20})
    table.play_out(random.Random(3))
    _project(table.id)
    before = _answers(own, table)
    head = json.loads(before["history"])["head"]

    signer = Publisher(own_store.client)
    done = retention.run(own_store, new_cache(own_store),
                         retention.Policy(abandon_after=None, archive_after=0),
                         now=time.time(), measure=True, sign=signer.checkpoint)
    (archived,) = [item for item in done.archived if item.game_id == table.id]
    assert archived.before is not None and archived.after is not None
    assert archived.after < archived.before / 2
    client = own_store.client
    assert not client.exists(game_key(table.id)) and client.exists(archive_key(table.id))
    tombstone = own_store.tombstone(table.id)
    assert tombstone is not None
    checkpoint = tombstone["checkpoint"]
    assert (checkpoint["game_id"], checkpoint["version"], checkpoint["head"]) == (
        table.id, archived.version, head)
    checkpoints.check(checkpoint, checkpoints.read_keys(own.get("/v1/keys").get_json()))

    # A fresh process (nothing cached) answers every read exactly as before.
    fresh = _app(own_url).test_client()
    assert _answers(fresh, table) == before
    verified = fresh.post("/v1/histories", json={"history": json.loads(before["history"])})
    assert verified.get_json()["ok"] is True
    stream = fresh.get(f"{table.path}/stream?after=0")  # Over: it ends once all is sent.
    assert stream.status_code == 200
    assert stream.get_data(as_text=True).count("\nid: ") + 1 >= archived.version
    assert fresh.get(f"{table.path}/stream").status_code == 204
    # An action is answered as on any finished game.
    action = fresh.post(f"{table.path}/actions", json={"type": "pass"},
                        headers={**bearer(table.tokens[0]), "If-Match": f'"{archived.version}"'})
    assert action.status_code == 409 and action.get_json()["code"] == "game_over"


def test_an_idle_game_ends_as_abandoned_and_says_so(
    own: FlaskClient, own_store: RedisEventStore, own_app: Flask
) -> None:
    _, key = own_app.extensions["fortyfive"].keys.create("idle club")
    table = Table(own, own.post("/v1/games", json={"profile": "classic"},
                                headers=bearer(key)).get_json())
    table.step()
    _project(table.id)
    version = table.view().get_json()["version"]
    assert _pass(own_store, time.time() + DAY, abandon_after=2 * DAY,
                 archive_after=None).abandoned == ()

    done = _pass(own_store, time.time() + 3 * DAY, abandon_after=2 * DAY, archive_after=None)
    assert table.id in done.abandoned
    view = table.view(0).get_json()
    assert (view["phase"], view["winner"], view["turn"], view["version"]) == (
        "over", None, None, version + 2)
    assert view["legal_actions"] == []
    last = own.get(f"{table.path}/events?after={version}").get_json()["events"]
    assert [event["type"] for event in last] == ["game_abandoned", "seed_revealed"]
    assert last[0]["actor"] == "server" and last[0]["data"]["after_seconds"] == 2 * DAY
    assert last[0]["data"]["idle_seconds"] >= 3 * DAY - 5
    listing = own.get("/v1/games?mine=true", headers=bearer(key)).get_json()["games"]
    assert listing[0]["id"] == table.id and listing[0]["status"] == "abandoned"
    history = own.get(f"{table.path}/history").get_json()
    assert own.post("/v1/histories", json={"history": history}).get_json()["ok"] is True
    shown = own.get(f"{table.path}/history?format=text").get_data(as_text=True)
    assert "game_abandoned" in shown
    from_text = own.post("/v1/histories", json={"text": shown}).get_json()
    assert from_text["ok"] is True and from_text["verification"]["events"] == version + 2

    # Run again, nothing more happens; later, the abandoned game is archived like any other.
    assert table.id not in _pass(own_store, time.time() + 3 * DAY, abandon_after=2 * DAY,
                                 archive_after=None).abandoned
    later = _pass(own_store, time.time() + 11 * DAY, abandon_after=2 * DAY, archive_after=7 * DAY)
    assert table.id in {item.game_id for item in later.archived}
    assert table.view(0).get_json() == view


def test_a_game_abandoned_mid_deal_reveals_its_seed_and_verifies_as_far_as_it_went(
    own: FlaskClient, own_store: RedisEventStore, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = Table.create(own, "bruff")
    for _ in range(4):  # The cut, then plays: cards are out, the deal is far from over.
        table.step()
    _project(table.id)
    version = table.view().get_json()["version"]
    deal = table.view().get_json()["deal"]
    assert deal["phase"] == "play" and deal["seed"] is None and deal["cut"] is not None

    done = _pass(own_store, time.time() + 3 * DAY, abandon_after=2 * DAY, archive_after=None)
    assert table.id in done.abandoned
    # One append: the abandonment and the reveal share their command and time.
    appended = own.get(f"{table.path}/events?after={version}").get_json()["events"]
    assert [event["type"] for event in appended] == ["game_abandoned", "seed_revealed"]
    stored = [item.envelope for item in own_store.read(table.id, after=version)]
    assert len({(envelope.command_id, envelope.occurred_at) for envelope in stored}) == 1
    assert appended[1]["data"]["deal"] == deal["number"]

    auditor = own.get(f"{table.path}/history?view=auditor")
    assert auditor.status_code == 200
    path = tmp_path / "abandoned.json"
    path.write_bytes(auditor.get_data())
    assert main(["history", "verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert (f"deal {deal['number']}: the seed revealed at event {version + 2} matches the "
            "commitment") in out
    shuffle = own.get(f"{table.path}/audit").get_json()["deals"][-1]["shuffle"]
    assert shuffle["matches"] is True and shuffle["revealed_at"] == version + 2
    assert len(shuffle["deck"]) == 53, "the deck is re-derived from the revealed seed"
    # A seat's history now gets every hash: its deal is revealed.
    seat = own.get(f"{table.path}/history", headers=bearer(table.tokens[0])).get_json()
    assert all(event["hash"] is not None for event in seat["events"])
    assert own.post("/v1/histories", json={"history": seat}).get_json()["ok"] is True


def test_a_game_still_played_is_not_abandoned(
    own: FlaskClient, own_store: RedisEventStore
) -> None:
    table = Table.create(own, "classic")
    _project(table.id)
    table.step()  # A move after the index saw it: the pass checks the events.
    done = _pass(own_store, time.time() + 30, abandon_after=60, archive_after=None)
    assert table.id not in done.abandoned and table.view().get_json()["phase"] != "over"


def test_no_table_of_a_drive_is_abandoned_by_the_store_wide_policy(
    own: FlaskClient, own_store: RedisEventStore, own_app: Flask
) -> None:
    """Table 2 has played board 1 and waits (nobody is to act: the drive owes it the board's
    reveal); table 1 stalls on a seat (a drive without a turn clock). The pass abandons
    neither: a stalled table is the director's to resolve (issue 25.7), and the drive still
    waits for table 1's board 1."""
    created = own.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 120, "turn_seconds": None},
        "format": "duplicate", "rounds": 1,
        "boards": 2, "players": [{"name": f"H{n}", "type": "human"} for n in range(8)]})
    assert created.status_code == 201, created.get_json()
    drive_id = created.get_json()["id"]
    tokens = {p["name"]: p["token"] for p in created.get_json()["players"]}
    svc = own_app.extensions["fortyfive"]
    drives.advance(own_store, svc.cache, DriveStore(own_store), svc.tokens, drive_id)
    tables = own.get(f"/v1/drives/{drive_id}").get_json()["rounds"][0]["tables"]
    stalled, waiting = (table["game"] for table in tables)
    seats = [tokens[p["name"]] for p in tables[1]["players"]]
    for _ in range(200):  # Table 2 plays board 1 out.
        view = own.get(f"/v1/games/{waiting}", headers=bearer(seats[0])).get_json()
        if view["turn"] is None:
            break
        seat_view = own.get(f"/v1/games/{waiting}",
                            headers=bearer(seats[view["turn"]])).get_json()
        answer = own.post(f"/v1/games/{waiting}/actions", json=seat_view["legal_actions"][0],
                          headers={**bearer(seats[view["turn"]]),
                                   "If-Match": f'"{seat_view["version"]}"'})
        assert answer.status_code == 201, answer.get_json()
    assert view["phase"] == "reveal" and view["deal_number"] == 1
    for game in (stalled, waiting):
        _project(game)

    done = _pass(own_store, time.time() + 3 * DAY, abandon_after=2 * DAY, archive_after=None)
    assert stalled not in done.abandoned and waiting not in done.abandoned
    assert len(own_store.read(waiting)) == view["version"]
    assert "game_abandoned" not in [r.event.TYPE for r in own_store.read(stalled)]
    assert own.get(f"/v1/drives/{drive_id}").get_json()["status"] == "running"


def test_a_finished_game_is_kept_until_its_time(
    own: FlaskClient, own_store: RedisEventStore
) -> None:
    table = Table.create(own, "classic", options={"target": 5})
    table.play_out(random.Random(4))
    _project(table.id)
    done = _pass(own_store, time.time(), abandon_after=None, archive_after=DAY)
    assert table.id not in {item.game_id for item in done.archived}
    assert own_store.client.exists(game_key(table.id))


def test_archive_command_reports_memory(
    own: FlaskClient, own_store: RedisEventStore, own_url: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = Table.create(own, "classic", options={"target": 5})
    table.play_out(random.Random(6))
    _project(table.id)
    status = main(["archive", "--redis-url", own_url, "--older-than", "0", "--abandon-after",
                   "0", "--report", "--json"])
    assert status == 0
    summary = json.loads(capsys.readouterr().out)
    assert table.id in {item["game_id"] for item in summary["archived"]}
    memory = summary["memory"]
    assert memory["per_game_after"] < memory["per_game_before"]
    assert main(["archive", "--redis-url", own_url]) == 0
    assert "archived 0" in capsys.readouterr().out


def test_abandoning_a_finished_game_cannot_be_folded(own: FlaskClient, own_url: str) -> None:
    table = Table.create(own, "classic", options={"target": 5})
    table.play_out(random.Random(8))
    with RedisEventStore.from_url(own_url) as store:
        events = [recorded.event for recorded in store.read(table.id)]
    with pytest.raises(EventSequenceError, match="already over"):
        fold([*events, GameAbandoned(idle_seconds=10, after_seconds=5)])


def test_the_hourly_retain_job_runs_the_pass_through_the_queue(
    own: FlaskClient, own_store: RedisEventStore, own_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(own, "classic", options={"target": 5})
    table.play_out(random.Random(9))
    _project(table.id)
    own_store.client.zadd(keys.OVER_KEY, {table.id: 0}, xx=True)  # It ended long ago.
    monkeypatch.setenv("ARCHIVE_AFTER", "3600")
    monkeypatch.setenv("ABANDON_AFTER", "0")
    connection = context.rq_connection(own_url)
    queue = context.make_queue(connection, "retain-test")
    assert schedule_sweep(queue, int(time.time()) // 3600)
    SimpleWorker([queue], connection=connection, serializer=JSONSerializer).work(burst=True)
    assert not own_store.client.exists(game_key(table.id))
    assert own_store.tombstone(table.id) is not None
    connection.close()


def test_feeds_are_trimmed_below_the_oldest_dispatcher_position(
    own: FlaskClient, own_store: RedisEventStore
) -> None:
    table = Table.create(own, "classic")
    for _ in range(3):
        table.step()
    partition = own_store.partition_of(table.id)
    entries = own_store.read_feed(partition, "0-0", count=100_000)
    assert len(entries) >= 4
    client = own_store.client
    # Without a dispatcher position the feed is left whole.
    for name in client.scan_iter(match=keys.CURSOR_PATTERN):
        client.delete(name)
    assert retention.trim_feeds(client) == 0
    # Two dispatchers: the slower one decides what may go.
    client.set(keys.cursor_key(partition, "fast"), entries[-1].id)
    client.set(keys.cursor_key(partition, "slow"), entries[2].id)
    assert retention.trim_feeds(client) == 2
    kept = own_store.read_feed(partition, "0-0", count=100_000)
    assert [entry.id for entry in kept] == [entry.id for entry in entries[2:]]
    assert _pass(own_store, time.time(), abandon_after=None, archive_after=None) == (
        retention.Pass((), (), 0))
