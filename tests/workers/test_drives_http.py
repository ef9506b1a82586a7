"""Drives over HTTP, run by the workers: create, read, standings, history, verify."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from rq import Queue
from worker_helpers import drive as run_all
from worker_helpers import state_of, work

from events.codec import canonical_json
from replay.verification.drive import verify_drive
from service.cli import main
from workers.dispatcher import Dispatcher
from workers.plan import plan


def _rehash(game_id: str, events: list[dict[str, Any]]) -> str:
    """Recomputes every hash and link of a game's envelopes; returns the new head."""
    prev = "0" * 64
    for event in events:
        event["prev_hash"] = prev
        body = {k: v for k, v in event.items() if k != "hash"}
        event["hash"] = prev = hashlib.sha256(canonical_json(body)).hexdigest()
    assert game_id
    return prev


def _players(humans: int, bots: int) -> list[dict[str, str]]:
    return ([{"name": f"H{n}", "type": "human"} for n in range(1, humans + 1)]
            + [{"name": f"B{n}", "type": "bot", "level": "basic"} for n in range(1, bots + 1)])


def test_players_that_do_not_fill_the_tables_are_refused(client: FlaskClient) -> None:
    answer = client.post("/v1/drives", json={
        "profile": "classic", "players": _players(0, 6), "format": "progressive", "rounds": 2})
    assert answer.status_code == 422
    assert answer.json["code"] == "invalid_drive" and "fill_with_bots" in answer.json["detail"]
    assert answer.mimetype == "application/problem+json"


def test_bruff_tables_seat_six_and_bots_fill_the_last_one(client: FlaskClient) -> None:
    answer = client.post("/v1/drives", json={
        "profile": "bruff", "players": _players(2, 8), "format": "progressive", "rounds": 1,
        "fill_with_bots": True})
    assert answer.status_code == 201
    players = answer.json["players"]
    assert len(players) == 12 and [p["token"] is not None for p in players[:3]] == [
        True, True, False]
    view = client.get(f"/v1/drives/{answer.json['id']}").json
    assert view["status"] == "running" and [len(t) for t in view["schedule"][0]] == [6, 6]


def test_bots_that_fill_a_table_take_names_nobody_has(client: FlaskClient) -> None:
    players = [{"name": "Bot 1", "type": "human"}, {"name": "bot  3", "type": "bot"},
               {"name": "C", "type": "bot"}]
    answer = client.post("/v1/drives", json={
        "profile": "classic", "players": players, "format": "progressive", "rounds": 1,
        "fill_with_bots": True})
    assert answer.status_code == 201, answer.json
    assert [p["name"] for p in answer.json["players"]] == ["Bot 1", "bot  3", "C", "Bot 2"]


@pytest.mark.parametrize(("body", "detail"), [
    ({"players": [{"name": "Ann Lee", "type": "human"}, {"name": " ann  LEE ", "type": "bot"}]
      + _players(0, 6)},
     'every player of a drive needs a name of their own: "Ann Lee" and " ann  LEE " are the '
     "same name"),
    ({"players": [{"name": "Ａnn", "type": "human"}, {"name": "Ann", "type": "bot"}]
      + _players(0, 6)},
     'every player of a drive needs a name of their own: "Ａnn" and "Ann" are the same name'),
    ({"boards": 3}, "boards are for duplicate drives: a progressive table deals its own"),
    ({"format": "duplicate", "players": _players(0, 4)},
     "a duplicate drive compares tables: it needs two or more, not one (5 players or more, "
     "with fill_with_bots)"),
    ({"players": _players(0, 204)}, "a drive has at most 50 tables a round, got 51"),
    ({"format": "duplicate", "options": {"jink": "announced"}},
     "a duplicate drive plays every board out and the side with the most points over them "
     "wins: an announced jink, which wins or loses the game, does not fit (jink must be "
     "none)"),
])
def test_a_drive_a_director_cannot_have_meant_is_refused_saying_why(
    client: FlaskClient, body: dict[str, Any], detail: str
) -> None:
    answer = client.post("/v1/drives", json={
        "profile": "classic", "players": _players(0, 8), "format": "progressive", "rounds": 1,
        **body})
    assert (answer.status_code, answer.json["code"]) == (422, "invalid_drive")
    assert answer.json["detail"] == detail


def test_an_unknown_drive_is_not_found(client: FlaskClient) -> None:
    answer = client.get("/v1/drives/dr-00000000000000000000/standings")
    assert answer.status_code == 404 and answer.json["code"] == "drive_not_found"


