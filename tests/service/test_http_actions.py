"""Posting actions: If-Match, Idempotency-Key, refused actions, bad bodies; nothing refused is
ever appended."""

from __future__ import annotations

import json
from typing import Any

import pytest
from http_table import Table, bearer

from engine.profiles import make_ruleset
from engine.shuffle import pack
from events.redis_store import RedisEventStore

PACK = [card.code() for card in pack(make_ruleset("bruff"))]


def _problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json()
    assert body["code"] == code
    assert body["status"] == status
    assert body["type"] == f"urn:fortyfive:problem:{code}"
    assert body["title"] and body["detail"]
    return body


def _cutter(table: Table) -> tuple[int, int]:
    seat, version = table.turn()
    assert seat is not None
    return seat, version


def test_an_action_returns_201_and_the_new_view(table: Table) -> None:
    seat, version = _cutter(table)
    response = table.post(seat, {"type": "cut", "position": 7}, version)
    assert response.status_code == 201
    view = response.get_json()
    assert view["version"] > version
    assert response.headers["ETag"] == f'"{view["version"]}"'
    assert view["deal"]["cut"] == 7
    assert view["viewer"] == seat and len(view["hand"]) == 5


def test_stale_if_match_is_412_with_the_current_version(
    table: Table, api_store: RedisEventStore
) -> None:
    seat, version = _cutter(table)
    body = _problem(table.post(seat, {"type": "cut", "position": 1}, version - 1), 412,
                    "version_mismatch")
    assert body["current_version"] == version
    assert f'If-Match: "{version}"' in body["detail"]
    assert api_store.version(table.id) == version


def test_missing_if_match_is_428(table: Table, api_store: RedisEventStore) -> None:
    seat, version = _cutter(table)
    _problem(table.post(seat, {"type": "cut", "position": 1}, None), 428, "if_match_required")
    assert api_store.version(table.id) == version


@pytest.mark.parametrize("header", ["*", 'W/"2"', '"2", "3"', "two", '"2', "²"])
def test_if_match_must_be_one_version(table: Table, header: str) -> None:
    seat, _ = _cutter(table)
    response = table.client.post(
        f"{table.path}/actions", json={"type": "cut", "position": 1},
        headers={**bearer(table.tokens[seat]), "If-Match": header},
    )
    _problem(response, 400, "bad_if_match")


def test_a_bare_version_is_accepted_in_if_match(table: Table) -> None:
    seat, version = _cutter(table)
    response = table.client.post(
        f"{table.path}/actions", json={"type": "cut", "position": 1},
        headers={**bearer(table.tokens[seat]), "If-Match": str(version)},
    )
    assert response.status_code == 201


def test_a_repeated_idempotency_key_returns_the_first_response(
    table: Table, api_store: RedisEventStore
) -> None:
    seat, version = _cutter(table)
    first = table.post(seat, {"type": "cut", "position": 3}, version, key="k-1")
    assert first.status_code == 201
    after = api_store.version(table.id)
    again = table.post(seat, {"type": "cut", "position": 3}, version, key="k-1")
    assert again.status_code == 201
    assert again.get_data() == first.get_data()
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert api_store.version(table.id) == after
    # Still the first response once the game has moved on.
    table.step()
    later = table.post(seat, {"type": "cut", "position": 3}, version, key="k-1")
    assert later.status_code == 201 and later.get_data() == first.get_data()


def test_a_retry_at_the_version_its_first_attempt_made_returns_the_first_response(
    table: Table, api_store: RedisEventStore
) -> None:
    """A client that reads the view again before retrying names the version the first
    attempt moved the game to, where the seat may no longer be to act."""
    seat, version = _cutter(table)
    first = table.post(seat, {"type": "cut", "position": 3}, version, key="k-3")
    assert first.status_code == 201
    now = api_store.version(table.id)
    again = table.post(seat, {"type": "cut", "position": 3}, now, key="k-3")
    assert again.status_code == 201, again.get_json()
    assert again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert api_store.version(table.id) == now
    # Without the key, the same request is the engine's refusal it always was.
    refused = table.post(seat, {"type": "cut", "position": 3}, now)
    assert refused.status_code == 409


