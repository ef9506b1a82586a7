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

Algorithm ``hmac-sha256-fy/2`` (new games) keys the byte stream with the deal's own key,
``K = HMAC-SHA256(seed, b"fortyfive/shuffle/2" + canonical JSON of {context, cut, deal,
nonces})``, block *i* being HMAC-SHA256(K, ``b"fortyfive/shuffle/2/block"`` + i as 8 bytes
big-endian); steps 1, 3 and 4 are those of ``/1``. So the deck depends on the game (its id,
the *context*), the deal number and every contribution made after the commitment: nobody can
know it before the cut. docs/verification.md gives both byte by byte, with vectors.

Bots and the turn clock contribute a cut drawn from a per-game secret committed at the game's
creation (:func:`committed_cut`), so their contributions are fixed before any deal's seed.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, count, repeat
from typing import Any

from engine.cards import JOKER, STANDARD_DECK, Card
from engine.errors import FortyFiveError
from engine.profiles import RuleSet
from events.codec import canonical_json

ALGORITHM = "hmac-sha256-fy/1"
"""The first versioned algorithm: the deck from the seed alone, then the cut."""
ALGORITHM_2 = "hmac-sha256-fy/2"
"""The algorithm of new games: the deck from the seed, the context, the deal and the
contributions (:func:`deal_key`)."""
ALGORITHMS = (ALGORITHM, ALGORITHM_2)
"""Every algorithm this version can re-derive."""

_LABEL = b"fortyfive/shuffle/1"
_LABEL_2 = b"fortyfive/shuffle/2"
_BLOCK_2 = b"fortyfive/shuffle/2/block"
_CONTRIBUTION_LABEL = b"fortyfive/contribution/1"
_CONTRIBUTION_BLOCK = b"fortyfive/contribution/1/block"
NONCE_DIGITS = (32, 128)
"""The fewest and most hex digits of a nonce (16 to 64 bytes)."""


class ShuffleError(FortyFiveError, ValueError):
    """Raised for a malformed seed or cut, an unknown algorithm, or an exhausted byte stream."""


def pack(rules: RuleSet) -> tuple[Card, ...]:
    """Returns the pack for *rules* in canonical order (before any shuffle)."""
    one = STANDARD_DECK + ((JOKER,) if rules.joker != "none" else ())
    return one * rules.decks


def seed_bytes(seed_hex: object) -> bytes:
    """Returns the 32 bytes of a hex seed.

    :raises ShuffleError: if *seed_hex* is not 64 hex digits.
    """
    if not isinstance(seed_hex, str):
        raise ShuffleError(f"invalid seed {seed_hex!r}: expected 64 hex digits")
    try:
        raw = bytes.fromhex(seed_hex)
    except ValueError:
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
    return keyed_stream(seed, _LABEL)


def keyed_stream(key: bytes, label: bytes) -> Iterator[int]:
    """Yields the bytes of HMAC-SHA256(*key*, *label* + i as 8 bytes big-endian), i = 0, 1...

    Chained in C: a byte costs no Python frame, only a block does (a shuffle reads ~60)."""
    return chain.from_iterable(map(_block_digest, repeat(key), repeat(label), count()))


def _block_digest(key: bytes, label: bytes, block: int) -> bytes:
    return hmac.digest(key, label + block.to_bytes(8, "big"), "sha256")


def check_nonce(nonce: object) -> str:
    """Returns *nonce* if it is lowercase hex of 16 to 64 bytes.

    :raises ShuffleError: otherwise, saying what is wrong.
    """
    low, high = NONCE_DIGITS
    if not isinstance(nonce, str) or not re.fullmatch(r"[0-9a-f]*", nonce):
        raise ShuffleError(f"invalid nonce {nonce!r}: expected lowercase hex digits")
    if not low <= len(nonce) <= high or len(nonce) % 2:
        raise ShuffleError(
            f"invalid nonce of {len(nonce)} hex digits: expected an even number from "
            f"{low} to {high} (16 to 64 bytes)")
    return nonce


def nonce_list(nonces: Iterable[tuple[int, str]]) -> list[dict[str, Any]]:
    """Returns (seat, nonce) pairs as the ``nonces`` list of :func:`deal_key`."""
    return [{"seat": seat, "nonce": nonce} for seat, nonce in nonces]


def deal_key(seed_hex: str, context: str, deal: int, position: int,
             nonces: Iterable[tuple[int, str]]) -> bytes:
    """Returns the key ``K`` of a ``/2`` deal: HMAC-SHA256 keyed by the seed over the label
    and the canonical JSON (RFC 8785) of the context, the cut, the deal and the nonces."""
    message = _LABEL_2 + canonical_json(
        {"context": context, "cut": position, "deal": deal, "nonces": nonce_list(nonces)})
    return hmac.digest(seed_bytes(seed_hex), message, "sha256")


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
    if len(order) > 256:
        for i in range(len(order) - 1, 0, -1):
            j = uniform_below(i + 1, stream)
            order[i], order[j] = order[j], order[i]
        return tuple(order)
    # Every draw one byte (as uniform_below reads it for a bound up to 256), looked up in the
    # position's table of what each byte draws: this loop runs for every deal, in every fold.
    draw = iter(stream).__next__
    try:
        for i, drawn in _draw_tables(len(order)):
            j = drawn[draw()]
            while j < 0:
                j = drawn[draw()]
            order[i], order[j] = order[j], order[i]
    except StopIteration:
        raise ShuffleError("byte stream exhausted before the shuffle finished") from None
    return tuple(order)


