"""The lean path of POST /v1/games/<id>/actions: taken for plain actions, never looser than
ActionSchema, and the same answers either way."""

from __future__ import annotations

import sys
from typing import Any

import marshmallow as ma
import pytest
from flask import Flask
from http_table import Table
from hypothesis import given, settings
from hypothesis import strategies as st

from service import games, lean_actions
from service.request_schemas import ActionSchema

_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 1005), st.floats(allow_nan=False),
    st.sampled_from(["5S", "5s", "10H", "JK", "jk", "TD", "1S", "5S\n", " 5S", "S", "h", "X",
                     "play", "cut", "bid", "pass", "jink", "name_trump", ""]),
    st.lists(st.sampled_from(["5S", "AH", "5S\n", "ZZ", 3]), max_size=7),
)
_NAMES = st.sampled_from(["type", "card", "discard", "cards", "amount", "suit", "position",
                          "other"])


@given(st.dictionaries(_NAMES, _VALUES, max_size=4) | _VALUES)
@settings(max_examples=400)
def test_a_plain_action_is_exactly_what_the_schema_loads(body: Any) -> None:
    plain = lean_actions.plain_action(body)
    if plain is None:
        return
    assert plain == ActionSchema().load(body)
    assert all(type(plain[name]) is type(value) for name, value in body.items())


@pytest.mark.parametrize("body", [
    {"type": "play", "card": "5S"}, {"type": "cut", "position": 7},
    {"type": "bid", "amount": 20}, {"type": "discard", "cards": ["5S", "AH"]},
    {"type": "name_trump", "suit": "h"}, {"type": "pass"},
])
def test_the_actions_clients_post_take_the_lean_path(body: dict[str, Any]) -> None:
    assert lean_actions.plain_action(body) == body


@pytest.mark.parametrize("body", [
    {"type": "play", "card": "5S\n"}, {"type": "bid", "amount": True}, {"card": "5S"},
    {"type": "play", "extra": 1}, {"type": "bid", "amount": 1001}, ["type"], "play",
    {"type": "discard", "cards": ["5S"] * 6},
])
def test_anything_else_goes_through_the_schema(body: Any) -> None:
    assert lean_actions.plain_action(body) is None


def test_the_endpoint_serves_plain_actions_leanly_and_the_rest_as_documented(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken: list[str] = []
    real = games.take_action

    def spy(action: dict[str, Any], game_id: str) -> Any:
        caller = sys._getframe(1).f_code.co_filename
        taken.append("lean" if caller.endswith("lean_actions.py") else "documented")
        return real(action, game_id)

    monkeypatch.setattr(games, "take_action", spy)
    seat, version = table.turn()
    assert seat is not None
    refused = table.post(seat, {"type": "cut", "position": "7"}, version)
    assert refused.status_code == 422, refused.get_json()
    assert taken == []  # The schema refused it before the endpoint's body ran.
    too_far = table.post(seat, {"type": "cut", "position": 2**40}, version)
    assert too_far.status_code == 422 and taken == []
    response = table.post(seat, {"type": "cut", "position": 7}, version)
    assert response.status_code == 201, response.get_json()
    assert taken == ["lean"]


def test_a_schema_refusal_is_the_same_problem_as_before(table: Table) -> None:
    seat, version = table.turn()
    assert seat is not None
    response = table.post(seat, {"type": "cut", "position": 7, "bogus": 1}, version)
    body = response.get_json()
    assert response.mimetype == "application/problem+json"
    assert response.status_code == 422 and "bogus" in body["detail"]
    with pytest.raises(ma.ValidationError):
        ActionSchema().load({"type": "cut", "position": 7, "bogus": 1})
