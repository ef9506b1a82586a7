"""Who wins a trick, and the ruling that says why, as a pure function of the cards played.

The fold (every trick of a history), ``fortyfive rules winner`` and ``POST /v1/rules/winner``
all call :func:`winner_ruling`, so they give the same rule id and sentence for the same trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card
from engine.ranking import Ranking, trick_winner
from engine.rulings import Ruling, ruling


def winner_ruling(cards: Sequence[Card], order: Ranking) -> tuple[int, Ruling]:
    """Returns the index in *cards* (in play order) of the winning card, and the ruling.

    The rule ids are ``trick.highest_trump`` when a trump was played,
    ``trick.highest_of_led_suit`` otherwise, and ``trick.identical_first`` when an identical
    card (two packs) was played later in the trick and lost only by coming second.

    >>> from engine.cards import Suit, parse_cards
    >>> from engine.ranking import ranking_for
    >>> index, why = winner_ruling(parse_cards("7S,5S,KD"), ranking_for(Suit.S, "none", "low"))
    >>> index, why.rule_id, why.text
    (1, 'trick.highest_trump', '5S is the highest of the 2 trumps played: it wins the trick.')

    :raises ValueError: if *cards* is empty.
    """
    if not cards:
        raise ValueError("a trick needs at least one card to have a winner")
    index = trick_winner(cards, order)
    card = cards[index]
    if card in cards[index + 1:]:
        return index, ruling("trick.identical_first", card=card.code(), position=index + 1)
    if order.is_trump(card):
        trumps = 0
        for played in cards:
            trumps += order.is_trump(played)
        return index, _winning("trick.highest_trump", card, "trumps", trumps)
    led = order.effective_suit(cards[0])
    return index, _winning("trick.highest_of_led_suit", card, "suit", led.name)


def _winning(rule_id: str, card: Card, name: str, value: int | str) -> Ruling:
    """Returns ``ruling(rule_id, card=<card's code>, <name>=value)``, kept by rule, card and
    value: the commonest rulings of the fold, found again without building the keyword
    arguments :func:`ruling`'s own cache is keyed by."""
    key = (rule_id, card, value)
    found = _WINNING.get(key)
    if found is None:
        found = _WINNING[key] = ruling(rule_id, **{"card": card.code(), name: value})
    return found


_WINNING: Final[dict[tuple[str, int, int | str], Ruling]] = {}
"""The rulings :func:`_winning` made (a few hundred at most: by card, and trumps played or
the led suit)."""
