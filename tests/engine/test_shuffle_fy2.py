"""hmac-sha256-fy/2: the deck depends on every input (seed, context, deal, cut, each nonce and
their order), a malformed input is refused, and every card keeps being equally likely."""

from __future__ import annotations

import collections

import pytest

from engine.profiles import make_ruleset
from engine.shuffle import (
    ALGORITHM,
    ALGORITHM_2,
    ShuffleError,
    check_nonce,
    cut_deck,
    deal_order,
)

RULES = make_ruleset("bruff")
SEED = "11" * 32
BASE = dict(context="g1", deal=1, position=7, nonces=[(0, "aa" * 16), (3, "bb" * 16)])


def _order(**changes: object) -> tuple[object, ...]:
    inputs = {**BASE, **changes}
    seed = str(inputs.pop("seed", SEED))
    return deal_order(RULES, seed, **inputs)  # type: ignore[arg-type]


@pytest.mark.parametrize("change", [
    {"seed": "12" * 32}, {"context": "g2"}, {"deal": 2}, {"position": 8},
    {"nonces": [(0, "aa" * 16)]}, {"nonces": [(3, "bb" * 16), (0, "aa" * 16)]},
    {"nonces": [(1, "aa" * 16), (3, "bb" * 16)]}, {"nonces": [(0, "ab" * 16), (3, "bb" * 16)]},
])
def test_every_input_changes_the_deck(change: dict[str, object]) -> None:
    assert _order(**change) != _order()


def test_the_deck_is_the_order_cut_and_a_permutation_of_the_pack() -> None:
    order = _order()
    deck = cut_deck(RULES, SEED, ALGORITHM_2, 7, context="g1", deal=1, nonces=BASE["nonces"])
    assert deck == order[7:] + order[:7]
    assert collections.Counter(deck) == collections.Counter(cut_deck(RULES, SEED, ALGORITHM, 7))


@pytest.mark.parametrize("bad", ["AA" * 16, "aa" * 15, "aa" * 65, "a" * 33, "gg" * 16, 7, None])
def test_a_malformed_nonce_is_refused(bad: object) -> None:
    with pytest.raises(ShuffleError, match="nonce"):
        check_nonce(bad)
    with pytest.raises(ShuffleError):
        _order(nonces=[(0, bad)])


def test_bad_cuts_contexts_and_algorithms_are_refused() -> None:
    for position in (0, 53, True):
        with pytest.raises(ShuffleError, match="cut"):
            _order(position=position)
    with pytest.raises(ShuffleError, match="context"):
        cut_deck(RULES, SEED, ALGORITHM_2, 7)
    with pytest.raises(ShuffleError, match="unknown"):
        cut_deck(RULES, SEED, "hmac-sha256-fy/3", 7, context="g1")


def test_each_card_is_equally_likely_at_the_top() -> None:
    # 5300 deals: each of the 53 cards about 100 times at the top (chi-square, 52 degrees of
    # freedom: above 100 happens with probability below 1e-4 for a fair shuffle).
    tops = collections.Counter(_order(context=f"g{i}")[0] for i in range(5300))
    expected = 100
    chi2 = sum((tops[card] - expected) ** 2 / expected for card in set(_order()))
    assert len(tops) == 53 and chi2 < 100, chi2
