"""A duplicate board in play is shown only to the seats of its table (issue 13)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from rq import Queue
from worker_helpers import drive as run_all
from worker_helpers import state_of

from workers.dispatcher import Dispatcher


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _reads(game: str, played: int) -> list[str]:
    """Every read that would show the card played at version *played*."""
    return [f"/v1/games/{game}", f"/v1/games/{game}?view=spectator",
            f"/v1/games/{game}?view=auditor", f"/v1/games/{game}/events",
            f"/v1/games/{game}/stream?after=0&wait=5", f"/v1/games/{game}/history",
            f"/v1/games/{game}/history?format=text", f"/v1/games/{game}/replay?at={played}",
            f"/v1/games/{game}/audit"]


def _refused(answer: Any, board: str) -> None:
    assert answer.status_code == 403, answer.data
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == "board_in_play"
    assert board in answer.json["detail"] and "board_revealed" in answer.json["detail"]


def test_a_board_in_play_is_hidden_from_all_but_its_table_until_the_drive_reveals_it(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 120}, "players": (
            [{"name": "H", "type": "human"}] + [{"name": f"B{n}", "type": "bot", "level": "basic"}
                                                for n in range(7)]),
        "format": "duplicate", "rounds": 1, "boards": 1})
    drive_id, token = created.json["id"], created.json["players"][0]["token"]
    run_all(dispatcher, queue)
    mine, bots = f"{drive_id}.1.1", f"{drive_id}.1.2"  # H sits at table 1 in round 1.
    board = f"{drive_id}/r1/b1"
    # The bots' table has played the whole board; the human's waits for the human.
    other = state_of(bots)
    assert other.deal is not None and other.deal.tricks and not other.deal.seed_revealed
    for path in _reads(bots, other.version):
        _refused(client.get(path), board)  # A spectator of the other table.
        # The human's token is of table 1 only: at table 2 it is refused, and without it
        # the human is a spectator there.
        assert client.get(path, headers=_bearer(token)).status_code == 401
    for path in _reads(mine, 1):
        _refused(client.get(path), board)  # A spectator of the human's own table.
    own = client.get(f"/v1/games/{mine}", headers=_bearer(token))
    assert own.status_code == 200 and own.json["viewer"] == 2 and own.json["hand"]
    assert client.get(f"/v1/games/{mine}/events", headers=_bearer(token)).status_code == 200
    assert client.get(f"/v1/games/{mine}/history", headers=_bearer(token)).status_code == 200
    assert client.get(f"/v1/games/{mine}?view=spectator",
                      headers=_bearer(token)).status_code == 200
    # The drive's own view still shows the tables (no cards in it), but not what the bots'
    # table made on the board: the human, still playing it, would learn of the cards. Nor do
    # the standings. Its history, which holds every table's events, waits for the end of the
    # drive.
    tables = client.get(f"/v1/drives/{drive_id}").json["rounds"][0]["tables"]
    assert other.deal.result is not None and any(other.scores), "the bots scored on the board"
    assert [(t["status"], t["scores"], t["winner"]) for t in tables] == [
        ("in_progress", [0, 0], None)] * 2
    standings = client.get(f"/v1/drives/{drive_id}/standings").json["players"]
    assert {(row["points"], row["games_won"]) for row in standings} == {(0, 0)}
    history = client.get(f"/v1/drives/{drive_id}/history")
    assert history.status_code == 409 and history.json["code"] == "drive_in_progress"

    # The human plays the board out; the drive reveals it; then everyone sees everything.
    for _ in range(60):
        view = client.get(f"/v1/games/{mine}", headers=_bearer(token)).json
        if view["phase"] == "over":
            break
        if view["legal_actions"]:
            answer = client.post(f"/v1/games/{mine}/actions", json=view["legal_actions"][0],
                                 headers={**_bearer(token), "If-Match": f'"{view["version"]}"'})
            assert answer.status_code == 201, answer.json
        run_all(dispatcher, queue)
    assert client.get(f"/v1/drives/{drive_id}").json["rounds"][0]["boards"][0]["seed"]
    assert client.get(f"/v1/drives/{drive_id}").json["status"] == "finished"
    assert client.get(f"/v1/drives/{drive_id}/history").status_code == 200
    for game in (mine, bots):
        for path in _reads(game, 3):
            answer = client.get(path)
            assert answer.status_code in (200, 204), (path, answer.data)
        view = client.get(f"/v1/games/{game}").json
        assert view["viewer"] == "spectator" and view["deal"]["tricks"]


def test_an_ordinary_games_spectator_view_is_unchanged(client: FlaskClient) -> None:
    game = client.post("/v1/games", json={"profile": "classic"}).json["id"]
    for path in [p for p in _reads(game, 1) if "auditor" not in p and "audit" not in p]:
        answer = client.get(path)
        assert answer.status_code in (200, 204), (path, answer.data)
