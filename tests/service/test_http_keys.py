"""API keys over HTTP: required to create on a public server, listed per key, revocable, and
never mistaken for a seat token."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import Table, bearer

from service.cli import main
from service.cli.serve import api_factory
from service.http.apikeys import KeyRegistry

GAME = {"profile": "classic", "options": {"target": 15}}


@pytest.fixture
def registry(public_app: Flask) -> KeyRegistry:
    keys: KeyRegistry = public_app.extensions["fortyfive"].keys
    return keys


def test_creating_a_game_without_a_key_is_refused_when_keys_are_required(
    public: FlaskClient,
) -> None:
    response = public.post("/v1/games", json=GAME)
    assert response.status_code == 401
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "api_key_required"
    assert "X-API-Key" in response.get_json()["detail"]


def test_a_key_in_either_header_creates_and_the_game_is_listed_as_mine(
    public: FlaskClient, registry: KeyRegistry
) -> None:
    _, key = registry.create("club site")
    first = public.post("/v1/games", json=GAME, headers=bearer(key))
    second = public.post("/v1/games", json=GAME, headers={"X-API-Key": key})
    assert (first.status_code, second.status_code) == (201, 201)
    listing = public.get("/v1/games?mine=true", headers={"X-API-Key": key})
    assert listing.status_code == 200
    games = listing.get_json()["games"]
    assert [game["id"] for game in games] == [second.get_json()["id"], first.get_json()["id"]]
    assert games[0]["status"] == "in_progress" and games[0]["profile"] == "classic"
    assert listing.get_json()["next_before"] is None


def test_listing_pages_newest_first(public: FlaskClient, registry: KeyRegistry) -> None:
    _, key = registry.create("pager")
    ids = [public.post("/v1/games", json=GAME, headers=bearer(key)).get_json()["id"]
           for _ in range(3)]
    page = public.get("/v1/games?mine=true&limit=2", headers=bearer(key)).get_json()
    assert [game["id"] for game in page["games"]] == ids[:0:-1]
    rest = public.get(f"/v1/games?mine=true&limit=2&before={page['next_before']}",
                      headers=bearer(key)).get_json()
    assert [game["id"] for game in rest["games"]] == [ids[0]]
    assert rest["next_before"] is None


def test_another_keys_games_are_not_mine(public: FlaskClient, registry: KeyRegistry) -> None:
    _, mine = registry.create("mine")
    _, theirs = registry.create("theirs")
    public.post("/v1/games", json=GAME, headers=bearer(theirs))
    assert public.get("/v1/games?mine=true", headers=bearer(mine)).get_json()["games"] == []


def test_listing_needs_a_key_and_mine_true(public: FlaskClient, registry: KeyRegistry) -> None:
    _, key = registry.create("lister")
    assert public.get("/v1/games?mine=true").get_json()["code"] == "api_key_required"
    assert public.get("/v1/games?mine=false", headers=bearer(key)).status_code == 422


def test_an_unknown_or_revoked_key_is_refused_with_its_own_code(
    public: FlaskClient, registry: KeyRegistry
) -> None:
    record, key = registry.create("leaked")
    forged = key[:-4] + ("AAAA" if not key.endswith("AAAA") else "BBBB")
    assert public.post("/v1/games", json=GAME, headers=bearer(forged)).get_json()["code"] == (
        "invalid_api_key")
    registry.revoke(record.id)
    refused = public.post("/v1/games", json=GAME, headers=bearer(key))
    assert refused.status_code == 401 and refused.get_json()["code"] == "api_key_revoked"


@pytest.mark.parametrize(("method", "path", "body"), [
    ("post", "/v1/games", {}),
    ("post", "/v1/games", {"profile": "classic", "seats": "x"}),
    ("post", "/v1/drives", {}),
    ("get", "/v1/games?mine=true&limit=0", None),
    ("post", "/v1/histories?mode=keep", {"history": 1}),
])
def test_the_key_is_asked_for_before_the_request_is_read(
    public: FlaskClient, method: str, path: str, body: object
) -> None:
    """A caller without a key learns that first, not what else is wrong with the request."""
    response = getattr(public, method)(path, json=body)
    assert (response.status_code, response.get_json()["code"]) == (401, "api_key_required")
    forged = getattr(public, method)(path, json=body, headers={"X-API-Key": "nope"})
    assert (forged.status_code, forged.get_json()["code"]) == (401, "invalid_api_key")


def test_a_bearer_that_is_no_key_is_refused_where_a_key_is_taken(
    client: FlaskClient,
) -> None:
    """Even where no key is required, a bearer token sent to create is checked as a key: no
    seat token belongs there, and a client that sends a wrong key should hear so."""
    refused = client.post("/v1/games", json=GAME, headers=bearer("garbage"))
    assert (refused.status_code, refused.get_json()["code"]) == (401, "invalid_api_key")
    assert client.post("/v1/games", json=GAME).status_code == 201


def test_a_dry_run_upload_takes_no_key(public: FlaskClient) -> None:
    response = public.post("/v1/histories?mode=dry_run", json={"history": 1})
    assert response.status_code == 422, response.get_json()  # Read, and found no history.
    assert response.get_json()["code"] in ("invalid_request", "unreadable_history")


def test_seat_tokens_keep_working_for_play_and_an_api_key_reads_as_a_spectator(
    public: FlaskClient, registry: KeyRegistry
) -> None:
    _, key = registry.create("player")
    table = Table(public, public.post("/v1/games", json=GAME, headers=bearer(key)).get_json())
    turn, version = table.turn()
    assert turn is not None
    seat = table.view(turn).get_json()
    assert seat["viewer"] == turn
    as_key = public.get(table.path, headers=bearer(key))
    assert as_key.status_code == 200 and as_key.get_json()["viewer"] == "spectator"
    assert table.post(turn, seat["legal_actions"][0], version=version).status_code == 201


def test_without_the_requirement_creating_needs_no_key(client: FlaskClient) -> None:
    assert client.post("/v1/games", json=GAME).status_code == 201


def test_keys_cli_creates_lists_and_revokes(
    redis_url: str, capsys: pytest.CaptureFixture[str], public: FlaskClient
) -> None:
    assert main(["keys", "create", "--name", "cli", "--redis-url", redis_url, "--json"]) == 0
    created = json.loads(capsys.readouterr().out)
    assert created["key"].startswith("f45k.") and created["revoked"] is False
    assert public.post("/v1/games", json=GAME, headers=bearer(created["key"])).status_code == 201
    assert main(["keys", "list", "--redis-url", redis_url, "--json"]) == 0
    listed = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    assert "key" not in listed[created["id"]] and listed[created["id"]]["name"] == "cli"
    assert main(["keys", "revoke", created["id"], "--redis-url", redis_url]) == 0
    capsys.readouterr()
    assert public.post("/v1/games", json=GAME, headers=bearer(created["key"])).status_code == 401
    assert main(["keys", "revoke", "000000000000", "--redis-url", redis_url]) == 2
    assert "no API key" in capsys.readouterr().err
    assert main(["keys", "create", "--name", "", "--redis-url", redis_url]) == 2


def test_serve_defaults_are_public_off_loopback_and_the_environment_decides_last(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    public = api_factory(redis_url, public=True)().test_client()
    refused = public.post("/v1/games", json=GAME)
    assert refused.status_code == 401 and "RateLimit-Policy" in refused.headers
    local = api_factory(redis_url, public=False)().test_client()
    created = local.post("/v1/games", json=GAME)
    assert created.status_code == 201 and "RateLimit" not in created.headers
    monkeypatch.setenv("REQUIRE_API_KEY", "false")
    monkeypatch.setenv("ENFORCE_RATE_LIMITS", "no")
    opened = api_factory(redis_url, public=True)().test_client().post("/v1/games", json=GAME)
    assert opened.status_code == 201 and "RateLimit" not in opened.headers
    monkeypatch.setenv("REQUIRE_API_KEY", "maybe")
    with pytest.raises(ValueError, match="REQUIRE_API_KEY must be true or false"):
        api_factory(redis_url)()
