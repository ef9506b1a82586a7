"""Every error as ``application/problem+json`` (RFC 9457), mapped in one place.

A problem has ``type`` (``urn:fortyfive:problem:<code>``), ``title``, ``status``, a ``detail``
a person can act on and a stable ``code``; an action the rules refuse adds
``legal_actions`` and the ``ruling``, a stale ``If-Match`` the ``current_version``, an
invalid request the field ``errors``. Engine errors map to HTTP here and nowhere else:
malformed input (action, card, profile) is 422, a well-formed action the game refuses now
(not your turn, wrong phase, illegal, game over) is 409 with the engine's code. Nothing a
client sends can produce a traceback: the last-resort handler logs the exception and answers
a bare 500. No answer shows an internal detail either (a store's address, a path, an errno):
those go to the log, and the client gets a sentence it can act on.
"""

from __future__ import annotations

import http
import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import marshmallow as ma
from flask import Flask, Response, current_app
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from gunicorn.http import errors as server_errors
from redis.exceptions import RedisError
from werkzeug.exceptions import ClientDisconnected, HTTPException

from engine.errors import EventSequenceError, InvalidActionError, InvalidCardError, ProfileError
from engine.levels import BotLevelError
from engine.rejections import ActionRejectedError
from events.errors import (
    CommitmentReusedError,
    ConcurrencyError,
    CorruptStreamError,
    SchemaError,
    StoreError,
    StoreUnavailableError,
)
from events.redis_clients import is_unavailable
from service.application.commands import GameNotFoundError, IdempotencyKeyReusedError
from service.http import statuses
from service.http.schemas.headers import HEADERS_BY_STATUS
from service.http.schemas.requests import ActionSchema
from service.http.schemas.views import RulingSchema

_Endpoint = TypeVar("_Endpoint", bound=Callable[..., Any])

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:fortyfive:problem:"

logger = logging.getLogger(__name__)

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    412: "version_mismatch",
    413: "body_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    417: "expectation_failed",
    422: "invalid_request",
    428: "if_match_required",
    431: "header_fields_too_large",
    500: "internal_error",
    503: "store_unavailable",
}

_DETAILS = {
    404: "there is no such resource: check the path (games are /v1/games/<id>)",
    405: "this method is not allowed here; the Allow header lists the ones that are",
    413: "the request body is larger than 64 KiB",
    503: "the event store is unavailable: try again in a moment",
}
STORE_UNAVAILABLE = _DETAILS[503]
"""The detail of every 503: the cause (address, errno) is logged, never shown."""


class ProblemSchema(ma.Schema):
    """An RFC 9457 problem with this API's extensions (documentation only)."""

    type = ma.fields.String(required=True, metadata={"example": "urn:fortyfive:problem:not_found"})
    title = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True)
    code = ma.fields.String(required=True, metadata={"description": "Stable error code"})
    legal_actions = ma.fields.List(
        ma.fields.Nested(ActionSchema),
        metadata={"description": "What the seat may do instead (refused actions)"},
    )
    ruling = ma.fields.Nested(RulingSchema, allow_none=True)
    current_version = ma.fields.Integer(metadata={"description": "The game's version now"})
    errors = ma.fields.Dict(metadata={"description": "Validation errors by location and field"})


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    headers: Mapping[str, str] | None = None,
    **extensions: Any,
) -> Response:
    """Returns a problem+json response."""
    body = problem_document(status, code, detail, **extensions)
    response = current_app.response_class(
        current_app.json.dumps(body) + "\n", status=status, mimetype=PROBLEM_JSON
    )
    response.headers["Cache-Control"] = "no-store"
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def problem_document(status: int, code: str, detail: str, **extensions: Any) -> dict[str, Any]:
    """Returns the body of a problem (extensions that are ``None`` are left out); also used
    outside any app, by the HTTP server's own error pages
    (:mod:`service.http.gunicorn_errors`)."""
    return {
        "type": TYPE_PREFIX + code,
        "title": statuses.phrase(status),
        "status": status,
        "detail": detail,
        "code": code,
        **{name: value for name, value in extensions.items() if value is not None},
    }


