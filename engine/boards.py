"""The deck of a duplicate board: algorithm ``hmac-sha256-fy/2`` with the board id as context.

This follows the shared contract of ``hmac-sha256-fy/2`` (docs/verification.md, owned by
engine/shuffle.py once it lands there): the deal key is ``K = HMAC-SHA256(key=seed,
msg=b"fortyfive/shuffle/2" + canonical_json({"context", "cut", "deal", "nonces"}))``, block i of
the byte stream is ``HMAC-SHA256(key=K, msg=b"fortyfive/shuffle/2/block" + i as 8 bytes
big-endian)``, then Fisher-Yates with rejection and the cut rotation exactly as ``/1``. A board
has no nonces (no seat contributes: every table must get the same cards), its context is its id
(``<drive>/r<round>/b<deal>``) and its cut is fixed with it; so the boards of one round reuse
one (context, deal) only at different tables of the same board, never with another deal.

>>> from engine.profiles import make_ruleset
>>> rules = make_ruleset("classic", {}, 4)
>>> order = board_order(rules, "00" * 32, "dr-x/r1/b1", 1, 7)
>>> len(order), len(set(order)), order == board_order(rules, "00" * 32, "dr-x/r1/b1", 1, 7)
(52, 52, True)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from itertools import count

from engine.cards import Card
from engine.profiles import RuleSet
from engine.shuffle import ShuffleError, pack, seed_bytes, shuffled
from events.codec import canonical_json

BOARD_ALGORITHM = "hmac-sha256-fy/2"
"""The algorithm of every board's deck."""

_LABEL = b"fortyfive/shuffle/2"
_BLOCK = b"fortyfive/shuffle/2/block"


def deal_key(seed: bytes, context: str, deal: int, cut: int,
             nonces: tuple[dict[str, object], ...] = ()) -> bytes:
    """Returns the deal key ``K`` of ``hmac-sha256-fy/2``."""
    message = _LABEL + canonical_json(
        {"context": context, "cut": cut, "deal": deal, "nonces": list(nonces)})
    return hmac.new(seed, message, hashlib.sha256).digest()


def byte_stream_2(key: bytes) -> Iterator[int]:
    """Yields the endless byte stream of deal key *key*."""
    for block in count():
        yield from hmac.new(key, _BLOCK + block.to_bytes(8, "big"), hashlib.sha256).digest()


def board_order(rules: RuleSet, seed_hex: str, board: str, deal: int, cut: int,
                algorithm: str = BOARD_ALGORITHM) -> tuple[Card, ...]:
    """Returns the shuffled pack of a board, top first, before its cut (the fold cuts it, as
    every deal, at *cut*).

    :raises ShuffleError: for a malformed seed, a cut outside the pack or another algorithm.
    """
    if algorithm != BOARD_ALGORITHM:
        raise ShuffleError(f"unknown board algorithm {algorithm!r} (known: {BOARD_ALGORITHM})")
    cards = pack(rules)
    if isinstance(cut, bool) or not 1 <= cut < len(cards):
        raise ShuffleError(f"invalid cut {cut!r}: expected a position from 1 to {len(cards) - 1}")
    return shuffled(cards, byte_stream_2(deal_key(seed_bytes(seed_hex), board, deal, cut)))
