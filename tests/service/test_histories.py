"""The hand-history endpoints: history, replay, audit, and verifying and keeping uploads."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from http_table import Table, bearer

from replay.formats.importing import read_history
from replay.formats.jsonformat import validate
from replay.verification.verify import verify

GOLDEN = Path(__file__).resolve().parents[1] / "replay" / "golden"
PROBLEM = "application/problem+json"


@pytest.fixture
def finished(client: FlaskClient) -> Table:
    """A bruff game played to its end over HTTP."""
    table = Table.create(client, "bruff")
    table.play_out(random.Random(5))
    return table


def _problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body: dict[str, Any] = response.get_json()
    assert body["code"] == code and body["status"] == status
    return body


# GET /v1/games/{id}/history


def test_a_seat_gets_its_own_view_as_a_verified_history(table: Table) -> None:
    for _ in range(12):
        table.step()
    response = table.client.get(f"{table.path}/history", headers=bearer(table.tokens[2]))
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "private, no-store"
    body = response.get_json()
    assert validate(body) == []
    assert body["view"]["viewer"] == 2
    hands = body["results"]["deals"][0]["hands"]
    assert [seat for seat, hand in enumerate(hands) if hand is not None] == [2]
    result = read_history(response.get_data())
    assert result.history is not None and verify(result.history).ok


def test_the_spectator_and_the_text_encoding(table: Table) -> None:
    table.step()
    response = table.client.get(f"{table.path}/history", query_string={"format": "text"})
    assert response.status_code == 200 and response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert text.startswith("% fortyfive hand history 1.") and '[View "spectator"]' in text
    assert read_history(text).ok


def test_the_auditor_view_of_a_live_game_needs_the_auditor_token(table: Table) -> None:
    table.step()
    _problem(table.client.get(f"{table.path}/history", query_string={"view": "auditor"},
                              headers=bearer(table.tokens[0])), 403, "auditor_only")
    response = table.client.get(f"{table.path}/history", headers=bearer(table.auditor))
    assert response.get_json()["view"]["viewer"] == "auditor"


def test_one_deal_and_a_cut(finished: Table) -> None:
    client = finished.client
    whole = client.get(f"{finished.path}/history", query_string={"view": "auditor"}).get_json()
    deals = [deal["number"] for deal in whole["results"]["deals"]]
    second = client.get(f"{finished.path}/history",
                        query_string={"view": "auditor", "deal": deals[-1]}).get_json()
    assert [deal["number"] for deal in second["results"]["deals"]] == [deals[-1]]
    assert "start" in second or len(deals) == 1
    cut = client.get(f"{finished.path}/history", query_string={"at": 5}).get_json()
    assert cut["view"]["as_of"] == 5 and len(cut["events"]) == 5
    for body in (whole, second, cut):
        result = read_history(json.dumps(body))
        assert result.history is not None and verify(result.history).ok


def test_a_missing_deal_or_event_is_404(table: Table) -> None:
    _problem(table.client.get(f"{table.path}/history", query_string={"deal": 9}), 404,
             "deal_not_found")
    for query, says in (({"deal": 9}, "deal 9 is not in this game yet"),
                        ({"deal": 9, "at": 1}, "deal 9 is not in this game up to event 1")):
        answer = table.client.get(f"{table.path}/history", query_string=query)
        assert answer.get_json()["detail"] == says
    _problem(table.client.get(f"{table.path}/history", query_string={"at": 999}), 404,
             "event_not_found")
    _problem(table.client.get("/v1/games/nope/history"), 404, "game_not_found")
    _problem(table.client.get(f"{table.path}/history", query_string={"format": "pgn"}), 422,
             "invalid_request")


def test_a_token_of_another_game_is_401(table: Table, client: FlaskClient) -> None:
    other = Table.create(client, "bruff")
    _problem(client.get(f"{table.path}/history", headers=bearer(other.tokens[0])), 401,
             "invalid_token")


# GET /v1/games/{id}/replay


def test_replay_shows_the_game_after_an_event(table: Table) -> None:
    for _ in range(8):
        table.step()
    response = table.client.get(f"{table.path}/replay", query_string={"at": 4},
                                headers=bearer(table.tokens[1]))
    assert response.status_code == 200
    body = response.get_json()
    assert body["at"] == 4 and body["game"]["version"] == 4 and body["event"]["version"] == 4
    assert body["game"]["viewer"] == 1 and body["version"] >= 8
    spectator = table.client.get(f"{table.path}/replay", query_string={"at": 4}).get_json()
    assert spectator["game"]["hand"] is None


def test_replay_beyond_the_game_is_404_and_at_is_required(table: Table) -> None:
    _problem(table.client.get(f"{table.path}/replay", query_string={"at": 500}), 404,
             "event_not_found")
    _problem(table.client.get(f"{table.path}/replay"), 422, "invalid_request")


# GET /v1/games/{id}/audit


def test_the_audit_of_a_live_game_is_for_the_auditor_only(table: Table) -> None:
    table.step()
    _problem(table.client.get(f"{table.path}/audit"), 403, "auditor_only")
    _problem(table.client.get(f"{table.path}/audit", headers=bearer(table.tokens[0])), 403,
             "auditor_only")
    response = table.client.get(f"{table.path}/audit", headers=bearer(table.auditor))
    assert response.status_code == 200
    assert response.get_json()["verification"]["ok"] is True


def test_anyone_may_audit_a_finished_game(finished: Table) -> None:
    response = finished.client.get(f"{finished.path}/audit")
    assert response.status_code == 200
    audit = response.get_json()
    assert audit["verification"]["ok"] and audit["verification"]["complete"]
    proof = audit["deals"][0]["shuffle"]
    assert proof["matches"] is True and len(proof["deck"]) == 53
    assert all(ruling["rule_text"] for deal in audit["deals"] for ruling in deal["rulings"])


# POST /v1/histories, GET /v1/histories/{id}


def test_a_dry_run_verifies_without_keeping(client: FlaskClient) -> None:
    history = json.loads((GOLDEN / "jink.json").read_bytes())
    response = client.post("/v1/histories", json={"history": history})
    assert response.status_code == 200
    body = response.get_json()
    assert body["ok"] is True and body["id"] is None
    assert body["verification"]["complete"] is True


def test_keep_stores_a_history_once_and_it_can_be_read_back(client: FlaskClient) -> None:
    text = (GOLDEN / "seed-000-09.txt").read_text()
    first = client.post("/v1/histories", query_string={"mode": "keep"}, json={"text": text})
    assert first.status_code == 201
    body = first.get_json()
    assert body["ok"] and body["id"].startswith("h-") and first.headers["Location"] == body["url"]
    again = client.post("/v1/histories", query_string={"mode": "keep"},
                        json={"history": json.loads((GOLDEN / "seed-000-09.json").read_bytes())})
    assert again.get_json()["id"] == body["id"]
    kept = client.get(body["url"])
    assert kept.status_code == 200
    assert kept.get_data() + b"\n" == (GOLDEN / "seed-000-09.json").read_bytes()
    as_text = client.get(body["url"], query_string={"format": "text"})
    assert as_text.get_data(as_text=True) == text


def test_a_tampered_history_is_answered_with_what_differs(client: FlaskClient) -> None:
    history = json.loads((GOLDEN / "jink.json").read_bytes())
    history["results"]["deals"][0]["result"]["points"][0] = 99
    body = client.post("/v1/histories", json={"history": history}).get_json()
    assert body["ok"] is False
    problem = body["verification"]["problems"][0]
    assert problem["code"] == "result" and problem["version"] == history["events"][-1]["version"]


def test_a_hand_written_table_record_is_imported_and_verified(client: FlaskClient) -> None:
    text = (GOLDEN / "chronology-finish.table.txt").read_text()
    body = client.post("/v1/histories", json={"text": text}).get_json()
    assert body["ok"] is True and body["diagnostics"] == []


def test_an_unreadable_history_is_422_with_positions(client: FlaskClient) -> None:
    body = _problem(client.post("/v1/histories", json={"text": '[Profile "bruff"]\n[Deal "1"]'
                                                         '\n1. 0:7S QX\n'}),
                    422, "unreadable_history")
    (error,) = body["errors"]["history"]
    assert (error["line"], error["column"]) == (3, 9)
    broken = json.loads((GOLDEN / "jink.json").read_bytes())
    broken["events"][2]["version"] = "x"
    body = _problem(client.post("/v1/histories", json={"history": broken}), 422,
                    "unreadable_history")
    assert body["errors"]["history"][0]["pointer"] == "/events/2/version"


def test_a_submission_needs_exactly_one_encoding(client: FlaskClient) -> None:
    _problem(client.post("/v1/histories", json={}), 422, "invalid_request")
    _problem(client.post("/v1/histories", json={"text": "x", "history": {}}), 422,
             "invalid_request")
    _problem(client.post("/v1/histories", json={"text": "x"},
                         query_string={"mode": "forever"}), 422, "invalid_request")


def test_an_unknown_kept_history_is_404(client: FlaskClient) -> None:
    _problem(client.get("/v1/histories/h-0000"), 404, "history_not_found")
    _problem(client.get("/v1/histories/" + "x" * 300), 404, "history_not_found")


def test_the_services_one_deal_histories_of_a_finished_game_are_complete(
        finished: Table) -> None:
    """Each deal's history as the service serves it carries the checkpoint signed at its last
    event, so it verifies complete; cut in the middle of its deal it is a prefix."""
    client = finished.client
    whole = client.get(f"{finished.path}/history", query_string={"view": "auditor"}).get_json()
    for deal in (entry["number"] for entry in whole["results"]["deals"]):
        body = client.get(f"{finished.path}/history",
                          query_string={"view": "auditor", "deal": deal}).get_json()
        result = read_history(json.dumps(body))
        assert result.history is not None
        report = verify(result.history)
        assert report.ok and report.complete, report.format()
        assert report.signed_through == body["events"][-1]["version"]
    cut = client.get(f"{finished.path}/history",
                     query_string={"view": "auditor", "deal": 1, "at": 12}).get_json()
    result = read_history(json.dumps(cut))
    assert result.history is not None
    report = verify(result.history)
    assert report.ok and not report.complete and report.prefix is not None, report.format()
