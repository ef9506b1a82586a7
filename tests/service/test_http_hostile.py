"""Hostile input, as an attacker would send it: nothing answers 500, every refusal is a
problem with a stable code, and no answer shows an internal detail (a store's address, a
path, a traceback). Over the test client, and through a real ``fortyfive serve`` for what
only the HTTP server sees (request lines, header limits, a NUL in a header, chunked framing).
"""

from __future__ import annotations

import io
import json
import logging
import socket
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from http_table import Table, bearer, read_stream
from serve_helpers import serving
from werkzeug.test import TestResponse

from service.http import statuses
from service.http.app import create_app
from service.http.gunicorn_errors import ProblemErrors, gunicorn_limits, problem_worker_class
from service.http.request_limits import (
    MAX_HEADER_FIELD_BYTES,
    MAX_HEADER_FIELDS,
    MAX_JSON_DEPTH,
    MAX_REQUEST_TARGET,
    JSONBodyError,
    load_json,
)

GOLDEN = Path(__file__).resolve().parents[1] / "replay" / "golden"
POSTS = ("/v1/games", "/v1/games/{game}/actions", "/v1/rules/legal", "/v1/rules/winner",
         "/v1/histories", "/v1/histories?mode=keep")
LEAKS = ("Traceback", "redis://", "site-packages", ".py\"", "Error 111")


