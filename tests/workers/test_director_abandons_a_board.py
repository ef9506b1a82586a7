"""A director abandons single boards of a duplicate table over REST: a person never comes to
their table, so it stalls on each board in turn; the director abandons that board there with
an adjusted score, the table's game skips it and goes on with the next (and is over after the
last), the other tables compare the board among themselves, and the standings, recomputed
here from the drive's history alone, show each adjustment and who made it. Every refusal says
why and writes nothing; ``drive verify`` derives the standings again and catches a board
skipped that the director did not abandon."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from rq import Queue
from test_drive_evening import SHARE, Evening, _rehash
from worker_helpers import drive as run_workers

from replay.verification.drive import verify_drive
from service.cli import main
from workers.dispatcher import Dispatcher


def recompute_duplicate(document: Mapping[str, Any]) -> dict[int, tuple[int | float, int]]:
    """Returns each player's (matchpoints, games won) of a one-round duplicate drive from its
    history alone (docs/api.md): on each board a side scores 1 for every other table whose
    same side it beat and 1/2 per tie, among the tables that played the board where the
    director did not abandon it; at a table where the director abandoned the board, each side
    scores its adjusted share of the tables that compare on it; a table's winning side wins a
    game for both its players."""
    created = document["events"][0]["data"]
    tables = created["schedule"][0]
    games = next(e["data"]["games"] for e in document["events"] if e["type"] == "round_started")
    results = {g["game"]: g["result"] for g in document["games"]}
    abandoned = {(e["data"]["table"], e["data"]["deal"]): e["data"]["adjusted"]
                 for e in document["events"] if e["type"] == "board_abandoned"}
    points = [Fraction(0)] * len(created["players"])
    won = [0] * len(created["players"])
    for deal in range(1, created["boards"] + 1):
        scored = [(t, results[game]["deals"][str(deal)]) for t, game in enumerate(games, 1)
                  if str(deal) in results[game]["deals"] and (t, deal) not in abandoned]
        for t, table in enumerate(tables, start=1):
            for seat, player in enumerate(table):
                side = seat % 2
                if (t, deal) in abandoned:
                    points[player] += SHARE[abandoned[t, deal][side]] * len(scored)
                    continue
                mine = dict(scored).get(t)
                if mine is None:
                    continue
                for other, theirs in scored:
                    if other != t:
                        points[player] += (1 if mine[side] > theirs[side] else
                                           Fraction(1, 2) if mine[side] == theirs[side] else 0)
    for game, table in zip(games, tables, strict=True):
        for seat, player in enumerate(table):
            won[player] += results[game]["winner"] == seat % 2
    return {p: (int(v) if v.denominator == 1 else float(v), won[p])
            for p, v in enumerate(points)}


def test_the_director_abandons_one_board_at_a_stalled_table_and_its_game_goes_on(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 45, "turn_seconds": None},
        "players": [{"name": "H1", "type": "human"}] + [
            {"name": f"B{n}", "type": "bot"} for n in range(1, 12)],
        "format": "duplicate", "rounds": 1, "boards": 2})
    assert created.status_code == 201, created.json
    evening = Evening(client, dispatcher, queue, created.json)
    evening.absent.add(0)  # H1 never comes: their table stalls on each board.
    run_workers(dispatcher, queue)
    stalled = evening.table_of(0)
    other = next(t["table"] for t in evening.view()["rounds"][0]["tables"]
                 if t["table"] != stalled["table"])
    h1_side = next(p["side"] for p in stalled["players"] if p["name"] == "H1")
    first = ["average_plus", "average_plus"]
    first[h1_side] = "average_minus"
    version = evening.view()["version"]
    for fields, status, code in (
            ({"table": stalled["table"], "board": 2, "adjusted": first}, 409,
             "board_not_reached"),
            ({"table": other, "board": 1, "adjusted": first}, 409, "board_played"),
            ({"table": stalled["table"], "board": 3, "adjusted": first}, 422, "unknown_board"),
            ({"table": 4, "board": 1, "adjusted": first}, 422, "unknown_table"),
            ({"table": stalled["table"], "board": 1, "adjusted": ["average"]}, 422,
             "adjusted_per_side"),
            ({"table": stalled["table"], "board": 1}, 422, "director_action_incomplete")):
        refused = evening.direct("abandon_board", **fields)
        assert (refused.status_code, refused.json["code"]) == (status, code), refused.json
        assert refused.headers["Content-Type"] == "application/problem+json"
    assert evening.view()["version"] == version, "a refused action writes nothing"

    answer = evening.direct("abandon_board", table=stalled["table"], board=1, adjusted=first,
                            reason="H1 has not come")
    assert answer.status_code == 200, answer.json
    again = evening.direct("abandon_board", table=stalled["table"], board=1, adjusted=first)
    assert (again.status_code, again.json["code"]) == (409, "board_abandoned"), again.json
    run_workers(dispatcher, queue)
    # Board 1 is revealed (every table finished it or skipped it): the stalled table has gone
    # on to board 2, where it waits for H1 again.
    view = evening.view()
    assert [b["seed"] is not None for b in view["rounds"][0]["boards"]] == [True, False]
    game = client.get(f"/v1/games/{stalled['game']}", headers={
        "Authorization": f"Bearer {evening.people[0]}"}).json
    assert game["phase"] != "over" and game["deal"]["number"] == 2, game["phase"]
    played = evening.direct("abandon_board", table=other, board=1, adjusted=first)
    assert (played.status_code, played.json["code"]) == (409, "board_played"), played.json
    second = evening.direct("abandon_board", table=stalled["table"], board=2,
                            adjusted=["average", "average"], reason="H1 has still not come")
    assert second.status_code == 200, second.json
    run_workers(dispatcher, queue)
    view = evening.view()
    assert view["status"] == "finished", view["rounds"][0]
    table = next(t for t in view["rounds"][0]["tables"] if t["table"] == stalled["table"])
    assert (table["status"], table["scores"], table["winner"]) == ("over", [0, 0], None)

    standings = client.get(f"/v1/drives/{evening.drive_id}/standings").json
    assert [(a["round"], a["table"], a["board"], a["by"], a["reason"],
             [s["adjusted"] for s in a["sides"]]) for a in standings["adjustments"]] == [
        (1, stalled["table"], 1, "director", "H1 has not come", first),
        (1, stalled["table"], 2, "director", "H1 has still not come", ["average", "average"])]
    document = json.loads(client.get(f"/v1/drives/{evening.drive_id}/history").data)
    assert [(e["type"], e["actor"]) for e in document["events"] if e["actor"] == "director"] == [
        ("board_abandoned", "director")] * 2
    listed = next(g for g in document["games"] if g["game"] == stalled["game"])
    assert [(e["type"], e["actor"], e["data"]["deal"]) for e in listed["events"]
            if e["type"] == "board_skipped"] == [("board_skipped", "server", 1),
                                                 ("board_skipped", "server", 2)]
    recomputed = recompute_duplicate(document)
    assert {p["player"]: (p["points"], p["games_won"]) for p in standings["players"]} == (
        recomputed)
    # Each side of the stalled table scores its share of the two tables that played a board.
    assert recomputed[0][0] == float(SHARE["average_minus"] * 2 + SHARE["average"] * 2)
    path = tmp_path / "drive.json"
    path.write_text(json.dumps(document))
    assert main(["drive", "verify", str(path)]) == 0
    # The first abandonment moved to another table, the drive's chain rewritten to match:
    # the stalled game skipped a board its director did not abandon there.
    forged = copy.deepcopy(document)
    event = next(e for e in forged["events"] if e["type"] == "board_abandoned")
    event["data"]["table"] = other
    forged["head"] = _rehash(forged["events"])
    assert any("was skipped, but the drive's director abandoned no such board" in problem
               for problem in verify_drive(forged)), verify_drive(forged)


def test_a_progressive_drive_has_no_board_to_abandon(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 45, "turn_seconds": None},
        "players": [{"name": "H1", "type": "human"}] + [
            {"name": f"B{n}", "type": "bot"} for n in range(1, 8)],
        "format": "progressive", "rounds": 1})
    evening = Evening(client, dispatcher, queue, created.json)
    early = evening.direct("abandon_board", table=1, board=1, adjusted=["average", "average"])
    assert (early.status_code, early.json["code"]) == (422, "not_duplicate"), early.json
    run_workers(dispatcher, queue)
    refused = evening.direct("abandon_board", table=1, board=1, adjusted=["average", "average"])
    assert (refused.status_code, refused.json["code"]) == (422, "not_duplicate"), refused.json
