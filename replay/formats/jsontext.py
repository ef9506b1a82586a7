"""Parsing JSON text read from a file or an upload, within a nesting depth.

Python's parser recurses once per level of arrays and objects, and so does everything that
walks the value afterwards (the schema, the checks): a text nested thousands deep raises
``RecursionError``, which no caller expects. So every JSON text a history holds (the JSON
encoding itself, and each piece of JSON the text notation embeds: ``%event`` lines,
``[Checkpoint "..."]`` tags, ``=json`` lines) is parsed by :func:`loads`, which measures the
depth on the text first, without recursion, and refuses one nested deeper than
:data:`MAX_DEPTH` with a :class:`JSONTooDeepError` that says so. A history nests seven
levels at most, and so does a drive. An object that gives a member twice is refused too
(:class:`DuplicateKeyError`): Python would keep the last, another reader the first, so a forged
``"results"`` could hide behind a genuine one.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects taken: four times any history's or drive's (an
HTTP body's limit too, :mod:`service.http.request_limits`)."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
"""A JSON string, or an unterminated one up to the end."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class JSONTooDeepError(ValueError):
    """The JSON text nests arrays and objects deeper than :data:`MAX_DEPTH`."""

    def __init__(self) -> None:
        super().__init__(f"JSON nested more than {MAX_DEPTH} levels deep")


class DuplicateKeyError(json.JSONDecodeError):
    """An object of the JSON text gives a member twice; raised where the second one is."""

    def __init__(self, key: str, text: str) -> None:
        seen = [match.start() for match in re.finditer(
            re.escape(json.dumps(key)) + r"\s*:", text)]
        where = seen[1] if len(seen) > 1 else 0
        super().__init__(f"the member {key!r} is given twice in one object", text, where)
        self.key = key


def loads(data: str | bytes, **options: Any) -> Any:
    """Returns the value of the JSON text *data* (``json.loads`` with *options*).

    :raises JSONTooDeepError: if it nests deeper than :data:`MAX_DEPTH`.
    :raises DuplicateKeyError: if an object gives a member twice.
    :raises ValueError: if it is not JSON (``json.JSONDecodeError``, or a ``UnicodeError``
        for bytes that are no text).
    """
    # Bytes are decoded as json.loads decodes them (UTF-8, with or without a byte order mark,
    # UTF-16 or UTF-32), so a file saved by any editor or shell reads as it did.
    text = data.decode(json.detect_encoding(data)) if isinstance(data, bytes) else data
    if too_deep(text):
        raise JSONTooDeepError()

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value: dict[str, Any] = {}
        for key, item in pairs:
            if key in value:
                raise DuplicateKeyError(key, text)
            value[key] = item
        return value

    return json.loads(text, object_pairs_hook=unique, **options)


def too_deep(text: str) -> bool:
    """Returns whether *text* nests arrays and objects deeper than :data:`MAX_DEPTH`, as the
    parser would meet them (strings skipped; a text that closes more than it opened fails to
    parse there, before any deeper level)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depths = itertools.accumulate(1 if mark in "[{" else -1 for mark in brackets)
    for depth in depths:
        if depth > MAX_DEPTH:
            return True
        if depth < 0:
            return False
    return False
