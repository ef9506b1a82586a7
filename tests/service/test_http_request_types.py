"""A request body's booleans and whole numbers are of their JSON type: ``"yes"``, ``1`` or
``"true"`` is no boolean and ``"100"`` or ``100.0`` no integer, each a 422 ``invalid_request``
that creates nothing, as openapi.yaml's types and docs/api.md's error table say."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import marshmallow as ma
import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import Table

from service.http.schemas.fields import StrictBoolean
from service.http.schemas.requests import ActionSchema

NOT_BOOLEANS = ("yes", "on", "true", "no", "0", 1, 0, 1.0, None)
NOT_INTEGERS = ("100", 100.0, True, "0x64")


def _refused(response: Any, field: str) -> None:
    assert response.status_code == 422, response.get_json()
    problem = response.get_json()
    assert problem["code"] == "invalid_request", problem
    assert field in problem["detail"], problem


@pytest.mark.parametrize("value", NOT_BOOLEANS)
def test_an_auditor_is_asked_for_with_true_only(client: FlaskClient, value: object) -> None:
    response = client.post("/v1/games", json={"profile": "classic", "auditor": value})
    _refused(response, "auditor")


def test_true_and_false_still_say_whether_there_is_an_auditor(client: FlaskClient) -> None:
    for value in (True, False):
        created = client.post("/v1/games", json={"profile": "classic", "auditor": value})
        assert created.status_code == 201, created.get_json()
        assert created.get_json()["auditor"] is value


@pytest.mark.parametrize("value", ("yes", 1, "true"))
def test_a_seat_is_made_claimable_with_true_only(client: FlaskClient, value: object) -> None:
    seats = [{"type": "human", "claimable": value}, {"type": "human"}, {"type": "human"}]
    response = client.post("/v1/games", json={"profile": "classic", "seats": seats})
    _refused(response, "claimable")


@pytest.mark.parametrize("value", NOT_INTEGERS)
def test_the_bot_pace_is_a_json_integer(client: FlaskClient, value: object) -> None:
    seats = [{"type": "human"}, {"type": "bot"}, {"type": "bot"}]
    response = client.post("/v1/games", json={"profile": "classic", "seats": seats,
                                               "bot_pace_ms": value})
    _refused(response, "bot_pace_ms")


@pytest.mark.parametrize("value", ("5", 5.0, True))
def test_an_action_number_is_a_json_integer(table: Table, value: object) -> None:
    seat, version = table.turn()
    response = table.post(seat or 0, {"type": "cut", "position": value}, version)
    _refused(response, "position")


@pytest.mark.parametrize("value", ("yes", 1))
def test_a_drive_fills_with_bots_on_true_only(client: FlaskClient, value: object) -> None:
    players = [{"name": f"P{n}", "type": "bot"} for n in range(3)]
    response = client.post("/v1/drives", json={
        "profile": "classic", "players": players, "format": "progressive", "rounds": 1,
        "fill_with_bots": value})
    _refused(response, "fill_with_bots")


def _fields(schema: ma.Schema, where: str) -> Iterator[tuple[str, ma.fields.Field[Any]]]:
    for name, field in schema.fields.items():
        yield from _inner(field, f"{where}.{name}")


def _inner(field: ma.fields.Field[Any], where: str) -> Iterator[tuple[str, ma.fields.Field[Any]]]:
    yield where, field
    if isinstance(field, ma.fields.Nested):
        yield from _fields(field.schema, where)
    elif isinstance(field, ma.fields.List):
        yield from _inner(field.inner, f"{where}[]")


def _bodies(app: Flask) -> Iterator[tuple[str, ma.Schema]]:
    """Every schema that loads a JSON request body, named by its endpoint."""
    for endpoint, view in app.view_functions.items():
        for method in ("post", "put", "patch", "delete"):
            function = getattr(getattr(view, "view_class", None), method, None)
            arguments = getattr(function, "_apidoc", {}).get("arguments", {})
            for parameter in arguments.get("parameters", []):
                if parameter["in"] == "json":
                    schema = parameter["schema"]
                    yield endpoint, schema() if isinstance(schema, type) else schema


def test_every_body_takes_json_types_only(app: Flask) -> None:
    bodies = dict(_bodies(app))
    assert {"games.Games", "drives.Drives", "paper.ScoreCard"} <= set(bodies)
    bodies["games.Actions"] = ActionSchema()  # Its view is the lean path's (lean_actions).
    lax = [where for endpoint, schema in bodies.items()
           for where, field in _fields(schema, endpoint)
           if (isinstance(field, ma.fields.Boolean) and not isinstance(field, StrictBoolean))
           or (isinstance(field, ma.fields.Number) and not getattr(field, "strict", False))]
    assert not lax, f"fields that convert what a client sends: {lax}"
