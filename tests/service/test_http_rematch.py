"""``POST /v1/games/{id}/rematch``: the same table plays again, each token kept."""

from __future__ import annotations

import random

from flask.testing import FlaskClient
from http_table import Table, bearer


def _over(client: FlaskClient, seats: list[str]) -> Table:
    table = Table.create(client, "classic", options={"target": 15}, seats=seats)
    table.play_out(random.Random(5))
    return table


def test_a_finished_game_is_played_again_with_the_same_tokens(client: FlaskClient) -> None:
    table = _over(client, ["human", "human", "human"])
    path = f"{table.path}/rematch"
    assert client.get(path).get_json() == {"game_id": table.id, "rematch": None}
    first = client.post(path, json={}, headers=bearer(table.tokens[1]))
    assert first.status_code == 201, first.get_json()
    new_id = first.get_json()["rematch"]
    assert new_id != table.id
    assert first.headers["Location"] == f"/v1/games/{new_id}"
    again = client.post(path, json={}, headers=bearer(table.tokens[2]))
    assert (again.status_code, again.get_json()["rematch"]) == (200, new_id), "one rematch"
    assert client.get(path).get_json()["rematch"] == new_id

    old = table.view(0).get_json()
    for seat, token in enumerate(table.tokens):
        view = client.get(f"/v1/games/{new_id}", headers=bearer(token)).get_json()
        assert view["viewer"] == seat, "each token opens its own seat of the new game"
        assert view["phase"] != "over"
        assert (view["profile"], view["options"], view["seat_types"]) == (
            old["profile"], old["options"], old["seat_types"])
    audited = client.get(f"/v1/games/{new_id}", headers=bearer(table.auditor))
    assert audited.get_json()["viewer"] == "auditor"


def test_a_rematch_needs_a_seat_of_a_finished_game(client: FlaskClient) -> None:
    table = Table.create(client, "classic", seats=["human", "bot"])
    path = f"{table.path}/rematch"
    early = client.post(path, json={}, headers=bearer(table.tokens[0]))
    assert (early.status_code, early.get_json()["code"]) == (409, "game_in_progress")
    assert client.post(path, json={}).status_code == 401
    assert client.post(path, json={}, headers=bearer("y" * 43)).status_code == 401
    auditor = client.post(path, json={}, headers=bearer(table.auditor))
    assert (auditor.status_code, auditor.get_json()["code"]) == (403, "seats_only")
    assert client.post("/v1/games/nosuchgame/rematch", json={},
                       headers=bearer(table.tokens[0])).status_code == 404
