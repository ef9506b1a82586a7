"""The live event stream: server-sent events, resumable with Last-Event-ID."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import Table, bearer, read_stream

from bench.http import api_server
from service.cli import main
from service.cli.serve import stream_bound
from service.http.config import MAX_STREAMS_ENV
from service.http.sse import KEEPALIVE_SECONDS, MIN_WAIT_SECONDS


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
    response = read_stream(table.client, table.path, query={"after": 0})
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
        text = read_stream(table.client, table.path,
                           headers={"Last-Event-ID": str(last)}).get_data(as_text=True)
        received = [m["id"] for m in parse(text)][:2]
        seen += received
        last = received[-1]
    assert seen == list(range(1, version + 1))


def test_last_event_id_wins_over_after(table: Table) -> None:
    table.step()
    text = read_stream(table.client, table.path, headers={"Last-Event-ID": "2"},
                       query={"after": 0}).get_data(as_text=True)
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
            query_string={"wait": MIN_WAIT_SECONDS}, buffered=False,
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
    # It ended after the wait asked for, not the default wait.
    assert MIN_WAIT_SECONDS <= received["seconds"] < app.config["STREAM_WAIT"]


def test_a_finished_game_with_everything_sent_is_204(client: FlaskClient) -> None:
    table = Table.create(client, "classic", options={"target": 5})
    final = table.play_out()
    response = table.client.get(f"{table.path}/stream", query_string={"wait": 30})
    assert response.status_code == 204
    # No body, so nothing for a Content-Type to describe.
    assert "Content-Type" not in response.headers and response.data == b""
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


@pytest.mark.parametrize("wait", [61, 0, 0.5, MIN_WAIT_SECONDS - 0.1])
def test_wait_is_bounded_below_by_one_keep_alive_and_above(table: Table, wait: float) -> None:
    response = table.client.get(f"{table.path}/stream", query_string={"wait": wait})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert "wait" in response.get_json()["errors"]["query"]


def test_the_shortest_wait_is_one_keep_alive_period(table: Table) -> None:
    assert MIN_WAIT_SECONDS == KEEPALIVE_SECONDS
    assert read_stream(table.client, table.path,
                       query={"wait": MIN_WAIT_SECONDS}).status_code == 200


def test_a_stream_may_not_start_beyond_the_games_head(table: Table) -> None:
    version = table.view().get_json()["version"]
    for request in ({"headers": {"Last-Event-ID": str(version + 1)}},
                    {"query_string": {"after": version + 5}}):
        response = table.client.get(f"{table.path}/stream", **request)  # type: ignore[arg-type]
        assert response.status_code == 400
        assert response.mimetype == "application/problem+json"
        body = response.get_json()
        assert (body["code"], body["current_version"]) == ("after_beyond_head", version)
    # At the head itself is the ordinary live stream.
    response = read_stream(table.client, table.path, headers={"Last-Event-ID": str(version)})
    assert response.status_code == 200 and response.get_data(as_text=True) == "retry: 1000\n\n"


def _listen(app: Flask, path: str, token: str | None, after: int, wait: float,
            into: list[str]) -> threading.Thread:
    """Starts a thread that reads a whole stream of *path* into *into*."""

    def run() -> None:
        response = app.test_client().get(f"{path}/stream", headers=bearer(token),
                                         query_string={"after": after, "wait": wait})
        into.append(response.get_data(as_text=True))

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _held(app: Flask, count: int) -> None:
    """Waits until *app* holds *count* live streams."""
    hub = app.extensions["fortyfive"].streams
    deadline = time.monotonic() + 10
    while hub.held != count:
        assert time.monotonic() < deadline, f"{hub.held} streams held, expected {count}"
        time.sleep(0.01)


def _blocked_reads(redis_client: Any) -> int:
    """Returns how many clients of the Redis wait in an XREAD BLOCK."""
    return sum(1 for client in redis_client.client_list()
               if client["cmd"] == "xread" and "b" in client["flags"])


def test_every_stream_of_a_game_gets_every_event_in_order_from_one_tail(
    app: Flask, table: Table, redis_client: Any
) -> None:
    _, start = table.turn()
    spectators: list[str] = []
    seat_texts: list[str] = []
    auditor_texts: list[str] = []
    before = _blocked_reads(redis_client)
    wait = MIN_WAIT_SECONDS
    threads = [_listen(app, table.path, None, start, wait, spectators) for _ in range(30)]
    threads.append(_listen(app, table.path, table.tokens[0], start, wait, seat_texts))
    threads.append(_listen(app, table.path, table.auditor, start, wait, auditor_texts))
    _held(app, 32)
    # One tail for the game in this process, however many watch it: one XREAD BLOCK. (Redis
    # counts every client's blocked reads, and an earlier test's tail may block again between
    # two counts, so Redis's count is only held to far fewer than one a stream.)
    tails = [thread for thread in threading.enumerate() if thread.name == f"tail-{table.id}"]
    assert len(tails) == 1
    assert _blocked_reads(redis_client) < before + 32
    for _ in range(6):
        table.step()
    for thread in threads:
        thread.join(15)
        assert not thread.is_alive()
    page = table.client.get(f"{table.path}/events", query_string={"after": start}).get_json()
    assert len(page["events"]) >= 6
    for text in spectators:
        assert [m["data"] for m in parse(text)] == page["events"]
    # A seat's and the auditor's streams show their own views (each message is made once
    # per viewer and event, and never handed to another viewer).
    for token, texts in ((table.tokens[0], seat_texts), (table.auditor, auditor_texts)):
        own = table.client.get(f"{table.path}/events", headers=bearer(token),
                               query_string={"after": start}).get_json()
        assert [m["data"] for m in parse(texts[0])] == own["events"]
    assert all("hash" in m["data"] for m in parse(auditor_texts[0]))
    assert not any("hash" in event for event in page["events"])


def test_beyond_its_bound_a_process_answers_503_with_retry_after(
    redis_url: str, table: Table
) -> None:
    from service.http.app import create_app

    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "STREAM_MAX": 2})
    try:
        texts: list[str] = []
        threads = [_listen(app, table.path, None, 0, MIN_WAIT_SECONDS, texts) for _ in range(2)]
        _held(app, 2)
        response = app.test_client().get(f"{table.path}/stream")
        assert response.status_code == 503
        assert response.mimetype == "application/problem+json"
        assert response.headers["Retry-After"] == "2"
        assert response.get_json()["code"] == "streams_full"
        for thread in threads:
            thread.join(10)
        _held(app, 0)  # Ended streams give their places back.
        response = read_stream(app.test_client(), table.path, query={"after": 0})
        assert response.status_code == 200 and len(parse(response.get_data(as_text=True))) > 0
    finally:
        app.extensions["fortyfive"].streams.close()
        app.extensions["fortyfive"].store.close()


def test_a_stream_that_falls_behind_the_tails_window_still_misses_nothing(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    from service.http import stream_hub

    monkeypatch.setattr(stream_hub, "KEEP_EVENTS", 2)
    _, start = table.turn()
    early: list[str] = []
    watcher = _listen(app, table.path, None, start, MIN_WAIT_SECONDS, early)
    _held(app, 1)
    for _ in range(5):
        table.step()
    watcher.join(15)
    # The tail now keeps only its last two events: an older Last-Event-ID reads the rest.
    text = read_stream(table.client, table.path,
                       headers={"Last-Event-ID": str(start)}).get_data(as_text=True)
    page = table.client.get(f"{table.path}/events", query_string={"after": start}).get_json()
    assert [m["data"] for m in parse(text)] == page["events"]
    assert [m["data"] for m in parse(early[0])] == page["events"]


def _call(port: int, method: str, path: str, body: Any = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        payload = json.dumps(body) if body is not None else None
        sent = {**({"Content-Type": "application/json"} if payload else {}), **(headers or {})}
        connection.request(method, path, body=payload, headers=sent)
        response = connection.getresponse()
        data = response.read()
        is_json = "json" in (response.getheader("Content-Type") or "")
        return response.status, dict(response.getheaders()), json.loads(data) if is_json else data
    finally:
        connection.close()


def _open_stream(port: int, path: str, after: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"GET {path}/stream?after={after}&wait=30 HTTP/1.1\r\n"
                 f"Host: 127.0.0.1\r\n\r\n".encode())
    return sock


def _read_until(sock: socket.socket, marker: bytes) -> bytes:
    received = b""
    while marker not in received:
        chunk = sock.recv(65536)
        assert chunk, f"the stream ended before {marker!r}: {received[-300:]!r}"
        received += chunk
    return received


def test_held_streams_take_no_request_capacity_under_serve(tmp_path: Path) -> None:
    """More streams than the old 4 threads of one worker, and the API still answers; one
    stream beyond the bound is refused at once; each held stream gets each event in order."""
    with api_server(tmp_path, 1, 4, ["--max-streams", "45"]) as (port, _):
        status, _, game = _call(port, "POST", "/v1/games", {"profile": "classic"})
        assert status == 201
        path = f"/v1/games/{game['id']}"
        version = _call(port, "GET", path)[2]["version"]
        streams = [_open_stream(port, path, version) for _ in range(45)]
        try:
            for sock in streams:
                assert _read_until(sock, b"retry: 1000").startswith(b"HTTP/1.1 200")
            assert _call(port, "GET", "/healthz")[0] == 200
            assert _call(port, "GET", path)[0] == 200
            status, headers, problem = _call(port, "GET", f"{path}/stream")
            assert (status, problem["code"], headers["Retry-After"]) == (503, "streams_full", "2")
            auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
            for _ in range(3):
                view = _call(port, "GET", path, headers=auth)[2]
                turn = view["turn"]
                auth = {"Authorization": f"Bearer {game['seats'][turn]['token']}"}
                view = _call(port, "GET", path, headers=auth)[2]
                status, _, view = _call(port, "POST", f"{path}/actions",
                                        view["legal_actions"][0],
                                        {**auth, "If-Match": f'"{view["version"]}"'})
                assert status == 201
            final = view["version"]
            expected = list(range(version + 1, final + 1))
            for sock in streams:
                text = _read_until(sock, f"id: {final}\n".encode()).decode()
                ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
                assert ids == expected
        finally:
            for sock in streams:
                sock.close()
        # A client that went away gives its place back (noticed at the next write).
        deadline = time.monotonic() + 60
        while (status := _call(port, "GET", f"{path}/stream?wait={MIN_WAIT_SECONDS}")[0]) == 503:
            assert time.monotonic() < deadline, "the streams of closed clients were kept"
            time.sleep(0.5)
        assert status == 200


@pytest.mark.parametrize(("argv", "env"), [(["--max-streams", "0"], None),
                                            (["--max-streams", "many"], None),
                                            ([], "-3")])
def test_a_bad_stream_bound_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    argv: list[str], env: str | None,
) -> None:
    if env is not None:
        monkeypatch.setenv(MAX_STREAMS_ENV, env)
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--max-streams" in err
    assert "expected a whole number of 1 or more (given here or in $FORTYFIVE_MAX_STREAMS)" in err


def test_the_environment_sets_the_stream_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    from service.http.app import create_app

    monkeypatch.setenv(MAX_STREAMS_ENV, "7")
    app = create_app()
    assert app.config["STREAM_MAX"] == 7
    assert app.extensions["fortyfive"].streams.max_streams == 7


def test_under_thread_workers_streams_leave_half_the_threads_to_the_api() -> None:
    assert stream_bound("gthread", 1000, 16) == 8
    assert stream_bound("gthread", 3, 16) == 3
    assert stream_bound("gthread", 1000, 1) == 1
    assert stream_bound("gevent", 1000, 16) == 1000