def unavailable(error: Exception, **extensions: Any) -> Response:
    """Returns the 503 ``store_unavailable`` answer to *error*, with *extensions*; the error's
    message (the store's address, the errno) goes to the log, for the operator only."""
    logger.warning("%s", error)
    return problem(503, "store_unavailable", STORE_UNAVAILABLE, headers={"Retry-After": "1"},
                   **extensions)


def status_code(status: int) -> str:
    """Returns the code of a problem that only its *status* describes (``http_<status>``
    when this API gives that status no name)."""
    return _HTTP_CODES.get(status, f"http_{status}")


def status_detail(status: int) -> str | None:
    """Returns the detail of a problem that only its *status* describes, if there is one."""
    return _DETAILS.get(status)


_PLAIN_PROBLEMS = {
    412: ("precondition_failed", "the file does not match If-Match or If-Unmodified-Since"),
}
"""Errors that come as finished responses, not raised (werkzeug's conditional answers for
the web client's files): their code and detail. The API's own 412 is ``version_mismatch``."""
_BODY_HEADERS = frozenset({"content-type", "content-length", "content-disposition",
                           "content-encoding", "cache-control", "expires", "accept-ranges"})
"""Headers that describe the body a problem replaces."""


def as_problem(response: Response) -> Response:
    """Returns *response*, or a problem in its place if it is an error that is not JSON.

    Errors raised anywhere are problems already (the handlers below); this catches those
    that come as finished pages, such as a 412 for a file whose ETag does not match. An
    error a view answers in JSON on purpose (``/readyz`` degraded) is left as it is.
    """
    if response.status_code < 400 or response.is_json:
        return response
    status = response.status_code
    code, detail = _PLAIN_PROBLEMS.get(status) or (
        status_code(status), status_detail(status) or http.HTTPStatus(status).description)
    kept = {name: value for name, value in response.headers.items()
            if name.lower() not in _BODY_HEADERS}
    return problem(status, code, detail, headers=kept)


