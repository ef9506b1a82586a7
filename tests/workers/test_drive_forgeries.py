"""A drive carries the same proof as a game: a forger who rewrites a drive's history and
recomputes every hash, every pinned head and the standings passes every check the history can
make of itself, and fails against the checkpoint the service signed (``fortyfive drive verify
--checkpoint --keys``).

Two drives are played once for the module by the workers over the API (a progressive drive of
two rounds, a duplicate drive of two boards); each forgery rewrites one of their histories as a
forger would: the change, then each changed game's chain, the heads its round pinned, the
drive's chain and the standings, all recomputed (with the service's own code for the
standings), and the checkpoint the history carries left out.
"""

from __future__ import annotations

import copy
import hashlib
import json
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from worker_helpers import drive as run_all

from engine.drives import fold_drive
from engine.standings import TableResult, public_results, standings
from events import checkpoints
from events.codec import canonical_json
from events.envelope import DriveEnvelope
from events.redis_store import RedisEventStore
from events.upcasting import decode_drive
from replay.verification.drive import check_drive
from service.cli import main
from service.http.app import create_app
from service.processes.embedded_redis import EmbeddedRedis
from workers import context
from workers.dispatcher import Dispatcher

NAMES = ["Ann", "Bob", "Cora", "Dan", "Eve", "Finn", "Gail", "Hugh"]
Document = dict[str, Any]


@pytest.fixture(scope="module")
def played(redis_server: EmbeddedRedis) -> Iterator[dict[str, Any]]:
    """Plays a progressive and a duplicate drive to their end; returns each drive's history,
    its view, and the service's keys."""
    url = redis_server.url
    context.configure(url)
    app: Flask = create_app({"REDIS_URL": url, "TESTING": True})
    client = app.test_client()
    connection = context.rq_connection(url)
    queue = context.make_queue(connection, f"test-{uuid.uuid4().hex[:12]}")
    found: dict[str, Any] = {}
    with RedisEventStore.from_url(url) as store:
        dispatcher = Dispatcher(store, queue, name=f"test-{uuid.uuid4().hex[:12]}", start="end")
        for name, body in (
            ("progressive", {"options": {"target": 10}, "format": "progressive", "rounds": 2}),
            ("duplicate", {"options": {"target": 60}, "format": "duplicate", "rounds": 1,
                           "boards": 2}),
        ):
            created = client.post("/v1/drives", json={
                "profile": "classic", "players": [{"name": n, "type": "bot"} for n in NAMES],
                **body})
            drive_id = created.json["id"]
            run_all(dispatcher, queue, rounds=80)
            found[name] = {
                "view": client.get(f"/v1/drives/{drive_id}").json,
                "history": json.loads(client.get(f"/v1/drives/{drive_id}/history").data)}
        found["keys"] = client.get("/v1/keys").json
    yield found
    app.extensions["fortyfive"].streams.close()
    app.extensions["fortyfive"].store.close()
    connection.close()


def _keys(played: dict[str, Any]) -> dict[str, bytes]:
    return checkpoints.read_keys(played["keys"])


def _rehash(envelopes: list[dict[str, Any]]) -> str:
    """Recomputes every link and hash of *envelopes* (a game's or a drive's, as stored: the
    hash is SHA-256 of the canonical JSON of every other field); returns the new head."""
    prev = "0" * 64
    for envelope in envelopes:
        envelope["prev_hash"] = prev
        body = {k: v for k, v in envelope.items() if k != "hash"}
        envelope["hash"] = prev = hashlib.sha256(canonical_json(body)).hexdigest()
    return prev


def _reseal(document: Document) -> Document:
    """Completes a forgery of *document*: re-chains every game whose events changed, pins the
    new heads in its round's end, re-chains the drive, restates the standings with the
    service's own code, and leaves out the checkpoint the history carried."""
    games = {entry["game"]: entry for entry in document["games"]}
    for entry in games.values():
        if entry.get("events") is not None:
            for index, event in enumerate(entry["events"], start=1):
                event["game_id"], event["version"] = entry["game"], index
            entry["head"], entry["version"] = _rehash(entry["events"]), len(entry["events"])
    for event in document["events"]:
        if event["type"] == "round_ended" and event["data"].get("heads") is not None:
            event["data"]["heads"] = [
                {"game": h["game"], "version": games[h["game"]]["version"],
                 "head": games[h["game"]]["head"]} for h in event["data"]["heads"]]
    document["head"] = _rehash(document["events"])
    drive = fold_drive(document["drive_id"], (decode_drive(DriveEnvelope.from_dict(e))
                                              for e in document["events"]))
    results = {game: TableResult.from_dict(entry["result"]) for game, entry in games.items()}
    document["standings"]["players"] = standings(drive, public_results(drive, results))
    document.pop("checkpoint", None)
    return document


