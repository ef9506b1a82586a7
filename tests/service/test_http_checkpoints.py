"""Signed checkpoints over HTTP: every view carries one, the keys are published, and a
checkpoint never gives a hidden card away."""

from __future__ import annotations

import json
import random

from flask.testing import FlaskClient
from http_table import Table, bearer

from events import checkpoints
from replay.formats.jsonformat import read_json
from replay.verification.verify import verify
from service.http.schemas.responses import SigningKeysSchema


def _keys(client: FlaskClient) -> dict[str, bytes]:
    answer = client.get("/v1/keys")
    assert answer.status_code == 200
    body = answer.get_json()
    assert SigningKeysSchema().validate(body) == {}
    return checkpoints.read_keys(body)


def test_every_viewer_gets_a_checkpoint_signed_by_a_published_key(client: FlaskClient) -> None:
    table = Table.create(client, "bruff")
    keys = _keys(client)
    spectator = table.view().get_json()
    seat = table.view(0).get_json()
    auditor = client.get(table.path, headers=bearer(table.auditor)).get_json()
    for view in (spectator, seat, auditor):
        checkpoint = view["checkpoint"]
        checkpoints.check(checkpoint, keys)
        assert (checkpoint["game_id"], checkpoint["version"]) == (table.id, view["version"])
    events = client.get(f"{table.path}/events", headers=bearer(table.auditor)).get_json()
    assert auditor["checkpoint"]["head"] == events["events"][-1]["hash"]


def test_a_repeated_view_is_not_signed_again(client: FlaskClient) -> None:
    table = Table.create(client, "bruff")
    first = table.view().get_json()["checkpoint"]
    again = table.view(1).get_json()["checkpoint"]
    assert first == again


def test_a_tampered_checkpoint_fails(client: FlaskClient) -> None:
    table = Table.create(client, "bruff")
    checkpoint = table.view().get_json()["checkpoint"]
    keys = _keys(client)
    for forged in ({**checkpoint, "version": checkpoint["version"] + 1},
                   {**checkpoint, "head": "0" * 64},
                   {**checkpoint, "key_id": "ed25519:" + "0" * 16}):
        try:
            checkpoints.check(forged, keys)
        except checkpoints.CheckpointError:
            continue
        raise AssertionError(f"{forged} verified")


def test_a_seat_gets_no_head_that_covers_a_face_down_card(client: FlaskClient) -> None:
    """In auction forty-fives the discards go face down: from then on, until the seed is
    revealed, the other viewers get no checkpoint later than the last deal's end (none at all
    in deal 1, before the worker signs one); the auditor always gets the head."""
    rng = random.Random(5)
    table = Table.create(client, "auction")
    while table.view().get_json()["phase"] != "discard":
        table.step(rng)
    seat, version = table.turn()
    assert seat is not None
    hand = table.view(seat).get_json()["hand"]
    answer = table.post(seat, {"type": "discard", "cards": hand[:1]}, version)
    assert answer.status_code == 201, answer.get_json()
    other = (seat + 1) % 4
    for view in (table.view().get_json(), table.view(other).get_json()):
        assert view["checkpoint"] is None
    auditor = client.get(table.path, headers=bearer(table.auditor)).get_json()
    assert auditor["checkpoint"]["version"] == auditor["version"]
    history = client.get(f"{table.path}/history", headers=bearer(table.tokens[other]))
    assert "checkpoint" in history.get_json() and history.get_json()["checkpoint"] is None
    while table.view().get_json()["deal_number"] == 1:
        table.step(rng)
    spectator = table.view().get_json()
    checkpoints.check(spectator["checkpoint"], _keys(client))
    assert spectator["checkpoint"]["version"] == spectator["version"]


def test_a_history_carries_a_checkpoint_that_it_reaches(client: FlaskClient) -> None:
    table = Table.create(client, "classic", options={"target": 5})
    table.play_out(random.Random(2))
    keys = _keys(client)
    for token, encoding in ((table.tokens[1], "json"), (table.auditor, "json"),
                            (None, "json"), (table.tokens[0], "text")):
        answer = client.get(f"{table.path}/history", headers=bearer(token),
                            query_string={"format": encoding})
        assert answer.status_code == 200
        result = client.post("/v1/histories", json={"text": answer.get_data(as_text=True)}
                             if encoding == "text" else {"history": answer.get_json()})
        body = result.get_json()
        assert body["ok"] is True, body["verification"]["problems"]
        assert any("matches event" in note for note in body["verification"]["notes"])
        if encoding == "json":
            checkpoint = answer.get_json()["checkpoint"]
            checkpoints.check(checkpoint, keys)
            assert checkpoint["head"] == answer.get_json()["head"]


def test_a_finished_games_seat_history_proves_itself_with_the_key_it_carries(
        client: FlaskClient) -> None:
    """Once the game is over every view shows the contribution secret and carries the key of
    its checkpoint: a seat's or a spectator's history verifies completely on its own, and says
    that the key came with it; ``?at=`` serves a prefix that says it is one."""
    table = Table.create(client, "classic", options={"target": 5})
    table.play_out(random.Random(2))
    published = {key["key_id"]: key for key in client.get("/v1/keys").get_json()["keys"]}
    for token in (table.tokens[1], None):
        body = client.get(f"{table.path}/history", headers=bearer(token)).get_json()
        created = body["events"][0]
        assert created["type"] == "game_created" and "redacted" not in created
        assert isinstance(created["data"]["contribution_secret"], str)
        assert body["checkpoint_key"] == published[body["checkpoint"]["key_id"]]
        history, diagnostics = read_json(json.dumps(body))
        assert history is not None, diagnostics
        report = verify(history)
        assert report.ok and report.complete, report.format()
        assert [signature.trust for signature in report.signatures] == ["history_key"]
        assert [s.trust for s in verify(history, keys=_keys(client)).signatures] == [
            "keys_given"]
        at = body["events"][-1]["version"] - 3
        cut = client.get(f"{table.path}/history", headers=bearer(token),
                         query_string={"at": at}).get_json()
        history, _ = read_json(json.dumps(cut))
        assert history is not None
        assert verify(history).format().splitlines()[0] == (
            f"PREFIX: this history stops at event {at} of a game that was not over")
