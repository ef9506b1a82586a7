"""Paper tables over REST: a drive's table played with real cards enters its score card, a
player of the other side (or the director) confirms it, and the standings and ``drive
verify`` take its result like any table's."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from rq import Queue
from worker_helpers import drive as run_all

from events.codec import canonical_json
from replay.verification.drive import verify_drive
from service.cli import main
from workers.dispatcher import Dispatcher

GOLDEN = Path(__file__).resolve().parents[1] / "replay" / "golden"


def _rehash(envelopes: list[dict[str, Any]]) -> None:
    """Recomputes every link and hash of a drive's *envelopes*, as a forger would."""
    prev = "0" * 64
    for envelope in envelopes:
        envelope["prev_hash"] = prev
        body = {k: v for k, v in envelope.items() if k != "hash"}
        envelope["hash"] = prev = hashlib.sha256(canonical_json(body)).hexdigest()


def _players(humans: int, bots: int) -> list[dict[str, str]]:
    return ([{"name": f"H{n}", "type": "human"} for n in range(1, humans + 1)]
            + [{"name": f"B{n}", "type": "bot"} for n in range(1, bots + 1)])


TABLE_ONE_HUMAN = [{"name": name, "type": "bot" if name[0] == "B" else "human"}
                   for name in ("H1", "H2", "B1", "B2", "B3", "B4", "H3", "H4")]
"""Eight players whose round 1 seats the four people at table 1 (players 7, 1, 0, 6) and
the bots at table 2 (the round-robin movement's first round)."""


def _paper_drive(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 45}, "players": TABLE_ONE_HUMAN,
        "format": "progressive", "rounds": 1, "paper_tables": [1], **fields})
    assert created.status_code == 201, created.json
    return created.json


def _table_one(client: FlaskClient, created: dict[str, Any]) -> dict[str, Any]:
    """Returns table 1's score card view with each side's tokens added."""
    card = client.get(f"/v1/drives/{created['id']}/tables/1/score_card").json
    tokens = {p["player"]: p["token"] for p in created["players"]}
    card["tokens"] = [[tokens[p["player"]] for p in side["players"]] for side in card["sides"]]
    return card


CARD = [{"dealer": 0, "points": [20, 10]}, {"dealer": 1, "points": [15, 15]},
        {"dealer": 2, "points": [15, 15]}]
"""A game to 45: side A 50, side B 40 after three deals."""


