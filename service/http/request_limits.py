"""What the service accepts of a request, checked before any view runs.

Every refusal is a 400-level problem with a stable code (:mod:`service.http.errors`):

- the request target (path and query) is at most :data:`MAX_REQUEST_TARGET` bytes
  (414 ``uri_too_long``);
- at most :data:`MAX_HEADER_FIELDS` header fields, each ``Name: value`` at most
  :data:`MAX_HEADER_FIELD_BYTES` bytes (431 ``header_fields_too_large``), and no control
  character in a value (400 ``invalid_header``);
- a ``POST`` body is JSON, in UTF-8 if a charset is named (415 ``unsupported_media_type``), as long
  as its ``Content-Length`` says (400 ``incomplete_body``: gunicorn hands the app a body the client
  cut short as it came, and its first bytes may be JSON by themselves), not empty, UTF-8 without a
  byte order mark and valid JSON (400 ``malformed_json``; ``NaN`` and ``Infinity`` are not JSON),
  nests arrays and objects at most :data:`MAX_JSON_DEPTH` deep (400 ``json_too_deep``: deeper
  nesting would exhaust the stack of whatever walks it), writes no number longer than
  :data:`MAX_NUMBER_CHARS` characters, no whole number from 2**53 on and no other beyond a double's
  range (400 ``json_number_too_large``), names no member twice in one object (400
  ``json_duplicate_key``) and no string holds a lone surrogate: I-JSON (RFC 7493), the JSON every
  part of the service, its hash chain included, can represent exactly.

The HTTP server's own limits sit above these (:mod:`service.http.gunicorn_errors`), so requests
between the two get these answers, and those beyond them the same status and code from the
server itself.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, NoReturn

from flask import g, request
from flask_smorest import abort
from werkzeug.exceptions import ClientDisconnected

from events.codec import SAFE_INTEGER_BOUND
from replay.formats import jsontext

MAX_REQUEST_TARGET = 4096
"""The longest path and query, in bytes."""
MAX_HEADER_FIELDS = 100
"""The most header fields a request may carry."""
MAX_HEADER_FIELD_BYTES = 8190
"""The longest header field, ``Name: value``, in bytes."""
MAX_JSON_DEPTH = jsontext.MAX_DEPTH
"""The deepest nesting of arrays and objects in a JSON body: the same as in any JSON text a
history holds (:mod:`replay.formats.jsontext`, the one place it is measured)."""
MAX_NUMBER_CHARS = 100
"""The longest number literal in a JSON body (far beyond any value the API accepts)."""

TARGET_TOO_LONG = f"the request target (path and query) is longer than {MAX_REQUEST_TARGET} bytes"
HEADER_FIELDS_TOO_LARGE = (f"the request's header fields are too many or too long: at most "
                           f"{MAX_HEADER_FIELDS} fields of at most {MAX_HEADER_FIELD_BYTES} "
                           "bytes each")
"""The details of a 414 and a 431, the same whether the app or the HTTP server refuses."""

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
"""Characters no header value may hold (RFC 9110, section 5.5)."""
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
"""A JSON string, or an unterminated one up to the end."""
_DIGIT_RUN = re.compile(r"-?[0-9]{16,}")
"""Sixteen digits or more: only an integer this long may be 2**53 or beyond."""
_NUMBER_PARTS = frozenset(".eE+-")
"""What stands next to the digits of a fraction or an exponent (but never an integer's)."""
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""An escape of a surrogate (perhaps one of a pair) in JSON text."""
_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONBodyError(ValueError):
    """Raised when a body is not JSON the API accepts; carries the problem's *code*."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def check_head() -> None:
    """Refuses a request target or header fields beyond the limits (414, 431), or a header
    value with a control character (400)."""
    environ = request.environ
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI") or request.full_path
    if len(target) > MAX_REQUEST_TARGET:
        abort(414, message=TARGET_TOO_LONG)
    fields = [(key[5:], value) for key, value in environ.items() if key.startswith("HTTP_")]
    if len(fields) > MAX_HEADER_FIELDS:
        abort(431, message=HEADER_FIELDS_TOO_LARGE)
    for name, value in fields:
        if len(name) + 2 + len(value) > MAX_HEADER_FIELD_BYTES:
            abort(431, message=f"the header field {_header_name(name)} is longer than "
                  f"{MAX_HEADER_FIELD_BYTES} bytes")
        if _CONTROL.search(value):
            abort(400, message=f"the header field {_header_name(name)} holds a control "
                  "character", code="invalid_header")


def head_passes(environ: dict[str, Any]) -> bool:
    """Whether :func:`check_head` lets a request with WSGI *environ* through, said without a
    request context (for :mod:`service.http.lean_actions`; ``False`` also for an environ without
    the raw request target, where :func:`check_head` would look further)."""
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if not target or len(target) > MAX_REQUEST_TARGET:
        return False
    fields = 0
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            fields += 1
            if len(key) - 3 + len(value) > MAX_HEADER_FIELD_BYTES or _CONTROL.search(value):
                return False
    return fields <= MAX_HEADER_FIELDS


def check_body() -> None:
    """Refuses a ``POST`` whose body is not JSON (415), or is JSON the API does not accept
    (400), before anything parses it."""
    if request.method != "POST" or request.routing_exception is not None:
        return  # A path or method that does not exist is answered first (404, 405).
    if not request.is_json:
        abort(
            415,
            message="send the body as JSON with Content-Type: application/json",
            code="unsupported_media_type",
        )
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if charset not in ("utf-8", "utf8"):
        abort(
            415,
            message=f"the body is read as UTF-8 JSON: send it so, with no charset or "
                    f"charset=utf-8, not {charset}",
            code="unsupported_media_type",
        )
    data = request.get_data(cache=True)
    if request.content_length is not None and len(data) < request.content_length:
        raise ClientDisconnected()  # Answered as the problem ``incomplete_body``.
    if not data:
        abort(400, message="the request body is empty: send one JSON object",
              code="malformed_json")
    try:
        g.checked_json = load_json(data)
    except JSONBodyError as error:
        abort(400, message=error.detail, code=error.code)


NO_BODY = object()
"""What :func:`checked_json` returns when no body was checked."""


def checked_json() -> Any:
    """Returns the JSON value of the request's body as :func:`check_body` accepted it, or
    :data:`NO_BODY` (not a ``POST``, or not checked): spares a second parse of it."""
    return g.get("checked_json", NO_BODY)


def load_json(data: bytes | str) -> Any:
    """Returns the value of the JSON text *data*, within this module's limits.

    The depth is measured on the text first, without recursion, so no input can exhaust the
    stack of the parser or of anything that walks the value later.

    :raises JSONBodyError: if *data* is not UTF-8 or JSON, or goes beyond a limit.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JSONBodyError("malformed_json", f"the request body is not UTF-8: "
                                f"{error.reason} at byte {error.start}") from None
    else:
        text = data
    if text.startswith("\ufeff"):
        raise JSONBodyError("malformed_json", "the request body starts with a byte order "
                            "mark: send UTF-8 JSON without one")
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH or _DIGIT_RUN.search(text):
        skeleton = _STRING.sub('""', text)  # Strings emptied: what is left is structure.
        if jsontext.too_deep(skeleton):
            raise JSONBodyError("json_too_deep", f"the JSON body nests arrays and objects "
                                f"more than {MAX_JSON_DEPTH} levels deep")
        for match in _DIGIT_RUN.finditer(skeleton):  # Checked before int() sees them.
            before, after = skeleton[match.start() - 1:match.start()], skeleton[match.end():][:1]
            if before not in _NUMBER_PARTS and after not in _NUMBER_PARTS:  # An integer.
                _integer(match.group())
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise JSONBodyError("malformed_json", f"the request body is not valid JSON: "
                            f"{error.msg} (line {error.lineno}, column {error.colno})") from None
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
        raise JSONBodyError("malformed_json", "a string in the JSON body holds a lone "
                            "surrogate (an unpaired \\ud800-\\udfff escape): it is not text")
    return value


def _header_name(environ_name: str) -> str:
    return environ_name.replace("_", "-").title()


def _has_lone_surrogate(value: Any) -> bool:
    """Returns whether a string in *value* (a decoded body, so of bounded depth) holds a
    surrogate: JSON pairs are joined when decoded, so any left is unpaired."""
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_has_lone_surrogate(key) or _has_lone_surrogate(item)
                   for key, item in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(item) for item in value)
    return False


def _number_too_large(literal: str) -> NoReturn:
    shown = literal if len(literal) <= 24 else literal[:20] + "..."
    raise JSONBodyError("json_number_too_large", f"the number {shown} in the JSON body is "
                        "too large: whole numbers must be below 2**53 and others finite "
                        f"doubles, written in at most {MAX_NUMBER_CHARS} characters")


def _integer(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        _number_too_large(literal)
    value = int(literal)
    if abs(value) >= SAFE_INTEGER_BOUND:
        _number_too_large(literal)
    return value


def _float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        _number_too_large(literal)
    value = float(literal)
    if math.isinf(value):
        _number_too_large(literal)
    return value


def _constant(literal: str) -> NoReturn:
    raise JSONBodyError("malformed_json", f"the request body is not valid JSON: {literal} "
                        "is not a JSON value")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) < len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise JSONBodyError("json_duplicate_key", f"the JSON body names {name!r} "
                                    "twice in one object")
            seen.add(name)
    return value


_DECODER = json.JSONDecoder(parse_float=_float, parse_constant=_constant, object_pairs_hook=_object)
