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
from typing import Final, Protocol

from engine.cards import ACE_OF_HEARTS, JOKER, STANDARD_DECK, Card, Rank, Suit, mask_of


class Ranked(Protocol):
    """What :func:`ranking` reads of a rule set (:class:`engine.profiles.RuleSet`, which is built
    on this module): the number of its card orderings, from :func:`rankings_number`."""

    @property
    def rankings(self) -> int: ...

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
    trump_mask: int = 0
    """The trumps as a :class:`~engine.cards.CardSet` mask."""
    protected_mask: int = 0
    """The trumps that may be withheld from a lower led trump (5, J, AH, joker), as a mask."""
    follow_masks: tuple[int, ...] = ()
    """For each suit, the non-trumps of that suit as a mask (empty for the trump suit)."""
    power_of: tuple[int, ...] = ()
    """Trump strength indexed by card (0 for a non-trump): :attr:`trump_power` as a table."""
    led_suit_of: tuple[Suit, ...] = ()
    """The suit each card counts as when led, indexed by card: :meth:`effective_suit`."""
    stronger: tuple[int, ...] = ()
    """For each card, indexed by card, the mask of the trumps that outrank it as a trump."""
    strengths: tuple[tuple[int, ...], ...] = ()
    """For each led suit, how strongly each card stands in the trick, indexed by card: 1000
    plus the trump strength for a trump, the plain strength for the led suit, else 0."""

    def is_trump(self, card: Card) -> bool:
        """True if *card* is a trump (its suit, AH, or the joker)."""
        return self.trump_mask >> card & 1 == 1

    def effective_suit(self, card: Card) -> Suit:
        """Returns the suit *card* counts as: trumps for AH and the joker."""
        return self.led_suit_of[card]

    def __copy__(self) -> Ranking:
        return self

    def __deepcopy__(self, memo: object) -> Ranking:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


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
    trump_mask = mask_of(order)
    every = (*STANDARD_DECK, JOKER)
    power_of = tuple(trump_power.get(card, 0) for card in every)
    led_suit_of = tuple(
        trump if card.suit is None or card in trump_power else card.suit for card in every
    )
    strengths = tuple(
        tuple(
            1000 + trump_power[card] if card in trump_power
            else plain_power.get(card, 0) if card.suit is led else 0
            for card in every
        )
        for led in Suit
    )
    return Ranking(
        trump, tuple(order), trump_power, plain_power, trump_mask=trump_mask,
        protected_mask=mask_of(card for card in order if is_protected(card, trump)),
        follow_masks=tuple(
            mask_of(card for card in plain_power if card.suit is suit) for suit in Suit
        ),
        power_of=power_of, led_suit_of=led_suit_of, strengths=strengths,
        stronger=tuple(
            mask_of(other for other in order if trump_power[other] > power_of[card])
            for card in every
        ),
    )


def ranking(trump: Suit, rules: Ranked) -> Ranking:
    """Returns the orderings in force for *trump* under *rules*."""
    return RANKINGS[rules.rankings][trump]


def rankings_number(joker: str, diamond_ace: str) -> int:
    """Returns the number of the rankings for this joker placement and diamond-ace rule in
    :data:`RANKINGS`, made the first time they are asked for."""
    key = (joker, diamond_ace)
    number = _NUMBERS.get(key)
    if number is None:
        number = _NUMBERS[key] = len(RANKINGS)
        RANKINGS.append(tuple(ranking_for(suit, joker, diamond_ace) for suit in Suit))
    return number


RANKINGS: Final[list[tuple[Ranking, ...]]] = []
"""The rankings of each joker placement and diamond-ace rule asked for so far, by trump
suit."""

_NUMBERS: Final[dict[tuple[str, str], int]] = {}
"""The number in :data:`RANKINGS` of each (joker, diamond_ace) made so far."""


def is_protected(card: Card, trump: Suit) -> bool:
    """True for the trumps that may be withheld from a lower led trump: 5, J, AH, joker."""
    return card is JOKER or card == ACE_OF_HEARTS or (
        card.suit is trump and card.rank in (Rank.FIVE, Rank.JACK)
    )


def strength_table(cards: Sequence[Card], order: Ranking) -> tuple[int, ...]:
    """Returns how strongly each card stands in a trick led by ``cards[0]``, by card (0 for a
    card that cannot win it)."""
    return order.strengths[order.led_suit_of[cards[0]]]


def trick_strengths(cards: Sequence[Card], order: Ranking) -> list[int]:
    """Returns how strongly each card of a trick stands (0 for a card that cannot win)."""
    table = strength_table(cards, order)
    return [table[card] for card in cards]


def trick_winner(cards: Sequence[Card], order: Ranking) -> int:
    """Returns the index in *cards* (in play order) of the card that wins the trick.

    The highest trump wins, else the highest card of the led suit; of two identical cards
    (two packs) the one played first ranks higher, so ties go to the earlier card.

    >>> from engine.cards import parse_cards
    >>> trick_winner(parse_cards("7S,5S,KD"), ranking_for(Suit.S, "none", "low"))
    1
    """
    strength_of = strength_table(cards, order)
    index = best = 0
    for at, card in enumerate(cards):
        strength = strength_of[card]
        if strength > best:  # Strictly: the first of equals keeps the trick.
            index, best = at, strength
    return index