class FortyFiveApi(Api):  # type: ignore[misc]  # flask-smorest has no type hints
    """flask-smorest's Api with errors as problem+json, in the responses and in the spec, and
    the response components named by :mod:`service.http.statuses`, not by this Python's
    ``HTTPStatus``."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        """Registers a response component per status, documented as problem+json."""
        for status, phrase in statuses.PHRASES.items():
            response: dict[str, Any] = {"description": phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            if status in HEADERS_BY_STATUS:
                response["headers"] = HEADERS_BY_STATUS[status]
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(statuses.response_name(status), response, lazy=True)
        response = {"description": "Any other error", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, response, lazy=True)

    def register_blueprint(self, blp: Any, **options: Any) -> None:
        """Registers *blp*, its operations' responses named as :mod:`service.http.statuses` says.

        flask-smorest refers to the components it adds itself (422 of ``arguments``, the
        ETag's 412 and 428, pagination's 400) by ``HTTPStatus`` names, and describes an
        undescribed response with ``HTTPStatus``'s phrase: a last documentation step of the
        blueprint renames both, and another keeps the parameters of ``arguments`` beside
        those of ``doc(parameters=...)``, which would replace them.
        """
        for step in (_name_responses, _keep_parameters):
            if step not in blp._prepare_doc_cbks:
                blp._prepare_doc_cbks.append(step)
        super().register_blueprint(blp, **options)

    def handle_http_exception(self, error: HTTPException) -> Any:
        """Answers an HTTP error (``abort``, routing, webargs, werkzeug) as a problem."""
        return http_problem(error)


def problems(blp: Any, *statuses_: int) -> Callable[[_Endpoint], _Endpoint]:
    """Documents that an endpoint of *blp* may answer each of *statuses_* with a problem, by
    the status's shared response component (what a stack of ``blp.alt_response(status,
    response=...)`` would document, in the same order)."""

    def document(endpoint: _Endpoint) -> _Endpoint:
        for status in reversed(statuses_):
            endpoint = blp.alt_response(status, response=statuses.response_name(status))(
                endpoint)
        return endpoint

    return document


def _name_responses(doc: dict[str, Any], doc_info: Any, **_: Any) -> dict[str, Any]:
    """Renames the responses of one operation's *doc* (a documentation step of a blueprint):
    a reference by ``HTTPStatus`` name becomes ours, and ``HTTPStatus``'s phrase as a
    description becomes ours."""
    for status, response in doc.get("responses", {}).items():
        if isinstance(response, str):
            doc["responses"][status] = statuses.normalise_reference(response)
        elif isinstance(response, dict) and str(status).isdigit():
            if response.get("description") == http.HTTPStatus(int(status)).phrase:
                response["description"] = statuses.phrase(int(status))
    return doc


def _keep_parameters(doc: dict[str, Any], doc_info: Any, **_: Any) -> dict[str, Any]:
    """Adds the parameters of one operation's *doc* (its query arguments) to those of its
    manual documentation (a header given with ``blp.doc``), which would else replace them:
    flask-smorest merges the manual documentation last, and a list replaces a list."""
    manual = doc_info.get("manual_doc", {})
    if "parameters" in manual and "parameters" in doc:
        extra = [item for item in manual["parameters"] if item not in doc["parameters"]]
        manual["parameters"] = [*doc["parameters"], *extra]
    return doc


def http_problem(error: HTTPException) -> Any:
    """Returns the problem response for *error* (a redirect is passed through)."""
    status = error.code or 500
    if status < 400:
        return error
    if isinstance(error, ClientDisconnected):
        return problem(400, "incomplete_body", "the request body ended before it was complete")
    data: Mapping[str, Any] = getattr(error, "data", None) or {}
    code = data.get("code") or status_code(status)
    detail = data.get("message") or status_detail(status) or error.description or ""
    messages = _in_api_words(data.get("errors") or data.get("messages"))
    if messages == {"json": ["Invalid JSON body."]}:
        code, detail, messages = "malformed_json", "the request body is not valid JSON", None
    elif messages and not data.get("message"):
        detail = "the request does not fit the API: " + "; ".join(_flatten(messages))
    headers = dict(data.get("headers") or {})
    allowed = getattr(error, "valid_methods", None)
    if allowed:
        headers["Allow"] = ", ".join(allowed)
    extensions = {
        name: data[name] for name in ("current_version", "legal_actions", "ruling") if name in data
    }
    return problem(status, code, detail, headers=headers, errors=messages, **extensions)


_OBJECT_EXPECTED: dict[str, str] = {"Invalid input type.": "expected a JSON object."}
"""marshmallow's message for an object that is something else, as the API says it."""


def _in_api_words(messages: Any) -> Any:
    """Returns marshmallow's *messages* with those it words for Python said as the API says
    them (the same structure, for ``errors`` and the detail alike)."""
    if isinstance(messages, Mapping):
        return {key: _in_api_words(value) for key, value in messages.items()}
    if isinstance(messages, list):
        return [_in_api_words(item) for item in messages]
    return _OBJECT_EXPECTED.get(messages, messages) if isinstance(messages, str) else messages


def _flatten(messages: Any, where: str = "") -> list[str]:
    """Returns ``"json.seats.0.type: Must be one of..."`` lines for nested field errors."""
    if isinstance(messages, Mapping):
        lines: list[str] = []
        for key, value in messages.items():
            # marshmallow files what is wrong with an object as a whole under "_schema".
            inner = where if key == "_schema" else f"{where}.{key}" if where else str(key)
            lines += _flatten(value, inner)
        return lines
    if isinstance(messages, list) and all(isinstance(item, str) for item in messages):
        return [f"{where}: {' '.join(messages)}"]
    return [f"{where}: {messages}"]


_SERVER_CODES: tuple[tuple[tuple[type[Exception], ...], str], ...] = (
    ((server_errors.InvalidHeader, server_errors.InvalidHeaderName,
      server_errors.ObsoleteFolding), "invalid_header"),
    ((server_errors.InvalidRequestLine, server_errors.InvalidRequestMethod,
      server_errors.InvalidHTTPVersion), "invalid_request_line"),
    ((server_errors.InvalidChunkSize, server_errors.ChunkMissingTerminator,
      server_errors.InvalidChunkExtension), "invalid_chunked_body"),
    ((server_errors.UnsupportedTransferCoding,), "unsupported_transfer_coding"),
)
"""The codes of the HTTP server's refusals (gunicorn's) that their status alone does not
name; a refusal of the request, never of the app's answer (those are 500s)."""