def test_a_human_token_opens_the_players_table_in_every_round_and_verify_checks_it(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 15, "turn_seconds": 30},
        "players": _players(1, 7), "format": "progressive", "rounds": 2})
    drive_id, token = created.json["id"], created.json["players"][0]["token"]
    run_all(dispatcher, queue)
    view = client.get(f"/v1/drives/{drive_id}").json
    assert view["current_round"] == 1 and view["rounds"][0]["number"] == 1
    table = next(t for t in view["rounds"][0]["tables"]
                 if any(p["name"] == "H1" for p in t["players"]))
    seat = next(p["seat"] for p in table["players"] if p["name"] == "H1")
    own = client.get(f"/v1/games/{table['game']}", headers={"Authorization": f"Bearer {token}"})
    assert own.status_code == 200 and own.json["viewer"] == seat
    # The turn clock applies: the human's turn plans a clock of 30 s.
    state = state_of(table["game"])
    due = plan(table["game"], state)
    assert state.turn == seat and [(j.name, j.delay) for j in due if j.name == "turn_clock"] == [
        ("turn_clock", 30)]
    standings = client.get(f"/v1/drives/{drive_id}/standings").json
    assert {p["name"] for p in standings["players"]} == {f"B{n}" for n in range(1, 8)} | {"H1"}
    # Game points are whole: integers, as in the drive's history (not 35.0).
    assert all(type(p["points"]) is int for p in standings["players"]), standings
    history = client.get(f"/v1/drives/{drive_id}/history")
    assert history.status_code == 200
    path = tmp_path / "drive.json"
    path.write_bytes(history.data)
    assert main(["drive", "verify", str(path)]) == 0
    document = json.loads(history.data)
    document["standings"]["players"][0]["games_won"] += 1
    path.write_text(json.dumps(document))
    assert main(["drive", "verify", str(path)]) == 1


def test_a_duplicate_drive_verifies_and_a_changed_board_seed_does_not(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 60}, "players": _players(0, 8),
        "format": "duplicate", "rounds": 1, "boards": 2})
    drive_id = created.json["id"]
    run_all(dispatcher, queue, rounds=80)
    view = client.get(f"/v1/drives/{drive_id}").json
    assert view["status"] == "finished" and view["boards_per_round"] == 2
    boards = view["rounds"][0]["boards"]
    assert [b["board"] for b in boards] == [f"{drive_id}/r1/b1", f"{drive_id}/r1/b2"]
    assert all(b["seed"] for b in boards)
    standings = client.get(f"/v1/drives/{drive_id}/standings").json["players"]
    # Two tables: on each board one side-pair comparison per side, 1 matchpoint shared.
    assert sum(row["points"] for row in standings) == 2 * 2 * 2
    history = json.loads(client.get(f"/v1/drives/{drive_id}/history").data)
    assert all("events" in game for game in history["games"])
    types = [e["type"] for e in history["games"][0]["events"]]
    assert types.count("board_dealt") == 2 and types.count("seed_revealed") == 2
    # A board's reveal and the next board are one append (one command): no version of a
    # table shows the board revealed and the next not yet dealt, which a stream opened then
    # would pass the board check in, and follow the next board's play.
    for game in history["games"]:
        events = game["events"]
        for index, event in enumerate(events):
            if event["type"] == "seed_revealed" and event["data"]["deal"] < 2 and (
                    index + 1 < len(events)):
                following = events[index + 1]
                assert (following["type"], following["command_id"]) == (
                    "board_dealt", event["command_id"]), (game["game"], index)
    path = tmp_path / "drive.json"
    path.write_text(json.dumps(history))
    assert main(["drive", "verify", str(path)]) == 0
    game = history["games"][1]["events"]
    dealt = next(e for e in game if e["type"] == "board_dealt")
    original_cut = dealt["data"]["cut"]
    dealt["data"]["cut"] = dealt["data"]["cut"] % 50 + 1
    path.write_text(json.dumps(history))
    assert main(["drive", "verify", str(path)]) == 1
    # A table dealt another board, its chain rehashed: the drive's commitment catches it.
    dealt["data"]["cut"] = original_cut
    seed = "ab" * 32
    dealt["data"].update(seed=seed, commitment=hashlib.sha256(bytes.fromhex(seed)).hexdigest())
    history["games"][1]["head"] = _rehash(history["games"][1]["game"], game)
    problems = verify_drive(history)
    assert any("is not the board the drive committed to" in p for p in problems), problems