def _created(document: Document) -> dict[str, Any]:
    return document["events"][0]["data"]


def _placed(document: Document, index: int) -> int:
    """Returns the player (index) at position *index* of the stated standings."""
    return int(document["standings"]["players"][index]["player"])


def _swap_names(first: int, second: int) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        players = _created(document)["players"]
        a, b = _placed(document, first), _placed(document, second)
        players[a]["name"], players[b]["name"] = players[b]["name"], players[a]["name"]
    return change


def _rename_winner(document: Document) -> None:
    _created(document)["players"][_placed(document, 0)]["name"] = "Mallory"


def _winner_becomes_human(document: Document) -> None:
    player = _created(document)["players"][_placed(document, 0)]
    player["type"] = "human"
    player.pop("level")  # A person has no bot level: the forger leaves none to give it away.


NAME_FORGERIES: dict[str, Callable[[Document], None]] = {
    "swap-first-and-last-placed": _swap_names(0, -1),
    "swap-first-and-second-placed": _swap_names(0, 1),
    "swap-second-and-last-placed": _swap_names(1, -1),
    "rename-the-winner": _rename_winner,
    "winner-relabelled-human": _winner_becomes_human,
}


def _game(document: Document, index: int) -> dict[str, Any]:
    return document["games"][index]


def _replace_with_another_table(document: Document) -> None:
    """Table 1's game replaced by table 2's (same round), re-labelled and re-chained."""
    first, second = _game(document, 0), _game(document, 1)
    first["events"] = copy.deepcopy(second["events"])
    first["result"] = {**copy.deepcopy(second["result"]), "game": first["game"]}


def _swap_tables(document: Document) -> None:
    """Tables 1 and 2 swap their games' events and results."""
    first, second = _game(document, 0), _game(document, 1)
    first["events"], second["events"] = second["events"], first["events"]
    first["result"], second["result"] = (
        {**second["result"], "game": first["game"]}, {**first["result"], "game": second["game"]})


def _cut_short(document: Document) -> None:
    """Table 1's game cut before its last deal's end: its result is then the score before."""
    entry = _game(document, 0)
    events = entry["events"]
    last_deal = max(e["data"]["deal"] for e in events if "deal" in e["data"])
    keep = next(i for i, e in enumerate(events) if e["data"].get("deal") == last_deal)
    entry["events"] = events[:keep]
    scores = [0, 0]
    deals = {n: p for n, p in entry["result"]["deals"].items() if int(n) < last_deal}
    for points in deals.values():
        scores = [s + p for s, p in zip(scores, points, strict=True)]
    entry["result"] = {"game": entry["game"], "over": False, "winner": None, "scores": scores,
                       "deals": deals}


def _stated_without_events(document: Document) -> None:
    """Table 1's events dropped and its result stated otherwise (the winner the other
    side)."""
    entry = _game(document, 0)
    del entry["events"]
    result = entry["result"]
    result["scores"] = result["scores"][::-1]
    result["deals"] = {n: p[::-1] for n, p in result["deals"].items()}
    result["winner"] = None if result["winner"] is None else 1 - result["winner"]


RESULT_FORGERIES: dict[str, Callable[[Document], None]] = {
    "replaced-by-another-tables-game": _replace_with_another_table,
    "two-tables-swap-games": _swap_tables,
    "a-game-cut-short": _cut_short,
    "a-result-stated-without-its-events": _stated_without_events,
}


def _swap_seats(round_: int, a: tuple[int, int], b: tuple[int, int]) -> Callable[
        [Document], None]:
    def change(document: Document) -> None:
        tables = _created(document)["schedule"][round_]
        tables[a[0]][a[1]], tables[b[0]][b[1]] = tables[b[0]][b[1]], tables[a[0]][a[1]]
    return change


def _swap_rounds(document: Document) -> None:
    schedule = _created(document)["schedule"]
    schedule[0], schedule[-1] = schedule[-1], schedule[0]


def _swap_table_order(document: Document) -> None:
    schedule = _created(document)["schedule"]
    schedule[0][0], schedule[0][1] = schedule[0][1], schedule[0][0]