def test_idempotency_keys_are_scoped_to_the_seat(table: Table) -> None:
    seat, version = _cutter(table)
    assert table.post(seat, {"type": "cut", "position": 3}, version, key="same").status_code == 201
    view = table.view().get_json()
    leader = view["turn"]
    legal = table.view(leader).get_json()["legal_actions"][0]
    response = table.post(leader, legal, view["version"], key="same")
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers


def test_a_reused_key_with_another_action_is_422(table: Table, api_store: RedisEventStore) -> None:
    seat, version = _cutter(table)
    table.post(seat, {"type": "cut", "position": 3}, version, key="k-2")
    after = api_store.version(table.id)
    body = _problem(table.post(seat, {"type": "cut", "position": 4}, version, key="k-2"), 422,
                    "idempotency_key_reused")
    assert "new key" in body["detail"]
    assert api_store.version(table.id) == after


@pytest.mark.parametrize("key", ["", "a" * 129, "has space", "é"])
def test_a_malformed_idempotency_key_is_400(table: Table, key: str) -> None:
    seat, version = _cutter(table)
    response = table.client.post(
        f"{table.path}/actions", json={"type": "cut", "position": 1},
        headers={**bearer(table.tokens[seat]), "If-Match": f'"{version}"',
                 "Idempotency-Key": key},
    )
    _problem(response, 400, "bad_idempotency_key")


def test_not_your_turn_is_409_with_that_seats_legal_actions(
    table: Table, api_store: RedisEventStore
) -> None:
    seat, version = _cutter(table)
    other = (seat + 1) % 6
    body = _problem(table.post(other, {"type": "cut", "position": 1}, version), 409,
                    "not_your_turn")
    assert body["legal_actions"] == []
    assert f"seat {seat} is to act" in body["detail"]
    assert api_store.version(table.id) == version


def test_wrong_phase_is_409(table: Table, api_store: RedisEventStore) -> None:
    seat, version = _cutter(table)
    body = _problem(table.post(seat, {"type": "play", "card": "5S"}, version), 409,
                    "wrong_phase")
    assert {"type": "cut", "position": 1} in body["legal_actions"]
    assert api_store.version(table.id) == version


def test_an_illegal_play_is_409_with_the_ruling_and_the_alternatives(
    table: Table, api_store: RedisEventStore
) -> None:
    # Cut (and bury, after a turned joker) until the opening lead, then lead.
    while table.view().get_json()["phase"] != "play":
        table.step()
    view = table.view().get_json()
    leader = view["turn"]
    seat_view = table.view(leader).get_json()
    lead = next(a for a in seat_view["legal_actions"] if a["type"] == "play")
    table.post(leader, lead, seat_view["version"])
    # A card this seat holds but may not play to the lead, if any; else one it does not hold.
    view = table.view().get_json()
    seat = view["turn"]
    seat_view = table.view(seat).get_json()
    legal = {a["card"] for a in seat_view["legal_actions"] if a["type"] == "play"}
    barred = [card for card in seat_view["hand"] if card not in legal]
    card = barred[0] if barred else next(
        code for code in PACK if code not in seat_view["hand"] and code != lead["card"]
    )
    response = table.post(seat, {"type": "play", "card": card}, seat_view["version"])
    body = _problem(response, 409, "illegal_action")
    assert body["legal_actions"] == seat_view["legal_actions"]
    if barred:
        assert body["ruling"]["rule"].startswith("play.")
        assert body["ruling"]["text"]
    else:
        assert "not in the hand" in body["detail"]
    assert api_store.version(table.id) == seat_view["version"]


