"""The identity matrix: every game endpoint against each kind of caller, with its status, and
no response to a seat or a spectator naming a card it may not see.

A token is bound to one seat of one game: a token of another game is unknown here, and an
unknown token is 401 on every endpoint (reads included). 403 is for a known caller asking for
more than its role allows: the auditor view of a live game, or the auditor acting.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from http_table import Table, bearer, read_stream

CALLERS = ("own", "opponent", "partner", "spectator", "auditor", "other_game", "garbage")

EXPECTED: dict[str, dict[str, int]] = {
    "view": dict(own=200, opponent=200, partner=200, spectator=200, auditor=200,
                 other_game=401, garbage=401),
    "auditor_view": dict(own=403, opponent=403, partner=403, spectator=403, auditor=200,
                         other_game=401, garbage=401),
    "events": dict(own=200, opponent=200, partner=200, spectator=200, auditor=200,
                   other_game=401, garbage=401),
    "auditor_events": dict(own=403, opponent=403, partner=403, spectator=403, auditor=200,
                           other_game=401, garbage=401),
    "stream": dict(own=200, opponent=200, partner=200, spectator=200, auditor=200,
                   other_game=401, garbage=401),
    "act": dict(own=201, opponent=409, partner=409, spectator=401, auditor=403,
                other_game=401, garbage=401),
}


def _setup(client: FlaskClient) -> tuple[Table, dict[str, str | None], dict[str, Any]]:
    """A bruff game at its opening lead, and the token of each kind of caller."""
    table = Table.create(client, "bruff")
    other = Table.create(client, "bruff")
    while table.view().get_json()["phase"] != "play":
        table.step()  # The cut, and the burial after a turned joker.
    own = table.view().get_json()["turn"]
    tokens = {
        "own": table.tokens[own],
        "opponent": table.tokens[(own + 1) % 6],
        "partner": table.tokens[(own + 3) % 6],
        "spectator": None,
        "auditor": table.auditor,
        "other_game": other.tokens[own],
        "garbage": "x" * 43,
    }
    return table, tokens, table.view(own).get_json()


def _request(table: Table, endpoint: str, token: str | None, own_view: dict[str, Any]) -> Any:
    headers = bearer(token)
    path = table.path
    if endpoint == "view":
        return table.client.get(path, headers=headers)
    if endpoint == "auditor_view":
        return table.client.get(path, headers=headers, query_string={"view": "auditor"})
    if endpoint == "events":
        return table.client.get(f"{path}/events", headers=headers)
    if endpoint == "auditor_events":
        return table.client.get(f"{path}/events", headers=headers,
                                query_string={"view": "auditor"})
    if endpoint == "stream":
        return read_stream(table.client, path, headers=headers, query={"after": 0})
    action = next(a for a in own_view["legal_actions"] if a["type"] == "play")
    headers["If-Match"] = f'"{own_view["version"]}"'
    return table.client.post(f"{path}/actions", json=action, headers=headers)


@pytest.mark.parametrize("endpoint", EXPECTED)
def test_identity_matrix(client: FlaskClient, endpoint: str) -> None:
    table, tokens, own_view = _setup(client)
    auditor = table.client.get(table.path, headers=bearer(table.auditor)).get_json()
    dealt = auditor["deal"]["hands"]
    own = own_view["viewer"]
    seats = {"own": own, "opponent": (own + 1) % 6, "partner": (own + 3) % 6}
    # The one action that succeeds goes last, so every other caller meets the same state.
    callers = sorted(CALLERS, key=lambda caller: caller == "own")
    for caller in callers:
        response = _request(table, endpoint, tokens[caller], own_view)
        assert response.status_code == EXPECTED[endpoint][caller], (caller, response.data)
        if response.status_code >= 400:
            assert response.mimetype == "application/problem+json"
        elif caller != "auditor":
            text = response.get_data(as_text=True)
            mine = set(dealt[seats[caller]]) if caller in seats else set()
            hidden = {card for hand in dealt for card in hand} - mine
            assert not [card for card in hidden if json.dumps(card) in text], caller


def test_unknown_token_is_401_with_a_challenge(table: Table) -> None:
    response = table.client.get(table.path, headers=bearer("not-a-token"))
    assert response.status_code == 401
    assert response.get_json()["code"] == "invalid_token"
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", ["Basic abc", "Bearer", "Bearer   ", "token"])
def test_a_malformed_authorization_header_is_401(table: Table, header: str) -> None:
    response = table.client.get(table.path, headers={"Authorization": header})
    assert response.status_code == 401
    assert response.get_json()["code"] == "invalid_token"


def test_the_auditor_view_is_open_to_anyone_once_the_game_is_over(client: FlaskClient) -> None:
    table = Table.create(client, "classic", options={"target": 5})
    table.play_out()
    for token in (None, table.tokens[0], table.auditor):
        response = table.client.get(table.path, headers=bearer(token),
                                    query_string={"view": "auditor"})
        assert response.status_code == 200
        assert response.get_json()["deal"]["hands"] is not None


def test_a_seat_may_ask_for_the_spectator_view(table: Table) -> None:
    view = table.client.get(table.path, headers=bearer(table.tokens[0]),
                            query_string={"view": "spectator"}).get_json()
    assert view["viewer"] == "spectator" and view["hand"] is None
