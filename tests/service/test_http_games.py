"""Creating games, reading views and the log, and whole games played over HTTP."""

from __future__ import annotations

import random

import pytest
from flask.testing import FlaskClient
from http_table import VIEW_SCHEMA, Table, bearer

from engine.fold import fold
from engine.profiles import PROFILES, profile_players
from events.redis_store import RedisEventStore
from replay.views import shown_scores


def test_create_defaults_to_the_smallest_table_of_humans(client: FlaskClient) -> None:
    for profile in PROFILES:
        response = client.post("/v1/games", json={"profile": profile})
        assert response.status_code == 201
        body = response.get_json()
        low, _ = profile_players(profile)
        assert [seat["seat"] for seat in body["seats"]] == list(range(low))
        assert all(seat["type"] == "human" and seat["token"] for seat in body["seats"])
        assert body["version"] == 2
        assert body["auditor"] is False and body["auditor_token"] is None
        assert not any(seat["claimable"] or seat["claim"] for seat in body["seats"])
        assert response.headers["Location"] == f"/v1/games/{body['id']}"
        assert response.headers["ETag"] == '"2"'


def test_a_bot_seat_has_no_token(client: FlaskClient) -> None:
    body = client.post(
        "/v1/games",
        json={"profile": "classic", "seats": [{"type": "human"}, {"type": "bot"}]},
    ).get_json()
    assert [seat["token"] is None for seat in body["seats"]] == [False, True]
    assert body["seats"][1]["type"] == "bot"


def test_tokens_are_distinct_and_long(table: Table) -> None:
    tokens = [*table.tokens, table.auditor]
    assert len(set(tokens)) == len(tokens)
    assert all(token and len(token) >= 43 for token in tokens)


def test_no_token_starts_with_a_dash_which_a_command_line_reads_as_an_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from service.application import tokens

    drawn = iter(["-" + "A" * 42, "-" + "B" * 42, "C" * 43])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda size: next(drawn))
    assert tokens.new_token() == "C" * 43


def test_tokens_are_stored_only_as_digests(table: Table, api_store: RedisEventStore) -> None:
    from events.keys import seats_key
    from service.application.tokens import token_digest

    stored = api_store.client.hgetall(seats_key(table.id))
    assert set(stored.values()) == {token_digest(t) for t in [*table.tokens, table.auditor] if t}
    assert not any(token in str(stored) for token in table.tokens if token)
    assert seats_key(table.id).split(":")[1] == api_store.client.execute_command(
        "ECHO", f"{{p{api_store.partition_of(table.id):03d}}}"
    )


@pytest.mark.parametrize(
    ("options", "detail"),
    [
        ({"robbing": False}, "unknown option 'robbing'"),
        ({"target": 7}, "option 'target'"),
    ],
)
def test_bad_options_are_422_with_the_engine_reason(
    client: FlaskClient, options: dict[str, object], detail: str
) -> None:
    response = client.post("/v1/games", json={"profile": "bruff", "options": options})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "invalid_profile"
    assert detail in response.get_json()["detail"]


def test_wrong_player_count_is_422(client: FlaskClient) -> None:
    response = client.post("/v1/games", json={"profile": "bruff", "seats": [{"type": "human"}]})
    assert response.status_code == 422
    assert "6" in response.get_json()["detail"]


def test_seat_view_has_the_contract_fields(table: Table) -> None:
    seat, version = table.turn()
    response = table.view(seat)
    assert response.status_code == 200
    assert response.headers["ETag"] == f'"{version}"'
    assert response.headers["Cache-Control"] == "private, no-store"
    view = response.get_json()
    for name in ("version", "phase", "turn", "hand", "trump", "tricks", "scores", "winner",
                 "legal_actions"):
        assert name in view
    assert view["viewer"] == seat
    assert view["legal_actions"][0] == {"type": "cut", "position": 1}


def test_spectator_view_without_a_token(table: Table) -> None:
    view = table.view().get_json()
    assert view["viewer"] == "spectator"
    assert view["hand"] is None
    assert view["legal_actions"] == []


def test_unknown_game_is_404_problem(client: FlaskClient) -> None:
    for path in ("/v1/games/nope", "/v1/games/nope/events", "/v1/games/nope/stream",
                 "/v1/games/-bad-id-"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["code"] == "game_not_found"


def test_events_are_paged_in_the_callers_view(table: Table) -> None:
    for _ in range(3):
        table.step()
    first = table.client.get(f"{table.path}/events", query_string={"limit": 2})
    assert first.status_code == 200
    page = first.get_json()
    assert [event["version"] for event in page["events"]] == [1, 2]
    assert page["next_after"] == 2
    assert page["version"] == 5
    rest = table.client.get(f"{table.path}/events", query_string={"after": 2}).get_json()
    assert [event["version"] for event in rest["events"]] == [3, 4, 5]
    assert rest["next_after"] is None
    shuffle = page["events"][1]
    assert shuffle["type"] == "deck_shuffled"
    assert shuffle["data"]["seed"] is None and shuffle["data"]["redacted"] == ["seed"]
    assert "hash" not in shuffle


def test_auditor_token_sees_the_seed_and_the_chain(table: Table) -> None:
    response = table.client.get(f"{table.path}/events", headers=bearer(table.auditor))
    shuffle = response.get_json()["events"][1]
    assert shuffle["data"]["seed"] and "redacted" not in shuffle["data"]
    assert shuffle["hash"] and shuffle["prev_hash"]
    view = table.client.get(table.path, headers=bearer(table.auditor)).get_json()
    assert view["viewer"] == "auditor"


@pytest.mark.parametrize("profile", PROFILES)
def test_a_whole_game_over_http_agrees_with_the_fold(
    client: FlaskClient, api_store: RedisEventStore, profile: str
) -> None:
    table = Table.create(client, profile)
    final = table.play_out(random.Random(f"{profile}-45"))
    state = fold(recorded.event for recorded in api_store.read(table.id))
    assert final["winner"] == state.winner is not None
    assert final["scores"] == shown_scores(state.scores, state)
    assert final["version"] == state.version
    assert final["phase"] == "over"
    # Once the game is over, anyone may read the auditor view.
    audit = table.view(view="auditor")
    assert audit.status_code == 200
    assert VIEW_SCHEMA.validate(audit.get_json()) == {}
