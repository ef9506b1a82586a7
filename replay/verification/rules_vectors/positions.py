"""Position vectors: a hand, trumps and a trick so far, the cards the hand may play, and for
each refused card the engine's reason.

Positions are drawn at random and kept while each rule id that decides legality at the table
still wants cases, so every rule id is represented evenly, not as often as chance gives it.
"""

from __future__ import annotations

from typing import Any

from engine.cards import Card, Suit, card_sort_key
from engine.legality import check_card
from engine.query import HAND_SIZE, legal_query
from engine.ranking import is_protected, ranking
from engine.rejections import IllegalPlayError
from engine.rule_ids import RULE_IDS
from engine.shuffle import pack
from replay.verification.rules_vectors.draws import Draws
from replay.verification.rules_vectors.tables import Table

LEGALITY_RULES = tuple(rule for rule in RULE_IDS if rule.startswith("play."))
"""The rule ids a position can be decided by."""

PER_TABLE = 140
"""Positions drawn at each table."""

_ATTEMPTS = 40
"""Draws per position wanted before a rule id that cannot occur at a table is given up."""


def position_cases(table: Table) -> list[dict[str, Any]]:
    """Returns the position cases of *table*, drawn from its own seeded chance."""
    rules = table.rules()
    draws = Draws(f"positions/{table.name}")
    possible = [rule for rule in LEGALITY_RULES
                if not (rule == "play.plain_lead.must_follow" and rules.follow != "must_follow")
                and not (rule == "play.plain_lead.trump_or_follow"
                         and rules.follow == "must_follow")]
    quota = -(-PER_TABLE // len(possible))
    kept: dict[str, int] = dict.fromkeys(possible, 0)
    cases: list[dict[str, Any]] = []
    for _ in range(PER_TABLE * _ATTEMPTS):
        if len(cases) >= PER_TABLE:
            break
        trump, trick, hand = _draw(table, draws)
        answer = legal_query(table.profile, dict(table.options), table.players, trump.name,
                             [card.code() for card in trick], [card.code() for card in hand])
        if kept.get(answer["rule"], quota) >= quota:
            continue
        kept[answer["rule"]] += 1
        cases.append(_case(table, len(cases) + 1, trump, trick, hand, answer))
    return cases


def _draw(table: Table, draws: Draws) -> tuple[Suit, tuple[Card, ...], tuple[Card, ...]]:
    """Returns trumps, a trick so far and a hand, drawn from one shuffled pack; about half
    the time the trick is led with a trump and the hand holds protected trumps, the cases
    the trump-lead rules are about."""
    rules = table.rules()
    trump = draws.choice(tuple(Suit))
    order = ranking(trump, rules)
    cards = draws.shuffled(pack(rules))
    played = draws.randrange(rules.players)
    if played and draws.chance(50):
        # A trump lead: bring the first trump of the pack to the front.
        first = next(index for index, card in enumerate(cards) if order.is_trump(card))
        cards.insert(0, cards.pop(first))
    size = 1 + draws.randrange(HAND_SIZE)
    hand = cards[played:played + size]
    if draws.chance(40):
        # Protected trumps in hand: swap some in from the rest of the pack.
        rest = cards[played + size:]
        protected = [card for card in rest if is_protected(card, trump)]
        for slot in range(min(len(hand), len(protected), 1 + draws.randrange(2))):
            hand[slot] = protected[slot]
    return trump, tuple(cards[:played]), tuple(sorted(hand, key=card_sort_key))


def _case(table: Table, number: int, trump: Suit, trick: tuple[Card, ...],
          hand: tuple[Card, ...], answer: dict[str, Any]) -> dict[str, Any]:
    """Returns the case of one position; each refused card's reason is the engine's refusal
    of that very card (:func:`engine.legality.check_card`)."""
    rules = table.rules()
    order = ranking(trump, rules)
    refused: list[dict[str, Any]] = []
    for card in dict.fromkeys(hand):
        try:
            check_card(hand, trick, order, rules, card)
        except IllegalPlayError as error:
            assert error.ruling is not None, "a refused card of the hand has a ruling"
            refused.append({"card": card.code(), "rule": error.ruling.rule_id,
                            "text": error.ruling.text})
    assert len(refused) + len(answer["legal"]) == len(set(hand)), "every card ruled once"
    return {
        "id": f"{table.name}/p{number}",
        "table": table.name,
        "trump": trump.name,
        "trick": [card.code() for card in trick],
        "hand": [card.code() for card in hand],
        "legal": answer["legal"],
        "rule": answer["rule"],
        "text": answer["ruling"],
        "refused": refused,
        "trumps_held": answer["trumps"],
        "protected_held": answer["top_trumps"],
    }
