"""Cards and their notation: ``5S``, ``TD``, ``AH``, ``JK``.

Input is case-insensitive and accepts ``10`` for ``T``; output is always canonical. Cards are
interned values, so parsing is a dictionary look-up and identity comparisons are cheap.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Iterator

from mypy_extensions import mypyc_attr

from engine.errors import InvalidCardError, shown


class Suit(enum.IntEnum):
    """The four suits, in notation order."""

    S = 0
    C = 1
    D = 2
    H = 3

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.D, Suit.H)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Returns the suit for ``S``, ``C``, ``D`` or ``H`` (any case).

        :raises InvalidCardError: if *text* is not a suit letter.
        """
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise InvalidCardError(
                f"invalid suit {text!r}: expected one of S, C, D, H"
            ) from None


class Rank(enum.IntEnum):
    """Ranks by face value; the game's orderings live in :mod:`engine.ranking`."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15


RANK_LETTERS = "23456789TJQKA"
_RANK_BY_LETTER = {letter: Rank(value) for value, letter in enumerate(RANK_LETTERS, start=2)}


@mypyc_attr(native_class=False)
class Card(int):
    """A playing card, or the joker (``suit`` is ``None`` only for the joker).

    A card is a small int, its index in the notation order (spades 2..A, clubs, diamonds,
    hearts, then the joker: :func:`card_sort_key`), so hashing, comparing and indexing tables by
    card are done in C, and a set of distinct cards fits a :class:`CardSet` bitmask, as
    python-chess does with squares. There is one instance of each card, so
    ``Card(Rank.TEN, Suit.D) is Card.parse("TD")``. The game's orderings live in
    :mod:`engine.ranking`, never in ``<``.
    """

    rank: Rank
    suit: Suit | None

    def __new__(cls, rank: Rank, suit: Suit | None) -> Card:
        try:
            return _CARDS[_index(rank, suit)]
        except IndexError:
            # Only while the 53 cards themselves are made, once at import.
            card = int.__new__(cls, _index(rank, suit))
            object.__setattr__(card, "rank", Rank(rank))
            object.__setattr__(card, "suit", None if suit is None else Suit(suit))
            return card

    @staticmethod
    def parse(text: object) -> Card:
        """Returns the card written as *text*, e.g. ``Card.parse("10d") == Card.parse("TD")``.

        >>> Card.parse("10d")
        Card.parse('TD')

        :raises InvalidCardError: if *text* is not a card.
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"invalid card {shown(text)}: expected a string such as '5S'")
        known = _CARDS_BY_TEXT.get(text)
        if known is not None:
            return known
        normal = text.strip().upper()
        if normal.startswith("10"):
            normal = "T" + normal[2:]
        card = _CARDS_BY_TEXT.get(normal)
        if card is None:
            raise InvalidCardError(
                f"invalid card {text!r}: expected a rank (2-9, T or 10, J, Q, K, A) and a suit "
                "(S, C, D, H), e.g. '5S', or 'JK' for the joker"
            )
        return card

    def code(self) -> str:
        """Returns the canonical code, e.g. ``"TD"`` or ``"JK"``."""
        return _CODES[self]

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.suit is None

    def __repr__(self) -> str:
        return f"Card.parse({_CODES[self]!r})"

    def __str__(self) -> str:
        return _CODES[self]

    def __format__(self, spec: str) -> str:
        return format(_CODES[self], spec)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return Card.parse, (_CODES[self],)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


JOKER_INDEX = 52
"""The joker's index: after the 52 cards of a standard deck."""


def _index(rank: int, suit: Suit | None) -> int:
    if suit is None:
        if rank != Rank.JOKER:
            raise ValueError(f"only the joker has no suit, not rank {rank!r}")
        return JOKER_INDEX
    if not Rank.TWO <= rank <= Rank.ACE:
        raise ValueError(f"a card of a suit ranks 2 to ace, not {rank!r}")
    return int(suit) * 13 + int(rank) - 2


_CARDS: tuple[Card, ...] = ()
_CARDS = (
    *(Card(Rank(value), suit) for suit in Suit for value in range(2, 15)),
    Card(Rank.JOKER, None),
)
_CODES: tuple[str, ...] = tuple(
    "JK" if card.suit is None else RANK_LETTERS[card.rank - 2] + card.suit.name
    for card in _CARDS
)

CARD_CODES = _CODES
"""The canonical code of each card, indexed by card (``CARD_CODES[card] == card.code()``)."""

JOKER = _CARDS[JOKER_INDEX]
"""The joker."""

STANDARD_DECK: tuple[Card, ...] = _CARDS[:JOKER_INDEX]
"""The 52 cards in canonical order: spades 2..A, clubs, diamonds, hearts."""

ACE_OF_HEARTS = Card(Rank.ACE, Suit.H)

_CARDS_BY_TEXT: dict[str, Card] = {card.code(): card for card in _CARDS}


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Returns the cards of a comma-separated string (or an iterable of codes).

    An empty string gives no cards.

    :raises InvalidCardError: naming the first code that is not a card.
    """
    if isinstance(text, str):
        parts = [part for part in text.split(",")] if text.strip() else []
    else:
        parts = list(text)
    return tuple(Card.parse(part) for part in parts)


def card_sort_key(card: Card) -> tuple[int, int]:
    """Orders cards by suit in notation order, then face value; the joker last."""
    return (4 if card.suit is None else int(card.suit), int(card.rank))


def format_cards(cards: Iterable[Card]) -> str:
    """Returns cards as comma-separated canonical codes."""
    return ",".join(card.code() for card in cards)


class CardSet:
    """A set of distinct cards as a bitmask (bit *n* for the card whose index is *n*), as
    python-chess's ``SquareSet`` views a ``Bitboard``: the rules engine computes with masks, and
    this view gives them back as cards, always in notation order.

    >>> hand = CardSet.of(parse_cards("AH,5S,JK,5S"))
    >>> len(hand), Card.parse("5S") in hand, format_cards(hand)
    (3, True, '5S,AH,JK')
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, mask: int = 0) -> None:
        object.__setattr__(self, "mask", mask)

    @staticmethod
    def of(cards: Iterable[Card]) -> CardSet:
        """Returns the set of the distinct *cards*."""
        return CardSet(mask_of(cards))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __repr__(self) -> str:
        return f"CardSet.of(parse_cards({format_cards(self)!r}))"

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def mask_of(cards: Iterable[Card]) -> int:
    """Returns the :class:`CardSet` mask of the distinct *cards*."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """Returns the cards of *mask*, in notation order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(found)
