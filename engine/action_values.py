"""A seat's action as a typed value, and its JSON object where the API, the histories and
the CLI meet the world.

The engine decides and bots search on :class:`Action` values (:mod:`engine.actions`);
:func:`parse_action` reads a client's JSON object into one, :func:`action_json` writes one
back, :func:`action_of` recovers it from the event it produced. The actions a seat may take
on every move are made once here (:data:`PLAY_ACTIONS` and the rest) and listed as they are.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, Final

from engine.cards import JOKER, STANDARD_DECK, Card, Suit
from engine.errors import InvalidActionError, InvalidCardError, shown
from engine.shuffle import ShuffleError, check_nonce
from events.types import EVENT_TYPES, Event

PRODUCES: dict[str, type[Event]] = {
    cls.ACTION: cls for cls in EVENT_TYPES.values() if cls.ACTION is not None
}
"""Every action type and the event type it produces (each event type names its action)."""

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    action: tuple(name for name, _ in cls.ACTION_FIELDS) for action, cls in PRODUCES.items()
}
"""Every action type and the fields its JSON object carries besides ``type``."""

OPTIONAL_FIELDS: dict[str, frozenset[str]] = {
    action: cls.ACTION_OPTIONAL for action, cls in PRODUCES.items()
}
"""Every action type and the fields of its JSON object a client may leave out."""

_REQUIRED_FIELDS: dict[str, frozenset[str]] = {
    action: frozenset({"type", *fields}) - OPTIONAL_FIELDS[action]
    for action, fields in ACTION_FIELDS.items()
}
"""Every action type and the keys its JSON object must have."""

_ALLOWED_FIELDS: dict[str, frozenset[str]] = {
    action: frozenset({"type", *fields}) for action, fields in ACTION_FIELDS.items()
}
"""Every action type and the keys its JSON object may have."""


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """A player's action, parsed; see :data:`ACTION_FIELDS` for its JSON form."""

    type: str
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    amount: int | None = None
    suit: Suit | None = None
    position: int | None = None
    nonce: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON object a client posts for this action."""
        body: dict[str, Any] = {"type": self.type}
        for name in ACTION_FIELDS[self.type]:
            value = getattr(self, "card" if name == "discard" else name)
            if value is None and name in OPTIONAL_FIELDS[self.type]:
                continue
            if isinstance(value, Card):
                value = value.code()
            elif isinstance(value, Suit):
                value = value.name
            elif name == "cards":
                value = [card.code() for card in value]
            body[name] = value
        return body

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


def parse_action(body: Any) -> Action:
    """Returns the action in a JSON object such as ``{"type": "play", "card": "5S"}``.

    :raises InvalidActionError: for anything else, saying what is wrong.
    """
    if type(body) is dict and len(body) == 2 and body.get("type") == "play":
        # The hot path: a play as legal_actions lists it, one interned action per card code.
        card = body.get("card")
        played = _PLAYS.get(card) if type(card) is str else None
        if played is not None:
            return played
    if isinstance(body, Action):
        return body
    if not isinstance(body, Mapping):
        raise InvalidActionError(
            f"an action is a JSON object such as {{\"type\": \"play\", \"card\": \"5S\"}}, "
            f"got {type(body).__name__}"
        )
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise InvalidActionError(
            f"unknown action type {kind!r}: expected one of {', '.join(ACTION_FIELDS)}"
        )
    if not _REQUIRED_FIELDS[kind] <= body.keys() <= _ALLOWED_FIELDS[kind]:
        wanted = ACTION_FIELDS[kind]
        missing = [name for name in wanted if name not in body
                   and name not in OPTIONAL_FIELDS[kind]]
        extra = sorted(str(name) for name in set(body) - set(wanted) - {"type"})
        parts = []
        if missing:
            parts.append(f"missing {', '.join(missing)}")
        if extra:
            parts.append(f"unexpected {', '.join(extra)}")
        raise InvalidActionError(f"action {kind!r}: {'; '.join(parts)}")
    try:
        if kind in ("play", "bury"):
            return Action(kind, card=_card(body["card"]))
        if kind == "rob":
            return Action(kind, card=_card(body["discard"]))
        if kind == "discard":
            cards = body["cards"]
            if not isinstance(cards, list):
                raise InvalidActionError("action 'discard': cards must be a list of card codes")
            return Action(kind, cards=tuple(_card(code) for code in cards))
        if kind == "bid":
            return Action(kind, amount=_whole(body["amount"], "amount"))
        if kind == "cut":
            nonce = body.get("nonce")
            return Action(kind, position=_whole(body["position"], "position"),
                          nonce=None if nonce is None else _nonce(nonce, kind))
        if kind == "contribute":
            return Action(kind, nonce=_nonce(body["nonce"], kind))
        if kind == "name_trump":
            if not isinstance(body["suit"], str):
                raise InvalidActionError("action 'name_trump': suit must be one of S, C, D, H")
            return Action(kind, suit=Suit.parse(body["suit"]))
    except InvalidCardError as error:
        raise InvalidActionError(f"action {kind!r}: {error}") from None
    return Action(kind)


PLAY_ACTIONS: Final = tuple(Action("play", card=card) for card in (*STANDARD_DECK, JOKER))
"""The action of playing each card, indexed by card."""
ROB_ACTIONS: Final = tuple(Action("rob", card=card) for card in (*STANDARD_DECK, JOKER))
"""The action of robbing the turn-up with each card as the discard, indexed by card."""
BURY_ACTIONS: Final = tuple(Action("bury", card=card) for card in (*STANDARD_DECK, JOKER))
"""The action of burying each card, indexed by card."""
JINK: Final = Action("jink")
JINK_ONLY = (JINK,)  # Not Final: compiled, a Final tuple of one is rebuilt at each use.
HOLD: Final = Action("hold")
PASS: Final = Action("pass")
NAME_TRUMP: Final = tuple(Action("name_trump", suit=suit) for suit in Suit)
"""Naming each suit, in notation order."""


@functools.lru_cache(maxsize=64)
def bid_action(amount: int) -> Action:
    """Returns the action of bidding *amount*, made once per amount."""
    return Action("bid", amount=amount)


_PLAYS: dict[str, Action] = {action.card.code(): action for action in PLAY_ACTIONS
                             if action.card is not None}
"""The action of playing each card, by its canonical code (actions are immutable values)."""


def action_of(event: Event) -> dict[str, Any] | None:
    """Returns the action object (as clients post it) that produced *event*, or ``None`` for
    an event no seat's action produces (a creation, a shuffle, a reveal, a recorded deal)."""
    kind = type(event)
    if kind.ACTION is None:
        return None
    body: dict[str, Any] = {"type": kind.ACTION}
    for name, field in kind.ACTION_FIELDS:
        value = getattr(event, field)
        if value is None and name in kind.ACTION_OPTIONAL:
            continue
        body[name] = list(value) if isinstance(value, tuple) else value
    return body


