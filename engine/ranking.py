"""Card orderings that depend on trumps, as pure functions (never baked into ``__lt__``).

Trumps, high to low: trump 5, trump J, [bruff joker], AH, [classic joker], trump A (absent when
hearts are trumps), K, Q, then black 2 3 4 6 7 8 9 T or red T 9 8 7 6 4 3 2. AH and the joker
are trumps for every purpose. Plain suits: black K Q J A 2..9 T; hearts K Q J T..2; diamonds
K Q J T..2 A (or A just below J with the ``diamond_ace: below_jack`` option).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from engine.cards import ACE_OF_HEARTS, JOKER, Card, Rank, Suit
from engine.profiles import RuleSet

_BLACK_TRUMP_TAIL = "2346789T"
_RED_TRUMP_TAIL = "T9876432"
_BLACK_PLAIN = "KQJA23456789T"
_HEARTS_PLAIN = "KQJT98765432"
_DIAMONDS_PLAIN = {"low": "KQJT98765432A", "below_jack": "KQJAT98765432"}


@dataclasses.dataclass(frozen=True, slots=True)
class Ranking:
    """The orderings in force for one trump suit under one rule set."""

    trump: Suit
    trump_order: tuple[Card, ...]
    """Every trump, highest first."""
    trump_power: dict[Card, int]
    """Trump strength: higher is stronger; absent for non-trumps."""
    plain_power: dict[Card, int]
    """Strength within its own suit for non-trumps: higher is stronger."""

    def is_trump(self, card: Card) -> bool:
        """True if *card* is a trump (its suit, AH, or the joker)."""
        return card in self.trump_power

    def effective_suit(self, card: Card) -> Suit:
        """Returns the suit *card* counts as: trumps for AH and the joker."""
        if card in self.trump_power:
            return self.trump
        assert card.suit is not None, "the joker is always a trump"
        return card.suit


def _code(letter: str, suit: Suit) -> Card:
    return Card(Rank("23456789TJQKA".index(letter) + 2), suit)


@functools.cache
def ranking_for(trump: Suit, joker: str, diamond_ace: str) -> Ranking:
    """Returns the :class:`Ranking` for *trump*, the joker placement and the diamond-ace rule."""
    order: list[Card] = [_code("5", trump), _code("J", trump)]
    if joker == "above_ah":
        order.append(JOKER)
    order.append(ACE_OF_HEARTS)
    if joker == "below_ah":
        order.append(JOKER)
    if trump is not Suit.H:
        order.append(_code("A", trump))
    order += [_code("K", trump), _code("Q", trump)]
    tail = _RED_TRUMP_TAIL if trump.is_red else _BLACK_TRUMP_TAIL
    order += [_code(letter, trump) for letter in tail]
    trump_power = {card: len(order) - index for index, card in enumerate(order)}
    plain_power: dict[Card, int] = {}
    for suit in Suit:
        if suit is trump:
            continue
        letters = {Suit.H: _HEARTS_PLAIN, Suit.D: _DIAMONDS_PLAIN[diamond_ace]}.get(
            suit, _BLACK_PLAIN
        )
        for index, letter in enumerate(letters):
            card = _code(letter, suit)
            if card not in trump_power:
                plain_power[card] = len(letters) - index
    return Ranking(trump, tuple(order), trump_power, plain_power)


def ranking(trump: Suit, rules: RuleSet) -> Ranking:
    """Returns the orderings in force for *trump* under *rules*."""
    return ranking_for(trump, rules.joker, rules.diamond_ace)


def is_protected(card: Card, trump: Suit) -> bool:
    """True for the trumps that may be withheld from a lower led trump: 5, J, AH, joker."""
    return card is JOKER or card == ACE_OF_HEARTS or (
        card.suit is trump and card.rank in (Rank.FIVE, Rank.JACK)
    )


def trick_strengths(cards: Sequence[Card], order: Ranking) -> list[int]:
    """Returns how strongly each card of a trick stands (0 for a card that cannot win)."""
    led_suit = order.effective_suit(cards[0])
    strengths = []
    for card in cards:
        power = order.trump_power.get(card)
        if power is not None:
            strengths.append(1000 + power)
        elif card.suit is led_suit:
            strengths.append(order.plain_power[card])
        else:
            strengths.append(0)
    return strengths


def trick_winner(cards: Sequence[Card], order: Ranking) -> int:
    """Returns the index in *cards* (in play order) of the card that wins the trick.

    The highest trump wins, else the highest card of the led suit; of two identical cards
    (two packs) the one played first ranks higher, so ties go to the earlier card.

    >>> from engine.cards import parse_cards
    >>> trick_winner(parse_cards("7S,5S,KD"), ranking_for(Suit.S, "none", "low"))
    1
    """
    strengths = trick_strengths(cards, order)
    best = max(strengths)
    return strengths.index(best)
