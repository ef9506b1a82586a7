"""Deck order from a shuffle seed and a cut: documented, versioned, checkable by anyone.

Algorithm ``hmac-sha256-fy/1``:

1. The pack in canonical order: for each deck, spades 2..A, clubs, diamonds, hearts, then the
   joker where the profile has one.
2. A byte stream: block *i* (i = 0, 1, ...) is HMAC-SHA256(key = seed bytes,
   message = ``b"fortyfive/shuffle/1"`` + i as 8 bytes big-endian); the stream is the blocks
   concatenated.
3. Fisher-Yates from the last position down: for i = n-1 .. 1, draw j uniform in 0..i and swap
   positions i and j. A draw reads k bytes (the fewest with 256**k > i) as a big-endian
   number v and accepts it only when v < limit, limit being the largest multiple of i+1 not
   above 256**k; then j = v mod (i+1). Rejection keeps every j exactly equally likely.
4. The cut: position p (1..n-1) moves the top p cards underneath: ``order[p:] + order[:p]``.

The commitment published at the shuffle is SHA-256 of the seed bytes. The cut is chosen after
the commitment, so neither the server nor any one player controls the deal.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from itertools import count

from engine.cards import JOKER, STANDARD_DECK, Card
from engine.errors import FortyFiveError
from engine.profiles import RuleSet

ALGORITHM = "hmac-sha256-fy/1"
"""The versioned name of the algorithm in this module; stored in every shuffle event."""

_LABEL = b"fortyfive/shuffle/1"


class ShuffleError(FortyFiveError, ValueError):
    """Raised for a malformed seed or cut, an unknown algorithm, or an exhausted byte stream."""


def pack(rules: RuleSet) -> tuple[Card, ...]:
    """Returns the pack for *rules* in canonical order (before any shuffle)."""
    one = STANDARD_DECK + ((JOKER,) if rules.joker != "none" else ())
    return one * rules.decks


def seed_bytes(seed_hex: str) -> bytes:
    """Returns the 32 bytes of a hex seed.

    :raises ShuffleError: if *seed_hex* is not 64 hex digits.
    """
    try:
        raw = bytes.fromhex(seed_hex)
    except (ValueError, TypeError):
        raise ShuffleError(f"invalid seed {seed_hex!r}: expected 64 hex digits") from None
    if len(seed_hex) != 2 * len(raw):
        # bytes.fromhex skips whitespace; a seed has exactly one spelling up to case.
        raise ShuffleError(f"invalid seed {seed_hex!r}: expected 64 hex digits")
    if len(raw) != 32:
        raise ShuffleError(f"invalid seed {seed_hex!r}: expected 32 bytes, got {len(raw)}")
    return raw


def commitment(seed_hex: str) -> str:
    """Returns the public commitment to a seed: the hex SHA-256 of its bytes."""
    return hashlib.sha256(seed_bytes(seed_hex)).hexdigest()


def byte_stream(seed: bytes) -> Iterator[int]:
    """Yields the endless HMAC-SHA256 byte stream of *seed* (step 2 above)."""
    for block in count():
        yield from hmac.new(seed, _LABEL + block.to_bytes(8, "big"), hashlib.sha256).digest()


def uniform_below(bound: int, stream: Iterator[int]) -> int:
    """Returns a number uniform in 0..bound-1 read from *stream* by rejection sampling.

    :raises ShuffleError: if *stream* runs out before a draw is accepted.
    """
    if bound <= 256:
        # One byte a draw: the common case (every pack has at most 106 cards), kept tight.
        limit = 256 - 256 % bound
        for byte in stream:
            if byte < limit:
                return byte % bound
        raise ShuffleError("byte stream exhausted before the shuffle finished")
    width = 1
    while 256**width < bound:
        width += 1
    space = 256**width
    limit = space - space % bound
    while True:
        value = 0
        for _ in range(width):
            try:
                value = value * 256 + next(stream)
            except StopIteration:
                raise ShuffleError("byte stream exhausted before the shuffle finished") from None
        if value < limit:
            return value % bound


def shuffled(cards: Sequence[Card], stream: Iterator[int]) -> tuple[Card, ...]:
    """Returns *cards* shuffled by Fisher-Yates with draws from *stream* (step 3 above)."""
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = uniform_below(i + 1, stream)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def cut(order: Sequence[Card], position: int) -> tuple[Card, ...]:
    """Returns *order* cut at *position*: the top *position* cards go underneath.

    :raises ShuffleError: if *position* is not 1..len(order)-1.
    """
    if isinstance(position, bool) or not isinstance(position, int) or not (
        1 <= position < len(order)
    ):
        raise ShuffleError(
            f"invalid cut {position!r}: expected a position from 1 to {len(order) - 1}"
        )
    return tuple(order[position:]) + tuple(order[:position])


def deck_order(rules: RuleSet, seed_hex: str, algorithm: str = ALGORITHM) -> tuple[Card, ...]:
    """Returns the order of the pack after the shuffle of *seed_hex*, top card first.

    :raises ShuffleError: for a malformed seed or an algorithm this version does not know.
    """
    if algorithm != ALGORITHM:
        raise ShuffleError(f"unknown shuffle algorithm {algorithm!r} (known: {ALGORITHM})")
    return shuffled(pack(rules), byte_stream(seed_bytes(seed_hex)))


def first_dealer(game_seed_hex: str, players: int) -> int:
    """Returns the first dealer drawn from the game's seed (uniform over the seats)."""
    stream = byte_stream(hashlib.sha256(b"fortyfive/dealer/1" + seed_bytes(game_seed_hex)).digest())
    return uniform_below(players, stream)