def _problem(response: TestResponse, status: int, code: str) -> dict[str, Any]:
    """Asserts *response* is the problem *status* / *code*; returns its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json()
    assert body["code"] == code and body["status"] == status
    assert body["type"] == f"urn:fortyfive:problem:{code}"
    return body


def _clean(response: TestResponse) -> None:
    """Asserts *response* is no 500, is a problem if it is an error, and leaks nothing."""
    text = response.get_data(as_text=True)
    assert response.status_code < 500, text
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json", text
    assert not any(leak in text for leak in LEAKS), text


def _post(client: FlaskClient, path: str, data: str | bytes, **headers: str) -> TestResponse:
    return client.post(path, data=data, content_type="application/json", headers=headers)


@pytest.fixture
def game(client: FlaskClient) -> Table:
    """A classic game of two human seats."""
    return Table.create(client, "classic")


# JSON bodies ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1000, 6000])
def test_deep_nesting_is_refused_on_every_post_before_authentication(
    client: FlaskClient, game: Table, path: str, depth: int
) -> None:
    arrays = "[" * depth + "]" * depth
    objects = '{"a":' * depth + "1" + "}" * depth
    for body in (arrays, objects, '{"history": ' + objects[:-1] + "}"):
        response = _post(client, path.format(game=game.id), body)  # No token, no If-Match.
        problem = _problem(response, 400, "json_too_deep")
        assert str(MAX_JSON_DEPTH) in problem["detail"]


def test_nesting_up_to_the_limit_reaches_the_schema(client: FlaskClient) -> None:
    inner = "[" * (MAX_JSON_DEPTH - 2) + "]" * (MAX_JSON_DEPTH - 2)
    response = _post(client, "/v1/games", '{"profile": "classic", "options": {"x": ' + inner + "}}")
    assert response.get_json()["code"] == "invalid_profile"


def test_brackets_inside_strings_do_not_count(client: FlaskClient) -> None:
    name = "[{" * 5000 + '\\"' + "[" * 100
    response = _post(client, "/v1/games", f'{{"profile": "{name}"}}')
    _problem(response, 422, "invalid_request")


@pytest.mark.parametrize(("number", "code"), [
    ("1e999", "json_number_too_large"),
    ("-1e999", "json_number_too_large"),
    ("9" * 5000, "json_number_too_large"),  # int() refuses past 4300 digits: was a 500.
    ("0." + "1" * 200, "json_number_too_large"),
    (str(2**53), "json_number_too_large"),
    (str(-(2**53)), "json_number_too_large"),
    ("NaN", "malformed_json"),
    ("Infinity", "malformed_json"),
    ("-Infinity", "malformed_json"),
])
def test_numbers_beyond_json_are_refused(client: FlaskClient, number: str, code: str) -> None:
    body = f'{{"profile": "classic", "options": {{"target": {number}}}}}'
    for path in ("/v1/games", "/v1/histories"):
        _problem(_post(client, path, body), 400, code)


def test_the_largest_exact_integer_reaches_the_engine(client: FlaskClient) -> None:
    body = f'{{"profile": "classic", "options": {{"target": {2**53 - 1}}}}}'
    _problem(_post(client, "/v1/games", body), 422, "invalid_profile")


@pytest.mark.parametrize(("data", "code"), [
    (b'{"profile": "classic", "profile": "bruff"}', "json_duplicate_key"),
    (b'{"profile": "classic", "options": {"target": 15, "target": 45}}', "json_duplicate_key"),
    (b'\xef\xbb\xbf{"profile": "classic"}', "malformed_json"),  # A byte order mark.
    (b'{"profile": "cl\xffassic"}', "malformed_json"),  # Not UTF-8.
    (b'{"profile": "\xed\xa0\x80"}', "malformed_json"),  # A surrogate encoded in UTF-8.
    (b'{"profile": "classic\\ud800"}', "malformed_json"),  # A lone surrogate escaped.
    (b'{"profile": "classic", "options": {"\\udc00": 1}}', "malformed_json"),
    (b'{"profile": "classic"', "malformed_json"),
    (b'{"profile": "classic"}\x00', "malformed_json"),
    (b"", "malformed_json"),
])
def test_bodies_that_are_not_i_json_are_refused(
    client: FlaskClient, game: Table, data: bytes, code: str
) -> None:
    for path in POSTS:
        problem = _problem(_post(client, path.format(game=game.id), data), 400, code)
        assert "Traceback" not in problem["detail"]


def test_a_paired_surrogate_escape_is_text(client: FlaskClient) -> None:
    response = _post(client, "/v1/games", b'{"profile": "\\ud83d\\ude00"}')
    _problem(response, 422, "invalid_request")


@pytest.mark.parametrize("content_type", [
    None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
    "application/jsonx", "json", "application/json; charset=latin-1",
    "application/json; charset=utf-16",
])
def test_a_body_that_is_not_json_is_415(client: FlaskClient, content_type: str | None) -> None:
    kwargs = {"content_type": content_type} if content_type else {}
    response = client.post("/v1/games", data=b'{"profile": "classic"}', **kwargs)
    _problem(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("content_type", [
    "application/json; charset=utf-8", "application/json; charset=UTF-8", "APPLICATION/JSON",
    "application/problem+json",
])
def test_json_content_types_are_accepted(client: FlaskClient, content_type: str) -> None:
    response = client.post("/v1/games", data=b'{"profile": "classic"}', content_type=content_type)
    assert response.status_code == 201


def test_a_body_on_a_get_is_ignored(client: FlaskClient, game: Table) -> None:
    response = client.get(game.path, data="[" * 5000, content_type="application/json")
    assert response.status_code == 200


def test_a_body_shorter_than_its_content_length_is_incomplete(
    client: FlaskClient, game: Table
) -> None:
    # As gunicorn hands a body the client cut short: the bytes that came, the stream marked
    # as ending there, and the Content-Length the client promised.
    seat, version = game.turn()
    assert seat is not None
    action = json.dumps(game.view(seat).get_json()["legal_actions"][0]).encode()
    for path, body, headers in (
        ("/v1/games", b'{"profile": "classic"}', {}),
        (f"{game.path}/actions", action,
         {**bearer(game.tokens[seat]), "If-Match": f'"{version}"'}),
    ):
        response = client.post(
            path, input_stream=io.BytesIO(body), content_type="application/json",
            headers=headers,
            environ_overrides={"CONTENT_LENGTH": str(len(body) + 10),
                               "wsgi.input_terminated": True},
        )
        problem = _problem(response, 400, "incomplete_body")
        assert problem["detail"] == "the request body ended before it was complete"
    assert game.turn() == (seat, version)  # Nothing was played.


@pytest.mark.parametrize("body", ["[]", "null", "5", '"classic"'])
def test_a_body_that_is_json_but_no_object_says_so(client: FlaskClient, body: str) -> None:
    for path in ("/v1/games", "/v1/rules/legal", "/v1/drives"):
        problem = _problem(_post(client, path, body), 422, "invalid_request")
        assert problem["detail"] == (
            "the request does not fit the API: json: expected a JSON object.")
        assert problem["errors"] == {"json": {"_schema": ["expected a JSON object."]}}


@pytest.mark.parametrize(("options", "detail"), [
    ({"target": True}, "option 'target' must be a positive multiple of 5 up to 1000, got true"),
    ({"target": None}, "option 'target' must be a positive multiple of 5 up to 1000, got null"),
    ({"target": "quarante-cinq é"},
     'option \'target\' must be a positive multiple of 5 up to 1000, got "quarante-cinq é"'),
])
def test_an_option_of_the_wrong_json_type_is_shown_as_sent(
    client: FlaskClient, options: dict[str, Any], detail: str
) -> None:
    response = client.post("/v1/games", json={"profile": "classic", "options": options})
    assert _problem(response, 422, "invalid_profile")["detail"] == detail


# Hand histories ------------------------------------------------------------------------------


def test_a_history_with_an_integer_beyond_json_is_a_problem(client: FlaskClient) -> None:
    history = json.loads((GOLDEN / "jink.json").read_text("utf-8"))
    history["events"][1]["version"] = 2**53 + 1
    response = client.post("/v1/histories?mode=keep", json={"history": history})
    _problem(response, 400, "json_number_too_large")  # Was 500 store_error when kept.


@pytest.mark.parametrize("number", ["9" * 30, "1" * 5000])
def test_a_text_history_with_a_huge_integer_is_unreadable_not_500(
    client: FlaskClient, number: str
) -> None:
    text = (GOLDEN / "jink.txt").read_text("utf-8")
    lines = text.splitlines()
    at = next(index for index, line in enumerate(lines) if line.startswith("9 "))
    lines[at] = "9 " + number + lines[at][3:]  # The actor of event 9, in the integrity lines.
    for mode in ("dry_run", "keep"):
        response = client.post(f"/v1/histories?mode={mode}", json={"text": "\n".join(lines)})
        problem = _problem(response, 422, "unreadable_history")
        assert "too large" in problem["detail"]


@pytest.mark.parametrize("text", [
    "[" * 20_000, "{" * 20_000, '[Deal "²"]', '[Deal "' + "9" * 5000 + '"]', "1" * 5000 + ".",
])
def test_odd_text_histories_are_unreadable_not_500(client: FlaskClient, text: str) -> None:
    header = (GOLDEN / "jink.txt").read_text("utf-8").split("\n\n")[0]
    for body in (text, header + "\n\n" + text):
        response = client.post("/v1/histories", json={"text": body})
        _problem(response, 422, "unreadable_history")


DEEP = "[" * 1000 + "]" * 1000
EMBEDDED_JSON = {
    "%event line": '%event {"type":"x","data":' + DEEP + "}",
    "[Checkpoint] tag": '[Checkpoint "' + DEEP + '"]',
    "=json line": "=json game " + DEEP,
}


@pytest.mark.parametrize("where", sorted(EMBEDDED_JSON))
def test_deep_json_inside_a_text_history_is_unreadable_not_500(
    client: FlaskClient, where: str
) -> None:
    """The body's own depth limit does not reach JSON embedded in a text history's lines: the
    notation's one parse of it refuses the nesting, naming it (was a 500 at 1000 deep)."""
    text = '% fortyfive hand history 1.0\n[Profile "classic"]\n' + EMBEDDED_JSON[where]
    for mode in ("dry_run", "keep"):
        response = client.post(f"/v1/histories?mode={mode}", json={"text": text})
        problem = _problem(response, 422, "unreadable_history")
        assert "nested more than 32 levels deep" in json.dumps(problem), problem