def test_a_finished_game_refuses_actions_with_409(client: Any) -> None:
    table = Table.create(client, "classic", options={"target": 5})
    final = table.play_out()
    body = _problem(table.post(0, {"type": "play", "card": "5S"}, final["version"]), 409,
                    "game_over")
    assert "over" in body["detail"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ('{"type": "cut", "position": 1', 400, "malformed_json"),
        ("", 400, "malformed_json"),
        ('{"type": "cut", "position": 1, "seat": 0}', 422, "invalid_request"),
        ('{"type": "cut", "position": "1"}', 422, "invalid_request"),
        ('{"type": "cut", "position": true}', 422, "invalid_request"),
        ('{"type": "cut", "position": 1.5}', 422, "invalid_request"),
        ('{"type": "shuffle"}', 422, "invalid_request"),
        ('{"type": "play", "card": "1S"}', 422, "invalid_request"),
        ('{"type": "play", "card": 5}', 422, "invalid_request"),
        ('{"type": "play"}', 422, "invalid_action"),
        ('{"type": "cut", "position": 1, "card": "5S"}', 422, "invalid_action"),
        ("[]", 422, "invalid_request"),
        ('"cut"', 422, "invalid_request"),
        ("null", 422, "invalid_request"),
    ],
)
def test_bad_bodies_get_their_4xx_and_append_nothing(
    table: Table, api_store: RedisEventStore, body: str, status: int, code: str
) -> None:
    seat, version = _cutter(table)
    response = table.client.post(
        f"{table.path}/actions", data=body, content_type="application/json",
        headers={**bearer(table.tokens[seat]), "If-Match": f'"{version}"'},
    )
    problem = _problem(response, status, code)
    assert "Traceback" not in json.dumps(problem)
    assert api_store.version(table.id) == version


def test_an_unknown_field_is_named_in_the_errors(table: Table) -> None:
    seat, version = _cutter(table)
    response = table.post(seat, {"type": "cut", "position": 1, "seat": 3}, version)
    body = _problem(response, 422, "invalid_request")
    assert body["errors"] == {"json": {"seat": ["Unknown field."]}}
    assert "json.seat: Unknown field." in body["detail"]


def test_a_body_over_64_kib_is_413(table: Table, api_store: RedisEventStore) -> None:
    seat, version = _cutter(table)
    padding = "x" * (64 * 1024)
    response = table.client.post(
        f"{table.path}/actions", data=json.dumps({"type": "cut", "pad": padding}),
        content_type="application/json",
        headers={**bearer(table.tokens[seat]), "If-Match": f'"{version}"'},
    )
    _problem(response, 413, "body_too_large")
    assert api_store.version(table.id) == version


def test_a_body_that_is_not_json_is_415(table: Table) -> None:
    seat, version = _cutter(table)
    response = table.client.post(
        f"{table.path}/actions", data="type=cut&position=1",
        content_type="application/x-www-form-urlencoded",
        headers={**bearer(table.tokens[seat]), "If-Match": f'"{version}"'},
    )
    _problem(response, 415, "unsupported_media_type")


def test_acting_without_a_token_is_401_with_a_challenge(table: Table) -> None:
    seat, version = _cutter(table)
    response = table.client.post(
        f"{table.path}/actions", json={"type": "cut", "position": 1},
        headers={"If-Match": f'"{version}"'},
    )
    _problem(response, 401, "token_required")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_the_auditor_cannot_act(table: Table) -> None:
    seat, version = _cutter(table)
    response = table.post(seat, {"type": "cut", "position": 1}, version, token=table.auditor)
    _problem(response, 403, "auditor_cannot_act")


def test_an_action_keeps_the_state_the_engine_produced_without_folding_again(
    app: Any, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command path keeps the state :func:`engine.actions.decide_and_apply` returned:
    the decided events are not folded a second time, and the state kept for the new version
    is the one a fold of the stored events gives."""
    from engine.fold import fold
    from service.application import commands

    def refold(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the command path folded the decided events again")

    services = app.extensions["fortyfive"]
    table.step()  # The cut, then a few plays: a deal's server steps (reveal, shuffle) too.
    monkeypatch.setattr(commands, "fold", refold)
    for _ in range(12):
        view = table.step()
    monkeypatch.undo()
    held = services.cache.peek(table.id)
    assert held is not None and held.version == view["version"]
    stored = services.store.read(table.id)
    assert held.state == fold(recorded.event for recorded in stored)
    assert held.head_hash == stored[-1].envelope.hash
