"""Cards and their notation: ``5S``, ``TD``, ``AH``, ``JK``.

Input is case-insensitive and accepts ``10`` for ``T``; output is always canonical. Cards are
interned values, so parsing is a dictionary look-up and identity comparisons are cheap.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable

from engine.errors import InvalidCardError


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


@dataclasses.dataclass(frozen=True, slots=True)
class Card:
    """A playing card, or the joker (``suit`` is ``None`` only for the joker)."""

    rank: Rank
    suit: Suit | None

    @staticmethod
    def parse(text: str) -> Card:
        """Returns the card written as *text*, e.g. ``Card.parse("10d") == Card.parse("TD")``.

        >>> Card.parse("10d")
        Card.parse('TD')

        :raises InvalidCardError: if *text* is not a card.
        """
        try:
            return _CARDS_BY_TEXT[text]
        except (KeyError, TypeError):
            pass
        if not isinstance(text, str):
            raise InvalidCardError(f"invalid card {text!r}: expected a string such as '5S'")
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
        if self.suit is None:
            return "JK"
        return RANK_LETTERS[self.rank - 2] + self.suit.name

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.suit is None

    def __repr__(self) -> str:
        return f"Card.parse({self.code()!r})"

    def __str__(self) -> str:
        return self.code()


JOKER = Card(Rank.JOKER, None)
"""The joker."""

STANDARD_DECK: tuple[Card, ...] = tuple(
    Card(rank, suit) for suit in Suit for rank in Rank if rank is not Rank.JOKER
)
"""The 52 cards in canonical order: spades 2..A, clubs, diamonds, hearts."""

ACE_OF_HEARTS = Card(Rank.ACE, Suit.H)

_CARDS_BY_TEXT: dict[str, Card] = {card.code(): card for card in (*STANDARD_DECK, JOKER)}


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
