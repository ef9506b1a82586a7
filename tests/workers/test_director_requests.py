"""What a director's request may say: its token (refused as a game's endpoints refuse one),
the round it means (a late bell does not ring the next round), only the fields its action
takes, and a newcomer's name that is not blank (refused as at the drive's creation)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from rq import Queue
from worker_helpers import drive as run_workers

from workers.dispatcher import Dispatcher


def _people_drive(client: FlaskClient, rounds: int = 2) -> tuple[str, str]:
    """Creates a drive of eight people without a turn clock (its tables wait for them);
    returns its id and director's token."""
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 45, "turn_seconds": None},
        "players": [{"name": f"H{n}", "type": "human"} for n in range(1, 9)],
        "format": "progressive", "rounds": rounds})
    assert created.status_code == 201, created.json
    return created.json["id"], created.json["director_token"]


def _direct(client: FlaskClient, drive_id: str, token: str, **body: Any) -> Any:
    return client.post(f"/v1/drives/{drive_id}/director", json=body,
                       headers={"Authorization": f"Bearer {token}"})


def test_a_late_bell_naming_an_ended_round_is_refused_and_the_next_round_plays_on(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue,
) -> None:
    drive_id, director = _people_drive(client)
    run_workers(dispatcher, queue)  # Round 1 starts; nobody plays.
    rung = _direct(client, drive_id, director, action="end_round", round=1)
    assert rung.status_code == 200, rung.json
    run_workers(dispatcher, queue)  # Round 1 ends as it stands; round 2 starts.
    view = client.get(f"/v1/drives/{drive_id}").json
    assert view["current_round"] == 2 and view["rounds"][1]["status"] == "running"
    # The director's page still showed round 1: its bell and an abandonment come late.
    for late in ({"action": "end_round"}, {"action": "abandon_table", "table": 1,
                                           "adjusted": ["average", "average"]}):
        refused = _direct(client, drive_id, director, round=1, **late)
        assert (refused.status_code, refused.json["code"]) == (409, "round_not_in_play")
        assert refused.json["detail"] == "round 1 is over; round 2 is in play: nothing is done"
    early = _direct(client, drive_id, director, action="end_round", round=3)
    assert (early.status_code, early.json["code"]) == (409, "round_not_in_play")
    assert early.json["detail"].startswith("round 3 has not started; round 2 is in play")
    after = client.get(f"/v1/drives/{drive_id}").json
    assert after["version"] == view["version"]  # Nothing written.
    assert [t["status"] for t in after["rounds"][1]["tables"]] == ["in_progress"] * 2
    standings = client.get(f"/v1/drives/{drive_id}/standings").json
    assert standings["called"] == [1] and standings["adjustments"] == []
    # Naming the round in play, it is done.
    assert _direct(client, drive_id, director, action="end_round", round=2).status_code == 200


def test_a_round_named_between_rounds_is_refused_saying_none_is_in_play(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue,
) -> None:
    drive_id, director = _people_drive(client)
    refused = _direct(client, drive_id, director, action="end_round", round=1)
    assert (refused.status_code, refused.json["code"]) == (409, "round_not_in_play")
    assert refused.json["detail"] == ("round 1 has not started; no round is in play: nothing "
                                      "is done")


@pytest.mark.parametrize(("body", "detail"), [
    ({"action": "add_player", "name": "x", "type": "human", "player": 3},
     "add_player does not take player (it takes name, type, level and reason)"),
    ({"action": "pause", "table": 7, "player": 99, "adjusted": ["average"], "name": "ignored"},
     "pause does not take adjusted, name, player or table (it takes reason)"),
    ({"action": "withdraw_player", "player": 1, "round": 1},
     "withdraw_player does not take round (it takes player and reason)"),
    ({"action": "end_round", "table": 1},
     "end_round does not take table (it takes round and reason)"),
])
def test_a_field_the_action_does_not_take_is_refused_and_nothing_is_done(
    client: FlaskClient, body: dict[str, Any], detail: str,
) -> None:
    drive_id, director = _people_drive(client)
    version = client.get(f"/v1/drives/{drive_id}").json["version"]
    refused = _direct(client, drive_id, director, **body)
    assert (refused.status_code, refused.json["code"]) == (422, "field_not_taken")
    assert refused.json["detail"] == detail
    view = client.get(f"/v1/drives/{drive_id}").json
    assert view["version"] == version and len(view["players"]) == 8 and not view["paused"]


@pytest.mark.parametrize(("headers", "code", "detail"), [
    ({}, "token_required", "a director's action needs the director's token: Authorization: "
                           "Bearer <director_token>"),
    ({"Authorization": "Bearer not-the-director"}, "invalid_token",
     "that is not the director's token of drive"),
    ({"Authorization": "Basic abc"}, "invalid_token",
     "the Authorization header must be 'Bearer <token>' with the drive's director token"),
])
def test_a_director_request_without_the_token_is_answered_as_a_games_with_a_challenge(
    client: FlaskClient, headers: dict[str, str], code: str, detail: str,
) -> None:
    drive_id, _director = _people_drive(client)
    refused = client.post(f"/v1/drives/{drive_id}/director", json={"action": "pause"},
                          headers=headers)
    assert (refused.status_code, refused.json["code"]) == (401, code)
    assert refused.json["detail"].startswith(detail)
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get(f"/v1/drives/{drive_id}").json["paused"] is False


BLANK = "every player of a drive needs a name: a blank one names nobody"
"""The one refusal of a blank name, wherever a drive takes a name."""


@pytest.mark.parametrize("name", ["", "   ", "\t \u3000"])
def test_a_blank_name_is_refused_alike_at_the_creation_and_from_the_director(
    client: FlaskClient, name: str,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "format": "progressive", "rounds": 1,
        "players": [{"name": name, "type": "human"}] + [
            {"name": f"B{n}", "type": "bot"} for n in range(1, 8)]})
    drive_id, director = _people_drive(client)
    refusals = [created] + [
        _direct(client, drive_id, director, action="add_player", name=name, type="bot"),
        _direct(client, drive_id, director, action="substitute", player=0, name=name,
                type="human")]
    for refused in refusals:
        assert (refused.status_code, refused.json["code"], refused.json["detail"]) == (
            422, "invalid_name", BLANK)
    view = client.get(f"/v1/drives/{drive_id}").json
    assert len(view["players"]) == 8 and view["players"][0]["name"] == "H1"
