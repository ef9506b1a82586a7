"""Which cards may be played to a trick, and why: the renege privilege and following suit.

On a trump lead a trump must be played when one is held, except that protected trumps (5, J,
AH, joker) may be withheld from a *lower led* trump: a non-trump may be played only when every
trump held is protected and each outranks the card led. The comparison is with the led card
only, never with a higher card played later in the trick.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Rank, card_sort_key, format_cards
from engine.errors import IllegalPlayError
from engine.profiles import RuleSet
from engine.ranking import Ranking, is_protected
from engine.rulings import Ruling


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
        return whole, Ruling("play.lead", "The leader may lead any card.")
    led = trick[0]
    trumps = [card for card in hand if order.is_trump(card)]
    if order.is_trump(led):
        return _answer_trump_lead(whole, trumps, led, order)
    led_suit = order.effective_suit(led)
    followers = [card for card in hand if card.suit is led_suit and not order.is_trump(card)]
    if not followers:
        return whole, Ruling(
            "play.plain_lead.void",
            f"No {led_suit.name} in hand after a {led.code()} lead: any card may be played.",
        )
    if rules.follow == "must_follow":
        return _distinct(followers), Ruling(
            "play.plain_lead.must_follow",
            f"A {led.code()} lead must be followed with {led_suit.name} when able.",
        )
    return _distinct(followers + trumps), Ruling(
        "play.plain_lead.trump_or_follow",
        f"A {led.code()} lead may be trumped; otherwise {led_suit.name} must be followed "
        "when held.",
    )


def _answer_trump_lead(
    whole: tuple[Card, ...], trumps: list[Card], led: Card, order: Ranking
) -> tuple[tuple[Card, ...], Ruling]:
    """Returns the legal answers to the trump *led* by a hand holding *trumps*."""
    if not trumps:
        return whole, Ruling(
            "play.trump_lead.void",
            f"No trump in hand after a {led.code()} lead: any card may be played.",
        )
    led_power = order.trump_power[led]
    forced = [
        card
        for card in trumps
        if not is_protected(card, order.trump) or order.trump_power[card] <= led_power
    ]
    if not forced:
        kept = format_cards(_distinct(trumps))
        return whole, Ruling(
            "play.trump_lead.withhold",
            f"{kept} may be withheld: every trump held is protected and outranks the "
            f"{led.code()} led (compare with the lead only).",
        )
    reasons = []
    for card in _distinct(forced):
        if is_protected(card, order.trump):
            reasons.append(f"a {led.code()} lead forces {_trump_name(card, order)}")
        else:
            reasons.append(f"{card.code()} is not a protected trump")
    must = format_cards(_distinct(trumps))
    verb = "must be played" if len(set(trumps)) == 1 else "are the only legal plays"
    return _distinct(trumps), Ruling(
        "play.trump_lead.must_trump",
        f"{must} {verb}: {'; '.join(reasons)} (a protected trump may only be withheld from "
        "a lower lead).",
    )


def _trump_name(card: Card, order: Ranking) -> str:
    """Returns how a player names a protected trump: "the trump jack", "AH", ..."""
    if card.is_joker:
        return "the joker"
    if card.suit is order.trump and card.rank is Rank.FIVE:
        return "the trump five"
    if card.suit is order.trump and card.rank is Rank.JACK:
        return "the trump jack"
    return card.code()


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