@functools.cache
def _draw_tables(size: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Returns, for each Fisher-Yates position i of a pack of *size* (at most 256) cards from
    the last down, i and what each byte draws there as :func:`uniform_below` reads it, -1 for
    a byte it rejects (and then reads the next)."""
    return tuple((i, tuple(_drawn(i + 1, byte) for byte in range(256)))
                 for i in range(size - 1, 0, -1))


def _drawn(bound: int, byte: int) -> int:
    """Returns what :func:`uniform_below` draws below *bound* from *byte* alone, or -1 when it
    rejects that byte."""
    try:
        return uniform_below(bound, iter((byte,)))
    except ShuffleError:
        return -1


def cut(order: Sequence[Card], position: object) -> tuple[Card, ...]:
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


def deck_order(rules: RuleSet, seed_hex: object, algorithm: str = ALGORITHM) -> tuple[Card, ...]:
    """Returns the order of the pack after the ``/1`` shuffle of *seed_hex*, top card first.

    :raises ShuffleError: for a malformed seed or an algorithm other than ``/1`` (a ``/2``
        order needs the cut and the contributions: :func:`deal_order`).
    """
    if algorithm != ALGORITHM:
        raise ShuffleError(
            f"unknown shuffle algorithm {algorithm!r} here (known: {ALGORITHM}; "
            f"{ALGORITHM_2} is derived at the cut)")
    return shuffled(pack(rules), byte_stream(seed_bytes(seed_hex)))


def deal_order(rules: RuleSet, seed_hex: str, context: str, deal: int, position: object,
               nonces: Iterable[tuple[int, object]] = ()) -> tuple[Card, ...]:
    """Returns the ``/2`` order of the pack before the cut, top card first: Fisher-Yates over
    the stream of :func:`deal_key` (the cut at *position* is then :func:`cut`).

    :raises ShuffleError: for a malformed seed, cut or nonce.
    """
    cards = pack(rules)
    if isinstance(position, bool) or not isinstance(position, int) or not (
            1 <= position < len(cards)):
        raise ShuffleError(
            f"invalid cut {position!r}: expected a position from 1 to {len(cards) - 1}")
    pairs = [(seat, check_nonce(nonce)) for seat, nonce in nonces]
    key = deal_key(seed_hex, context, deal, position, pairs)
    return shuffled(cards, keyed_stream(key, _BLOCK_2))


def cut_deck(rules: RuleSet, seed_hex: str, algorithm: str, position: int, *,
             context: str | None = None, deal: int = 1,
             nonces: Iterable[tuple[int, str]] = ()) -> tuple[Card, ...]:
    """Returns the pack as dealt, top card first: shuffled by *algorithm*, then cut.

    :raises ShuffleError: for a malformed input, an unknown algorithm, or a ``/2`` deal
        without its context.
    """
    if algorithm == ALGORITHM:
        return cut(deck_order(rules, seed_hex), position)
    if algorithm == ALGORITHM_2:
        if context is None:
            raise ShuffleError(f"{ALGORITHM_2} needs the deal's context (the game id)")
        return cut(deal_order(rules, seed_hex, context, deal, position, nonces), position)
    raise ShuffleError(
        f"unknown shuffle algorithm {algorithm!r} (known: {', '.join(ALGORITHMS)})")


def contribution_commitment(secret_hex: str) -> str:
    """Returns the public commitment to a game's contribution secret: its hex SHA-256."""
    return commitment(secret_hex)


def committed_cut(secret_hex: str, context: str, deal: int, seat: int, size: int) -> int:
    """Returns the cut a bot or the turn clock makes for *seat* in *deal*: fixed by the game's
    contribution secret (committed in ``game_created``, before any deal's seed is drawn).

    The position is ``1 + uniform_below(size - 1)`` over the stream keyed by
    HMAC-SHA256(secret, ``b"fortyfive/contribution/1"`` + canonical JSON of {context, deal,
    seat}) with block label ``b"fortyfive/contribution/1/block"``.
    """
    message = _CONTRIBUTION_LABEL + canonical_json(
        {"context": context, "deal": deal, "seat": seat})
    key = hmac.digest(seed_bytes(secret_hex), message, "sha256")
    return 1 + uniform_below(size - 1, keyed_stream(key, _CONTRIBUTION_BLOCK))


def first_dealer(game_seed_hex: str, players: int) -> int:
    """Returns the first dealer drawn from the game's seed (uniform over the seats)."""
    stream = byte_stream(hashlib.sha256(b"fortyfive/dealer/1" + seed_bytes(game_seed_hex)).digest())
    return uniform_below(players, stream)