# Headers and query parameters ----------------------------------------------------------------


ODD_VALUES = (
    "", " ", '"', '""', '"-1"', '"1', "W/\"1\"", "*", '"' + "9" * 40 + '"', '"١٢"', '"１"',
    "ü€𝟙", "\u2028", "a" * 4000, "Bearer", "Bearer ", "Bearer ü", "Bearer " + "a" * 4000,
    "Basic dXNlcjpwYXNz", "Bearer a b", "1,2", "-1", "00000000000000000000001", "1e3",
)


@pytest.mark.parametrize("name", ["If-Match", "Idempotency-Key", "Last-Event-ID",
                                  "Authorization", "If-None-Match", "Accept", "Range"])
def test_odd_header_values_are_problems(client: FlaskClient, game: Table, name: str) -> None:
    token = {"Authorization": f"Bearer {game.tokens[0]}"} if name != "Authorization" else {}
    for value in ODD_VALUES:
        headers = {**token, "If-Match": '"2"', name: value}
        for response in (
            client.get(game.path, headers=headers),
            read_stream(client, game.path, headers=headers),
            client.get(f"{game.path}/events", headers=headers),
            client.post(f"{game.path}/actions", json={"type": "pass"}, headers=headers),
        ):
            _clean(response)


@pytest.mark.parametrize("name", ["after", "limit", "at", "deal", "format", "view", "wait", "mode"])
def test_odd_query_values_are_problems(client: FlaskClient, game: Table, name: str) -> None:
    paths = [game.path, f"{game.path}/events", f"{game.path}/history", f"{game.path}/replay",
             f"{game.path}/audit", f"{game.path}/stream", "/v1/histories/h-0"]
    for value in ("-1", "0", "9" * 40, "1" * 4000, "١٢", "１２", "²", "1e3", "0x10", " 1", "+1",
                  "nan", "inf", "", "\x00", "ü", "[]", "1.5"):
        for path in paths:
            if path.endswith("/stream"):
                _clean(read_stream(client, game.path, query={name: value}))
            else:
                _clean(client.get(path, query_string={name: value}))


