"""The HTTP benchmark's keep-alive client reads answers exactly: the status, headers whatever
their case, exactly Content-Length bytes of body; it keeps its connection, opens a new one
when the server closes, and refuses what it does not read (a chunked answer among them).
Each test talks to a scripted server on a loopback socket (port 0)."""

from __future__ import annotations

import doctest
import json
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import bench.http_client
from bench import http as bench_http
from bench.http_client import Connection, ProtocolError

CLOSE = b""
"""An answer that is no answer: the server reads the request and closes the connection."""


class Server:
    """Answers each request, on whichever connection it comes, with the next of *answers*
    (raw bytes), and closes the connection after the answers in *close_after* (their
    indexes). Every request read is kept: (connection number, request line, headers with
    lower-case names, body)."""

    def __init__(self, answers: list[bytes], close_after: tuple[int, ...] = ()) -> None:
        self.answers, self.close_after = list(answers), close_after
        self.requests: list[tuple[int, str, dict[str, str], bytes]] = []
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(5)
        self.port = self._listener.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        answered = 0
        while answered < len(self.answers):
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            with conn, conn.makefile("rb") as reader:
                conn.settimeout(5)
                while answered < len(self.answers):
                    request = self._read(reader)
                    if request is None:
                        break  # The client closed it.
                    self.requests.append((self.connections, *request))
                    answer, index = self.answers[answered], answered
                    answered += 1
                    if answer == CLOSE:
                        break
                    conn.sendall(answer)
                    if index in self.close_after:
                        break

    @staticmethod
    def _read(reader: Any) -> tuple[str, dict[str, str], bytes] | None:
        line = reader.readline()
        if not line:
            return None
        headers = {}
        while (header := reader.readline()) not in (b"\r\n", b""):
            name, _, value = header.decode("latin-1").partition(":")
            headers[name.lower()] = value.strip()
        body = reader.read(int(headers.get("content-length", 0)))
        return line.decode("latin-1").rstrip("\r\n"), headers, body

    def close(self) -> None:
        self._listener.close()
        self._thread.join(5)


@pytest.fixture
def serve() -> Iterator[Any]:
    """Starts :class:`Server` s; closes them after the test."""
    servers: list[Server] = []

    def start(answers: list[bytes], close_after: tuple[int, ...] = ()) -> Server:
        servers.append(Server(answers, close_after))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def _answer(status: str, body: bytes, *headers: str) -> bytes:
    head = "".join(f"{header}\r\n" for header in headers)
    return f"HTTP/1.1 {status}\r\n{head}\r\n".encode() + body


def test_the_status_and_exactly_the_body_are_read_whatever_the_headers_case(serve: Any) -> None:
    body = b'{"a": "two\r\n\r\nlines"}'
    server = serve([
        _answer("201 CREATED", body, 'ETag: "3"', f"content-LENGTH: {len(body)}",
                "X-Content-Type-Options: nosniff", "Location: /v1/games/x"),
        _answer("404 NOT FOUND", b"gone", "CONTENT-length: 4", "connection: Keep-Alive"),
        _answer("200 OK", b"", "Content-Length: 0"),
    ])
    connection = Connection("127.0.0.1", server.port)
    assert connection.request("POST", "/v1/games", b'{"x": 1}', {"If-Match": '"2"'}) == (
        201, body)
    assert connection.request("GET", "/v1/games/x") == (404, b"gone")
    assert connection.request("GET", "/healthz") == (200, b"")
    connection.close()
    first = server.requests[0]
    assert first[1:] == ("POST /v1/games HTTP/1.1",
                         {"host": f"127.0.0.1:{server.port}", "if-match": '"2"',
                          "content-length": "8"}, b'{"x": 1}')
    assert server.requests[1][2] == {"host": f"127.0.0.1:{server.port}"}  # No body, no length.
    assert [request[0] for request in server.requests] == [1, 1, 1]  # One connection, kept.
    assert connection.connects == 1


def test_connection_close_closes_and_the_next_request_opens_a_new_one(serve: Any) -> None:
    server = serve([
        _answer("200 OK", b"one", "Content-Length: 3", "Connection: close"),
        b"HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\ntwo",  # HTTP/1.0: closes too.
        b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nthree",
        _answer("200 OK", b"four", "Content-Length: 4"),
    ])  # The server keeps them open: the client must close them itself.
    connection = Connection("127.0.0.1", server.port)
    assert [connection.request("GET", "/")[1] for _ in range(4)] == [
        b"one", b"two", b"three", b"four"]
    assert [request[0] for request in server.requests] == [1, 2, 3, 3]
    assert connection.connects == 3
    connection.close()


def test_a_connection_the_server_closed_unannounced_is_opened_again(serve: Any) -> None:
    server = serve([
        _answer("200 OK", b"one", "Content-Length: 3"),  # Then closed, as on an idle timeout.
        _answer("201 CREATED", b"two", "Content-Length: 3"),
    ], close_after=(0,))
    connection = Connection("127.0.0.1", server.port)
    assert connection.request("GET", "/") == (200, b"one")
    assert connection.request("POST", "/again", b"{}") == (201, b"two")
    assert [(number, line) for number, line, _, _ in server.requests] == [
        (1, "GET / HTTP/1.1"), (2, "POST /again HTTP/1.1")]
    assert connection.connects == 2
    connection.close()


