"""A drive's tables call their seats by the drive's players' names."""

from __future__ import annotations

from flask.testing import FlaskClient
from rq import Queue
from worker_helpers import drive

from workers.dispatcher import Dispatcher


def test_a_drive_table_calls_its_seats_by_the_players_names(
        client: FlaskClient, dispatcher: Dispatcher, queue: Queue) -> None:
    players = [{"name": f"P{n}", "type": "human"} for n in range(1, 5)]
    created = client.post("/v1/drives", json={"profile": "classic", "players": players,
                                              "format": "progressive", "rounds": 1})
    assert created.status_code == 201, created.get_json()
    drive(dispatcher, queue)
    view = client.get(f"/v1/drives/{created.get_json()['id']}").get_json()
    table = view["rounds"][0]["tables"][0]
    names = client.get(f"/v1/games/{table['game']}").get_json()["names"]
    assert names == [seat["name"] for seat in table["players"]], "seats named as the players"
    assert sorted(names) == ["P1", "P2", "P3", "P4"]
