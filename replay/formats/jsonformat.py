"""The JSON encoding: RFC 8785 canonical JSON, checked against the published JSON Schema.

A history is written as canonical JSON (:func:`dumps`), so its bytes are its identity: two
equal histories have equal bytes on any machine. Reading (:func:`read_json`) is lenient in the
:mod:`chess.pgn` sense: it never raises on bad input, and answers every problem with a
diagnostic that points into the document (a JSON pointer), or at the line and column of a
syntax error. The schema ships as package data, ``replay/formats/hand-history.schema.json``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import jsonschema

from events.codec import SAFE_INTEGER_BOUND, canonical_json
from replay.errors import HistoryFormatError
from replay.formats import jsontext
from replay.formats.diagnostics import Diagnostic, pointer
from replay.formats.document import HandHistory

SCHEMA_RESOURCE = "hand-history.schema.json"


class _Float(str):
    """A JSON number with a fraction or exponent, kept as text: the format has integers only,
    and the schema rejects this type wherever a number is expected."""

    __slots__ = ()


class _Constant(str):
    """``NaN`` or ``Infinity``: not JSON, kept only to be reported."""

    __slots__ = ()


@functools.cache
def schema() -> dict[str, Any]:
    """Returns the JSON Schema (draft 2020-12) of the format, loaded from package data."""
    text = resources.files("replay.formats").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    validator: jsonschema.protocols.Validator = cls(schema())
    return validator


def dumps(history: HandHistory) -> bytes:
    """Returns the canonical JSON bytes of a sealed *history*.

    :raises HistoryFormatError: for a draft, which has no JSON form until it is sealed.
    """
    return canonical_json(history.to_dict())


def read_json(data: bytes | str) -> tuple[HandHistory | None, list[Diagnostic]]:
    """Returns the history in *data* and the problems found; ``None`` when it cannot be read.

    Problems are reported all at once: a syntax error by line and column, every schema
    violation by the JSON pointer of the offending value.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            return None, [Diagnostic("encoding", f"not UTF-8: {error.reason} at byte "
                                     f"{error.start}", pointer="")]
    else:
        text = data
    try:
        value = jsontext.loads(text, parse_float=_Float, parse_constant=_Constant)
    except json.JSONDecodeError as error:
        return None, [Diagnostic("json_syntax", f"invalid JSON: {error.msg}",
                                 line=error.lineno, column=error.colno)]
    except jsontext.JSONTooDeepError as error:
        return None, [Diagnostic("json_syntax", f"invalid JSON: {error}", line=1, column=1)]
    diagnostics = list(_non_integers(value, []))
    if not diagnostics:
        diagnostics = validate(value)
    if diagnostics:
        return None, diagnostics
    try:
        return HandHistory.from_dict(value), []
    except HistoryFormatError as error:
        return None, [Diagnostic("schema", str(error), pointer="")]


def validate(value: Any) -> list[Diagnostic]:
    """Returns a diagnostic for each way *value* breaks the schema, in document order."""
    errors = sorted(_validator().iter_errors(value),
                    key=lambda error: [str(part) for part in error.absolute_path])
    return [
        Diagnostic("schema", _message(error), pointer=pointer(list(error.absolute_path)))
        for error in errors
    ]


def _message(error: jsonschema.ValidationError) -> str:
    if isinstance(error.instance, _Float | _Constant):
        return f"{error.instance} is not a whole number (the format has no fractions)"
    message = str(error.message)
    return message if len(message) <= 300 else message[:297] + "..."


def _non_integers(value: Any, path: list[str | int]) -> Iterator[Diagnostic]:
    """Yields a diagnostic for each fraction, non-finite or inexact number anywhere: the
    format has whole numbers below 2**53 only, and a schema would let some through where
    any JSON is allowed."""
    if isinstance(value, _Constant):
        yield Diagnostic("json_syntax", f"{value} is not JSON", pointer=pointer(path))
    elif isinstance(value, _Float):
        yield Diagnostic("schema", f"{value} is not a whole number (the format has no "
                         "fractions)", pointer=pointer(path))
    elif isinstance(value, int) and abs(value) >= SAFE_INTEGER_BOUND:
        yield Diagnostic("schema", f"{value} is too large: JSON holds whole numbers exactly "
                         "only below 2**53", pointer=pointer(path))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _non_integers(item, [*path, key])
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _non_integers(item, [*path, index])
