"""Rate limits over HTTP: counted per client and class in Redis (shared by every process),
advertised on every answer, 429 with Retry-After over the quota."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import Table, bearer, read_stream

from service.http.app import create_app
from service.http.limits import Limit, parse_limits

GAME = {"profile": "classic", "options": {"target": 15}}
POLICY = re.compile(r'^"(\w+)";q=(\d+);w=(\d+)$')
CURRENT = re.compile(r'^"(\w+)";r=(\d+);t=(\d+)$')


def _limited(redis_url: str, **limits: str) -> Iterator[Flask]:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "ENFORCE_RATE_LIMITS": True,
                      "RATE_LIMITS": limits})
    yield app
    app.extensions["fortyfive"].store.close()


@pytest.fixture
def address() -> str:
    """A client address of this test alone (counters are shared through Redis)."""
    return f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"


@pytest.fixture
def limited(redis_url: str) -> Iterator[Flask]:
    yield from _limited(redis_url, creation="2/60", reads="3/60", actions="2/60",
                        uploads="1/60", streams="1/60")


def _client(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_every_answer_carries_the_policy_and_what_is_left(limited: Flask, address: str) -> None:
    client = _client(limited, address)
    seen = []
    for _ in range(3):
        response = client.get("/v1/profiles")
        assert response.status_code == 200
        name, quota, window = POLICY.match(response.headers["RateLimit-Policy"]).groups()
        current = CURRENT.match(response.headers["RateLimit"])
        assert current is not None and current.group(1) == name == "reads"
        assert (quota, window) == ("3", "60")
        assert 0 < int(current.group(3)) <= 60
        seen.append(int(current.group(2)))
    assert seen == [2, 1, 0]


def test_over_the_quota_is_a_429_problem_with_retry_after(limited: Flask, address: str) -> None:
    client = _client(limited, address)
    for _ in range(3):
        client.get("/v1/profiles")
    refused = client.get("/v1/profiles")
    assert refused.status_code == 429
    assert refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "rate_limited" and "retry in" in problem["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert CURRENT.match(refused.headers["RateLimit"]).group(2) == "0"
    # Another client is counted on its own.
    assert _client(limited, address + "1").get("/v1/profiles").status_code == 200


def test_several_processes_share_the_counts(redis_url: str, address: str) -> None:
    first, second = (next(_limited(redis_url, creation="2/60")) for _ in range(2))
    assert _client(first, address).post("/v1/games", json=GAME).status_code == 201
    assert _client(second, address).post("/v1/games", json=GAME).status_code == 201
    refused = _client(first, address).post("/v1/games", json=GAME)
    assert refused.status_code == 429
    assert refused.headers["RateLimit-Policy"] == '"creation";q=2;w=60'


def test_a_refused_creation_creates_nothing_and_reads_are_counted_apart(
    limited: Flask, address: str
) -> None:
    client = _client(limited, address)
    for _ in range(2):
        assert client.post("/v1/games", json=GAME).status_code == 201
    assert client.post("/v1/games", json=GAME).status_code == 429
    assert client.get("/v1/profiles").status_code == 200


def test_an_api_key_is_counted_as_itself_from_any_address(
    limited: Flask, address: str
) -> None:
    _, key = limited.extensions["fortyfive"].keys.create("counted")
    for where in ("1", "2"):
        response = _client(limited, address + where).post(
            "/v1/games", json=GAME, headers=bearer(key))
        assert response.status_code == 201
    assert _client(limited, address + "3").post(
        "/v1/games", json=GAME, headers=bearer(key)).status_code == 429
    assert _client(limited, address + "3").post("/v1/games", json=GAME).status_code == 201


def test_actions_are_counted_per_seat_and_a_refusal_says_the_game_waits(
    limited: Flask, address: str
) -> None:
    client = _client(limited, address)
    table = Table(client, client.post("/v1/games", json=GAME).get_json())
    turn, version = table.turn()
    # Wrong versions are refused by the game (412) but still count as actions of the seat.
    for _ in range(2):
        stale = table.post(turn, {"type": "cut", "position": 10}, version=version + 5)
        assert stale.status_code == 412
    other = (turn + 1) % 2
    assert table.post(other, {"type": "cut", "position": 10}, version=version).status_code == 409
    refused = table.post(turn, {"type": "cut", "position": 10}, version=version + 5)
    assert refused.status_code == 429
    assert "the game waits for this seat" in refused.get_json()["detail"]
    assert refused.headers["RateLimit-Policy"] == '"actions";q=2;w=60'


def test_streams_and_uploads_have_their_own_quotas(limited: Flask, address: str) -> None:
    client = _client(limited, address)
    game = client.post("/v1/games", json=GAME).get_json()["id"]
    assert read_stream(client, f"/v1/games/{game}").status_code == 200
    assert client.get(f"/v1/games/{game}/stream").status_code == 429
    body = {"text": "not a history"}
    assert client.post("/v1/histories", json=body).status_code == 422
    refused = client.post("/v1/histories", json=body)
    assert refused.status_code == 429
    assert refused.headers["RateLimit-Policy"] == '"uploads";q=1;w=60'


def test_probes_and_pages_are_not_limited(limited: Flask, address: str) -> None:
    client = _client(limited, address)
    for _ in range(5):
        response = client.get("/healthz")
        assert response.status_code == 200 and "RateLimit" not in response.headers


def test_limits_are_off_unless_enforced(client: FlaskClient) -> None:
    response = client.get("/v1/profiles")
    assert "RateLimit" not in response.headers


def test_limits_parse_and_refuse_nonsense() -> None:
    assert parse_limits("reads=10/1") == {"reads": Limit(10, 1)}
    with pytest.raises(ValueError, match="unknown rate limit class"):
        parse_limits("everything=1/1")
    with pytest.raises(ValueError, match="expected <requests>/<seconds>"):
        parse_limits("reads=ten")


def test_made_up_seat_tokens_count_against_the_address(limited: Flask, address: str) -> None:
    client = _client(limited, address)
    game = client.post("/v1/games", json=GAME).get_json()["id"]
    statuses = [
        client.post(f"/v1/games/{game}/actions", json={"type": "pass"},
                    headers={"Authorization": f"Bearer made-up-{n}", "If-Match": '"2"'}
                    ).status_code
        for n in range(3)
    ]
    assert statuses == [401, 401, 429]


BAD_KEYS = ("f45k.0123456789ab." + "A" * 43, "garbage")
LEGAL = {"profile": "classic", "trump": "S", "trick": ["5S"], "hand": ["AH", "KS", "2D"]}


@pytest.mark.parametrize("enforced", [False, True])
def test_a_bad_or_revoked_key_is_answered_alike_with_or_without_limits(
    redis_url: str, address: str, enforced: bool
) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "ENFORCE_RATE_LIMITS": enforced})
    try:
        keys = app.extensions["fortyfive"].keys
        revoked, revoked_key = keys.create("gone")
        keys.revoke(revoked.id)
        client = _client(app, address)
        for key in (*BAD_KEYS, revoked_key):
            # A bearer token is an API key only of its shape (else a seat token).
            sent = [{"X-API-Key": key}] + ([bearer(key)] if key.startswith("f45k.") else [])
            for headers in sent:
                # Endpoints that take no key ignore it...
                assert client.get("/v1/profiles", headers=headers).status_code == 200
                legal = client.post("/v1/rules/legal", json=LEGAL, headers=headers)
                assert legal.status_code == 200, legal.get_json()
                # ...those that take one refuse it, as through require_api_key.
                refused = client.post("/v1/games", json=GAME, headers=headers)
                assert refused.status_code == 401
                assert refused.get_json()["code"] in ("invalid_api_key", "api_key_revoked")
    finally:
        app.extensions["fortyfive"].store.close()


def test_a_bad_key_is_counted_against_the_address(limited: Flask, address: str) -> None:
    client = _client(limited, address)
    remaining = []
    for headers in ({}, {"X-API-Key": BAD_KEYS[0]}, {"X-API-Key": BAD_KEYS[1]}):
        response = client.get("/v1/profiles", headers=headers)
        assert response.status_code == 200
        remaining.append(CURRENT.match(response.headers["RateLimit"]).group(2))
    assert remaining == ["2", "1", "0"]
    assert client.get("/v1/profiles", headers={"X-API-Key": "other"}).status_code == 429


def test_without_the_store_keyless_endpoints_still_answer_a_request_with_a_key() -> None:
    from service.processes.free_ports import free_ports

    (port,) = free_ports(1)
    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{port}/0", "TESTING": True,
                      "ENFORCE_RATE_LIMITS": True})
    client = app.test_client()
    for headers in ({"X-API-Key": BAD_KEYS[0]}, bearer(BAD_KEYS[0])):
        assert client.get("/v1/profiles", headers=headers).status_code == 200
        assert client.post("/v1/rules/legal", json=LEGAL, headers=headers).status_code == 200
        refused = client.post("/v1/games", json=GAME, headers=headers)
        assert (refused.status_code, refused.get_json()["code"]) == (503, "store_unavailable")


def _drive(tables: int, rounds: int) -> dict[str, object]:
    return {"profile": "classic", "format": "progressive", "rounds": rounds,
            "players": [{"name": f"P{n}", "type": "bot"} for n in range(4 * tables)]}


def test_a_drive_counts_as_the_games_it_will_start(redis_url: str, address: str) -> None:
    app = next(_limited(redis_url, creation="10/60"))
    client = _client(app, address)
    created = client.post("/v1/drives", json=_drive(2, 2))  # 4 games.
    assert created.status_code == 201, created.get_json()
    assert CURRENT.match(created.headers["RateLimit"]).group(2) == "6"
    refused = client.post("/v1/drives", json=_drive(3, 3))  # 9 games: 6 left.
    assert (refused.status_code, refused.get_json()["code"]) == (429, "rate_limited")
    assert "counts as 9 creations" in refused.get_json()["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # Refused, it took only its own request: 5 creations are left, and a game fits.
    assert client.post("/v1/drives", json=_drive(1, 5)).status_code == 201
    assert client.post("/v1/games", json=GAME).status_code == 429
    never = _client(app, address + "1").post("/v1/drives", json=_drive(3, 4))  # 12 games.
    assert (never.status_code, never.get_json()["code"]) == (422, "drive_over_quota")
    assert never.get_json()["detail"].startswith(
        "this drive would start 12 games (tables x rounds) and counts as 12 creations, more "
        "than the 10 per 60 s a client may make")


def test_a_drives_stream_counts_against_the_streams_quota_with_the_games(
    redis_url: str, address: str,
) -> None:
    app = next(_limited(redis_url, streams="2/60"))
    client = _client(app, address)
    drive = client.post("/v1/drives", json=_drive(2, 1)).get_json()["id"]
    game = client.post("/v1/games", json=GAME).get_json()["id"]
    opened = read_stream(client, f"/v1/drives/{drive}", query={"after": 0})
    assert (opened.status_code, opened.mimetype) == (200, "text/event-stream")
    assert opened.headers["RateLimit-Policy"] == '"streams";q=2;w=60'
    assert CURRENT.match(opened.headers["RateLimit"]).group(2) == "1"
    assert read_stream(client, f"/v1/games/{game}").status_code == 200
    # The quota is spent, by a drive's stream and a game's alike: either is refused now.
    for path in (f"/v1/drives/{drive}/stream", f"/v1/games/{game}/stream"):
        refused = client.get(path)
        assert (refused.status_code, refused.get_json()["code"]) == (429, "rate_limited")
        assert refused.headers["RateLimit-Policy"] == '"streams";q=2;w=60'
    # Reading the drive is counted apart; another client streams on its own count.
    assert client.get(f"/v1/drives/{drive}").status_code == 200
    other = read_stream(_client(app, address + "1"), f"/v1/drives/{drive}", query={"after": 0})
    assert other.status_code == 200
