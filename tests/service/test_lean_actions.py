"""The lean path of POST /v1/games/<id>/actions: taken for plain actions, never looser than
ActionSchema, and the same answers either way."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import Any

import marshmallow as ma
import pytest
from flask import Flask
from http_table import Table
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.test import Client, EnvironBuilder, run_wsgi_app

from engine.action_values import ACTION_FIELDS
from events.keys import rate_key
from service.application import access_log
from service.http import lean_actions, limits
from service.http.app import create_app
from service.http.routes import games
from service.http.schemas.action_body import ACTION_BODY
from service.http.schemas.requests import ActionSchema

_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 1005), st.floats(allow_nan=False),
    st.sampled_from(["5S", "5s", "10H", "JK", "jk", "TD", "1S", "5S\n", " 5S", "S", "h", "X",
                     "play", "cut", "bid", "pass", "jink", "name_trump", ""]),
    st.lists(st.sampled_from(["5S", "AH", "5S\n", "ZZ", 3]), max_size=7),
    st.sampled_from(["9f2c4e1a7b3d5f60e8c2a4b6d8f01357", "9F2C", " 9f2c"]),
)
_NAMES = st.sampled_from(["type", "card", "discard", "cards", "amount", "suit", "position",
                          "nonce", "other"])


@given(st.dictionaries(_NAMES, _VALUES, max_size=4) | _VALUES)
@settings(max_examples=400)
def test_a_plain_action_is_exactly_what_the_schema_loads(body: Any) -> None:
    plain = lean_actions.plain_action(body)
    if plain is None:
        return
    assert plain == ActionSchema().load(body)
    assert all(type(plain[name]) is type(value) for name, value in body.items())


def test_one_description_names_every_field_the_engine_reads() -> None:
    described = [field.name for field in ACTION_BODY]
    assert list(ActionSchema().fields) == described
    assert set(described) == {"type"} | {
        name for names in ACTION_FIELDS.values() for name in names}
    assert set(lean_actions.FIELD_CHECKS) == set(described)


@pytest.mark.parametrize("body", [
    {"type": "play", "card": "5S"}, {"type": "cut", "position": 7},
    {"type": "bid", "amount": 20}, {"type": "discard", "cards": ["5S", "AH"]},
    {"type": "name_trump", "suit": "h"}, {"type": "pass"},
    {"type": "contribute", "nonce": "9f2c4e1a7b3d5f60e8c2a4b6d8f01357"},
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
    real = games.action_answer

    def spy(*args: Any) -> Any:
        caller = sys._getframe(1).f_code
        taken.append("dispatch" if caller.co_filename.endswith("lean_actions.py")
                     else "lean" if sys._getframe(2).f_code.co_filename.endswith(
                         "lean_actions.py") else "documented")
        return real(*args)

    monkeypatch.setattr(games, "action_answer", spy)
    seat, version = table.turn()
    assert seat is not None
    refused = table.post(seat, {"type": "cut", "position": "7"}, version)
    assert refused.status_code == 422, refused.get_json()
    assert taken == []  # The schema refused it before the endpoint's body ran.
    too_far = table.post(seat, {"type": "cut", "position": 2**40}, version)
    assert too_far.status_code == 422 and taken == []
    response = table.post(seat, {"type": "cut", "position": 7}, version)
    assert response.status_code == 201, response.get_json()
    assert taken == ["dispatch"]  # Answered in front of Flask.
    seat, version = table.turn()
    assert seat is not None
    app.config["TRUSTED_HOSTS"] = ["localhost"]  # Checked by the app: not in front.
    response = table.post(seat, table.view(seat).get_json()["legal_actions"][0], version)
    assert response.status_code == 201, response.get_json()
    assert taken == ["dispatch", "lean"]


def test_a_schema_refusal_is_the_same_problem_as_before(table: Table) -> None:
    seat, version = table.turn()
    assert seat is not None
    response = table.post(seat, {"type": "cut", "position": 7, "bogus": 1}, version)
    body = response.get_json()
    assert response.mimetype == "application/problem+json"
    assert response.status_code == 422 and "bogus" in body["detail"]
    with pytest.raises(ma.ValidationError):
        ActionSchema().load({"type": "cut", "position": 7, "bogus": 1})


def _answer(client: Client, method: str, path: str, **kwargs: Any) -> tuple[str, Any, bytes]:
    response = client.open(path, method=method, **kwargs)
    return response.status, response.headers.to_wsgi_list(), response.get_data()


def _both(app: Flask, path: str, **kwargs: Any) -> tuple[Any, Any]:
    """POSTs one request to *path* in front of Flask and to the app itself, in that order;
    returns both answers (status line, header list, body)."""
    dispatch = app.wsgi_app
    assert isinstance(dispatch, lean_actions.ActionDispatch)
    fast = _answer(Client(dispatch), "POST", path, **kwargs)
    full = _answer(Client(dispatch.inner), "POST", path, **kwargs)
    return fast, full


def test_the_dispatch_answers_byte_for_byte_as_the_app(app: Flask, table: Table) -> None:
    seat, version = table.turn()
    assert seat is not None
    other = 1 - seat if seat < 2 else 0
    action = table.view(seat).get_json()["legal_actions"][0]
    token = table.tokens[seat]
    path = f"{table.path}/actions"

    def headers(**extra: str | None) -> dict[str, str]:
        chosen = {"Authorization": f"Bearer {token}", "If-Match": f'"{version}"', **extra}
        return {name: value for name, value in chosen.items() if value is not None}

    refusals: list[tuple[str, dict[str, Any]]] = [
        (path, {"json": action, "headers": headers(**{"If-Match": f'"{version + 5}"'})}),
        (path, {"json": action, "headers": headers(**{"If-Match": None})}),
        (path, {"json": action, "headers": headers(**{"If-Match": "W/7"})}),
        (path, {"json": action, "headers": headers(**{"Idempotency-Key": "a b"})}),
        (path, {"json": action, "headers": headers(Authorization=None)}),
        (path, {"json": action, "headers": headers(Authorization="Bearer nope")}),
        (path, {"json": action, "headers": headers(Authorization="Basic abc")}),
        (path, {"json": action, "headers": headers(
            Authorization=f"Bearer {table.auditor}")}),
        (path, {"json": action, "headers": headers(
            Authorization=f"Bearer {table.tokens[other]}")}),
        (path, {"json": {"type": "play", "card": "5S"}, "headers": headers()}),
        (path, {"json": {"type": "cut", "position": "7"}, "headers": headers()}),
        (path, {"json": {"type": "cut", "position": 7, "x": 1}, "headers": headers()}),
        (path, {"data": b"{", "headers": headers(), "content_type": "application/json"}),
        (path, {"data": b"", "headers": headers(), "content_type": "application/json"}),
        (path, {"data": b'{"type": "cut", "type": "cut"}', "headers": headers(),
                "content_type": "application/json"}),
        (path, {"data": b"x=1", "headers": headers(), "content_type": "text/plain"}),
        (path, {"json": action, "headers": headers(**{"X-Bad": "a\x01b"})}),
        ("/v1/games/nosuchgame0/actions", {"json": action, "headers": headers()}),
        ("/v1/games/-bad-/actions", {"json": action, "headers": headers()}),
        (f"{table.path}/actions?x=" + "y" * 5000, {"json": action, "headers": headers()}),
    ]
    for where, request in refusals:
        fast, full = _both(app, where, **request)
        assert fast == full, (where, request)
        assert int(fast[0][:3]) >= 400, fast
    assert table.turn() == (seat, version)  # Nothing was appended.

    # Taken: once in front of Flask and retried through the app, then the other way round.
    fast = _answer(Client(app.wsgi_app), "POST", path, json=action,
                   headers=headers(**{"Idempotency-Key": "k1"}))
    assert fast[0] == "201 CREATED"
    replays = _both(app, path, json=action, headers=headers(**{"Idempotency-Key": "k1"}))
    assert replays[0] == replays[1]
    status, replayed, body = replays[0]
    assert ("Idempotent-Replayed", "true") in replayed
    assert (status, [field for field in replayed if field[0] != "Idempotent-Replayed"],
            body) == fast
    seat, version = table.turn()
    assert seat is not None
    token = table.tokens[seat]
    action = table.view(seat).get_json()["legal_actions"][0]
    dispatch = app.wsgi_app
    assert isinstance(dispatch, lean_actions.ActionDispatch)
    full = _answer(Client(dispatch.inner), "POST", path, json=action,
                   headers=headers(**{"Idempotency-Key": "k2"}))
    assert full[0] == "201 CREATED"
    replays = _both(app, path, json=action, headers=headers(**{"Idempotency-Key": "k2"}))
    assert replays[0] == replays[1]
    status, replayed, body = replays[0]
    assert (status, [field for field in replayed if field[0] != "Idempotent-Replayed"],
            body) == full
    # A key used for another action: refused alike.
    fast, full = _both(app, path, json={"type": "pass"},
                       headers=headers(**{"Idempotency-Key": "k2"}))
    assert fast == full and fast[0].startswith("422")


def test_a_refused_body_reaches_the_app_whole() -> None:
    replay = lean_actions._Replay(b'{"a":\n1}', io.BytesIO(b"tail\nend"))
    assert replay.readline() == b'{"a":\n'
    assert replay.read(2) == b"1}"
    assert list(replay) == [b"tail\n", b"end"]
    replay = lean_actions._Replay(b"ab", io.BytesIO(b"cd"))
    assert replay.read() == b"abcd"


class _Broken(io.BytesIO):
    def read(self, size: int | None = -1) -> bytes:
        raise ConnectionResetError("reset while reading the body")

    def readinto(self, buffer: Any) -> int:
        raise ConnectionResetError("reset while reading the body")


def test_a_body_that_cannot_be_read_is_answered_by_the_app(app: Flask, table: Table) -> None:
    seat, version = table.turn()
    assert seat is not None
    dispatch = app.wsgi_app
    assert isinstance(dispatch, lean_actions.ActionDispatch)
    answers = []
    for wsgi in (dispatch, dispatch.inner):
        environ = EnvironBuilder(
            path=f"{table.path}/actions", method="POST", data=b'{"type": "pass"}',
            content_type="application/json",
            headers={"Authorization": f"Bearer {table.tokens[seat]}",
                     "If-Match": f'"{version}"'}).get_environ()
        environ["wsgi.input"] = _Broken()
        answers.append(run_wsgi_app(wsgi, environ, buffered=True))
    (body, status, headers), (full_body, full_status, full_headers) = answers
    assert (status, list(headers), b"".join(body)) == (
        full_status, list(full_headers), b"".join(full_body))
    assert status.startswith("400")


def test_the_dispatch_answers_views_byte_for_byte_as_the_app(app: Flask, table: Table) -> None:
    dispatch = app.wsgi_app
    assert isinstance(dispatch, lean_actions.ActionDispatch)
    table.step()
    requests: list[tuple[str, dict[str, str]]] = [
        (table.path, {"Authorization": f"Bearer {table.tokens[0]}"}),
        (table.path, {"Authorization": f"Bearer {table.tokens[3]}"}),
        (table.path, {"Authorization": "Bearer nope"}),
        (table.path, {"Authorization": "Basic abc"}),
        (table.path, {}),
        (f"{table.path}?view=spectator", {"Authorization": f"Bearer {table.tokens[1]}"}),
        ("/v1/games/nosuchgame1", {"Authorization": f"Bearer {table.tokens[0]}"}),
        ("/v1/games/-bad-", {}),
    ]
    for path, headers in requests:
        fast = _answer(Client(dispatch), "GET", path, headers=headers)
        full = _answer(Client(dispatch.inner), "GET", path, headers=headers)
        assert fast == full, (path, headers)
    fast = _answer(Client(dispatch), "GET", table.path, headers=requests[0][1])
    assert fast[0] == "200 OK" and ("ETag", f'"{table.turn()[1]}"') in fast[1]


def test_an_auditor_view_is_recorded_once(app: Flask, table: Table, client: Any) -> None:
    auditor = {"Authorization": f"Bearer {table.auditor}"}
    for _ in range(2):
        assert client.get(table.path, headers=auditor).status_code == 200
    assert access_log.count(app.extensions["fortyfive"].tokens, table.id) == 2


def test_the_dispatch_stays_out_of_an_app_with_other_hooks(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    seen: list[str] = []
    app.before_request(lambda: seen.append("hook") and None)
    dispatch = app.wsgi_app
    assert isinstance(dispatch, lean_actions.ActionDispatch)
    table = Table.create(app.test_client(), "classic")
    assert not dispatch.enabled
    seen.clear()
    table.step()  # Served, and by the app: its hook ran for the view and the action.
    assert len(seen) >= 2
    app.extensions["fortyfive"].streams.close()
    app.extensions["fortyfive"].store.close()


@pytest.fixture
def limited(redis_url: str) -> Iterator[Flask]:
    """An app that enforces rate limits, three actions a minute per seat."""
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "ENFORCE_RATE_LIMITS": True,
                      "RATE_LIMITS": {"actions": "3/60"}})
    yield app
    app.extensions["fortyfive"].streams.close()
    app.extensions["fortyfive"].store.close()


def test_with_rate_limits_an_action_is_counted_once_and_answered_as_the_app_would(
    limited: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = limited
    dispatch = app.wsgi_app
    assert isinstance(dispatch, lean_actions.ActionDispatch)
    table = Table.create(app.test_client(), "classic")
    seat, version = table.turn()
    assert seat is not None
    token = table.tokens[seat]
    assert token is not None
    seat_client = limits.seat_client_of(
        app.extensions["fortyfive"].tokens, table.id, f"Bearer {token}")
    assert seat_client is not None
    counter = rate_key(seat_client, "actions")
    store = app.extensions["fortyfive"].store.client
    path = f"{table.path}/actions"
    stale = {"json": {"type": "cut", "position": 7},
             "headers": {"Authorization": f"Bearer {token}", "If-Match": f'"{version + 5}"'}}

    def both_from(count: int) -> tuple[Any, Any]:
        answers = []
        for wsgi in (dispatch, dispatch.inner):
            store.set(counter, count, ex=60)
            answers.append(_answer(Client(wsgi), "POST", path, **stale))
        return answers[0], answers[1]

    # Refused by the game (412) and over the quota (429): the same bytes either way.
    for count, status in ((0, "412"), (3, "429")):
        fast, full = both_from(count)
        assert fast == full and fast[0].startswith(status), (fast, full)
        assert ("RateLimit-Policy", '"actions";q=3;w=60') in fast[1]
    store.delete(counter)
    # Counted once per request, whichever answers it, and the fourth refused.
    left = [_answer(Client(dispatch), "POST", path, **stale) for _ in range(4)]
    assert [status[:3] for status, _, _ in left] == ["412", "412", "412", "429"]
    assert [dict(headers)["RateLimit"].split(";")[1] for _, headers, _ in left] == [
        "r=2", "r=1", "r=0", "r=0"]
    store.delete(counter)
    taken: list[str] = []
    real = games.action_answer

    def spy(*args: Any) -> Any:
        taken.append("dispatch" if sys._getframe(1).f_code.co_filename.endswith(
            "lean_actions.py") else "app")
        return real(*args)

    monkeypatch.setattr(games, "action_answer", spy)
    response = table.post(seat, table.view(seat).get_json()["legal_actions"][0], version)
    assert response.status_code == 201, response.get_json()
    assert taken == ["dispatch"]  # Answered in front of Flask, limits and all.
    assert response.headers["RateLimit"].startswith('"actions";r=2;')


def test_with_rate_limits_a_view_is_counted_once_against_the_address_as_the_app_would(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "ENFORCE_RATE_LIMITS": True,
                      "RATE_LIMITS": {"reads": "4/60"}})
    dispatch = app.wsgi_app
    assert isinstance(dispatch, lean_actions.ActionDispatch)
    table = Table.create(app.test_client(), "classic")
    store = app.extensions["fortyfive"].store.client
    address = {"REMOTE_ADDR": "192.0.2.7"}
    counter = rate_key(limits.address_client(address["REMOTE_ADDR"]), "reads")
    seat = {"Authorization": f"Bearer {table.tokens[0]}"}
    # Under the quota and over it: the same bytes from the dispatch as from the app.
    for count, status in ((0, "200"), (4, "429")):
        answers = []
        for wsgi in (dispatch, dispatch.inner):
            store.set(counter, count, ex=60)
            answers.append(_answer(Client(wsgi), "GET", table.path, headers=seat,
                                   environ_base=address))
        assert answers[0] == answers[1] and answers[0][0].startswith(status), answers
        assert ("RateLimit-Policy", '"reads";q=4;w=60') in answers[0][1]
    taken: list[str] = []
    real = games.seat_view_answer

    def spy(*args: Any) -> Any:
        taken.append("dispatch")
        return real(*args)

    monkeypatch.setattr(games, "seat_view_answer", spy)
    store.delete(counter)
    # A seat's view, a spectator's, one with an API key (the app's to count, by the key if
    # it is valid, else by the address): each counted once, whichever answers it.
    asked = [seat, {}, {**seat, "X-API-Key": "not-a-key"}, seat, seat]
    left = [_answer(Client(dispatch), "GET", table.path, headers=headers, environ_base=address)
            for headers in asked]
    assert [status[:3] for status, _, _ in left] == ["200", "200", "200", "200", "429"]
    assert [dict(headers)["RateLimit"].split(";")[1] for _, headers, _ in left] == [
        "r=3", "r=2", "r=1", "r=0", "r=0"]
    assert len(taken) == 3, "two seat views answered in front, the spectator's by the app"
    app.config["TRUSTED_PROXIES"] = 1  # The app reads the address the proxy forwarded.
    taken.clear()
    store.delete(counter)
    assert _answer(Client(dispatch), "GET", table.path, headers=seat,
                   environ_base=address)[0].startswith("200")
    assert taken == []
    app.extensions["fortyfive"].streams.close()
    app.extensions["fortyfive"].store.close()
