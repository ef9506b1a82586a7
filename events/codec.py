"""The canonical JSON codec (RFC 8785, JSON Canonicalization Scheme).

One value has exactly one encoding: keys sorted by UTF-16 code units, no insignificant
whitespace, numbers in their shortest ECMAScript form. That is what makes a hash over an
envelope reproducible on any machine and in any language.

>>> canonical_json({"b": [1, "x"], "a": None})
b'{"a":null,"b":[1,"x"]}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import rfc8785

from events.store import StoreError


class CodecError(StoreError, ValueError):
    """Raised when a value has no canonical JSON form (NaN, a set, an int beyond 2**53...)
    or when bytes are not JSON."""


def canonical_json(value: Any) -> bytes:
    """Returns the RFC 8785 canonical JSON bytes of *value*.

    Mappings of any kind and tuples are accepted and encoded as objects and arrays.

    :raises CodecError: if *value* (or anything inside it) has no canonical JSON form.
    """
    try:
        return rfc8785.dumps(_plain(value))
    except (rfc8785.CanonicalizationError, ValueError, TypeError) as error:
        raise CodecError(f"value has no canonical JSON form: {error}") from None


def parse_json(raw: bytes | str) -> Any:
    """Returns the value encoded in *raw*.

    :raises CodecError: if *raw* is not JSON.
    """
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise CodecError(f"invalid JSON: {error}") from None


def _plain(value: Any) -> Any:
    """Returns *value* with every mapping as a dict and every tuple as a list."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value
