"""The seeded shuffle: uniform over orders, exact on boundary byte streams, strict on its inputs.

Statistical tests use fixed seeds (SHA-256 of an index), so they are deterministic: they either
always pass or always fail for a given implementation. Each compares a chi-square statistic with
its 0.001 critical value, and the naive-shuffle test shows that the same check catches a bias.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import pytest

from engine.cards import STANDARD_DECK, Card, format_cards, parse_cards
from engine.profiles import make_ruleset
from engine.shuffle import (
    ALGORITHM,
    ShuffleError,
    byte_stream,
    commitment,
    cut,
    deck_order,
    first_dealer,
    keyed_stream,
    pack,
    seed_bytes,
    shuffled,
    uniform_below,
)

BRUFF = make_ruleset("bruff")
ZERO_SEED = "00" * 32

# Upper 0.001 critical values of the chi-square distribution, from standard tables.
CHI2_CRITICAL_0_001 = {5: 20.515, 23: 49.728}


def _seed(index: int) -> bytes:
    return hashlib.sha256(b"test-shuffle/%d" % index).digest()


def _seed_hex(index: int) -> str:
    return _seed(index).hex()


def _chi_square(counts: Sequence[int], expected: float) -> float:
    return sum((count - expected) ** 2 / expected for count in counts)


def _chi2_critical(df: int) -> float:
    """Returns the 0.001 critical value: tabulated, or Wilson-Hilferty for large *df*."""
    if df in CHI2_CRITICAL_0_001:
        return CHI2_CRITICAL_0_001[df]
    z = 3.0902  # upper 0.001 point of the standard normal
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _order_counts(size: int, shuffles: int) -> Counter[str]:
    cards = STANDARD_DECK[:size]
    return Counter(
        format_cards(shuffled(cards, byte_stream(_seed(index)))) for index in range(shuffles)
    )


def _assert_uniform_orders(counts: Counter[str], size: int, shuffles: int) -> None:
    orders = math.factorial(size)
    expected = shuffles / orders
    assert len(counts) == orders, f"only {len(counts)} of {orders} orders were reached"
    for order, count in counts.items():
        assert abs(count - expected) <= 0.15 * expected, f"{order} came {count} times"
    statistic = _chi_square(list(counts.values()), expected)
    assert statistic < _chi2_critical(orders - 1), f"chi-square {statistic:.1f}"


def test_every_order_of_three_cards_is_equally_likely() -> None:
    _assert_uniform_orders(_order_counts(3, 6000), 3, 6000)


def test_every_order_of_four_cards_is_equally_likely() -> None:
    _assert_uniform_orders(_order_counts(4, 24000), 4, 24000)


def test_the_uniformity_check_catches_the_naive_swap_with_any_position_shuffle() -> None:
    # Swapping each position with any of the n positions gives 27 equally likely paths over
    # 6 orders, so some orders come 5/27 of the time and others 4/27.
    cards = STANDARD_DECK[:3]
    counts: Counter[str] = Counter()
    for index in range(6000):
        stream = byte_stream(_seed(index))
        order = list(cards)
        for i in range(3):
            j = uniform_below(3, stream)
            order[i], order[j] = order[j], order[i]
        counts[format_cards(order)] += 1
    with pytest.raises(AssertionError):
        _assert_uniform_orders(counts, 3, 6000)


def _position_statistic(order_of: Callable[[int], Sequence[Card]], shuffles: int) -> float:
    """Returns the scaled chi-square of card against position over *shuffles* orders.

    Each shuffle is a permutation matrix, whose covariance is n/(n-1) times a projection onto
    (n-1)**2 dimensions: so (n-1)/n times the Pearson statistic is chi-square with (n-1)**2
    degrees of freedom (its unscaled mean is n(n-1), not (n-1)**2).
    """
    cards = pack(BRUFF)
    size = len(cards)
    table = Counter[tuple[Card, int]]()
    for index in range(shuffles):
        for position, card in enumerate(order_of(index)):
            table[card, position] += 1
    counts = [table[card, position] for card in cards for position in range(size)]
    return _chi_square(counts, shuffles / size) * (size - 1) / size


def test_each_card_is_equally_likely_at_each_position_of_the_bruff_pack() -> None:
    assert len(pack(BRUFF)) == 53
    statistic = _position_statistic(lambda index: deck_order(BRUFF, _seed_hex(index)), 8000)
    assert statistic < _chi2_critical(52 * 52), f"chi-square {statistic:.0f}"


def test_the_position_check_catches_the_naive_shuffle_of_the_bruff_pack() -> None:
    def naive(index: int) -> list[Card]:
        stream = byte_stream(_seed(index))
        order = list(pack(BRUFF))
        for i in range(len(order)):
            j = uniform_below(len(order), stream)
            order[i], order[j] = order[j], order[i]
        return order

    assert _position_statistic(naive, 3000) > _chi2_critical(52 * 52)


# Boundary byte streams.


def test_an_all_zero_stream_moves_the_top_card_to_the_bottom() -> None:
    # Every draw is j = 0, so position i swaps with the top card for i = n-1 .. 1: the pack
    # rotates one place and the original top card ends at the bottom.
    cards = parse_cards("2S,3S,4S,5S")
    assert format_cards(shuffled(cards, itertools.repeat(0))) == "3S,4S,5S,2S"
    whole = pack(BRUFF)
    assert shuffled(whole, itertools.repeat(0)) == whole[1:] + whole[:1]


def test_a_rejected_byte_is_skipped_and_the_next_one_read() -> None:
    # For bound 3 the largest multiple of 3 not above 256 is 255, so 0xFF is rejected.
    stream = iter([0xFF, 7, 42])
    assert uniform_below(3, stream) == 7 % 3
    assert next(stream) == 42


def test_an_accepted_byte_is_reduced_modulo_the_bound() -> None:
    assert uniform_below(3, iter([0xFE])) == 254 % 3
    assert uniform_below(52, iter([207])) == 207 % 52


def test_limit_is_exact_for_bound_52() -> None:
    # 256 - 256 % 52 = 208: 207 is accepted, 208 rejected.
    stream = iter([208, 255, 5])
    assert uniform_below(52, stream) == 5


def test_a_bound_dividing_256_never_rejects() -> None:
    assert uniform_below(256, iter([0xFF])) == 255
    assert uniform_below(4, iter([0xFF])) == 3


def test_bound_255_rejects_only_0xff() -> None:
    assert uniform_below(255, iter([0xFF, 0xFE])) == 254


def test_bound_one_always_draws_zero() -> None:
    assert uniform_below(1, iter([0xFF])) == 0
    assert uniform_below(1, iter([0x00])) == 0


def test_a_bound_above_256_reads_two_bytes_big_endian() -> None:
    assert uniform_below(257, iter([0x01, 0x00])) == 256
    assert uniform_below(300, iter([0x00, 0x2A])) == 42
    # 65536 - 65536 % 257 = 65535: 0xFFFF is rejected and two more bytes are read.
    stream = iter([0xFF, 0xFF, 0x01, 0x02, 9])
    assert uniform_below(257, stream) == 0x0102 % 257
    assert next(stream) == 9


def test_an_exhausted_stream_raises_shuffle_error() -> None:
    with pytest.raises(ShuffleError, match="byte stream exhausted"):
        uniform_below(3, iter([0xFF]))
    with pytest.raises(ShuffleError, match="byte stream exhausted"):
        uniform_below(257, iter([0x01]))
    with pytest.raises(ShuffleError, match="byte stream exhausted"):
        shuffled(parse_cards("2S,3S,4S,5S"), iter([0, 0]))


def test_shuffle_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        uniform_below(3, iter([]))


def test_byte_stream_is_hmac_sha256_blocks_of_the_documented_label() -> None:
    seed = _seed(7)
    stream = byte_stream(seed)
    first = bytes(itertools.islice(stream, 64))
    label = b"fortyfive/shuffle/1"
    expected = b"".join(
        hmac.new(seed, label + block.to_bytes(8, "big"), hashlib.sha256).digest()
        for block in (0, 1)
    )
    assert first == expected


def _reference_deck_order(cards: Sequence[Card], seed: bytes) -> list[Card]:
    """The algorithm as the shuffle module's docstring states it, written independently."""
    data = bytearray()
    block = 0

    def byte() -> int:
        nonlocal block
        if not data:
            data.extend(hmac.new(seed, b"fortyfive/shuffle/1" + block.to_bytes(8, "big"),
                                 hashlib.sha256).digest())
            block += 1
        return data.pop(0)

    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        k = 1
        while 256**k <= i:
            k += 1
        limit = 256**k - 256**k % (i + 1)
        while True:
            value = int.from_bytes(bytes(byte() for _ in range(k)), "big")
            if value < limit:
                break
        j = value % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize("index", range(5))