def test_a_drives_games_have_a_turn_clock_unless_its_creator_says_none(
    client: FlaskClient,
) -> None:
    body = {"profile": "classic", "players": _players(0, 8), "format": "progressive",
            "rounds": 1}
    clocked = client.post("/v1/drives", json=body).json["id"]
    assert client.get(f"/v1/drives/{clocked}").json["options"]["turn_seconds"] == 120
    unclocked = client.post("/v1/drives", json={**body, "options": {"turn_seconds": None}})
    assert client.get(f"/v1/drives/{unclocked.json['id']}").json["options"][
        "turn_seconds"] is None


def test_the_director_pauses_between_rounds_and_stops_the_drive_with_its_token_alone(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 10}, "players": _players(0, 8),
        "format": "progressive", "rounds": 3})
    drive_id, director = created.json["id"], created.json["director_token"]
    assert len(director) >= 40 and director not in client.get(f"/v1/drives/{drive_id}").text
    dispatcher.poll()
    work(queue)  # The drive's creation is dispatched: round 1 starts, nobody has played.
    assert client.get(f"/v1/drives/{drive_id}").json["current_round"] == 1

    def direct(action: str, token: str = director) -> Any:
        return client.post(f"/v1/drives/{drive_id}/director",
                           json={"action": action, "reason": "the raffle"},
                           headers={"Authorization": f"Bearer {token}"})

    refused = direct("pause", "not-the-director")
    assert (refused.status_code, refused.json["code"]) == (401, "invalid_token")
    assert direct("pause").json["paused"] is True
    again = direct("pause")
    assert (again.status_code, again.json["code"]) == (409, "drive_paused")
    early = direct("stop")
    assert (early.status_code, early.json["code"]) == (409, "round_in_play")
    assert "round 1 is in play" in early.json["detail"]
    run_all(dispatcher, queue)  # Round 1 plays out and ends; round 2 waits for the director.
    view = client.get(f"/v1/drives/{drive_id}").json
    assert [r["status"] for r in view["rounds"]] == ["finished"]
    assert (view["status"], view["paused"]) == ("running", True)
    stopped = direct("stop")
    assert stopped.status_code == 200, stopped.json
    assert (stopped.json["status"], stopped.json["stopped"]) == ("finished", True)
    run_all(dispatcher, queue)  # Nothing more starts; the end is signed.
    view = client.get(f"/v1/drives/{drive_id}").json
    assert len(view["rounds"]) == 1 and view["status"] == "finished"
    finished = direct("resume")
    assert (finished.status_code, finished.json["code"]) == (409, "drive_finished")
    history = client.get(f"/v1/drives/{drive_id}/history")
    events = json.loads(history.data)["events"]
    assert [(e["type"], e["actor"]) for e in events if e["actor"] == "director"] == [
        ("drive_paused", "director"), ("drive_stopped", "director")]
    assert events[-1]["type"] == "drive_stopped"
    assert json.loads(history.data)["checkpoint"]["version"] == events[-1]["version"]
    path = tmp_path / "drive.json"
    path.write_bytes(history.data)
    assert main(["drive", "verify", str(path)]) == 0
    standings = client.get(f"/v1/drives/{drive_id}/standings").json
    assert sum(p["games_won"] for p in standings["players"]) == 2 * 2