SCHEDULE_FORGERIES: dict[str, Callable[[Document], None]] = {
    "players-swap-tables": _swap_seats(0, (0, 0), (1, 0)),
    "partners-swap-sides": _swap_seats(0, (0, 0), (0, 1)),
    "opponents-swap-tables": _swap_seats(0, (0, 1), (1, 0)),
    "tables-swap-seatings": _swap_table_order,
    "rounds-swap-seatings": _swap_rounds,
}

FORGERIES = {**{f"names/{k}": v for k, v in NAME_FORGERIES.items()},
             **{f"result/{k}": v for k, v in RESULT_FORGERIES.items()},
             **{f"schedule/{k}": v for k, v in SCHEDULE_FORGERIES.items()}}


def _forged(played: dict[str, Any], kind: str, name: str) -> Document:
    document = copy.deepcopy(played[kind]["history"])
    FORGERIES[name](document)
    return _reseal(document)


def _write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(value))
    return str(path)


def _verify_cli(tmp_path: Path, document: Document, checkpoint: Any, keys: Any) -> int:
    return main(["drive", "verify", _write(tmp_path, "drive.json", document),
                 "--checkpoint", _write(tmp_path, "cp.json", checkpoint),
                 "--keys", _write(tmp_path, "keys.json", keys)])


