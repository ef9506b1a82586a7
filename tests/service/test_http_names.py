"""Seat names: given when a game is created, refused when blank, too long or another seat's
(case and Unicode form aside, the drives' rule), and shown in views, histories (both
encodings), pictures and rematches."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from flask.testing import FlaskClient
from http_table import bearer

from replay.formats.importing import read_history
from service.application.names import MAX_NAME_LENGTH, name_key


def _create(client: FlaskClient, names: list[str | None]):  # type: ignore[no-untyped-def]
    seats = [{"type": "human", "name": name} for name in names]
    return client.post("/v1/games", json={"profile": "classic", "seats": seats,
                                          "options": {"target": 15}})


def test_names_are_in_the_views_the_histories_and_the_pictures(client: FlaskClient) -> None:
    created = _create(client, ["Ann", None, "Séan"])
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    path = f"/v1/games/{body['id']}"
    assert client.get(path).get_json()["names"] == ["Ann", None, "Séan"]
    history = client.get(f"{path}/history", query_string={"format": "json"}).get_json()
    creation = next(event for event in history["events"] if event["type"] == "game_created")
    assert creation["data"]["names"] == ["Ann", None, "Séan"]
    text = client.get(f"{path}/history", query_string={"format": "text"}).get_data(as_text=True)
    read = read_history(text)
    assert read.ok and read.history is not None, read.diagnostics
    again = next(event for event in read.history.events if event.type == "game_created")
    assert again.data["names"] == ["Ann", None, "Séan"], "the text encoding round-trips them"
    svg = client.get(f"{path}/deals/1/diagram.svg",
                     headers=bearer(body["seats"][0]["token"])).get_data()
    lines = ["".join(node.itertext()) for node in ET.fromstring(svg).iter(
        "{http://www.w3.org/2000/svg}text")]
    for title in ("Seat 0 · Ann · side A", "Seat 1 · side B", "Seat 2 · Séan · side C"):
        assert any(line.startswith(title) for line in lines), title


@pytest.mark.parametrize(("names", "says"), [
    (["Ann", "  "], "the name of seat 2 is blank"),
    (["Ann", " ANN "], "seat 2 cannot be named ' ANN ': seat 1 is named so"),
    (["\uff21nn", "ann"], "seat 2 cannot be named 'ann': seat 1 is named so"),
    (["x" * (MAX_NAME_LENGTH + 1), None], f"longer than {MAX_NAME_LENGTH} characters"),
])
def test_a_blank_long_or_borrowed_name_is_refused(
        client: FlaskClient, names: list[str | None], says: str) -> None:
    response = _create(client, names)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["code"] == "invalid_name" and says in problem["detail"], problem


def test_the_rule_is_the_drives_rule() -> None:
    assert name_key(" Ａnn  Marie ") == name_key("ann marie")