def test_the_director_abandons_a_stalled_table_with_adjusted_scores_the_standings_show(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    # One person without a turn clock stalls their table on board 1; the others play on.
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 15, "turn_seconds": None},
        "players": _players(1, 11), "format": "duplicate", "rounds": 1, "boards": 2})
    drive_id, director = created.json["id"], created.json["director_token"]
    run_all(dispatcher, queue)
    view = client.get(f"/v1/drives/{drive_id}").json
    table = next(t for t in view["rounds"][0]["tables"]
                 if any(p["name"] == "H1" for p in t["players"]))
    human_side = next(p["side"] for p in table["players"] if p["name"] == "H1")
    assert view["status"] == "running" and table["status"] == "in_progress"
    adjusted = ["average_minus", "average_minus"]
    adjusted[human_side] = "average_plus"

    def abandon(**fields: Any) -> Any:
        return client.post(f"/v1/drives/{drive_id}/director", json={
            "action": "abandon_table", "reason": "H1 was called away", **fields},
            headers={"Authorization": f"Bearer {director}"})

    for fields, code in (({"table": 4, "adjusted": adjusted}, "unknown_table"),
                         ({"table": table["table"], "adjusted": ["average"]},
                          "adjusted_per_side"),
                         ({"table": table["table"]}, "director_action_incomplete"),
                         ({"table": table["table"], "adjusted": ["top", "average"]},
                          "invalid_request")):
        refused = abandon(**fields)
        assert (refused.status_code, refused.json["code"]) == (422, code), refused.json
    answer = abandon(table=table["table"], adjusted=adjusted)
    assert answer.status_code == 200, answer.json
    again = abandon(table=table["table"], adjusted=adjusted)
    assert (again.status_code, again.json["code"]) == (409, "table_abandoned")
    assert "abandoned already" in again.json["detail"]
    assert state_of(table["game"]).phase == "over"  # Ended at once, without a winner.
    run_all(dispatcher, queue)  # The other tables' boards are revealed; the drive finishes.
    assert client.get(f"/v1/drives/{drive_id}").json["status"] == "finished"
    standings = client.get(f"/v1/drives/{drive_id}/standings").json
    names = {p["name"]: p["side"] for p in table["players"]}
    assert standings["adjustments"] == [{
        "round": 1, "table": table["table"], "board": None, "by": "director",
        "reason": "H1 was called away",
        "sides": [{"players": [n for n, side in names.items() if side == s],
                   "adjusted": adjusted[s]} for s in (0, 1)]}]
    rows = {p["name"]: p for p in standings["players"]}
    # Two boards the table did not finish, each played at two other tables: a top of 2 a
    # board, of which average-plus is 60 per cent and average-minus 40.
    for name, side in names.items():
        assert rows[name]["games_won"] == 0
        assert rows[name]["points"] == (2.4 if side == human_side else 1.6), rows[name]
    # The two tables that played compare with each other: 1 matchpoint a board per side pair.
    assert sum(p["points"] for p in standings["players"]) == pytest.approx(8 + 2 * 2.4 + 2 * 1.6)
    history = client.get(f"/v1/drives/{drive_id}/history")
    events = json.loads(history.data)["events"]
    assert [(e["type"], e["actor"]) for e in events if e["type"] == "table_abandoned"] == [
        ("table_abandoned", "director")]
    path = tmp_path / "drive.json"
    path.write_bytes(history.data)
    assert main(["drive", "verify", str(path)]) == 0
    document = json.loads(history.data)
    row = next(p for p in document["standings"]["players"] if p["name"] == "H1")
    row["points"] = 3
    path.write_text(json.dumps(document))
    assert main(["drive", "verify", str(path)]) == 1


def test_a_drive_ranked_by_games_won_says_so_and_ranks_by_them_then_points(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 10}, "players": _players(0, 8),
        "format": "progressive", "rounds": 3, "rank_by": "games_won"})
    drive_id = created.json["id"]
    run_all(dispatcher, queue)
    standings = client.get(f"/v1/drives/{drive_id}/standings").json
    assert standings["rank_by"] == "games_won"
    assert standings["tie_rule"].startswith("ranked by games won, then by points")
    rows = standings["players"]
    keys = [(-p["games_won"], -p["points"]) for p in rows]
    assert keys == sorted(keys) and len({p["games_won"] for p in rows}) > 1
    history = client.get(f"/v1/drives/{drive_id}/history")
    path = tmp_path / "drive.json"
    path.write_bytes(history.data)
    assert main(["drive", "verify", str(path)]) == 0
    refused = client.post("/v1/drives", json={
        "profile": "classic", "players": _players(0, 8), "format": "progressive", "rounds": 1,
        "rank_by": "tricks"})
    assert (refused.status_code, refused.json["code"]) == (422, "invalid_request")


def test_a_fixed_partners_drive_keeps_partnerships_and_says_its_movement(
    client: FlaskClient,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "players": _players(0, 12), "format": "progressive",
        "rounds": 3, "movement": "fixed_partners"})
    view = client.get(f"/v1/drives/{created.json['id']}").json
    assert view["movement"] == "fixed_partners"
    for tables in view["schedule"]:
        for seats in tables:  # B1 partners B2, B3 partners B4...: seats 0 and 2, 1 and 3.
            for first, second in ((seats[0], seats[2]), (seats[1], seats[3])):
                assert (int(first[1:]) + 1) // 2 == (int(second[1:]) + 1) // 2
    refused = client.post("/v1/drives", json={
        "profile": "classic", "players": _players(0, 8), "format": "progressive", "rounds": 1,
        "movement": "howell"})
    assert (refused.status_code, refused.json["code"]) == (422, "invalid_request")