def test_a_paper_table_plays_no_game_and_its_confirmed_card_is_its_result(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = _paper_drive(client)
    drive_id = created["id"]
    run_all(dispatcher, queue)
    view = client.get(f"/v1/drives/{drive_id}").json
    assert view["paper_tables"] == [1] and view["rounds"][0]["tables"][0]["paper"] is True
    paper_game = view["rounds"][0]["tables"][0]["game"]
    assert client.get(f"/v1/games/{paper_game}").status_code == 404  # No screen game.
    card = _table_one(client, created)
    assert card["status"] == "empty" and card["paper"] is True and card["target"] == 45
    url = f"/v1/drives/{drive_id}/tables/1/score_card"

    def post(path: str, token: str, body: Any = None) -> Any:
        return client.post(url + path, json=body if body is not None else {},
                           headers={"Authorization": f"Bearer {token}"})

    a, b = card["tokens"]
    # A card the rules do not allow is refused, saying which deal breaks which rule.
    for deals, says in (
            ([{"dealer": 0, "points": [20, 15]}], "deal 1: A 20, B 15 is not a split"),
            ([{"dealer": 0, "points": [20, 10]}, {"dealer": 3, "points": [15, 15]}],
             "passes to the dealer's left: seat 1 deals after seat 0"),
            ([*CARD, {"dealer": 3, "points": [15, 15]}], "deal 3: the game ends here"),
            (CARD[:2], "before any side reached 45")):
        refused = post("", a[0], {"deals": deals})
        assert (refused.status_code, refused.json["code"]) == (422, "invalid_score_card")
        assert says in refused.json["detail"], refused.json["detail"]
    stranger = post("", "not-a-token", {"deals": CARD})
    assert (stranger.status_code, stranger.json["code"]) == (401, "invalid_token")
    anonymous = client.post(url, json={"deals": CARD})
    assert (anonymous.status_code, anonymous.json["code"]) == (401, "token_required")
    for refused in (stranger, anonymous):  # As a game's endpoints answer.
        assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    entered = post("", a[0], {"deals": CARD})
    assert entered.status_code == 200, entered.json
    assert entered.json["status"] == "entered" and entered.json["card"]["scores"] == [50, 40]
    assert entered.json["card"]["winner"] == 0
    # The writer's own side cannot confirm it; the other side disputes, then the writer
    # corrects it, and the other side confirms the correction.
    own = post("/confirm", a[1])
    assert (own.status_code, own.json["code"]) == (409, "score_card_conflict")
    disputed = post("/dispute", b[0], {"reason": "deal 2 was 10 to 20"})
    assert disputed.json["status"] == "disputed"
    blocked = post("/confirm", b[1])
    assert blocked.status_code == 409 and "disputed" in blocked.json["detail"]
    corrected = [CARD[0], {"dealer": 1, "points": [5, 25]}, CARD[2]]
    assert post("", a[0], {"deals": corrected}).json["card"]["scores"] == [40, 50]
    # The table's record of its deals, kept as a hand history, goes with its card.
    missing = post("", a[0], {"deals": corrected, "record": "h-" + "0" * 32})
    assert (missing.status_code, missing.json["code"]) == (422, "record_not_found")
    record = client.post("/v1/histories", query_string={"mode": "keep"}, json={
        "history": json.loads((GOLDEN / "jink.json").read_bytes())}).json["id"]
    kept = post("", a[0], {"deals": corrected, "record": record})
    assert kept.json["card"]["record"] == record
    confirmed = post("/confirm", b[1])
    assert confirmed.json["status"] == "confirmed"
    assert confirmed.json["card"]["confirmed_by"] == {"side": 1}
    late = post("", a[0], {"deals": CARD})
    assert late.status_code == 409 and "only the director" in late.json["detail"]
    run_all(dispatcher, queue)  # The screen table plays out; the round and drive end.
    view = client.get(f"/v1/drives/{drive_id}").json
    assert view["status"] == "finished"
    assert view["rounds"][0]["tables"][0]["scores"] == [40, 50]
    rows = {p["name"]: p for p in client.get(f"/v1/drives/{drive_id}/standings").json["players"]}
    for side, members in enumerate(card["sides"]):
        for member in members["players"]:
            assert rows[member["name"]]["points"] == (40, 50)[side]
            assert rows[member["name"]]["games_won"] == (0, 1)[side]
    history = client.get(f"/v1/drives/{drive_id}/history")
    document = json.loads(history.data)
    marks = [(e["type"], e["actor"]) for e in document["events"] if "score_card" in e["type"]]
    writer = next(p["player"] for p in card["sides"][0]["players"])
    confirmer = card["sides"][1]["players"][1]["player"]
    assert [t for t, _ in marks] == ["score_card_entered", "score_card_disputed",
                                     "score_card_entered", "score_card_entered",
                                     "score_card_confirmed"]
    assert [e["data"].get("record") for e in document["events"]
            if e["type"] == "score_card_entered"] == [None, None, record]
    assert marks[0][1] == f"player:{writer}" and marks[-1][1] == f"player:{confirmer}"
    entry = next(g for g in document["games"] if g["game"] == paper_game)
    assert entry["paper"] is True and "events" not in entry
    path = tmp_path / "drive.json"
    path.write_bytes(history.data)
    assert main(["drive", "verify", str(path)]) == 0
    entry["result"]["scores"] = [50, 40]
    path.write_text(json.dumps(document))
    assert main(["drive", "verify", str(path)]) == 1
    # A card the rules do not allow, its chain recomputed: the fold in drive verify refuses
    # it naming the deal, as the service did.
    forged = json.loads(history.data)
    entered = [e for e in forged["events"] if e["type"] == "score_card_entered"][-1]
    entered["data"]["deals"][0]["points"] = [25, 10]
    _rehash(forged["events"])
    forged["head"] = forged["events"][-1]["hash"]
    forged.pop("checkpoint")
    problems = verify_drive(forged)
    assert any("deal 1: A 25, B 10 is not a split" in p for p in problems), problems


def test_the_director_enters_and_confirms_a_card_and_settles_a_dispute(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue,
) -> None:
    created = _paper_drive(client, paper_tables="all")
    drive_id, director = created["id"], created["director_token"]
    run_all(dispatcher, queue)
    view = client.get(f"/v1/drives/{drive_id}").json
    assert view["paper_tables"] == [1, 2]
    url = f"/v1/drives/{drive_id}/tables/2/score_card"
    card = client.get(url).json
    tokens = {p["player"]: p["token"] for p in created["players"]}
    stranger = next(tokens[p["player"]] for p in _table_one(client, created)["sides"][0][
        "players"] if p["player"] in tokens)
    sitting = [[p["player"] for p in side["players"]] for side in card["sides"]]
    refused = client.post(url, json={"deals": CARD},
                          headers={"Authorization": f"Bearer {stranger}"})
    assert (refused.status_code, refused.json["code"]) == (403, "not_at_table")
    headers = {"Authorization": f"Bearer {director}"}
    assert client.post(url, json={"deals": CARD}, headers=headers).json["card"][
        "entered_by"] == "director"
    side_b = next((tokens[p] for p in sitting[1] if p in tokens), None)
    if side_b is not None:
        disputed = client.post(url + "/dispute", json={"reason": "no"},
                               headers={"Authorization": f"Bearer {side_b}"})
        assert disputed.json["status"] == "disputed"
    confirmed = client.post(url + "/confirm", json={}, headers=headers)
    assert confirmed.status_code == 200, confirmed.json
    assert confirmed.json["card"]["confirmed_by"] == "director"
    table_one = f"/v1/drives/{drive_id}/tables/1/score_card"
    client.post(table_one, json={"deals": CARD}, headers=headers)
    assert client.get(f"/v1/drives/{drive_id}").json["status"] == "running"
    client.post(table_one + "/confirm", json={}, headers=headers)
    run_all(dispatcher, queue)
    assert client.get(f"/v1/drives/{drive_id}").json["status"] == "finished"


@pytest.mark.parametrize(("fields", "says"), [
    ({"format": "duplicate", "boards": 1}, "paper tables play progressive drives"),
    ({"profile": "auction", "options": {}}, "paper tables play classic or bruff"),
    ({"paper_tables": [3]}, "distinct tables 1 to 2"),
])
def test_a_paper_table_the_drive_cannot_play_is_refused(
    client: FlaskClient, fields: dict[str, Any], says: str,
) -> None:
    refused = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 45}, "players": _players(4, 4),
        "format": "progressive", "rounds": 1, "paper_tables": [1], **fields})
    assert (refused.status_code, refused.json["code"]) == (422, "invalid_drive"), refused.json
    assert says in refused.json["detail"]