def is_server_failure(status: int) -> bool:
    """Whether *status* says the server failed, not that it refused the request: every 5xx
    but 501, which refuses what the request asks of the server (a transfer coding)."""
    return status >= 500 and status != 501


def server_error_code(error: BaseException, status: int) -> str:
    """Returns the code of the HTTP server's refusal *error*, answered with *status* (a
    failure has the code of its status whatever it raised)."""
    if not is_server_failure(status):
        for kinds, code in _SERVER_CODES:
            if isinstance(error, kinds):
                return code
    return status_code(status)


_MALFORMED: dict[type[Exception], str] = {
    InvalidActionError: "invalid_action",
    InvalidCardError: "invalid_card",
    ProfileError: "invalid_profile",
    BotLevelError: "unknown_bot_level",
}
"""The codes of the engine's errors for malformed input (422)."""


def register_error_handlers(app: Flask) -> None:
    """Registers the handlers that turn every exception into a problem response."""

    @app.errorhandler(InvalidActionError)
    @app.errorhandler(InvalidCardError)
    @app.errorhandler(ProfileError)
    @app.errorhandler(BotLevelError)
    def _malformed(error: Exception) -> Response:
        code = next(code for kind, code in _MALFORMED.items() if isinstance(error, kind))
        return problem(422, code, str(error))

    @app.errorhandler(ActionRejectedError)
    def _rejected(error: ActionRejectedError) -> Response:
        return problem(
            409,
            error.code,
            str(error),
            legal_actions=list(error.legal),
            ruling=error.ruling.to_dict() if error.ruling is not None else None,
        )

    @app.errorhandler(ConcurrencyError)
    def _stale(error: ConcurrencyError) -> Response:
        return problem(
            412,
            "version_mismatch",
            f"the game is at version {error.actual}, not {error.expected}: fetch it again "
            f"and send If-Match: \"{error.actual}\" with your next action",
            headers={"ETag": f'"{error.actual}"'},
            current_version=error.actual,
        )

    @app.errorhandler(GameNotFoundError)
    def _missing(error: GameNotFoundError) -> Response:
        return problem(404, "game_not_found", f"there is no game {error.game_id!r}")

    @app.errorhandler(IdempotencyKeyReusedError)
    def _reused(error: IdempotencyKeyReusedError) -> Response:
        return problem(422, "idempotency_key_reused", str(error))

    @app.errorhandler(StoreUnavailableError)
    def _unavailable(error: Exception) -> Response:
        return unavailable(error)

    @app.errorhandler(CorruptStreamError)
    @app.errorhandler(SchemaError)
    @app.errorhandler(EventSequenceError)
    def _corrupt(error: Exception) -> Response:
        logger.error("stored history failed verification: %s", error)
        return problem(
            500,
            "history_corrupt",
            "this game's stored history failed verification; the operator has been alerted",
        )

    @app.errorhandler(CommitmentReusedError)
    def _reused_commitment(error: CommitmentReusedError) -> Response:
        logger.error("refused a repeated seed commitment: %s", error)
        return problem(500, "commitment_reused", "the server drew a seed it had used before "
                       "for another deal and refused to deal it; nothing was recorded, try "
                       "again")

    @app.errorhandler(StoreError)
    def _store(error: Exception) -> Response:
        logger.error("event store error: %s", error)
        return problem(500, "store_error", "the event store failed; the error was logged")

    @app.errorhandler(RedisError)
    def _redis(error: RedisError) -> Response:
        # A view that used the Redis client itself, not through the store's translation.
        return _unavailable(error) if is_unavailable(error) else _store(error)

    @app.errorhandler(server_errors.ParseException)
    def _unreadable_body(error: server_errors.ParseException) -> Response:
        # The server parses a chunked body as the app reads it.
        return problem(400, server_error_code(error, 400), f"the request body cannot be "
                       f"read: {error}")

    @app.errorhandler(Exception)
    def _anything(error: Exception) -> Any:
        if isinstance(error, HTTPException):
            return http_problem(error)
        logger.exception("unhandled error in %s", type(error).__name__)
        return problem(500, "internal_error", "the server failed; the error was logged")