def _card(value: Any) -> Card:
    return Card.parse(value)  # It refuses what is not a string, as what is no card.


def _nonce(value: Any, kind: str) -> str:
    try:
        return check_nonce(value)
    except ShuffleError as error:
        raise InvalidActionError(f"action {kind!r}: {error}") from None


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidActionError(f"{name} must be a whole number, got {shown(value)}")
    return value



def action_json(action: Action) -> dict[str, Any]:
    """Returns :meth:`Action.to_dict` of *action*, a fresh copy; the JSON of a card's action
    and of a cut, listed on every move, is made once and copied."""
    if action.card is not None:
        return _CARD_JSON[action.type][action.card].copy()
    if action.type == "cut" and action.nonce is None:
        assert action.position is not None
        return {"type": "cut", "position": action.position}
    return action.to_dict()


_CARD_JSON: dict[str, tuple[dict[str, Any], ...]] = {
    kind: tuple(Action(kind, card=card).to_dict() for card in (*STANDARD_DECK, JOKER))
    for kind in ("play", "rob", "bury")
}
"""The JSON object of playing, robbing with and burying each card, indexed by card (listed
as copies: an action a seat may take is listed on every move)."""


@functools.lru_cache(maxsize=8)
def cuts_of(size: int) -> tuple[Action, ...]:
    """Returns the actions of every cut of a pack of *size* cards."""
    return tuple(Action("cut", position=position) for position in range(1, size))
