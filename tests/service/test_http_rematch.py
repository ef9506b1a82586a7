"""``POST /v1/games/{id}/rematch``: the same table plays again, each token kept."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient
from http_table import Table, bearer

from service.application import commands
from service.application import rematch as rematches
from service.application.names import SeatNameError


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
    assert client.get(path, headers=bearer(table.tokens[0])).get_json()["rematch"] == new_id
    unknown = client.get(path, headers=bearer("garbage"))
    assert (unknown.status_code, unknown.get_json()["code"]) == (401, "invalid_token")

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


def test_of_two_requests_racing_only_one_makes_a_game(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _over(client, ["human", "human"])
    path = f"{table.path}/rematch"
    first = client.post(path, json={}, headers=bearer(table.tokens[0])).get_json()["rematch"]
    created: list[str] = []
    real_create = commands.create_game

    def create_game(*args: Any, **kwargs: Any) -> Any:
        before = kwargs["before_append"]

        def spy(game_id: str) -> None:
            created.append(game_id)
            before(game_id)

        return real_create(*args, **{**kwargs, "before_append": spy})

    # The second request looks before the first one's id is written: it finds none.
    real_of, looks = rematches.rematch_of, []

    def rematch_of(*args: Any) -> str | None:
        looks.append(args)
        return None if len(looks) == 1 else real_of(*args)

    monkeypatch.setattr(rematches, "rematch_of", rematch_of)
    monkeypatch.setattr(commands, "create_game", create_game)
    late = client.post(path, json={}, headers=bearer(table.tokens[0]))
    assert (late.status_code, late.get_json()["rematch"]) == (200, first)
    assert len(created) == 1 and created[0] != first
    assert client.get(f"/v1/games/{created[0]}").status_code == 404, "no second game exists"
    assert client.get(f"/v1/games/{first}", headers=bearer(table.tokens[0])).get_json()[
        "viewer"] == 0


def test_a_rematch_keeps_names_a_stricter_rule_would_now_refuse(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Names the table was seated with are copied, not judged again: a name rule made
    stricter since (characters refused that were taken before) must not turn a rematch of
    an older game into an error."""
    body = {"profile": "classic", "options": {"target": 15}, "auditor": True,
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human"}]}
    table = Table(client, client.post("/v1/games", json=body).get_json())
    table.play_out(random.Random(5))

    def stricter(names: Any) -> None:
        raise SeatNameError("the name of seat 0 is refused by a newer rule")

    monkeypatch.setattr(commands, "check_names", stricter)
    assert client.post("/v1/games", json=body).status_code == 422, "new tables are held to it"
    answer = client.post(f"{table.path}/rematch", json={}, headers=bearer(table.tokens[0]))
    assert answer.status_code == 201, answer.get_json()
    new = client.get(f"/v1/games/{answer.get_json()['rematch']}").get_json()
    assert new["names"][0] == "Ann"