def test_no_answer_on_a_new_connection_raises_rather_than_retrying(serve: Any) -> None:
    server = serve([_answer("200 OK", b"1", "Content-Length: 1"), CLOSE, CLOSE])
    connection = Connection("127.0.0.1", server.port)
    assert connection.request("GET", "/") == (200, b"1")
    with pytest.raises(ConnectionError):
        connection.request("GET", "/")  # Reused: retried once on a new one, closed again.
    assert connection.connects == 2 and len(server.requests) == 3


@pytest.mark.parametrize("answer, message", [
    (_answer("200 OK", b"5\r\nhello\r\n0\r\n\r\n", "Transfer-Encoding: chunked"), "chunked"),
    (_answer("200 OK", b"5\r\nhello\r\n0\r\n\r\n", "Content-Length: 22",
             "transfer-encoding: CHUNKED"), "chunked"),
    (_answer("200 OK", b"until the end", "Connection: close"), "without Content-Length"),
    (_answer("200 OK", b"abc", "Content-Length: 5"), "cut short"),
    (_answer("200 OK", b"abc", "Content-Length: +3"), "bad Content-Length"),
    (_answer("200 OK", b"abc", "Content-Length: 3", "Content-Length: 4"), "two different"),
    (_answer("200 OK", b"", "Content-Length 0"), "malformed header"),
    (b"HTTP/2 200 OK\r\nContent-Length: 0\r\n\r\n", "malformed status line"),
    (b"HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n", "malformed status line"),
    (b"ICY 200 OK\r\n\r\n", "malformed status line"),
], ids=["chunked", "chunked-with-length", "no-length", "cut-short", "signed-length",
        "two-lengths", "no-colon", "http2", "short-status", "not-http"])
def test_an_answer_it_does_not_read_is_refused_and_the_connection_closed(
    serve: Any, answer: bytes, message: str
) -> None:
    server = serve([answer, _answer("200 OK", b"ok", "Content-Length: 2")], close_after=(0,))
    connection = Connection("127.0.0.1", server.port)
    with pytest.raises(ProtocolError, match=message):
        connection.request("GET", "/")
    assert connection.request("GET", "/") == (200, b"ok")  # On a new connection.
    assert connection.connects == 2
    connection.close()


def test_answers_without_a_body_need_no_content_length(serve: Any) -> None:
    server = serve([b"HTTP/1.1 204 NO CONTENT\r\n\r\n", b"HTTP/1.1 304\r\n\r\n",
                    _answer("200 OK", b"x", "Content-Length: 1")])
    connection = Connection("127.0.0.1", server.port)
    assert [connection.request("GET", "/") for _ in range(3)] == [
        (204, b""), (304, b""), (200, b"x")]
    assert connection.connects == 1
    connection.close()


def test_the_status_line_examples_hold() -> None:
    results = doctest.testmod(bench.http_client)
    assert results.attempted > 0 and results.failed == 0


def test_the_benchmark_pool_sends_json_and_decodes_the_answer(serve: Any) -> None:
    server = serve([_answer("201 CREATED", b'{"id": "g"}', "Content-Length: 11"),
                    _answer("200 OK", b"", "Content-Length: 0")])
    with bench_http._Pool(server.port, 1) as pool:
        assert pool.call("POST", "/v1/games", {"profile": "classic"},
                         {"Idempotency-Key": "k"}) == (201, {"id": "g"})
        assert pool.call("GET", "/v1/games/g") == (200, None)
    (_, _, headers, body), (number, _, second, _) = server.requests
    assert json.loads(body) == {"profile": "classic"}
    assert headers["content-length"] == str(len(body))
    assert headers["content-type"] == "application/json" and headers["idempotency-key"] == "k"
    assert number == 1 and "content-type" not in second


def test_the_stream_benchs_api_reconnects_when_the_server_dropped_it_idle(serve: Any) -> None:
    from bench.stream import _Api

    server = serve([
        _answer("200 OK", b'{"version": 3}', "Content-Length: 14"),  # Then closed idle.
        _answer("201 CREATED", b'{"version": 4}', "Content-Length: 14"),
        _answer("409 CONFLICT", b'{"status": 409}', "Content-Length: 15"),
    ], close_after=(0,))
    api = _Api(server.port)
    assert api.call("GET", "/v1/games/g") == {"version": 3}
    action = {"Idempotency-Key": "k1", "If-Match": '"3"'}
    assert api.call("POST", "/v1/games/g/actions", {"type": "play"}, action) == {"version": 4}
    assert api.connects == 2
    number, line, headers, body = server.requests[1]
    assert (number, line, body) == (2, "POST /v1/games/g/actions HTTP/1.1", b'{"type": "play"}')
    assert headers["idempotency-key"] == "k1" and headers["content-type"] == "application/json"
    with pytest.raises(RuntimeError, match="answered 409"):
        api.call("GET", "/v1/games/g")
    api.close()
