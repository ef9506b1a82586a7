"""The lean path of the hot endpoint, ``POST /v1/games/<id>/actions``.

flask-smorest serves that endpoint through ten nested wrappers (one per documented response)
and webargs, which parses the body a second time and loads it through
:class:`service.schemas.ActionSchema`. This path takes the body :mod:`service.request_limits`
already parsed and, when it is an action the schema would load unchanged, calls the endpoint's
body (:func:`service.games.take_action`) directly. Anything else (a field the schema refuses,
a value it would convert, an unknown field) goes the documented way, so every refusal is
exactly the problem it was; the OpenAPI document is the blueprint's and does not change.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask, request

from engine.actions import ACTION_FIELDS
from service import games
from service.request_limits import checked_json
from service.schema_fields import CARD_PATTERN, SUIT_PATTERN

ENDPOINT = "games.Actions"
"""The endpoint this module serves leanly."""

_CARD = re.compile(CARD_PATTERN)
_SUIT = re.compile(SUIT_PATTERN)
_TYPES = frozenset(ACTION_FIELDS)
_MAX_CARDS = 5
_MAX_NUMBER = 1000


def _is_card(value: object) -> bool:
    return type(value) is str and _CARD.fullmatch(value) is not None


def _is_cards(value: object) -> bool:
    return type(value) is list and len(value) <= _MAX_CARDS and all(map(_is_card, value))


def _is_number(value: object) -> bool:
    return type(value) is int and 0 <= value <= _MAX_NUMBER


def _is_suit(value: object) -> bool:
    return type(value) is str and _SUIT.fullmatch(value) is not None


def _is_type(value: object) -> bool:
    return type(value) is str and value in _TYPES


_CHECKS: dict[str, Callable[[object], bool]] = {
    "type": _is_type,
    "card": _is_card,
    "discard": _is_card,
    "cards": _is_cards,
    "amount": _is_number,
    "suit": _is_suit,
    "position": _is_number,
}
"""Per field of :class:`service.schemas.ActionSchema`: whether it loads a value as it is.
Stricter than the schema (exact types, a match of the whole string), never looser."""


def plain_action(body: object) -> dict[str, Any] | None:
    """Returns *body* as :class:`service.schemas.ActionSchema` would load it, if it surely
    loads unchanged; ``None`` when the schema has to judge it."""
    if type(body) is not dict or "type" not in body:
        return None
    for name, value in body.items():
        check = _CHECKS.get(name)
        if check is None or not check(value):
            return None
    return dict(body)


def install(app: Flask) -> None:
    """Serves ``POST /v1/games/<id>/actions`` of *app* through the lean path when it can
    (call once the games blueprint is registered)."""
    documented = app.view_functions[ENDPOINT]

    def actions(**kwargs: Any) -> Any:
        if request.method == "POST":
            action = plain_action(checked_json())
            if action is not None:
                return games.take_action(action, kwargs["game_id"])
        return documented(**kwargs)

    actions.__doc__ = documented.__doc__
    app.view_functions[ENDPOINT] = actions
