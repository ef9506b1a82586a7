"""Which cards may be played to a trick, and why: the renege privilege and following suit.

On a trump lead a trump must be played when one is held, except that protected trumps (5, J,
AH, joker) may be withheld from a *lower led* trump: a non-trump may be played only when every
trump held is protected and each outranks the card led. The comparison is with the led card
only, never with a higher card played later in the trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import JOKER_INDEX, Card, cards_of, format_cards
from engine.profiles import RuleSet
from engine.ranking import Ranking
from engine.rejections import IllegalPlayError
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
    mask, rule_id = _legal(hand, trick, order, rules)
    return cards_of(mask), _ruling(rule_id, hand, trick, order)


def legal_mask(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet
) -> int:
    """Returns the cards :func:`legal_cards` allows as a :class:`~engine.cards.CardSet`
    mask, without writing the ruling (the hot path: listing a seat's legal actions)."""
    return _legal(hand, trick, order, rules)[0]


def _legal(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet
) -> tuple[int, str]:
    """Returns the legal cards of *hand* as a mask and the rule id that decided.

    The decision itself; :func:`_ruling` writes the facts of the case only when a ruling is
    asked for. One move asks it up to three times of the same hand and trick (listing the
    legal actions, checking the play, the fold's renege fact), so the last answer is kept:
    hands and tricks are immutable tuples, so the same objects mean the same answer.
    """
    last = _LAST.entry
    if last[0] is hand and last[1] is trick and last[2] is order and last[3] is rules:
        return last[4]
    answer = _decide(hand, trick, order, rules)
    _LAST.entry = (hand, trick, order, rules, answer)  # Replaced whole, never field by field.
    return answer


def _decide(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet
) -> tuple[int, str]:
    whole = 0
    for card in hand:
        whole |= _BIT[card]
    if not trick:
        return whole, "play.lead"
    led = trick[0]
    trumps = whole & order.trump_mask
    if order.trump_mask >> led & 1:
        if not trumps:
            return whole, "play.trump_lead.void"
        # Protected trumps that outrank the led card may be withheld; any other must be played.
        if not trumps & ~(order.protected_mask & order.stronger[led]):
            return whole, "play.trump_lead.withhold"
        return trumps, "play.trump_lead.must_trump"
    followers = whole & order.follow_masks[order.led_suit_of[led]]
    if not followers:
        return whole, "play.plain_lead.void"
    if rules.follow == "must_follow":
        return followers, "play.plain_lead.must_follow"
    return followers | trumps, "play.plain_lead.trump_or_follow"


_BIT: Final = tuple(1 << index for index in range(JOKER_INDEX + 1))
"""Each card's bit in a mask, indexed by card."""

class _LastAnswer:
    """Holds the last hand, trick, ranking and rules :func:`_legal` answered, and its answer,
    as one tuple replaced whole: interpreted, one attribute store; compiled, a copy of its
    fields that no other thread can interrupt (the GIL is not released within it). An
    object's field rather than a module global, so that compiled code reads and writes it in
    place, not through the module's dictionary."""

    def __init__(self) -> None:
        self.entry: tuple[object, object, object, object, tuple[int, str]] = (
            None, None, None, None, (0, ""))


_LAST: Final = _LastAnswer()


def _ruling(rule_id: str, hand: Sequence[Card], trick: Sequence[Card], order: Ranking) -> Ruling:
    """Returns the ruling of *rule_id* with the facts of this hand and trick."""
    if rule_id == "play.lead":
        return ruling(rule_id)
    led = trick[0]
    if rule_id.startswith("play.plain_lead."):
        return ruling(rule_id, led=led.code(), suit=order.effective_suit(led).name)
    if rule_id == "play.trump_lead.void":
        return ruling(rule_id, led=led.code())
    trumps = [card for card in hand if order.is_trump(card)]
    codes = tuple(card.code() for card in trumps)
    if rule_id == "play.trump_lead.withhold":
        return ruling(rule_id, led=led.code(), kept=codes)
    assert rule_id == "play.trump_lead.must_trump", f"no ruling for {rule_id!r}"
    exempt = order.protected_mask & order.stronger[led]
    forced = tuple(card.code() for card in trumps if not exempt >> card & 1)
    return ruling(rule_id, led=led.code(), trumps=codes, forced=forced, trump=order.trump.name)


def withheld_trumps(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet, card: Card
) -> Ruling | None:
    """Returns the ruling that let *card* (a non-trump, from *hand*) be played to a trump lead
    while trumps were held, or ``None`` when nothing was withheld (no trump lead, *card* a
    trump, no trump held, or a renege the privilege does not cover).

    It is the ruling :func:`legal_cards` gives for the same hand and trick: the fold states it
    as the ``renege_allowed`` fact of a history.
    """
    trump_mask = order.trump_mask
    if not trick or not trump_mask >> trick[0] & 1 or trump_mask >> card & 1:
        return None
    _, rule_id = _legal(hand, trick, order, rules)
    if rule_id != "play.trump_lead.withhold":
        return None
    return _ruling(rule_id, hand, trick, order)


def check_card(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet, card: Card
) -> Ruling:
    """Returns the ruling that allows *card*.

    :raises IllegalPlayError: if *card* is not in *hand*, or the rules forbid it; the
        message says which card must be played instead and which rule decided.
    """
    return _ruling(allow_card(hand, trick, order, rules, card), hand, trick, order)


def allow_card(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet, card: Card
) -> str:
    """Returns the rule id that allows *card*: :func:`check_card` without writing the ruling.

    :raises IllegalPlayError: as :func:`check_card`.
    """
    if card not in hand:
        raise IllegalPlayError(
            f"illegal play: {card.code()!r} is not in the hand ({format_cards(hand)})"
        )
    mask, rule_id = _legal(hand, trick, order, rules)
    if mask >> card & 1:
        return rule_id
    why = _ruling(rule_id, hand, trick, order)
    raise IllegalPlayError(f"illegal play: {card.code()!r}; {why.text}", ruling=why)
