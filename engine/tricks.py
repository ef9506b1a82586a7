"""Who wins a trick, and the ruling that says why, as a pure function of the cards played."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Suit
from engine.ranking import Ranking, trick_strengths
from engine.rulings import Ruling

_SUIT_NAMES = {Suit.S: "spade", Suit.C: "club", Suit.D: "diamond", Suit.H: "heart"}


def winner_ruling(cards: Sequence[Card], order: Ranking) -> tuple[int, Ruling]:
    """Returns the index in *cards* (in play order) of the winning card, and the ruling.

    The rule ids are ``trick.highest_trump`` when a trump was played,
    ``trick.highest_of_led_suit`` otherwise, and ``trick.identical_first`` when an identical
    card (two packs) was played later in the trick and lost only by coming second.

    >>> from engine.cards import Suit, parse_cards
    >>> from engine.ranking import ranking_for
    >>> index, why = winner_ruling(parse_cards("7S,5S,KD"), ranking_for(Suit.S, "none", "low"))
    >>> index, why.rule_id
    (1, 'trick.highest_trump')

    :raises ValueError: if *cards* is empty.
    """
    if not cards:
        raise ValueError("a trick needs at least one card to have a winner")
    strengths = trick_strengths(cards, order)
    best = max(strengths)
    index = strengths.index(best)
    card = cards[index]
    code = card.code()
    twins = [later for later in range(index + 1, len(cards)) if cards[later] == card]
    if twins:
        return index, Ruling(
            "trick.identical_first",
            f"{code} was played twice: the first, card {index + 1} of the trick, ranks "
            "higher and wins.",
        )
    if order.is_trump(card):
        trumps = sum(1 for other in cards if order.is_trump(other))
        if trumps == 1:
            text = f"{code} is the only trump played: it wins the trick."
        else:
            text = f"{code} is the highest of the {trumps} trumps played: it wins the trick."
        return index, Ruling("trick.highest_trump", text)
    led = order.effective_suit(cards[0])
    return index, Ruling(
        "trick.highest_of_led_suit",
        f"No trump was played and {code} is the highest {_SUIT_NAMES[led]} (the suit led): "
        "it wins the trick.",
    )
