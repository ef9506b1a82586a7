"""The deck of a duplicate board: algorithm ``hmac-sha256-fy/2`` with the board id as context.

This is ``hmac-sha256-fy/2`` of engine/shuffle.py (docs/verification.md section 5) with the
board id (``<drive>/r<round>/b<deal>``) as context, no nonces (no seat contributes: every table
must get the same cards) and a cut fixed with the board; so the boards of one round reuse one
(context, deal) only at the tables of the same board, never with another deal.

>>> from engine.profiles import make_ruleset
>>> rules = make_ruleset("classic", {}, 4)
>>> order = board_order(rules, "00" * 32, "dr-x/r1/b1", 1, 7)
>>> len(order), len(set(order)), order == board_order(rules, "00" * 32, "dr-x/r1/b1", 1, 7)
(52, 52, True)
"""

from __future__ import annotations

from engine.cards import Card
from engine.profiles import RuleSet
from engine.shuffle import ALGORITHM_2, ShuffleError, deal_order

BOARD_ALGORITHM = ALGORITHM_2
"""The algorithm of every board's deck."""

PLAYED_OUT = "played_out"
"""The ``finish`` of a board every table plays out (``board_dealt``)."""


def board_order(rules: RuleSet, seed_hex: str, board: str, deal: int, cut: int,
                algorithm: str = BOARD_ALGORITHM) -> tuple[Card, ...]:
    """Returns the shuffled pack of a board, top first, before its cut (the fold cuts it, as
    every deal, at *cut*): :func:`engine.shuffle.deal_order` with the board id as context and
    no nonces.

    :raises ShuffleError: for a malformed seed, a cut outside the pack or another algorithm.
    """
    if algorithm != BOARD_ALGORITHM:
        raise ShuffleError(f"unknown board algorithm {algorithm!r} (known: {BOARD_ALGORITHM})")
    return deal_order(rules, seed_hex, board, deal, cut)