def test_head_and_options_on_every_route_are_never_500(app: Any, game: Table) -> None:
    client = app.test_client()
    for rule in app.url_map.iter_rules():
        path = (rule.rule.replace("<game_id>", game.id).replace("<history_id>", "h-0")
                    .replace("<int:seat>", "1").replace("<int:table>", "1"))
        path = path.replace("<path:filename>", "nothing.js")
        for method in ("HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "TRACE", "BREW"):
            response = client.open(path, method=method)
            assert response.status_code < 500, (method, path)
            if response.status_code >= 400:
                assert response.mimetype == "application/problem+json", (method, path)


def test_every_api_answer_to_any_method_is_json_or_has_no_body(app: Any, game: Table) -> None:
    """OPTIONS is answered with Allow and nothing else; a method a route does not take is a
    405 problem listing the ones it does; nothing under /v1 is text/html."""
    client = app.test_client()
    api_rules = [rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/v1/")]
    assert len(api_rules) >= 10
    for rule in api_rules:
        path = (rule.rule.replace("<game_id>", game.id).replace("<history_id>", "h-0")
                    .replace("<int:seat>", "1").replace("<int:n>", "1")
                    .replace("<int:table>", "1"))
        allowed = client.options(path)
        assert allowed.status_code == 200, path
        assert "Content-Type" not in allowed.headers and allowed.data == b"", path
        assert set(allowed.headers["Allow"].split(", ")) == rule.methods, path
        for method in ("PUT", "DELETE", "PATCH", "BREW"):
            refused = client.open(path, method=method)
            assert refused.status_code == 405, (method, path)
            assert refused.mimetype == "application/problem+json", (method, path)
            assert refused.get_json()["code"] == "method_not_allowed"
            assert set(refused.headers["Allow"].split(", ")) == rule.methods


def test_a_long_request_target_is_414(client: FlaskClient, game: Table) -> None:
    response = client.get(f"{game.path}/events?after=1&x={'a' * MAX_REQUEST_TARGET}")
    problem = _problem(response, 414, "uri_too_long")
    assert str(MAX_REQUEST_TARGET) in problem["detail"]
    _problem(client.get("/" + "a" * MAX_REQUEST_TARGET), 414, "uri_too_long")  # Before 404.


def test_too_many_or_too_long_header_fields_are_431(client: FlaskClient, game: Table) -> None:
    many = {f"X-Field-{index}": "1" for index in range(MAX_HEADER_FIELDS + 1)}
    _problem(client.get(game.path, headers=many), 431, "header_fields_too_large")
    long = {"X-Long": "a" * MAX_HEADER_FIELD_BYTES}
    problem = _problem(client.get(game.path, headers=long), 431, "header_fields_too_large")
    assert "X-Long" in problem["detail"]
    assert client.get(game.path, headers={"X-Long": "a" * 4000}).status_code == 200


@pytest.mark.parametrize("value", ["a\x00b", "a\x01b", "a\x7fb", "Bearer \x1b[2J"])
def test_a_control_character_in_a_header_is_400(
    client: FlaskClient, game: Table, value: str
) -> None:
    for name in ("X-Anything", "Authorization"):
        _problem(client.get(game.path, headers={name: value}), 400, "invalid_header")


# The store -----------------------------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_503_says_the_store_is_unavailable_and_logs_where(
    caplog: pytest.LogCaptureFixture,
) -> None:
    port = _closed_port()
    client = create_app({"REDIS_URL": f"redis://127.0.0.1:{port}/0", "TESTING": True}).test_client()
    history = json.loads((GOLDEN / "jink.json").read_text("utf-8"))
    token = bearer("a" * 43)
    with caplog.at_level(logging.WARNING):
        responses = [
            client.get("/readyz"),
            client.post("/v1/games", json={"profile": "classic"}),
            client.get("/v1/games/g-1", headers=token),
            client.get("/v1/games/g-1/stream"),
            client.post("/v1/games/g-1/actions", json={"type": "pass"},
                        headers={**token, "If-Match": '"1"'}),
            client.post("/v1/histories?mode=keep", json={"history": history}),
            client.get("/v1/histories/h-0"),  # Read with the Redis client itself: was a 500.
        ]
    for response in responses:
        problem = _problem(response, 503, "store_unavailable")
        assert problem["detail"] == "the event store is unavailable: try again in a moment"
        assert response.headers["Retry-After"]
        assert str(port) not in response.get_data(as_text=True)
    assert f"127.0.0.1:{port}" in caplog.text


# Through gunicorn ----------------------------------------------------------------------------


def _raw(port: int, request: bytes, cut: bool = False) -> tuple[str, dict[str, str], bytes]:
    """Sends the bytes *request* as they are (then, if *cut*, no more: the client shuts its
    side); returns the status and its phrase, the headers and the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        if cut:
            connection.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in
               (line.partition(":") for line in lines)}
    return status_line.split(" ", 1)[1], headers, body


def _get(target: bytes, *fields: bytes) -> bytes:
    return b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n" + b"".join(
        field + b"\r\n" for field in fields) + b"Connection: close\r\n\r\n"


def test_the_http_servers_refusals_are_problems(tmp_path: Path) -> None:
    with serving(tmp_path, "--no-worker") as server:
        _check_refusals(server.port)


def _check_refusals(port: int) -> None:
    post = b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    chunked = post + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
    # A body cut short whose first bytes are JSON by themselves.
    cut = post + b"Content-Length: 40\r\nConnection: close\r\n\r\n" + b'{"profile": "classic"}'
    cases = [
        # The app's own limits, below gunicorn's.
        (_get(b"/healthz?x=" + b"a" * 5000), 414, "uri_too_long"),
        (_get(b"/healthz", b"X-Long: " + b"a" * 9000), 431, "header_fields_too_large"),
        (_get(b"/healthz", *(b"X-F%d: 1" % index for index in range(150))), 431,
         "header_fields_too_large"),
        # Beyond gunicorn's hard maxima, or not HTTP: gunicorn answers, in the same form.
        (_get(b"/healthz?x=" + b"a" * 9000), 414, "uri_too_long"),
        (_get(b"/healthz", b"X-Long: " + b"a" * 20000), 431, "header_fields_too_large"),
        (_get(b"/healthz", *(b"X-F%d: 1" % index for index in range(300))), 431,
         "header_fields_too_large"),
        (_get(b"/healthz", b"X-Nul: a\x00b"), 400, "invalid_header"),
        (_get(b"/v1/games/x", b"Authorization: Bearer a\x00b"), 400, "invalid_header"),
        (b"G@T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "invalid_request_line"),
        (b"\x16\x03\x01\x02\x00\x01\r\n\r\n", 400, "invalid_request_line"),
        (chunked, 400, "invalid_chunked_body"),
        (cut, 400, "incomplete_body"),
        (post + b"Transfer-Encoding: foo\r\nConnection: close\r\n\r\n", 501,
         "unsupported_transfer_coding"),
        (post + b"Content-Length: 2\r\nExpect: foo\r\nConnection: close\r\n\r\n{}", 417,
         "expectation_failed"),
    ]
    for request, status, code in cases:
        got, headers, body = _raw(port, request, cut=request is cut)
        number, reason = got.split(" ", 1)
        assert (int(number), headers["content-type"]) == (status, "application/problem+json"), body
        assert status == 400 or reason.lower() != "bad request", got  # gunicorn's, for a 501.
        problem = json.loads(body)
        assert (problem["status"], problem["code"]) == (status, code), body
        assert problem["title"] == statuses.phrase(status), body
        assert "the server failed" not in problem["detail"], body  # Each is a refusal.
        assert int(headers["content-length"]) == len(body)
    assert _raw(port, _get(b"/healthz"))[0].startswith("200 ")  # And it still serves.


def test_a_conditional_refusal_of_a_web_file_is_a_problem(client: FlaskClient) -> None:
    for path in ("/", "/viewer", "/web/app.js"):
        response = client.get(path, headers={"If-Match": '"not-the-etag"'})
        problem = _problem(response, 412, "precondition_failed")  # Was werkzeug's text/html.
        assert "If-Match" in problem["detail"]
        assert response.headers["Cache-Control"] == "no-store"
        assert "Content-Disposition" not in response.headers


@pytest.mark.parametrize("base", ["sync", "gthread", "gunicorn.workers.sync.SyncWorker"])
def test_the_problem_mixin_applies_to_any_worker_class(base: str) -> None:
    from gunicorn.util import load_class

    worker = problem_worker_class(base)
    assert issubclass(worker, ProblemErrors) and issubclass(worker, load_class(base))
    assert worker.handle_error is ProblemErrors.handle_error
    assert problem_worker_class(worker) is worker  # Applied once only.
    assert problem_worker_class(load_class(base)) is worker


def test_the_servers_limits_sit_above_the_apps() -> None:
    limits = gunicorn_limits()
    assert limits["limit_request_line"] > MAX_REQUEST_TARGET + len("OPTIONS  HTTP/1.1")
    assert limits["limit_request_fields"] > MAX_HEADER_FIELDS
    assert limits["limit_request_field_size"] > MAX_HEADER_FIELD_BYTES


@pytest.mark.parametrize(("text", "code"), [
    ("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, None),
    ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "json_too_deep"),
    ('[{"a": ' * 16 + "1" + "}]" * 16, None),
    ('{"a": [{"b": ' * 11 + "1" + "}]}" * 11, "json_too_deep"),
    ('["\\"' + "[" * 100 + '"]', None),  # An escaped quote does not end the string.
    ("[" * 20, "malformed_json"),  # Unclosed within the limit: a syntax error.
    # Unclosed beyond it: the parser would recurse that deep before it met the end.
    ("[" * 100, "json_too_deep"),
    ("[" * 100_000, "json_too_deep"),
    ("]" * 100 + "[" * 100, "malformed_json"),  # Closed before opened: a syntax error first.
    ("[9007199254740991, -9007199254740991]", None),
    ("[9007199254740992]", "json_number_too_large"),
    ('{"a":-90071992547409920}', "json_number_too_large"),
    ('["90071992547409920"]', None),  # Digits in a string are text.
    ("[1.00000000000000000001, 1e-00000000000000000300, 90071992547409920e0]", None),
])
def test_load_json_limits(text: str, code: str | None) -> None:
    try:
        load_json(text)
    except JSONBodyError as error:
        assert error.code == code, error.detail
    else:
        assert code is None
