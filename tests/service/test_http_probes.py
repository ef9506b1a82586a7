"""Profiles, stateless rulings, probes, and errors that no request may turn into a traceback."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import socket
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.profiles import PROFILES, option_specs, profile_players
from service.cli import rules as rules_cli
from service.cli.serve import api_factory
from service.http.app import create_app


def _cli_json(argv: list[str]) -> dict[str, Any]:
    """Runs ``fortyfive rules ... --json`` in-process and returns what it printed."""
    parser = argparse.ArgumentParser()
    rules_cli.register(parser.add_subparsers())
    args = parser.parse_args(["rules", *argv, "--json"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert args.func(args) == 0
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def test_profiles_list_every_option_with_its_default(client: FlaskClient) -> None:
    response = client.get("/v1/profiles")
    assert response.status_code == 200
    listed = response.get_json()["profiles"]
    assert [profile["name"] for profile in listed] == list(PROFILES)
    for profile in listed:
        low, high = profile_players(profile["name"])
        assert profile["players"] == {"min": low, "max": high}
        assert profile["options"] == option_specs(profile["name"])
    auction = next(profile for profile in listed if profile["name"] == "auction")
    assert auction["options"]["target"]["default"] == 120
    classic = next(profile for profile in listed if profile["name"] == "classic")
    assert classic["options"]["layout"]["default_by_players"] == {
        "4": "pairs", "6": "triples", "8": "pairs"}


@pytest.mark.parametrize(
    ("body", "argv"),
    [
        ({"profile": "bruff", "trump": "S", "trick": ["7S", "5S"], "hand": ["AH", "KD"]},
         ["legal", "--profile", "bruff", "--trump", "S", "--trick", "7S,5S", "--hand", "AH,KD"]),
        ({"profile": "classic", "options": {"follow": "must_follow"}, "players": 4,
          "trump": "H", "trick": ["KC"], "hand": ["2C", "5H", "AH", "3D"]},
         ["legal", "--profile", "classic", "--option", "follow=must_follow", "--players", "4",
          "--trump", "H", "--trick", "KC", "--hand", "2C,5H,AH,3D"]),
        ({"profile": "auction", "trump": "D", "hand": ["2C", "5D"]},
         ["legal", "--profile", "auction", "--trump", "D", "--hand", "2C,5D"]),
    ],
)
def test_legal_is_the_same_answer_as_the_cli(
    client: FlaskClient, body: dict[str, Any], argv: list[str]
) -> None:
    response = client.post("/v1/rules/legal", json=body)
    assert response.status_code == 200
    assert response.get_json() == _cli_json(argv)


@pytest.mark.parametrize(
    ("body", "argv"),
    [
        ({"profile": "bruff", "trump": "S", "trick": ["7S", "5S", "KD"]},
         ["winner", "--profile", "bruff", "--trump", "S", "--trick", "7S,5S,KD"]),
        ({"profile": "classic", "players": 3, "trump": "C", "trick": ["KH", "AH", "2H"]},
         ["winner", "--profile", "classic", "--players", "3", "--trump", "C", "--trick",
          "KH,AH,2H"]),
    ],
)
def test_winner_is_the_same_answer_as_the_cli(
    client: FlaskClient, body: dict[str, Any], argv: list[str]
) -> None:
    response = client.post("/v1/rules/winner", json=body)
    assert response.status_code == 200
    assert response.get_json() == _cli_json(argv)


@pytest.mark.parametrize(
    ("path", "body", "code", "detail"),
    [
        ("/v1/rules/winner", {"profile": "auction", "trump": "S", "trick": ["JK"]},
         "invalid_card", "not in the pack"),
        ("/v1/rules/winner", {"profile": "bruff", "trump": "S", "trick": ["5S", "5S"]},
         "invalid_card", "appears 2 times"),
        ("/v1/rules/legal", {"profile": "classic", "trump": "S", "trick": ["5S"],
                             "hand": ["5S"]}, "invalid_card", "5S is both in trick and in hand"),
        ("/v1/rules/legal", {"profile": "classic", "trump": "S", "trick": ["5S", "6S"],
                             "hand": ["7S"]}, "invalid_action", "complete"),
        ("/v1/rules/winner", {"profile": "bruff", "trump": "S", "trick": ["2S"] * 7},
         "invalid_action", "6 players"),
        ("/v1/rules/legal", {"profile": "bruff", "options": {"joker": "none"}, "trump": "S",
                             "hand": ["5S"]}, "invalid_profile", "joker"),
    ],
)
def test_rulings_refuse_impossible_tables_with_422(
    client: FlaskClient, path: str, body: dict[str, Any], code: str, detail: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert response.get_json()["code"] == code
    assert detail in response.get_json()["detail"]


def test_healthz_and_readyz(client: FlaskClient) -> None:
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json()["status"] == "ready"


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_readyz_is_503_logging_the_store_when_it_is_down(
    error_logs: Any, caplog: pytest.LogCaptureFixture
) -> None:
    port = _closed_port()
    app = create_app({"REDIS_URL": f"redis://user:secret@127.0.0.1:{port}/0", "TESTING": True})
    client = app.test_client()
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.get_json()
    assert body["code"] == "store_unavailable"
    assert body["detail"] == "the event store is unavailable: try again in a moment"
    assert str(port) not in response.get_data(as_text=True)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert f"store unavailable at redis://127.0.0.1:{port}" in logged
    assert "secret" not in logged
    assert response.headers["Retry-After"]
    assert client.get("/healthz").status_code == 200
    games = client.post("/v1/games", json={"profile": "classic"})
    assert games.status_code == 503
    assert client.get("/v1/games/abc").status_code == 503


def test_without_a_store_every_game_request_is_503(caplog: pytest.LogCaptureFixture) -> None:
    client = create_app({"TESTING": True}).test_client()
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.get_json()["code"] == "store_unavailable"
    assert "no REDIS_URL is configured" in caplog.text


def test_unknown_paths_and_methods_are_problems(client: FlaskClient) -> None:
    missing = client.get("/v2/nothing")
    assert missing.status_code == 404
    assert missing.mimetype == "application/problem+json"
    wrong = client.delete("/v1/profiles")
    assert wrong.status_code == 405
    assert wrong.mimetype == "application/problem+json"
    assert "GET" in wrong.headers["Allow"]


def test_an_unexpected_error_is_a_bare_500_and_is_logged(app: Flask, error_logs: Any) -> None:
    def explode() -> None:
        raise RuntimeError("internal detail that must not leak")

    app.add_url_rule("/explode", "explode", explode)
    response = app.test_client().get("/explode")
    assert response.status_code == 500
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "internal_error"
    assert "internal detail" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
    assert [record.getMessage() for record in error_logs.records] == [
        "unhandled error in RuntimeError"
    ]
    error_logs.records.clear()


def test_the_debugger_is_off(app: Flask) -> None:
    assert app.debug is False


def test_serve_builds_its_app_with_the_debugger_off_even_if_asked(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLASK_DEBUG", "1")
    served = api_factory(redis_url)()
    assert served.debug is False
    assert served.config["DEBUG"] is False
