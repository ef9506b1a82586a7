"""The published contract: ``openapi.yaml`` is the code's document, and the app keeps to it.

Schemathesis generates requests from ``openapi.yaml`` (valid and invalid ones) and runs them
in-process against the app on the suite's redis-server: no response may be a 500, and every
response must conform to the document (status, content type, headers, body schema).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import yaml
from flask import Flask
from http_table import Table, bearer, read_stream
from hypothesis import HealthCheck, settings

from service.application.names import MAX_NAME_LENGTH
from service.cli.serve import REGENERATE, openapi_yaml
from service.http import statuses
from service.http.app import BLUEPRINTS, get_api
from service.http.sse import MIN_WAIT_SECONDS

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "openapi.yaml"


def test_openapi_yaml_is_generated_from_the_code(app: Flask) -> None:
    # Byte for byte: the suite runs under every supported Python, so this also holds the
    # document to being the same whichever interpreter generates it.
    assert OPENAPI.read_text("utf-8") == openapi_yaml(), (
        f"openapi.yaml differs from the code's document: run `{REGENERATE}` and commit the "
        "result"
    )
    assert yaml.safe_load(OPENAPI.read_text("utf-8")) == get_api(app).spec.to_dict()


def test_response_components_are_named_by_the_api_not_by_this_python(app: Flask) -> None:
    # Python 3.13 renamed HTTPStatus 413 and 422 (and their phrases); flask-smorest names the
    # responses it adds itself (the 422 of every validated body) after HTTPStatus.
    document = get_api(app).spec.to_dict()
    components = document["components"]["responses"]
    referenced: dict[str, set[str]] = {}
    for operations in document["paths"].values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue  # The path's parameters.
            for status, response in operation.get("responses", {}).items():
                if "$ref" in response:
                    name = response["$ref"].removeprefix("#/components/responses/")
                    referenced.setdefault(name, set()).add(status)
    assert set(referenced) == set(components), "a reference without its component, or back"
    assert "UNPROCESSABLE_CONTENT" in referenced and "CONTENT_TOO_LARGE" in referenced
    for name, used_for in referenced.items():
        if name == "DEFAULT_ERROR":
            continue
        (status,) = used_for
        assert name == statuses.response_name(int(status))
        assert components[name]["description"] == statuses.phrase(int(status))


def test_a_problem_is_titled_with_the_documents_phrase(app: Flask) -> None:
    response = app.test_client().post("/v1/games", json={"profile": "bruff", "bogus": 1})
    assert response.status_code == 422
    assert response.get_json()["title"] == "Unprocessable Content"


@pytest.mark.parametrize(
    ("reference", "ours"),
    [
        ("UNPROCESSABLE_ENTITY", "UNPROCESSABLE_CONTENT"),  # the name before Python 3.13
        ("UNPROCESSABLE_CONTENT", "UNPROCESSABLE_CONTENT"),  # not a name before 3.13
        ("REQUEST_ENTITY_TOO_LARGE", "CONTENT_TOO_LARGE"),
        ("PRECONDITION_FAILED", "PRECONDITION_FAILED"),
        ("DEFAULT_ERROR", "DEFAULT_ERROR"),  # not a status
    ],
)
def test_references_by_any_pythons_status_name_become_ours(reference: str, ours: str) -> None:
    assert statuses.normalise_reference(reference) == ours


def test_the_document_is_served(app: Flask) -> None:
    response = app.test_client().get("/openapi.json")
    assert response.status_code == 200
    assert response.get_json()["paths"].keys() == get_api(app).spec.to_dict()["paths"].keys()


def test_every_api_route_is_documented(app: Flask) -> None:
    documented = set(get_api(app).spec.to_dict()["paths"])
    api_blueprints = {blueprint.name for blueprint in BLUEPRINTS}
    served = {
        re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.endpoint.split(".")[0] in api_blueprints
    }
    assert served == documented


def test_an_operation_with_a_documented_header_keeps_its_query_arguments(app: Flask) -> None:
    operation = get_api(app).spec.to_dict()["paths"]["/v1/games/{game_id}/stream"]["get"]
    parameters = {(item["in"], item["name"]): item for item in operation["parameters"]}
    assert set(parameters) == {("query", "view"), ("query", "after"), ("query", "wait"),
                               ("header", "Last-Event-ID")}
    wait = parameters["query", "wait"]["schema"]
    assert (wait["minimum"], wait["maximum"]) == (MIN_WAIT_SECONDS, 60)


@pytest.fixture
def live_game(app: Flask) -> Table:
    """A bruff game, cut, whose id half of the generated requests use."""
    table = Table.create(app.test_client(), "bruff")
    table.step()
    return table


contract = schemathesis.openapi.from_path(
    OPENAPI,
    config=schemathesis.config.SchemathesisConfig.from_dict(
        {
            "checks": {
                # A document cannot say which options a profile has, which card fits which
                # action type, or what version a game is at: those are the engine's 422
                # and the 412/428 of a stale or missing If-Match; nor the limits of every
                # JSON body (service/http/request_limits.py: whole numbers below 2**53, nesting,
                # no lone surrogates), a 400.
                "positive_data_acceptance": {
                    "expected-statuses": [
                        "2xx", "400", "401", "403", "404", "409", "412", "422", "428"
                    ]
                },
                # A request the document rejects may be rejected by the body's size first: a
                # generated body over 64 KiB (a drive's players beyond maxItems) is a 413.
                "negative_data_rejection": {
                    "expected-statuses": [
                        "400", "401", "403", "404", "405", "406", "409", "413", "415", "422",
                        "428", "429", "5xx"
                    ]
                },
                "missing_required_header": {
                    "expected-statuses": ["400", "401", "404", "428"]
                },
            }
        }
    ),
)
_alternate = itertools.count()


@contract.parametrize()
@settings(
    max_examples=12, deadline=None, database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_app_keeps_to_the_document(case: Any, app: Flask, live_game: Table) -> None:
    # Aim half of the requests with a game id at a real game, as its seat 0 or as a spectator
    # (a drawn id is almost never a game). The stream keeps drawn ids, so that a generated
    # `wait` never holds the test for a minute.
    turn = next(_alternate)
    aimed = case.path_parameters and "game_id" in case.path_parameters and turn % 2
    if aimed and not case.path.endswith("/stream"):
        case.path_parameters["game_id"] = live_game.id
        if turn % 4 == 1 and not _leaves_out_authorization(case):
            case.headers = {**(case.headers or {}), **bearer(live_game.tokens[0])}
    case.call_and_validate(app=app)


def _path_of(documented: str) -> str:
    """Returns the OpenAPI path of a path as docs/api.md writes it (``{id}`` for any id)."""
    path = re.sub(r"[?].*", "", documented)
    kind = "drive" if path.startswith("/v1/drives") else (
        "history" if path.startswith("/v1/histories") else "game")
    return path.replace("{id}", f"{{{kind}_id}}")


def _leaves_out_authorization(case: Any) -> bool:
    """Whether *case* tests a request without its ``Authorization`` header (a token added to
    it would make it another request)."""
    data = getattr(getattr(case.meta, "phase", None), "data", None)
    parameter = getattr(data, "parameter", None)
    return isinstance(parameter, str) and parameter.lower() == "authorization"


def _documented_rows() -> dict[tuple[str, ...], tuple[set[str], str]]:
    """Returns docs/api.md's table of endpoints: the operations of each row (``"POST
    /v1/games"``), the statuses it lists and the module of ``service/http/routes/`` it names."""
    text = (OPENAPI.parent / "docs" / "api.md").read_text("utf-8")
    rows: dict[tuple[str, ...], tuple[set[str], str]] = {}
    for line in text.split("\n\n| method and path |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]:
        where, success, other, module = line.strip("|").split("|")
        operations = tuple(
            f"{method} {_path_of(path)}"
            for method, path in re.findall(r"`(\w+) ([^`]+)`", where))
        rows[operations] = (set(re.findall(r"\b[1-5]\d\d\b", success + other)),
                            module.strip().strip("`"))
    return rows


def _documented_statuses() -> dict[tuple[str, ...], set[str]]:
    """Returns the statuses of each row of docs/api.md's table of endpoints."""
    return {operations: statuses for operations, (statuses, _) in _documented_rows().items()}


def test_the_docs_name_the_module_behind_each_route(app: Flask) -> None:
    urls = app.url_map.bind("localhost")
    for operations, (_, module) in _documented_rows().items():
        for operation in operations:
            method, path = operation.split(" ")
            numbered = path.replace("{seat}", "0").replace("{n}", "1").replace("{table}", "1")
            endpoint, _ = urls.match(re.sub(r"\{\w+\}", "x", numbered), method=method)
            blueprint = app.blueprints[endpoint.split(".")[0]]
            assert blueprint.import_name == f"service.http.routes.{module.removesuffix('.py')}", (
                operation)


def test_the_status_table_of_the_docs_is_the_documents() -> None:
    paths = yaml.safe_load(OPENAPI.read_text("utf-8"))["paths"]
    rows = _documented_statuses()
    assert len(rows) >= 9
    for operations, listed in rows.items():
        documented = {
            str(status) for operation in operations
            for status in paths[operation.split(" ")[1]][operation.split(" ")[0].lower()][
                "responses"]
            if status != "default"
        }
        assert listed == documented, operations


def test_every_operation_with_a_json_body_documents_its_refusals(app: Flask) -> None:
    for path, operations in get_api(app).spec.to_dict()["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                assert {"400", "413", "415", "422"} <= set(operation["responses"]), (method, path)


_STANDARD_HEADERS = {"content-type", "content-length", "cache-control", "etag", "vary",
                     "x-accel-buffering", "x-content-type-options", "ratelimit",
                     "ratelimit-policy"}


def _declared(document: dict[str, Any], path: str, method: str, status: int) -> set[str]:
    response = document["paths"][path][method]["responses"][str(status)]
    if "$ref" in response:
        response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    return {name.lower() for name in response.get("headers", {})}


def test_the_headers_the_service_sends_are_declared(app: Flask) -> None:
    """A client reads Location, Idempotent-Replayed and the stream's seating from the
    document: each header an answer carries beyond HTTP's own is declared for its status."""
    document = get_api(app).spec.to_dict()
    client = app.test_client()
    created = client.post("/v1/games", json={"profile": "classic"})
    table = Table(client, created.get_json())
    seat, version = table.turn()
    assert seat is not None
    action = table.view(seat).get_json()["legal_actions"][0]
    assert table.post(seat, action, version, key="k-1").status_code == 201
    replayed = table.post(seat, action, version, key="k-1")
    assert replayed.headers["Idempotent-Replayed"] == "true"
    stream = read_stream(client, table.path, headers=bearer(table.tokens[0]))
    assert stream.headers["Game-Auditor"] == "false"
    drive = client.post("/v1/drives", json={
        "profile": "classic", "format": "progressive", "rounds": 1,
        "players": [{"name": f"P{n}", "type": "bot"} for n in range(4)]})
    assert drive.status_code == 201, drive.get_json()
    for response, path, method in (
            (created, "/v1/games", "post"),
            (drive, "/v1/drives", "post"),
            (replayed, "/v1/games/{game_id}/actions", "post"),
            (stream, "/v1/games/{game_id}/stream", "get")):
        sent = {name.lower() for name in response.headers.keys()} - _STANDARD_HEADERS
        assert sent <= _declared(document, path, method, response.status_code), (path, sent)
    assert "location" in _declared(document, "/v1/games/{game_id}/rematch", "post", 201)
    assert {"retry-after", "ratelimit", "ratelimit-policy"} <= _declared(
        document, "/v1/games", "post", 429)
    assert "location" in _declared(document, "/v1/histories", "post", 201)
    assert "retry-after" in _declared(document, "/v1/games/{game_id}", "get", 503)


def test_a_name_is_declared_as_long_as_the_names_rule_takes(app: Flask) -> None:
    schemas = get_api(app).spec.to_dict()["components"]["schemas"]
    for schema in ("SeatRequest", "SeatClaim"):
        assert schemas[schema]["properties"]["name"]["maxLength"] == MAX_NAME_LENGTH, schema