def test_deck_order_matches_an_independent_reading_of_the_documented_algorithm(
    index: int,
) -> None:
    two_packs = make_ruleset("classic", {"decks": 2, "joker": "below_ah"}, 8)
    for rules in (BRUFF, two_packs):
        expected = _reference_deck_order(pack(rules), _seed(index))
        assert list(deck_order(rules, _seed_hex(index))) == expected


def test_deck_order_of_the_zero_seed_is_pinned() -> None:
    # A change here changes every stored game's deal: bump ALGORITHM instead.
    order = format_cards(deck_order(BRUFF, ZERO_SEED))
    assert order.startswith("6D,2H,JH,JK,8C,6S,TH,3C,5C,KH,")
    assert order.endswith(",QH,2D,AD,QS")
    assert ALGORITHM == "hmac-sha256-fy/1"


# The cut.


def test_cut_moves_the_top_cards_underneath() -> None:
    cards = parse_cards("2S,3S,4S,5S")
    assert format_cards(cut(cards, 1)) == "3S,4S,5S,2S"
    assert format_cards(cut(cards, 3)) == "5S,2S,3S,4S"


@pytest.mark.parametrize("position", [0, 4, -1, 5, True, "3", 2.0, None])
def test_cut_refuses_a_position_outside_one_to_n_minus_one(position: object) -> None:
    cards = parse_cards("2S,3S,4S,5S")
    with pytest.raises(ShuffleError) as caught:
        cut(cards, position)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"invalid cut {position!r}: expected a position from 1 to 3"
    )


