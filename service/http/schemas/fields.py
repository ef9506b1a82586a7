"""What the API's schemas share: the card and suit patterns, the largest version a request may
name, and the fields of a card, a seat and a viewer.

The schemas themselves are split by what they carry: :mod:`service.http.schemas.requests` (what a
client sends), :mod:`service.http.schemas.views` (a game as its viewer sees it, and its events),
:mod:`service.http.schemas.histories` (hand histories, verification reports, audits) and
:mod:`service.http.schemas.responses` (the other answers); the drives' are in
:mod:`service.http.schemas.drives`, and :mod:`service.http.schemas.action_body` describes an
action body once for the schema and the lean path. Together they make the OpenAPI document,
each component named after its class.

Every schema refuses unknown fields (marshmallow's ``RAISE``), which the document states as
``additionalProperties: false``: a request with a field the API does not know is a 422, and a
response cannot carry a field that is not documented here, since it is dumped through its
schema (views fail closed). Card codes are validated for shape here; whether a card or an
option fits a game is the engine's call.

A request body's booleans and whole numbers are of their JSON type and nothing else
(:class:`StrictBoolean`, :class:`StrictInteger`): ``"yes"``, ``1`` or ``"true"`` is no boolean and
``"100"`` or ``100.0`` no integer, a 422 as the document's types say. A query string's values are
text by nature, and its schemas convert them with marshmallow's own fields.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

CARD_PATTERN = r"^(?:[jJ][kK]|(?:10|[2-9tTjJqQkKaA])[sScCdDhH])$"
"""A card code: rank (2-9, T or 10, J, Q, K, A) and suit (S, C, D, H), or JK; any case."""

SUIT_PATTERN = r"^[sScCdDhH]$"

MAX_VERSION = 10**12 - 1
"""The largest version a request may name (twelve digits, as in If-Match)."""

CARD_METADATA = {"pattern": CARD_PATTERN, "example": "5S"}
"""The pattern and example the document gives a card code."""


class StrictBoolean(fields.Boolean):
    """A boolean of a request body: JSON ``true`` or ``false`` only (marshmallow's own takes
    ``"yes"``, ``"on"`` or ``1``, and even with ``truthy={True}`` takes ``1``, which equals
    ``True``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


class StrictInteger(fields.Integer):
    """A whole number of a request body: a JSON integer only, not ``"100"``, ``100.0`` or
    ``true`` (marshmallow's ``strict``, which refuses booleans too)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


def card_field(**kwargs: Any) -> fields.String:
    """Returns a field of one card code, validated."""
    return fields.String(
        validate=validate.Regexp(CARD_PATTERN, error="not a card code such as 5S, TD or JK"),
        metadata=dict(CARD_METADATA),
        **kwargs,
    )


SEAT_NUMBERING = ("a seat number as the API counts them, from 0 (the pages, the pictures and "
                  "the ruling texts' sentences count from 1)")
"""How a seat field describes itself in openapi.yaml."""


def seat_field(**kwargs: Any) -> fields.Integer:
    """Returns a field of a seat number (0 or more), described as the API numbers seats
    (a *metadata* given keeps its own description)."""
    metadata = {"description": SEAT_NUMBERING, **kwargs.pop("metadata", {})}
    return fields.Integer(validate=validate.Range(min=0), metadata=metadata, **kwargs)


class ViewerField(fields.Raw):
    """A viewer: a seat number, ``"spectator"`` or ``"auditor"``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            metadata={
                "oneOf": [
                    {"type": "integer", "minimum": 0},
                    {"type": "string", "enum": ["spectator", "auditor"]},
                ]
            },
            **kwargs,
        )
