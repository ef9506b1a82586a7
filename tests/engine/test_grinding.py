"""Grinding, as an attacker (bench/grind.py): a server choosing among many seeds steers a
seat's hand when it knows every other input of the deck, and does not once a person's nonce
comes after its commitment.

Every seed and nonce comes from a label, so the counts are fixed; the bounds are those of a
binomial test against the exact chance in a fair deal (3.79% for two of the four top trumps
in the dealer's left's bruff hand)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bench import grind
from engine.profiles import make_ruleset

TRIALS = 120
SEEDS = 40


@pytest.fixture(scope="module")
def figures() -> dict[str, object]:
    return grind.measure(TRIALS, SEEDS, label="test")


def test_the_baseline_is_the_exact_chance_in_a_fair_deal() -> None:
    rules = make_ruleset("bruff")
    assert grind.baseline(rules) == Fraction(8363, 220745)  # 0.0379
    wins = grind.Wins(rules)
    fair = sum(grind.fy2(wins, "fair", k, 1, person_nonce=True) for k in range(600))
    assert 1e-3 < grind.upper_tail(fair, 600, 0.0379) < 1 - 1e-3, fair


def test_knowing_every_input_the_server_steers_the_hand(figures: dict) -> None:
    for case in ("fy1_bot_cut", "fy2_bots_only"):
        # With 40 seeds, 1 - 0.962**40 = 79% of deals are steered; chance gives 3.8%.
        assert figures[case]["rate"] > 0.6, case
        assert figures[case]["p_value"] < 1e-30, case


def test_a_persons_nonce_after_the_commitment_leaves_only_chance(figures: dict) -> None:
    nonce = figures["fy2_person_nonce"]
    assert nonce["p_value"] > 1e-3, "no more successes than a fair deal gives at 99.9%"
    assert nonce["successes"] < figures["fy1_bot_cut"]["successes"] / 4


def test_the_upper_tail_is_the_binomial_one() -> None:
    assert grind.upper_tail(0, 10, 0.5) == 1.0
    assert grind.upper_tail(10, 10, 0.5) == pytest.approx(2 ** -10)
    assert grind.upper_tail(9, 10, 0.5) == pytest.approx(11 * 2 ** -10)
