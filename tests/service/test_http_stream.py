"""The live event stream: server-sent events, resumable with Last-Event-ID."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import Table, bearer


def parse(text: str) -> list[dict[str, Any]]:
    """Returns the messages of an event stream (comments and retry lines dropped)."""
    messages = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or not line:
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if "data" in fields:
            messages.append({"id": int(fields["id"]), "event": fields["event"],
                             "data": json.loads(fields["data"])})
    return messages


def test_a_stream_from_zero_sends_every_event_once(table: Table) -> None:
    for _ in range(3):
        table.step()
    response = table.client.get(f"{table.path}/stream", query_string={"after": 0, "wait": 0})
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    messages = parse(response.get_data(as_text=True))
    page = table.client.get(f"{table.path}/events").get_json()["events"]
    assert [m["id"] for m in messages] == [event["version"] for event in page]
    assert [m["event"] for m in messages] == [event["type"] for event in page]
    assert [m["data"] for m in messages] == page


def test_last_event_id_resumes_with_nothing_skipped_or_repeated(table: Table) -> None:
    for _ in range(4):
        table.step()
    version = table.view().get_json()["version"]
    seen: list[int] = []
    last = 0
    while last < version:
        # A client that drops after two messages and reconnects with the last id it saw.
        text = table.client.get(
            f"{table.path}/stream", headers={"Last-Event-ID": str(last)},
            query_string={"wait": 0},
        ).get_data(as_text=True)
        received = [m["id"] for m in parse(text)][:2]
        seen += received
        last = received[-1]
    assert seen == list(range(1, version + 1))


def test_last_event_id_wins_over_after(table: Table) -> None:
    table.step()
    text = table.client.get(
        f"{table.path}/stream", headers={"Last-Event-ID": "2"},
        query_string={"after": 0, "wait": 0},
    ).get_data(as_text=True)
    assert [m["id"] for m in parse(text)][0] == 3


def test_a_live_stream_delivers_new_events_then_ends_when_idle(
    app: Flask, table: Table
) -> None:
    seat, version = table.turn()
    assert seat is not None
    opened = threading.Event()
    received: dict[str, Any] = {}

    def listen() -> None:
        client = app.test_client()
        start = time.monotonic()
        # Unbuffered, the request returns once the view has run: the stream starts at the
        # current version then, and its body is read (and waits) below.
        response = client.get(
            f"{table.path}/stream", headers=bearer(table.tokens[seat]),
            query_string={"wait": 0.5}, buffered=False,
        )
        opened.set()
        received["text"] = response.get_data(as_text=True)
        received["seconds"] = time.monotonic() - start

    listener = threading.Thread(target=listen)
    listener.start()
    assert opened.wait(10), "the stream did not open"
    view = table.post(seat, {"type": "cut", "position": 5}, version).get_json()
    listener.join(30)
    assert not listener.is_alive()
    messages = parse(received["text"])
    assert [m["id"] for m in messages] == list(range(version + 1, view["version"] + 1))
    assert messages[0]["event"] == "deck_cut"
    assert messages[0]["data"]["data"] == {"seat": seat, "position": 5}
    assert messages[-1]["data"]["version"] == view["version"]
    # It ended after the 0.5 s asked for, not the default wait.
    assert 0.5 <= received["seconds"] < app.config["STREAM_WAIT"]


def test_a_finished_game_with_everything_sent_is_204(client: FlaskClient) -> None:
    table = Table.create(client, "classic", options={"target": 5})
    final = table.play_out()
    response = table.client.get(f"{table.path}/stream", query_string={"wait": 30})
    assert response.status_code == 204
    # Still streams what a client has not seen yet, then ends without waiting.
    start = time.monotonic()
    text = table.client.get(
        f"{table.path}/stream", headers={"Last-Event-ID": str(final["version"] - 2)},
        query_string={"wait": 30},
    ).get_data(as_text=True)
    assert [m["id"] for m in parse(text)] == [final["version"] - 1, final["version"]]
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("header", ["x1", "-1", "²", "1" * 13])
def test_a_bad_last_event_id_is_400(table: Table, header: str) -> None:
    response = table.client.get(f"{table.path}/stream", headers={"Last-Event-ID": header})
    assert response.status_code == 400
    assert response.get_json()["code"] == "bad_last_event_id"


def test_wait_is_bounded(table: Table) -> None:
    response = table.client.get(f"{table.path}/stream", query_string={"wait": 61})
    assert response.status_code == 422
