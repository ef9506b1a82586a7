"""The event vocabulary: one frozen dataclass per decision or chance outcome.

Events record only what somebody decided or what chance produced (a shuffle seed, a cut, a
card played). Trick winners, bonuses, scores and the winner are derived by the engine's fold
and are never stored: that is what keeps a mid-deal finish reproducible.

Cards travel as their canonical codes (``"5S"``, ``"TD"``, ``"JK"``) and suits as one letter,
so this module imports nothing of the project. Every type has a stable ``TYPE`` name used on
the wire and a ``SCHEMA`` number that goes up when its data changes shape (see
:mod:`events.upcasting`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, TypeAlias

Seat: TypeAlias = int
"""A seat number, 0..n-1 clockwise."""

Cards: TypeAlias = tuple[str, ...]
"""Card codes, in the order they matter (a hand, a discard, a stock)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Base of every event type; never stored itself."""

    TYPE: ClassVar[str] = ""
    """The stable wire name of the type."""
    SCHEMA: ClassVar[int] = 1
    """The current schema version of the type's data."""
    PRIVATE: ClassVar[frozenset[str]] = frozenset()
    """Fields that are face down: only :mod:`replay.views` decides who may see them."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameCreated(Event):
    """A game was set up: its rules, its seats and the seed that draws the first dealer."""

    TYPE: ClassVar[str] = "game_created"
    SCHEMA: ClassVar[int] = 2

    profile: str
    """The built-in profile name, e.g. ``"bruff"``."""
    options: Mapping[str, Any]
    """Every option of the profile, defaults filled in (so a history needs no defaults table)."""
    seats: tuple[str, ...]
    """One entry per seat, ``"human"`` or ``"bot"``."""
    seed: str
    """Hex seed that draws the first dealer; public, since the dealer is public anyway."""


@dataclasses.dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """The dealer shuffled: the deck order follows from *seed* by *algorithm*.

    The commitment (SHA-256 of the seed bytes) is public at once; the seed stays hidden until
    :class:`SeedRevealed` so that nobody can know the deal in advance, and anybody can check it
    afterwards.
    """

    TYPE: ClassVar[str] = "deck_shuffled"
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"seed"})

    deal: int
    """1-based number of the deal in the game."""
    algorithm: str
    """Versioned name of the seed-to-order algorithm, e.g. ``"hmac-sha256-fy/1"``."""
    commitment: str
    """Hex SHA-256 of the seed bytes."""
    seed: str
    """Hex seed (32 bytes); private until revealed."""


@dataclasses.dataclass(frozen=True, slots=True)
class DeckCut(Event):
    """The player right of the dealer cut the shuffled deck at *position*."""

    TYPE: ClassVar[str] = "deck_cut"

    seat: Seat
    position: int
    """Cards lifted from the top and put underneath, 1..deck size - 1."""


@dataclasses.dataclass(frozen=True, slots=True)
class DealRecorded(Event):
    """A deal made at a real table, recorded card by card instead of from a seed (disputes)."""

    TYPE: ClassVar[str] = "deal_recorded"
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"hands", "stock"})

    deal: int
    hands: tuple[Cards, ...]
    """The hands as dealt, indexed by seat."""
    turn_up: str | None
    """The exposed card (``None`` for the auction, which has no turn-up)."""
    stock: Cards
    """The undealt cards below the turn-up, top first (auction draws come from here)."""


@dataclasses.dataclass(frozen=True, slots=True)
class JokerBuried(Event):
    """The dealer took a turned joker and put *card* face down beneath the stock."""

    TYPE: ClassVar[str] = "joker_buried"
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"card"})

    seat: Seat
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class TurnUpRobbed(Event):
    """*seat* set *discard* aside face down and took the turn-up."""

    TYPE: ClassVar[str] = "turn_up_robbed"
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"discard"})

    seat: Seat
    discard: str


@dataclasses.dataclass(frozen=True, slots=True)
class BidMade(Event):
    """*seat* bid *amount* in the auction."""

    TYPE: ClassVar[str] = "bid_made"

    seat: Seat
    amount: int


@dataclasses.dataclass(frozen=True, slots=True)
class BidPassed(Event):
    """*seat* passed; a pass is final for the deal."""

    TYPE: ClassVar[str] = "bid_passed"

    seat: Seat


@dataclasses.dataclass(frozen=True, slots=True)
class BidHeld(Event):
    """The dealer held, taking over the current highest bid at its amount."""

    TYPE: ClassVar[str] = "bid_held"

    seat: Seat


@dataclasses.dataclass(frozen=True, slots=True)
class TrumpNamed(Event):
    """The winning bidder named the trump suit (one of ``S C D H``)."""

    TYPE: ClassVar[str] = "trump_named"

    seat: Seat
    suit: str


@dataclasses.dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    """*seat* discarded *cards* face down and drew as many from the stock (auction)."""

    TYPE: ClassVar[str] = "cards_discarded"
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"cards"})

    seat: Seat
    cards: Cards


@dataclasses.dataclass(frozen=True, slots=True)
class JinkAnnounced(Event):
    """*seat* announced a jink for its side before the opening lead (classic option)."""

    TYPE: ClassVar[str] = "jink_announced"

    seat: Seat


@dataclasses.dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """*seat* played *card* to the current trick."""

    TYPE: ClassVar[str] = "card_played"

    seat: Seat
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The deal is over and its shuffle seed is made public for anyone to check."""

    TYPE: ClassVar[str] = "seed_revealed"

    deal: int
    seed: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    """Nobody acted for too long: the server ended the game unfinished, without a winner.

    A decision of the server's retention policy (``ABANDON_AFTER``), appended by a worker
    through the command path; the game is over from this event on and nothing follows it.
    """

    TYPE: ClassVar[str] = "game_abandoned"

    idle_seconds: int
    """How long the game had waited since its previous event."""
    after_seconds: int
    """The idle time after which the service abandons a game (the policy then in force)."""


EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameCreated,
        DeckShuffled,
        DeckCut,
        DealRecorded,
        JokerBuried,
        TurnUpRobbed,
        BidMade,
        BidPassed,
        BidHeld,
        TrumpNamed,
        CardsDiscarded,
        JinkAnnounced,
        CardPlayed,
        SeedRevealed,
        GameAbandoned,
    )
}
"""Every event type by its wire name."""


class UnknownEventTypeError(ValueError):
    """Raised when data names an event type this version does not know."""


class EventDataError(ValueError):
    """Raised when an event's data does not fit its type's fields."""


def event_to_data(event: Event) -> dict[str, Any]:
    """Returns the JSON-ready data of *event* (tuples become lists)."""
    return {
        field.name: _to_json(getattr(event, field.name)) for field in dataclasses.fields(event)
    }


def event_from_data(type_name: str, data: Mapping[str, Any]) -> Event:
    """Returns the event of type *type_name* built from current-schema *data*.

    :raises UnknownEventTypeError: if *type_name* is not a known type.
    :raises EventDataError: if *data* lacks a field or has one the type does not define.
    """
    try:
        cls = EVENT_TYPES[type_name]
    except KeyError:
        known = ", ".join(sorted(EVENT_TYPES))
        raise UnknownEventTypeError(
            f"unknown event type {type_name!r}: register it in events.types.EVENT_TYPES "
            f"(known: {known})"
        ) from None
    names = [field.name for field in dataclasses.fields(cls)]
    missing = [name for name in names if name not in data]
    extra = sorted(set(data) - set(names))
    if missing or extra:
        raise EventDataError(
            f"{type_name} data does not fit schema {cls.SCHEMA}: "
            f"missing {missing}, unexpected {extra}"
        )
    return cls(**{name: _from_json(data[name]) for name in names})


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _to_json(item) for key, item in value.items()}
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_from_json(item) for item in value)
    if isinstance(value, Mapping):
        return dict(value)
    return value
