"""Bot levels over HTTP: a seat ``{"type": "bot", "level": ...}`` when a game is created,
recorded in its creation and shown in its views and histories, and kept by a rematch; an unknown
level is refused with its own problem type, and nothing is created."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import bearer

from events.redis_store import RedisEventStore
from replay.formats.importing import read_history
from replay.formats.jsonformat import read_json
from replay.presentation.show import render
from replay.verification.verify import verify
from service.application import commands


def _create(client: FlaskClient, *seats: dict[str, Any]) -> Any:
    return client.post("/v1/games", json={"profile": "classic", "seats": list(seats),
                                          "options": {"target": 15}})


def _creation(client: FlaskClient, game_id: str) -> dict[str, Any]:
    page = client.get(f"/v1/games/{game_id}/events").get_json()
    first: dict[str, Any] = page["events"][0]
    assert first["type"] == "game_created"
    return first


def test_a_named_level_is_recorded_in_the_creation_and_shown_in_the_view(
        client: FlaskClient) -> None:
    created = _create(client, {"type": "human"}, {"type": "bot", "level": "basic"},
                      {"type": "bot", "level": "strong"})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert [seat["level"] for seat in body["seats"]] == [None, "basic", "strong"]
    assert _creation(client, body["id"])["data"]["bot_levels"] == [None, "basic", "strong"]
    view = client.get(f"/v1/games/{body['id']}").get_json()
    assert view["seat_levels"] == [None, "basic", "strong"]


@pytest.mark.parametrize(("seats", "levels", "recorded"), [
    # With a person at the table an unnamed bot is strong (docs/bots.md), and recorded.
    (["human", "bot", "bot"], [None, "strong", "strong"], [None, "strong", "strong"]),
    # In a game of bots only, basic: the creation then records no levels at all, the bytes
    # of every game before levels.
    (["bot", "bot"], ["basic", "basic"], None),
])
def test_an_unnamed_level_is_strong_beside_a_person_and_basic_among_bots(
        client: FlaskClient, seats: list[str], levels: list[str | None],
        recorded: list[str | None] | None) -> None:
    created = _create(client, *({"type": kind} for kind in seats))
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert [seat["level"] for seat in body["seats"]] == levels
    assert _creation(client, body["id"])["data"].get("bot_levels") == recorded
    assert client.get(f"/v1/games/{body['id']}").get_json()["seat_levels"] == levels


def _game_streams(store: RedisEventStore) -> int:
    """Counts the games' event streams and seat tokens in the store."""
    return sum(1 for pattern in ("*:game:*", "*:seats:*")
               for _ in store.client.scan_iter(match=pattern, count=1000))


def test_an_unknown_level_is_a_problem_of_its_own_and_creates_nothing(
        client: FlaskClient, api_store: RedisEventStore) -> None:
    before = _game_streams(api_store)
    refused = _create(client, {"type": "human"}, {"type": "bot", "level": "expert"})
    assert refused.status_code == 422
    assert refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "unknown_bot_level"
    assert problem["type"] == "urn:fortyfive:problem:unknown_bot_level"
    assert "basic or strong, not 'expert'" in problem["detail"]
    assert _game_streams(api_store) == before, "nothing was written"


def test_a_level_for_a_human_seat_is_refused(client: FlaskClient) -> None:
    refused = _create(client, {"type": "human", "level": "strong"}, {"type": "bot"})
    assert refused.status_code == 422
    problem = refused.get_json()
    assert problem["code"] == "invalid_request"
    assert "only a bot seat has a level" in problem["detail"]


def test_the_history_holds_the_levels_verifies_and_shows_them(client: FlaskClient) -> None:
    body = _create(client, {"type": "human"}, {"type": "bot", "level": "strong"},
                   {"type": "bot", "level": "basic"}).get_json()
    path = f"/v1/games/{body['id']}/history"
    document = client.get(path, query_string={"format": "json"}).get_data()
    history, diagnostics = read_json(document)
    assert history is not None and diagnostics == []
    report = verify(history)
    assert report.ok, report.format()
    shown = render(history)
    assert "seats: seat 1 (human), seat 2 (bot, strong), seat 3 (bot, basic)" in shown
    text = client.get(path, query_string={"format": "text"}).get_data(as_text=True)
    read = read_history(text)
    assert read.ok and read.history is not None, read.diagnostics
    again = next(event for event in read.history.events if event.type == "game_created")
    assert again.data["bot_levels"] == [None, "strong", "basic"], "the text keeps them"


def test_a_rematch_seats_the_same_bots_at_their_levels(client: FlaskClient, app: Flask) -> None:
    body = _create(client, {"type": "human"}, {"type": "bot", "level": "strong"},
                   {"type": "bot", "level": "basic"}).get_json()
    services = app.extensions["fortyfive"]
    version = commands.load(services.cache, body["id"]).version
    assert commands.abandon(services.store, services.cache, body["id"],
                            expected_version=version, idle_seconds=1, after_seconds=1)
    again = client.post(f"/v1/games/{body['id']}/rematch", json={},
                        headers=bearer(body["seats"][0]["token"]))
    assert again.status_code == 201, again.get_json()
    view = client.get(f"/v1/games/{again.get_json()['rematch']}").get_json()
    assert view["seat_levels"] == [None, "strong", "basic"]