# Seeds and the commitment.


@pytest.mark.parametrize(
    "seed",
    ["", "zz" * 32, "00" * 31, "00" * 33, "0" * 63, "00 " * 32, " " + "00" * 32, None,
     b"00" * 32],
)
def test_seed_must_be_exactly_64_hex_digits(seed: object) -> None:
    with pytest.raises(ShuffleError, match=r"^invalid seed "):
        seed_bytes(seed)  # type: ignore[arg-type]
    with pytest.raises(ShuffleError):
        deck_order(BRUFF, seed)  # type: ignore[arg-type]


def test_seed_hex_is_case_insensitive() -> None:
    assert seed_bytes("AB" * 32) == seed_bytes("ab" * 32) == b"\xab" * 32


def test_deck_order_refuses_an_unknown_algorithm() -> None:
    with pytest.raises(ShuffleError, match="unknown shuffle algorithm 'fy/0'"):
        deck_order(BRUFF, ZERO_SEED, "fy/0")


def test_deck_order_is_deterministic_and_a_permutation_of_the_pack() -> None:
    first = deck_order(BRUFF, _seed_hex(1))
    assert deck_order(BRUFF, _seed_hex(1)) == first
    assert sorted(first, key=pack(BRUFF).index) == list(pack(BRUFF))


def test_deck_order_differs_between_seeds() -> None:
    orders = {deck_order(BRUFF, _seed_hex(index)) for index in range(50)}
    assert len(orders) == 50


def test_two_packs_hold_every_card_twice() -> None:
    rules = make_ruleset("classic", {"decks": 2}, 8)
    counts = Counter(deck_order(rules, ZERO_SEED))
    assert len(counts) == 52 and set(counts.values()) == {2}


def test_commitment_is_the_sha256_of_the_seed_bytes() -> None:
    assert commitment(ZERO_SEED) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )
    seed = _seed_hex(3)
    assert commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert commitment(seed.upper()) == commitment(seed)
    with pytest.raises(ShuffleError):
        commitment("00")


# The first dealer.


def _dealers(players: int, games: int) -> Iterator[int]:
    return (first_dealer(_seed_hex(index), players) for index in range(games))


def test_first_dealer_is_deterministic() -> None:
    assert [first_dealer(_seed_hex(index), 6) for index in range(20)] == list(_dealers(6, 20))


def test_first_dealer_is_uniform_over_six_seats() -> None:
    counts = Counter(_dealers(6, 6000))
    assert sorted(counts) == list(range(6))
    for seat, count in counts.items():
        assert abs(count - 1000) <= 150, f"seat {seat} dealt first {count} times"
    assert _chi_square(list(counts.values()), 1000) < CHI2_CRITICAL_0_001[5]


@pytest.mark.parametrize("players", range(2, 11))
def test_first_dealer_reaches_every_seat_and_no_other(players: int) -> None:
    assert set(_dealers(players, 300)) == set(range(players))


def test_first_dealer_does_not_repeat_the_shuffle_stream() -> None:
    # The dealer draw has its own label, so it is not simply the first shuffle draw.
    draws = [first_dealer(_seed_hex(index), 6) for index in range(200)]
    shuffle_draws = [uniform_below(6, byte_stream(_seed(index))) for index in range(200)]
    assert draws != shuffle_draws


def test_first_dealer_refuses_a_bad_seed() -> None:
    with pytest.raises(ShuffleError):
        first_dealer("xyz", 6)


def test_seed_with_spaces_bug() -> None:
    # bytes.fromhex skips whitespace, so "00 00 ..." once passed as the zero seed: two
    # spellings of one seed, and a revealed seed that a strict checker would reject.
    with pytest.raises(ShuffleError, match="expected 64 hex digits"):
        seed_bytes(" ".join(["00"] * 32))



@pytest.mark.parametrize("size", [2, 5, 53, 106, 300])
def test_shuffled_draws_as_uniform_below_documents_for_every_pack_size(size: int) -> None:
    """shuffled inlines one-byte draws for packs up to 256 cards: it must give exactly the
    order of Fisher-Yates with uniform_below's draws (300 cards: the wide draws' path)."""
    cards = (STANDARD_DECK * 6)[:size]
    for index in range(40):
        key, label = _seed(index), b"test/label/%d" % index
        stream = keyed_stream(key, label)
        order = list(cards)
        for i in range(len(order) - 1, 0, -1):
            j = uniform_below(i + 1, stream)
            order[i], order[j] = order[j], order[i]
        assert shuffled(cards, keyed_stream(key, label)) == tuple(order)
