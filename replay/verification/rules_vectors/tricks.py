"""Trick vectors: a complete trick (one card from each player, in play order) and its winner,
with the rule id that decided and the engine's sentence."""

from __future__ import annotations

from typing import Any

from engine.cards import Suit
from engine.query import winner_query
from engine.ranking import ranking
from engine.shuffle import pack
from replay.verification.rules_vectors.draws import Draws
from replay.verification.rules_vectors.tables import Table

TRICK_RULES = ("trick.highest_trump", "trick.highest_of_led_suit", "trick.identical_first")
"""The rule ids a trick's winner can be decided by."""

PER_TABLE = 90
"""Tricks drawn at each table."""

_ATTEMPTS = 40


def trick_cases(table: Table) -> list[dict[str, Any]]:
    """Returns the trick cases of *table*, drawn from its own seeded chance, each rule id
    that can occur there about as often as the others."""
    rules = table.rules()
    draws = Draws(f"tricks/{table.name}")
    possible = [rule for rule in TRICK_RULES
                if rule != "trick.identical_first" or rules.decks > 1]
    quota = -(-PER_TABLE // len(possible))
    kept: dict[str, int] = dict.fromkeys(possible, 0)
    cases: list[dict[str, Any]] = []
    for _ in range(PER_TABLE * _ATTEMPTS):
        if len(cases) >= PER_TABLE:
            break
        trump = draws.choice(tuple(Suit))
        order = ranking(trump, rules)
        cards = draws.shuffled(pack(rules))[:rules.players]
        if draws.chance(50):
            # No trump at all: the led suit decides.
            cards = [card for card in draws.shuffled(pack(rules)) if not order.is_trump(card)]
            cards = cards[:rules.players]
        if rules.decks > 1 and draws.chance(50):
            # Two packs: a card played twice.
            first, second = draws.randrange(len(cards)), draws.randrange(len(cards))
            if first != second and cards.count(cards[first]) < rules.decks:
                cards[second] = cards[first]
        codes = [card.code() for card in cards]
        answer = winner_query(table.profile, dict(table.options), table.players, trump.name,
                              codes)
        if kept.get(answer["rule"], quota) >= quota:
            continue
        kept[answer["rule"]] += 1
        cases.append({
            "id": f"{table.name}/t{len(cases) + 1}",
            "table": table.name,
            "trump": trump.name,
            "cards": codes,
            "winner": answer["winner"],
            "card": answer["card"],
            "rule": answer["rule"],
            "text": answer["ruling"],
        })
    return cases
