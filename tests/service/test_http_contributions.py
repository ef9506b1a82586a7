"""A seat's nonce over HTTP: any seat may contribute one while its deal waits for the cut,
the cutter may send one with its cut, and a bad, repeated or late nonce is a specific
problem+json refusal that appends nothing."""

from __future__ import annotations

from typing import Any

from http_table import Table

from events.redis_store import RedisEventStore


def _problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json()
    assert body["code"] == code and body["type"] == f"urn:fortyfive:problem:{code}"
    return body


def _other(table: Table) -> tuple[int, int, int]:
    cutter, version = table.turn()
    assert cutter is not None
    return cutter, (cutter + 1) % 6, version


def test_a_seat_contributes_and_the_cutter_cuts_with_its_own_nonce(table: Table) -> None:
    cutter, seat, version = _other(table)
    response = table.post(seat, {"type": "contribute", "nonce": "ab" * 16}, version)
    assert response.status_code == 201, response.get_data(as_text=True)
    view = response.get_json()
    assert view["version"] == version + 1 and view["phase"] == "cut"
    assert view["deal"]["contributed"] == [seat]
    assert view["deal"]["algorithm"] == "hmac-sha256-fy/2"
    assert view["deal"]["context"] == table.id
    response = table.post(cutter, {"type": "cut", "position": 9, "nonce": "cd" * 32},
                          version + 1)
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.get_json()["deal"]["cut"] == 9


def test_bad_repeated_and_late_nonces_are_refused(table: Table,
                                                  api_store: RedisEventStore) -> None:
    cutter, seat, version = _other(table)
    for bad in ("AB" * 16, "ab" * 8, "ab" * 65, "abc" * 11):
        body = _problem(table.post(seat, {"type": "contribute", "nonce": bad}, version), 422,
                        "invalid_action")
        assert "nonce" in body["detail"]
    body = _problem(table.post(seat, {"type": "contribute", "nonce": 12}, version), 422,
                    "invalid_request")  # Not a string: the request schema refuses it.
    assert "nonce" in str(body)
    assert api_store.version(table.id) == version
    table.post(seat, {"type": "contribute", "nonce": "ab" * 16}, version)
    _problem(table.post(seat, {"type": "contribute", "nonce": "ef" * 16}, version + 1), 409,
             "contribution_repeated")
    _problem(table.post((seat + 1) % 6, {"type": "contribute", "nonce": "ab" * 16},
                        version + 1), 409, "nonce_repeated")
    _problem(table.post(cutter, {"type": "cut", "position": 3, "nonce": "ab" * 16},
                        version + 1), 409, "nonce_repeated")
    assert api_store.version(table.id) == version + 1
    table.post(cutter, {"type": "cut", "position": 3}, version + 1)
    late = _problem(table.post((seat + 2) % 6, {"type": "contribute", "nonce": "01" * 16},
                               version + 2), 409, "wrong_phase")
    assert "'cut'" in late["detail"]
