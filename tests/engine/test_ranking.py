"""Card orderings: the trump orders of seed 000 §04, the plain orders, and who wins a trick."""

from __future__ import annotations

import pytest

from engine.cards import ACE_OF_HEARTS, JOKER, Card, Suit, format_cards, parse_cards
from engine.profiles import make_ruleset
from engine.ranking import Ranking, is_protected, ranking, ranking_for, trick_winner

# Seed 000 §04, copied as written there (strongest first), with "Joker" as JK.
BRUFF_TRUMP_ORDERS = {
    "S": "5S JS JK AH AS KS QS 2S 3S 4S 6S 7S 8S 9S TS",
    "C": "5C JC JK AH AC KC QC 2C 3C 4C 6C 7C 8C 9C TC",
    "D": "5D JD JK AH AD KD QD TD 9D 8D 7D 6D 4D 3D 2D",
    "H": "5H JH JK AH KH QH TH 9H 8H 7H 6H 4H 3H 2H",
}


def _bruff(trump: str) -> Ranking:
    return ranking(Suit.parse(trump), make_ruleset("bruff"))


def _codes(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(card.code() for card in cards)


def _plain_order(order: Ranking, suit: Suit) -> str:
    """Returns the non-trump cards of *suit*, strongest first."""
    cards = [card for card in order.plain_power if card.suit is suit]
    return _codes(sorted(cards, key=lambda card: -order.plain_power[card]))


@pytest.mark.parametrize("trump", "SCDH")
def test_bruff_trump_order_is_exactly_the_seed_order(trump: str) -> None:
    assert _codes(_bruff(trump).trump_order) == BRUFF_TRUMP_ORDERS[trump]


@pytest.mark.parametrize("trump", "SCDH")
def test_trump_power_strictly_follows_the_trump_order(trump: str) -> None:
    order = _bruff(trump)
    powers = [order.trump_power[card] for card in order.trump_order]
    assert powers == sorted(powers, reverse=True)
    assert len(set(powers)) == len(powers)


@pytest.mark.parametrize("trump", "SCDH")
def test_without_a_joker_the_order_is_the_seed_order_minus_the_joker(trump: str) -> None:
    order = ranking(Suit.parse(trump), make_ruleset("auction"))
    assert _codes(order.trump_order) == BRUFF_TRUMP_ORDERS[trump].replace(" JK", "")


@pytest.mark.parametrize("trump", "SCDH")
def test_classic_joker_ranks_directly_below_the_ace_of_hearts(trump: str) -> None:
    rules = make_ruleset("classic", {"joker": "below_ah"})
    codes = _codes(ranking(Suit.parse(trump), rules).trump_order).split()
    assert codes[:4] == [f"5{trump}", f"J{trump}", "AH", "JK"]
    assert codes.index("JK") == codes.index("AH") + 1


def test_hearts_trumps_have_no_separate_trump_ace() -> None:
    order = _bruff("H")
    codes = _codes(order.trump_order).split()
    assert codes.count("AH") == 1
    assert codes.index("AH") + 1 == codes.index("KH")
    assert len(codes) == 14


def test_hearts_trumps_hold_fourteen_trumps_and_other_suits_fifteen_with_the_joker() -> None:
    assert [len(_bruff(trump).trump_order) for trump in "SCDH"] == [15, 15, 15, 14]


@pytest.mark.parametrize("trump", "SCD")
def test_ace_of_hearts_is_never_a_plain_heart(trump: str) -> None:
    order = _bruff(trump)
    assert ACE_OF_HEARTS not in order.plain_power
    assert _plain_order(order, Suit.H) == "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"


@pytest.mark.parametrize("trump", "SCDH")
def test_ace_of_hearts_and_joker_are_trumps_whatever_the_suit(trump: str) -> None:
    order = _bruff(trump)
    for card in (ACE_OF_HEARTS, JOKER):
        assert order.is_trump(card)
        assert order.effective_suit(card) is Suit.parse(trump)


def test_ace_of_hearts_is_trump_when_diamonds_trump() -> None:
    order = ranking(Suit.D, make_ruleset("auction"))
    assert order.is_trump(ACE_OF_HEARTS)
    assert order.effective_suit(ACE_OF_HEARTS) is Suit.D


def test_plain_black_suits_run_king_queen_jack_ace_then_low_numbers_high() -> None:
    order = _bruff("H")
    assert _plain_order(order, Suit.S) == "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S TS"
    assert _plain_order(order, Suit.C) == "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C TC"


def test_plain_diamonds_have_the_ace_lowest_by_default() -> None:
    order = _bruff("S")
    assert _plain_order(order, Suit.D) == "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD"


def test_plain_diamond_ace_ranks_below_the_jack_with_the_below_jack_option() -> None:
    rules = make_ruleset("classic", {"diamond_ace": "below_jack"})
    order = ranking(Suit.S, rules)
    assert _plain_order(order, Suit.D) == "KD QD JD AD TD 9D 8D 7D 6D 5D 4D 3D 2D"


def test_diamond_ace_option_leaves_diamond_trumps_alone() -> None:
    low = ranking(Suit.D, make_ruleset("classic"))
    below_jack = ranking(Suit.D, make_ruleset("classic", {"diamond_ace": "below_jack"}))
    assert low.trump_order == below_jack.trump_order


def test_plain_hearts_lose_the_ace_when_spades_are_trumps() -> None:
    order = _bruff("S")
    assert len([card for card in order.plain_power if card.suit is Suit.H]) == 12


def test_every_card_is_either_trump_or_plain_never_both() -> None:
    for trump in "SCDH":
        order = _bruff(trump)
        assert not set(order.trump_power) & set(order.plain_power)
        assert len(order.trump_power) + len(order.plain_power) == 53


def test_the_five_is_promoted_only_in_the_trump_suit() -> None:
    order = _bruff("S")
    assert order.is_trump(Card.parse("5S"))
    assert not order.is_trump(Card.parse("5C"))
    assert _plain_order(order, Suit.C).split().index("5C") == 7


@pytest.mark.parametrize(
    ("code", "trump", "protected"),
    [
        ("5S", "S", True), ("JS", "S", True), ("AH", "S", True), ("JK", "S", True),
        ("AS", "S", False), ("AC", "C", False), ("AD", "D", False), ("KS", "S", False),
        ("5C", "S", False), ("JC", "S", False), ("AH", "H", True), ("5H", "H", True),
    ],
)
def test_only_the_trump_five_jack_ace_of_hearts_and_joker_are_protected(
    code: str, trump: str, protected: bool
) -> None:
    assert is_protected(Card.parse(code), Suit.parse(trump)) is protected


# Trick winners.


def _winner(trick: str, trump: str, profile: str = "bruff", **options: object) -> str:
    rules = make_ruleset(profile, options, players=10 if profile == "classic" else None)
    cards = parse_cards(trick)
    return cards[trick_winner(cards, ranking(Suit.parse(trump), rules))].code()


def test_the_trump_five_beats_both_aces_in_the_auction_example() -> None:
    # Seed 001 §06: East 7S, South 5S, West AS, North AH; South wins.
    assert _winner("7S,5S,AS,AH", "S", "auction") == "5S"


def test_the_bruff_worked_example_is_won_by_the_five() -> None:
    # Seed 000 §09: 7S, 5S, KD, 2S, QC, 4D with spades trumps.
    assert _winner("7S,5S,KD,2S,QC,4D", "S") == "5S"


def test_the_lowest_trump_beats_the_highest_card_of_the_led_suit() -> None:
    assert _winner("KD,QD,2S", "S") == "2S"


def test_ace_of_hearts_trumps_a_heart_lead() -> None:
    assert _winner("KH,AH,QH", "C") == "AH"


def test_joker_beats_the_ace_of_hearts_but_loses_to_the_jack_in_bruff() -> None:
    assert _winner("AH,JK", "D") == "JK"
    assert _winner("JK,JD", "D") == "JD"


def test_ace_of_hearts_beats_the_joker_in_classic_below_ah() -> None:
    assert _winner("JK,AH,AC", "C", "classic", joker="below_ah") == "AH"
    assert _winner("JK,AC", "C", "classic", joker="below_ah") == "JK"


def test_without_trumps_the_highest_of_the_led_suit_wins() -> None:
    assert _winner("TS,2S", "H") == "2S"
    assert _winner("TS,2S,AS", "H") == "AS"
    assert _winner("2D,AD,3D", "S") == "3D"
    assert _winner("JD,AD", "S", "classic", diamond_ace="below_jack") == "JD"
    assert _winner("TD,AD", "S", "classic", diamond_ace="below_jack") == "AD"


def test_off_suit_cards_never_win_however_high() -> None:
    assert _winner("TC,KD,KH,AD", "S") == "TC"
    assert _winner("TS,KC,KD", "H") == "TS"


def test_black_trumps_rank_low_numbers_high_and_red_trumps_high_numbers_high() -> None:
    assert _winner("TS,2S", "S") == "2S"
    assert _winner("2D,TD", "D") == "TD"
    assert _winner("QS,AS", "S") == "AS"
    assert _winner("4D,6D", "D") == "6D"


def test_identical_cards_from_two_packs_tie_to_the_earlier_one() -> None:
    rules = make_ruleset("classic", {"decks": 2}, players=8)
    order = ranking(Suit.S, rules)
    assert trick_winner(parse_cards("KD,5S,2S,5S"), order) == 1
    assert trick_winner(parse_cards("KD,QD,KD,2D"), order) == 0
    assert trick_winner(parse_cards("QD,KD,KD"), order) == 1


def test_a_led_ace_of_hearts_is_a_trump_lead_so_hearts_cannot_win() -> None:
    assert _winner("AH,KH,2D", "D") == "AH"
    assert _winner("AH,KH,JD", "D") == "JD"


def test_ranking_for_is_shared_between_rule_sets_with_the_same_orders() -> None:
    assert ranking(Suit.S, make_ruleset("auction")) is ranking_for(Suit.S, "none", "low")
    assert format_cards(ranking_for(Suit.S, "none", "low").trump_order[:3]) == "5S,JS,AH"


def test_red_trump_three_bug() -> None:
    # The red trump tail once read T 9 8 7 6 4 2: the trump three of a red suit was neither
    # a trump nor a plain card, so a trick with it could not be decided.
    for trump in "DH":
        order = _bruff(trump)
        three = Card.parse(f"3{trump}")
        assert order.is_trump(three)
        assert order.trump_power[three] == 2
        assert _winner(f"3{trump},KS,AS", trump) == f"3{trump}"
        assert _winner(f"KS,3{trump},2{trump}", trump) == f"3{trump}"
