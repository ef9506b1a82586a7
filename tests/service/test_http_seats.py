"""Claimable seats, the auditor only on request, and the access log of its live reads."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import VIEW_SCHEMA, Table, bearer, read_stream

from events.keys import access_key, archive_key, seats_key
from events.redis_store import RedisEventStore
from service.application import access_log
from service.application.commands import new_cache
from service.application.tokens import token_digest
from workers import keys, retention

CLAIMABLE = {"profile": "classic", "seats": [
    {"type": "human"}, {"type": "human", "claimable": True}]}


def _create(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def _claim(client: FlaskClient, claim: dict[str, str], code: str | None = None) -> Any:
    return client.post(claim["url"], json={"code": code if code is not None else claim["code"]})


def test_a_claimable_seat_gets_an_invite_instead_of_its_token(client: FlaskClient) -> None:
    created = _create(client, CLAIMABLE)
    own, invited = created["seats"]
    assert own["token"] and not own["claimable"] and own["claim"] is None
    assert invited["token"] is None and invited["claimable"] is True
    claim = invited["claim"]
    assert claim["url"] == f"/v1/games/{created['id']}/seats/1/claim"
    assert claim["invite"] == f"/claim/{created['id']}/1#code={claim['code']}"
    assert len(claim["code"]) >= 43 and claim["code"] != own["token"]


def test_a_seat_is_claimed_once(client: FlaskClient) -> None:
    created = _create(client, CLAIMABLE)
    claim = created["seats"][1]["claim"]
    first = _claim(client, claim)
    assert first.status_code == 201, first.get_json()
    assert first.headers["Cache-Control"] == "no-store"
    token = first.get_json()["token"]
    assert first.get_json() == {"game_id": created["id"], "seat": 1, "token": token}
    view = client.get(f"/v1/games/{created['id']}", headers=bearer(token)).get_json()
    assert view["viewer"] == 1 and view["hand"] is not None
    again = _claim(client, claim)
    assert again.status_code == 410
    assert again.mimetype == "application/problem+json"
    assert again.get_json()["code"] == "seat_claimed"


def test_a_wrong_code_or_seat_is_not_found(client: FlaskClient) -> None:
    created = _create(client, CLAIMABLE)
    claim = created["seats"][1]["claim"]
    for response in (
        _claim(client, claim, "x" * 43),
        client.post(f"/v1/games/{created['id']}/seats/0/claim", json={"code": claim["code"]}),
        client.post(f"/v1/games/{created['id']}/seats/7/claim", json={"code": claim["code"]}),
    ):
        assert response.status_code == 404, response.get_json()
        assert response.get_json()["code"] == "claim_not_found"
    unknown = client.post("/v1/games/0123456789abcdef01234567/seats/1/claim",
                          json={"code": claim["code"]})
    assert unknown.status_code == 404
    assert unknown.get_json()["code"] == "game_not_found"
    assert _claim(client, claim).status_code == 201  # The wrong tries used nothing up.


def test_a_claim_needs_a_code(client: FlaskClient) -> None:
    created = _create(client, CLAIMABLE)
    response = client.post(created["seats"][1]["claim"]["url"], json={})
    assert response.status_code == 422
    assert "code" in response.get_json()["errors"]["json"]


def test_only_a_human_seat_can_be_claimable(client: FlaskClient) -> None:
    response = client.post("/v1/games", json={"profile": "classic", "seats": [
        {"type": "human"}, {"type": "bot", "claimable": True}]})
    assert response.status_code == 422
    assert "claimable" in str(response.get_json()["errors"])


def test_of_two_concurrent_claims_exactly_one_gets_the_token(app: Flask) -> None:
    created = _create(app.test_client(), CLAIMABLE)
    claim = created["seats"][1]["claim"]
    barrier = threading.Barrier(8)
    statuses: list[int] = []
    tokens: list[str] = []

    def claim_it() -> None:
        client = app.test_client()
        barrier.wait()
        response = _claim(client, claim)
        statuses.append(response.status_code)
        if response.status_code == 201:
            tokens.append(response.get_json()["token"])

    threads = [threading.Thread(target=claim_it) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [410] * 7
    assert len(tokens) == 1


def test_the_creator_cannot_act_for_a_claimable_seat(
    client: FlaskClient, api_store: RedisEventStore
) -> None:
    created = _create(client, {**CLAIMABLE, "auditor": True})
    game = f"/v1/games/{created['id']}"
    view = client.get(game).get_json()
    stored = api_store.client.hgetall(seats_key(created["id"]))
    code = created["seats"][1]["claim"]["code"]
    assert stored == {"seat:0": token_digest(created["seats"][0]["token"]),
                      "claim:1": token_digest(code),
                      "auditor": token_digest(created["auditor_token"])}
    # Whatever the creator holds (its own token, the auditor's, the claim code), none acts
    # for seat 1: only seat 0's token is a seat's, and the code is no token at all.
    for token, status in ((created["auditor_token"], 403), (code, 401)):
        response = client.post(f"{game}/actions", json={"type": "cut", "position": 3},
                               headers={**bearer(token), "If-Match": f'"{view["version"]}"'})
        assert response.status_code == status, response.get_json()
    own = client.get(game, headers=bearer(created["seats"][0]["token"])).get_json()
    assert own["viewer"] == 0


def test_every_view_shows_the_unclaimed_seats(client: FlaskClient) -> None:
    created = _create(client, CLAIMABLE)
    game = f"/v1/games/{created['id']}"
    own = bearer(created["seats"][0]["token"])
    assert client.get(game).get_json()["unclaimed_seats"] == [1]
    assert client.get(game, headers=own).get_json()["unclaimed_seats"] == [1]
    assert client.get(f"{game}/events").get_json()["unclaimed_seats"] == [1]
    assert read_stream(client, game).headers["Game-Unclaimed-Seats"] == "1"
    assert client.get(f"{game}/history").get_json()["tags"]["UnclaimedSeats"] == "1"
    _claim(client, created["seats"][1]["claim"])
    view = client.get(game, headers=own).get_json()
    assert view["unclaimed_seats"] == []
    assert VIEW_SCHEMA.validate(view) == {}
    assert read_stream(client, game).headers["Game-Unclaimed-Seats"] == ""
    assert "UnclaimedSeats" not in client.get(f"{game}/history").get_json()["tags"]


def test_there_is_no_auditor_unless_asked_for(client: FlaskClient) -> None:
    table = Table.create(client, "classic", auditor=False)
    assert table.auditor is None and table.created["auditor"] is False
    views = [table.view().get_json(), table.view(0).get_json()]
    assert all(view["auditor"] is False for view in views)
    assert client.get(f"{table.path}/events").get_json()["auditor"] is False
    assert read_stream(client, table.path).headers["Game-Auditor"] == "false"
    assert client.get(f"{table.path}/history").get_json()["tags"]["Auditor"] == "no"
    refused = client.get(table.path, query_string={"view": "auditor"})
    assert refused.status_code == 403


def test_an_auditor_asked_for_is_shown_to_every_viewer(client: FlaskClient) -> None:
    table = Table.create(client, "classic", auditor=True)
    assert table.auditor and table.created["auditor"] is True
    for token in (None, table.tokens[0], table.tokens[1]):
        headers = bearer(token)
        assert client.get(table.path, headers=headers).get_json()["auditor"] is True
        assert client.get(f"{table.path}/events", headers=headers).get_json()["auditor"] is True
        assert read_stream(client, table.path, headers=headers).headers["Game-Auditor"] == "true"
        history = client.get(f"{table.path}/history", headers=headers).get_json()
        assert history["tags"]["Auditor"] == "yes"


def _finish(table: Table) -> None:
    while table.view().get_json()["phase"] != "over":
        table.step()


def test_every_auditor_read_of_a_live_deal_is_logged(
    client: FlaskClient, api_store: RedisEventStore
) -> None:
    table = Table.create(client, "classic", options={"target": 15})
    auditor = bearer(table.auditor)
    client.get(table.path, headers=auditor)
    client.get(f"{table.path}/events", headers=auditor)
    client.get(f"{table.path}/history", headers=auditor)
    client.get(f"{table.path}/replay", headers=auditor, query_string={"at": 2})
    client.get(f"{table.path}/audit", headers=auditor)
    read_stream(client, table.path, headers=auditor)
    # Reads that show no hidden card are not logged: the seats', the spectator's, and the
    # auditor token's own spectator view.
    client.get(table.path, headers=bearer(table.tokens[0]))
    client.get(table.path)
    client.get(table.path, headers=auditor, query_string={"view": "spectator"})
    assert api_store.client.xlen(access_key(table.id)) == 6
    before_end = client.get(f"{table.path}/access-log", headers=bearer(table.tokens[0]))
    assert before_end.status_code == 409
    assert before_end.get_json()["code"] == "game_in_progress"
    _finish(table)
    client.get(table.path, headers=auditor)  # The game is over: nothing hidden any more.
    response = client.get(f"{table.path}/access-log", headers=bearer(table.tokens[1]))
    assert response.status_code == 200, response.get_json()
    log = response.get_json()
    assert log["game_id"] == table.id and log["auditor"] is True
    assert (log["reads"], log["kept"], log["next_after"]) == (6, 6, None)
    assert [entry["n"] for entry in log["entries"]] == [1, 2, 3, 4, 5, 6]
    assert [entry["route"] for entry in log["entries"]] == [
        "/v1/games/<game_id>", "/v1/games/<game_id>/events", "/v1/games/<game_id>/history",
        "/v1/games/<game_id>/replay", "/v1/games/<game_id>/audit",
        "/v1/games/<game_id>/stream"]
    assert all(entry["who"] == "auditor" and entry["method"] == "GET" and entry["deal"] == 1
               and entry["version"] >= 2 and entry["at"].endswith("Z")
               for entry in log["entries"])
    history = client.get(f"{table.path}/history", headers=bearer(table.tokens[0])).get_json()
    assert history["tags"]["AuditorLiveReads"] == "6"
    checked = client.post("/v1/histories", json={"history": history}).get_json()
    assert checked["ok"] is True, checked  # The tags are outside the chain: it still verifies.
    text = client.get(f"{table.path}/history", query_string={"format": "text"}).get_data(True)
    assert '[Auditor "yes"]' in text and '[AuditorLiveReads "6"]' in text
    audit = client.get(f"{table.path}/audit").get_json()
    assert audit["access"] == {"auditor": True, "live_reads": 6,
                               "log": f"/v1/games/{table.id}/access-log"}


def test_only_the_seats_read_the_access_log(client: FlaskClient) -> None:
    table = Table.create(client, "classic", options={"target": 15})
    _finish(table)
    path = f"{table.path}/access-log"
    auditor = client.get(path, headers=bearer(table.auditor))
    assert auditor.status_code == 403 and auditor.get_json()["code"] == "seats_only"
    anonymous = client.get(path)
    assert anonymous.status_code == 401 and anonymous.get_json()["code"] == "token_required"
    assert anonymous.get_json()["detail"].startswith(
        "reading the access log needs a seat's token"), "a read, not an action"
    assert client.get(path, headers=bearer(table.tokens[0])).get_json()["entries"] == []


def test_an_auditor_read_changes_nothing_a_seat_or_spectator_receives(client: FlaskClient) -> None:
    table = Table.create(client, "classic")
    seat = bearer(table.tokens[0])

    def answers() -> list[tuple[int, bytes, str | None]]:
        found = []
        for headers in (seat, {}):
            for path in (table.path, f"{table.path}/events", f"{table.path}/history"):
                response = client.get(path, headers=headers)
                found.append((response.status_code, response.get_data(), response.headers["ETag"]))
        return found

    before = answers()
    for path in (table.path, f"{table.path}/events", f"{table.path}/history"):
        assert client.get(path, headers=bearer(table.auditor)).status_code == 200
    assert answers() == before  # Not an event: the version, and every If-Match, stand.


def _read_live(client: FlaskClient, table: Table, times: int) -> None:
    for _ in range(times):
        assert client.get(table.path, headers=bearer(table.auditor)).status_code == 200


def _log_pages(client: FlaskClient, table: Table, limit: int) -> list[dict[str, Any]]:
    """Every page of the access log, read with a seat's token *limit* entries at a time."""
    pages, after = [], 0
    while after is not None:
        response = client.get(f"{table.path}/access-log", headers=bearer(table.tokens[0]),
                              query_string={"after": after, "limit": limit})
        assert response.status_code == 200, response.get_json()
        pages.append(response.get_json())
        after = pages[-1]["next_after"]
    return pages


