"""Which cards may be played to a trick, and why: the renege privilege and following suit.

On a trump lead a trump must be played when one is held, except that protected trumps (5, J,
AH, joker) may be withheld from a *lower led* trump: a non-trump may be played only when every
trump held is protected and each outranks the card led. The comparison is with the led card
only, never with a higher card played later in the trick.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, card_sort_key, format_cards
from engine.errors import IllegalPlayError
from engine.profiles import RuleSet
from engine.ranking import Ranking, is_protected
from engine.rulings import Ruling, ruling


def legal_cards(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet
) -> tuple[tuple[Card, ...], Ruling]:
    """Returns the cards of *hand* that may be played to *trick* (sorted, distinct) and the
    ruling that decided.

    >>> from engine.cards import parse_cards
    >>> from engine.profiles import make_ruleset
    >>> from engine.ranking import ranking_for, Suit
    >>> bruff = make_ruleset("bruff")
    >>> cards, why = legal_cards(parse_cards("AH,KD"), parse_cards("7S,5S"),
    ...                          ranking_for(Suit.S, "above_ah", "low"), bruff)
    >>> format_cards(cards), why.rule_id
    ('KD,AH', 'play.trump_lead.withhold')
    """
    whole = _distinct(hand)
    if not trick:
        return whole, ruling("play.lead")
    led = trick[0]
    trumps = [card for card in hand if order.is_trump(card)]
    if order.is_trump(led):
        return _answer_trump_lead(whole, trumps, led, order)
    led_suit = order.effective_suit(led)
    followers = [card for card in hand if card.suit is led_suit and not order.is_trump(card)]
    if not followers:
        return whole, ruling("play.plain_lead.void", led=led.code(), suit=led_suit.name)
    if rules.follow == "must_follow":
        return _distinct(followers), ruling(
            "play.plain_lead.must_follow", led=led.code(), suit=led_suit.name)
    return _distinct(followers + trumps), ruling(
        "play.plain_lead.trump_or_follow", led=led.code(), suit=led_suit.name)


def _answer_trump_lead(
    whole: tuple[Card, ...], trumps: list[Card], led: Card, order: Ranking
) -> tuple[tuple[Card, ...], Ruling]:
    """Returns the legal answers to the trump *led* by a hand holding *trumps*."""
    if not trumps:
        return whole, ruling("play.trump_lead.void", led=led.code())
    led_power = order.trump_power[led]
    forced = [
        card
        for card in trumps
        if not is_protected(card, order.trump) or order.trump_power[card] <= led_power
    ]
    codes = tuple(card.code() for card in trumps)
    if not forced:
        return whole, ruling("play.trump_lead.withhold", led=led.code(), kept=codes)
    return _distinct(trumps), ruling(
        "play.trump_lead.must_trump", led=led.code(), trumps=codes,
        forced=tuple(card.code() for card in forced), trump=order.trump.name,
    )


def withheld_trumps(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet, card: Card
) -> Ruling | None:
    """Returns the ruling that let *card* (a non-trump, from *hand*) be played to a trump lead
    while trumps were held, or ``None`` when nothing was withheld (no trump lead, *card* a
    trump, no trump held, or a renege the privilege does not cover).

    It is the ruling :func:`legal_cards` gives for the same hand and trick: the fold states it
    as the ``renege_allowed`` fact of a history.
    """
    if not trick or not order.is_trump(trick[0]) or order.is_trump(card):
        return None
    if not any(order.is_trump(held) for held in hand):
        return None
    _, why = legal_cards(hand, trick, order, rules)
    return why if why.rule_id == "play.trump_lead.withhold" else None


def check_card(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet, card: Card
) -> Ruling:
    """Returns the ruling that allows *card*.

    :raises IllegalPlayError: if *card* is not in *hand*, or the rules forbid it; the
        message says which card must be played instead and which rule decided.
    """
    if card not in hand:
        raise IllegalPlayError(
            f"illegal play: {card.code()!r} is not in the hand ({format_cards(hand)})"
        )
    allowed, ruling = legal_cards(hand, trick, order, rules)
    if card in allowed:
        return ruling
    raise IllegalPlayError(f"illegal play: {card.code()!r}; {ruling.text}", ruling=ruling)


def _distinct(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(set(cards), key=card_sort_key))
