"""What the API's schemas share: the card and suit patterns, the largest version a request may
name, and the fields of a card, a seat and a viewer.

They are shared by the schemas of :mod:`service.schemas` (the card and suit patterns also by
:mod:`service.lean_actions`).
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


def card_field(**kwargs: Any) -> fields.String:
    """Returns a field of one card code, validated."""
    return fields.String(
        validate=validate.Regexp(CARD_PATTERN, error="not a card code such as 5S, TD or JK"),
        metadata=dict(CARD_METADATA),
        **kwargs,
    )


def seat_field(**kwargs: Any) -> fields.Integer:
    """Returns a field of a seat number (0 or more)."""
    return fields.Integer(validate=validate.Range(min=0), **kwargs)


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