def test_the_access_log_keeps_the_newest_entries_counts_every_read_and_pages(
    client: FlaskClient, api_store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(access_log, "KEPT", 3)
    table = Table.create(client, "classic", options={"target": 15})
    _read_live(client, table, 5)
    assert api_store.client.xlen(access_key(table.id)) == 3, "the bound holds while it grows"
    _finish(table)
    pages = _log_pages(client, table, 2)
    assert [[entry["n"] for entry in page["entries"]] for page in pages] == [[3, 4], [5]]
    assert [page["next_after"] for page in pages] == [4, None]
    assert all((page["reads"], page["kept"]) == (5, 3) for page in pages)
    history = client.get(f"{table.path}/history", headers=bearer(table.tokens[0])).get_json()
    assert history["tags"]["AuditorLiveReads"] == "5", "every read counted, the dropped too"
    past_the_end = client.get(f"{table.path}/access-log", headers=bearer(table.tokens[0]),
                              query_string={"after": 5}).get_json()
    assert past_the_end["entries"] == [] and past_the_end["next_after"] is None
    refused = client.get(f"{table.path}/access-log", headers=bearer(table.tokens[0]),
                         query_string={"limit": 0})
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_request"


def _archive_alone(store: RedisEventStore, game_id: str) -> retention.Pass:
    """Runs a retention pass that archives *game_id* and no other game: it is recorded as over
    at time 0 (as the project job records it, but long ago) and the pass runs at time 0. The
    suite's other tests share this redis-server and leave finished games of their own in the
    index, which a pass at the present would archive too."""
    store.client.zadd(keys.OVER_KEY, {game_id: 0})
    return retention.run(store, new_cache(store), retention.Policy(None, 0), now=0.0)


def test_an_archived_game_keeps_its_access_log_in_its_tombstone(
    client: FlaskClient, api_store: RedisEventStore
) -> None:
    table = Table.create(client, "classic", options={"target": 15})
    _read_live(client, table, 4)
    _finish(table)
    before = _log_pages(client, table, 3)
    done = _archive_alone(api_store, table.id)
    assert [item.game_id for item in done.archived] == [table.id]
    assert api_store.client.exists(access_key(table.id)) == 0, "moved, not copied"
    assert api_store.client.hexists(archive_key(table.id), access_log.ARCHIVE_FIELD)
    assert _log_pages(client, table, 3) == before
    history = client.get(f"{table.path}/history", headers=bearer(table.tokens[0])).get_json()
    assert history["tags"]["AuditorLiveReads"] == "4"


def test_an_access_log_written_as_a_list_is_read_and_extended_as_a_stream(
    client: FlaskClient, api_store: RedisEventStore
) -> None:
    table = Table.create(client, "classic", options={"target": 15})
    old = {"at": "2026-01-01T00:00:00.000000Z", "who": "auditor", "method": "GET",
           "route": "/v1/games/<game_id>", "path": table.path, "version": 2, "deal": 1}
    api_store.client.rpush(access_key(table.id), json.dumps(old), json.dumps(old))
    _read_live(client, table, 1)
    _finish(table)
    (page,) = _log_pages(client, table, 10)
    assert [entry["n"] for entry in page["entries"]] == [1, 2, 3]
    assert page["entries"][0] == {"n": 1, **old}


def test_a_pass_after_one_that_archived_the_game_but_stopped_moves_its_access_log(
    client: FlaskClient, api_store: RedisEventStore
) -> None:
    table = Table.create(client, "classic", options={"target": 15})
    _read_live(client, table, 2)
    _finish(table)
    before = _log_pages(client, table, 10)
    # An earlier pass archived the game and stopped before it moved the log.
    assert api_store.archive(table.id, table.view().get_json()["version"])
    assert api_store.client.exists(access_key(table.id)) == 1
    _archive_alone(api_store, table.id)
    assert api_store.client.exists(access_key(table.id)) == 0
    assert _log_pages(client, table, 10) == before