@pytest.mark.parametrize("kind", ["progressive", "duplicate"])
def test_the_drive_as_served_reaches_its_checkpoints(
    played: dict[str, Any], kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    history, view = played[kind]["history"], played[kind]["view"]
    head = view["head"]
    assert (head["version"], head["hash"]) == (len(history["events"]), history["head"])
    # The drive's end is signed once, kept, and served as the head's checkpoint.
    assert head["checkpoint"] == history["checkpoint"]
    assert head["checkpoint"]["drive_id"] == view["id"] and "game_id" not in head["checkpoint"]
    ends = [r["checkpoint"] for r in view["rounds"]]
    assert [c["version"] for c in ends] == [
        e["version"] for e in history["events"] if e["type"] == "round_ended"]
    for checkpoint in (head["checkpoint"], *ends):
        checkpoints.check(checkpoint, _keys(played), "drive_id")
        assert _verify_cli(tmp_path, history, checkpoint, played["keys"]) == 0
    out = capsys.readouterr().out
    assert "OK drive" in out and "signature verified with key ed25519:" in out
    assert "from the keys you gave (your trust root)" in out
    # The history carries the key that signed its checkpoint: without keys it checks with it.
    assert history["checkpoint_key"] in played["keys"]["keys"]
    carried = check_drive(history)
    assert carried.ok and carried.complete
    assert [s.trust for s in carried.signatures] == ["history_key"]
    # A drive view is accepted as the file holding the checkpoint.
    assert _verify_cli(tmp_path, history, view, played["keys"]) == 0
    # Every round end pins its games at their heads in the drive's chain.
    pinned = [h for e in history["events"] if e["type"] == "round_ended"
              for h in e["data"]["heads"]]
    assert pinned == [{"game": g["game"], "version": g["version"], "head": g["head"]}
                      for g in history["games"]]


CAUGHT_ON_ITS_OWN = ("result/replaced-by-another-tables-game", "result/two-tables-swap-games")
"""Forgeries besides those of names and schedule that the seats and ids of games betray."""


@pytest.mark.parametrize("name", sorted(FORGERIES))
@pytest.mark.parametrize("kind", ["progressive", "duplicate"])
def test_a_forged_drive_passes_on_its_own_and_fails_against_the_checkpoint(
    played: dict[str, Any], kind: str, name: str, tmp_path: Path,
) -> None:
    if name == "schedule/rounds-swap-seatings" and len(played[kind]["view"]["rounds"]) < 2:
        pytest.skip("a drive of one round has no other round to swap with")
    original = played[kind]["history"]
    forged = _forged(played, kind, name)
    assert forged["events"] != original["events"] or forged["games"] != original["games"]
    if name == "result/a-result-stated-without-its-events":
        # The drive pinned the game when its round ended: its events must be there.
        assert check_drive(forged).problems == [
            f"game {forged['games'][0]['game']}: its round ended, but the history does not "
            "carry its events, so its result cannot be derived"]
    elif name in CAUGHT_ON_ITS_OWN or name.startswith("schedule/") or (
            name.startswith("names/") and name != "names/winner-relabelled-human"):
        # Each game names its seats and its id its table: moving a player or a game shows.
        problems = check_drive(forged).problems
        assert any(": it seats " in p or "started game" in p for p in problems), problems
    else:
        # The forger's best effort: the history checks out against itself...
        assert check_drive(forged).problems == [], name
    # ...and not against the checkpoint signed when the drive ended.
    report = check_drive(forged, checkpoint=played[kind]["view"]["head"]["checkpoint"],
                         keys=_keys(played))
    assert report.problems
    if name != "result/a-result-stated-without-its-events":
        assert any("it was rewritten since" in p for p in report.problems), report.problems
    assert _verify_cli(tmp_path, forged, played[kind]["view"]["head"]["checkpoint"],
                       played["keys"]) == 1


def test_a_name_swap_is_caught_by_the_first_rounds_checkpoint_and_by_the_history_it_forged(
    played: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    history = played["progressive"]["history"]
    first_round = played["progressive"]["view"]["rounds"][0]["checkpoint"]
    forged = _forged(played, "progressive", "names/swap-first-and-last-placed")
    assert forged["standings"] != history["standings"]
    assert _verify_cli(tmp_path, forged, first_round, played["keys"]) == 1
    assert "FAIL the checkpoint given pins version 3" in capsys.readouterr().out
    # Keeping the checkpoint the served history carried does not help the forger either.
    assert any("the checkpoint the history carries pins version" in p
               for p in check_drive({**forged, "checkpoint": history["checkpoint"]}).problems)


def test_any_change_to_any_drive_event_fails_against_the_checkpoint(
    played: dict[str, Any],
) -> None:
    """Adjustments, when the drive records them, are drive events too: whatever a drive event
    holds, changing it and re-chaining fails against a checkpoint at or after it."""
    tried = 0
    for kind in ("progressive", "duplicate"):
        checkpoint = played[kind]["view"]["head"]["checkpoint"]
        for index, event in enumerate(played[kind]["history"]["events"]):
            for field in [*event["data"], "type", "actor"]:
                forged = copy.deepcopy(played[kind]["history"])
                target = forged["events"][index]
                holder = target if field in ("type", "actor") else target["data"]
                holder[field] = _other(holder[field])
                _rehash(forged["events"])
                forged["head"] = forged["events"][-1]["hash"]
                forged.pop("checkpoint")
                report = check_drive(forged, checkpoint=checkpoint, keys=_keys(played))
                assert report.problems, (kind, index, field)
                tried += 1
    assert tried >= 20


def _other(value: Any) -> Any:
    """Returns a value of the same JSON kind as *value* that differs from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return value[::-1] if len(value) > 1 and value[::-1] != value else [*value, value[:1]]
    if isinstance(value, dict):
        return {**value, "x": 1}
    return 0


def test_a_checkpoint_of_another_drive_or_key_or_of_a_game_is_refused(
    played: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    history = played["progressive"]["history"]
    other = played["duplicate"]["view"]["head"]["checkpoint"]
    assert _verify_cli(tmp_path, history, other, played["keys"]) == 1
    assert f"is of drive {other['drive_id']!r}" in capsys.readouterr().out
    mine = played["progressive"]["view"]["head"]["checkpoint"]
    assert _verify_cli(tmp_path, history, {**mine, "version": 1}, played["keys"]) == 1
    assert "the signature does not match" in capsys.readouterr().out
    as_game = {"game_id" if k == "drive_id" else k: v for k, v in mine.items()}
    assert _verify_cli(tmp_path, history, as_game, played["keys"]) == 1
    assert (f"FAIL the checkpoint given: a checkpoint of a game (game_id "
            f"{mine['drive_id']!r}), not of a drive") in capsys.readouterr().out
    # A drive's checkpoint is not a game's either, and its signature names the drive.
    with pytest.raises(checkpoints.CheckpointError, match="a checkpoint of a drive"):
        checkpoints.check(mine, _keys(played))
    with pytest.raises(checkpoints.CheckpointError, match="the signature does not match"):
        checkpoints.check(as_game, _keys(played))


def test_a_checkpoint_without_keys_is_a_usage_error(
    played: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    history = played["progressive"]["history"]
    status = main(["drive", "verify", _write(tmp_path, "d.json", history), "--checkpoint",
                   _write(tmp_path, "cp.json", played["progressive"]["view"])])
    assert status == 2
    assert capsys.readouterr().err.strip() == (
        "fortyfive drive verify: --checkpoint needs --keys (the answer of GET /v1/keys) to "
        "check its signature")
