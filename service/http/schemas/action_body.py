"""What an action body may hold: one description of its fields, their types and their limits.

Both ways into ``POST /v1/games/{id}/actions`` derive from :data:`ACTION_BODY`: the documented
one loads a body through :class:`service.http.schemas.requests.ActionSchema`, whose fields are
made from it (:func:`service.http.schemas.requests.action_field`), and the lean one
(:mod:`service.http.lean_actions`) takes a body as it is when every field passes the check of
its kind in :data:`LEAN_CHECKS`: exact types and the whole string matched, so stricter than the
schema and never looser (anything else goes to the schema, which refuses it in its own words).
Which fields an action of each type needs, and what they mean in the game, is the engine's call
(:func:`engine.action_values.parse_action`); the names here are the ones its actions use.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

from engine.action_values import ACTION_FIELDS
from service.http.schemas.fields import CARD_PATTERN, SUIT_PATTERN

MAX_CARDS = 5
"""The most cards a body names (a discard exchanges 0 to 5)."""

MAX_NUMBER = 1000
"""The largest number a body carries (a bid's amount, a cut's position)."""

Kind = Literal["type", "card", "cards", "number", "suit", "text"]
"""What a field holds: an action type, a card code, a list of at most :data:`MAX_CARDS` card
codes, a whole number from 0 to :data:`MAX_NUMBER`, a suit letter, or any string."""


@dataclasses.dataclass(frozen=True, slots=True)
class BodyField:
    """One field an action body may have."""

    name: str
    kind: Kind
    metadata: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """What the OpenAPI document says of the field besides what its kind says."""


ACTION_BODY: tuple[BodyField, ...] = (
    BodyField("type", "type"),
    BodyField("card", "card"),
    BodyField("discard", "card"),
    BodyField("cards", "cards"),
    BodyField("amount", "number"),
    BodyField("suit", "suit", {"example": "S"}),
    BodyField("position", "number"),
    BodyField("nonce", "text", {
        "description": "A seat's contribution to an hmac-sha256-fy/2 deck: 32 to 128 "
                       "lowercase hex digits from a strong random source (contribute, or cut)",
        "example": "9f2c4e1a7b3d5f60e8c2a4b6d8f01357"}),
)
"""Every field of an action body, in the document's order; ``type`` is the one always needed."""

ACTION_TYPES = tuple(ACTION_FIELDS)
"""The values of ``type``: every action the engine takes."""

_CARD = re.compile(CARD_PATTERN)
_SUIT = re.compile(SUIT_PATTERN)


def _is_card(value: object) -> bool:
    return type(value) is str and _CARD.fullmatch(value) is not None


def _is_cards(value: object) -> bool:
    return type(value) is list and len(value) <= MAX_CARDS and all(map(_is_card, value))


def _is_number(value: object) -> bool:
    return type(value) is int and 0 <= value <= MAX_NUMBER


def _is_suit(value: object) -> bool:
    return type(value) is str and _SUIT.fullmatch(value) is not None


def _is_type(value: object) -> bool:
    return type(value) is str and value in _TYPES


def _is_text(value: object) -> bool:
    return type(value) is str


_TYPES = frozenset(ACTION_TYPES)

LEAN_CHECKS: dict[Kind, Callable[[object], bool]] = {
    "type": _is_type, "card": _is_card, "cards": _is_cards, "number": _is_number,
    "suit": _is_suit, "text": _is_text,
}
"""Per kind: whether the schema surely loads a value as it is (the lean path's test)."""

FIELD_CHECKS: dict[str, Callable[[object], bool]] = {
    field.name: LEAN_CHECKS[field.kind] for field in ACTION_BODY
}
"""Per field of :data:`ACTION_BODY`: the lean check of its kind."""
