"""docs/rules.md §Deal: the dealer, the cut, the order of dealing, the turn-up, the turned joker and
robbing the turn-up."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from deals import ENTROPY, Table, cards_in_play, plays, recorded_game, shuffled_game

from engine.actions import start_game
from engine.cards import JOKER, Card, Suit, parse_cards
from engine.fold import fold
from engine.rejections import IllegalPlayError, NotYourTurnError
from engine.shuffle import cut, deck_order, first_dealer, pack


def _seed(index: int) -> bytes:
    return hashlib.sha256(b"rulings-deal/%d" % index).digest()


# The dealer and the cut.


def test_the_first_dealer_is_drawn_from_the_game_seed() -> None:
    dealers = []
    for index in range(60):
        events = start_game("bruff", {}, ["human"] * 6, _seed(index), ENTROPY)
        state = fold(events)
        assert state.dealer == first_dealer(_seed(index).hex(), 6)
        assert fold(start_game("bruff", {}, ["bot"] * 6, _seed(index), _seed(99))).dealer == (
            state.dealer
        ), "the game seed alone draws the dealer"
        dealers.append(state.dealer)
    assert set(dealers) == set(range(6)), "every seat can be drawn"


def test_the_deal_passes_left_after_each_deal() -> None:
    table = shuffled_game("bruff", {}, 6, dealer=4)
    for expected_dealer in (4, 5, 0):
        assert table.deal.dealer == expected_dealer
        assert table.state.turn == (expected_dealer - 1) % 6, "the dealer's right cuts"
        table.act(table.state.turn, {"type": "cut", "position": 10})
        table.play_out()
        assert table.state.dealer == (expected_dealer + 1) % 6
        if table.state.phase == "over":
            break
        table.shuffle()


def test_the_right_neighbour_cuts_the_shuffled_pack() -> None:
    table = shuffled_game("bruff", {}, 6, dealer=0)

    assert table.state.phase == "cut"
    assert table.state.turn == 5
    assert table.legal(5) == [{"type": "cut", "position": p} for p in range(1, 53)]
    for seat in range(5):
        assert table.legal(seat) == []
        with pytest.raises(NotYourTurnError, match=f"seat 5 is to act, not seat {seat}"):
            table.act(seat, {"type": "cut", "position": 10})
    with pytest.raises(IllegalPlayError, match="cut position 53 is outside 1..52"):
        table.act(5, {"type": "cut", "position": 53})


@pytest.mark.parametrize("dealer", [0, 3, 5])
def test_bruff_deals_three_then_two_clockwise_from_the_dealers_left(dealer: int) -> None:
    table = shuffled_game("bruff", {}, 6, dealer=dealer)
    order = cut(deck_order(table.state.rules, ENTROPY.hex()), 17)
    assert order[30] is not JOKER, "this seed turns an ordinary card"
    table.act((dealer - 1) % 6, {"type": "cut", "position": 17})

    for k in range(1, 7):
        seat = (dealer + k) % 6
        first, second = order[3 * (k - 1):3 * k], order[18 + 2 * (k - 1):18 + 2 * k]
        assert table.deal.hands[seat] == first + second, f"hand of seat {seat}"
    assert table.deal.turn_up == order[30]
    assert table.deal.stock == order[31:]
    assert len(table.deal.stock) + 1 == 23


def test_classic_two_then_three_deals_two_each_first() -> None:
    table = shuffled_game("classic", {"deal_pattern": "2-3"}, 4, dealer=1)
    order = cut(deck_order(table.state.rules, ENTROPY.hex()), 5)
    table.act(0, {"type": "cut", "position": 5})

    for k in range(1, 5):
        seat = (1 + k) % 4
        first, second = order[2 * (k - 1):2 * k], order[8 + 3 * (k - 1):8 + 3 * k]
        assert table.deal.hands[seat] == first + second, f"hand of seat {seat}"
    assert table.deal.turn_up == order[20]


# The turn-up.


BRUFF_HANDS = [
    "2H,3H,4H,6H,7H",
    "2C,3C,4C,6C,7C",
    "AS,2D,3D,4D,6D",
    "8H,TH,JH,QH,KH",
    "8C,9C,TC,JC,QC",
    "7D,8D,TD,JD,QD",
]


@pytest.mark.parametrize(("turn_up", "trump"), [("9S", Suit.S), ("AH", Suit.H), ("5D", Suit.D)])
def test_the_turn_up_names_trumps_and_the_dealers_left_leads(turn_up: str, trump: Suit) -> None:
    table = recorded_game("bruff", {}, BRUFF_HANDS, turn_up, dealer=5)

    assert table.deal.trump is trump
    assert table.deal.turn_up == Card.parse(turn_up)
    assert table.state.phase == "play"
    assert table.state.turn == 0


def test_a_turned_joker_goes_to_the_dealer_who_buries_any_card() -> None:
    table = recorded_game("bruff", {}, BRUFF_HANDS, "JK", stock="9S", dealer=5)

    assert table.state.phase == "joker"
    assert table.state.turn == 5
    assert table.deal.trump is None
    assert Counter(table.deal.hands[5]) == Counter(parse_cards("7D,8D,TD,JD,QD,JK"))
    assert table.legal(5) == [
        {"type": "bury", "card": code} for code in ("7D", "8D", "TD", "JD", "QD", "JK")
    ]
    assert table.legal(0) == []
    with pytest.raises(NotYourTurnError):
        table.act(0, {"type": "bury", "card": "2H"})

    table.act(5, {"type": "bury", "card": "8D"})
    assert table.deal.face_down == parse_cards("8D")
    assert Counter(table.deal.hands[5]) == Counter(parse_cards("7D,TD,JD,QD,JK"))
    assert table.deal.turn_up == Card.parse("9S"), "the next card is turned"
    assert table.deal.trump is Suit.S
    assert (table.state.phase, table.state.turn) == ("play", 0)
    assert cards_in_play(table.state) == Counter(pack(table.state.rules))


def test_the_dealer_may_bury_the_turned_joker_itself() -> None:
    table = recorded_game("bruff", {}, BRUFF_HANDS, "JK", stock="9S", dealer=5)
    table.act(5, {"type": "bury", "card": "JK"})

    assert table.deal.face_down == (JOKER,)
    assert table.deal.hands[5] == parse_cards("7D,8D,TD,JD,QD")
    assert table.deal.trump is Suit.S


def test_a_second_turned_joker_with_two_packs_goes_to_the_dealer_too() -> None:
    hands = ["2H,3H,4H,6H,7H", "2C,3C,4C,6C,7C", "AS,2D,3D,4D,6D", "8H,TH,JH,QH,KH",
             "8C,9C,TC,JC,QC", "7D,8D,TD,JD,QD", "2S,3S,4S,6S,7S"]
    options = {"layout": "individuals", "joker": "below_ah", "decks": 2}
    table = recorded_game("classic", options, hands, "JK", stock="JK,9D", dealer=6)

    table.act(6, {"type": "bury", "card": "2S"})
    assert table.state.phase == "joker", "the next card is a joker as well"
    assert table.deal.hands[6].count(JOKER) == 2
    table.act(6, {"type": "bury", "card": "3S"})

    assert table.deal.face_down == parse_cards("2S,3S")
    assert Counter(table.deal.hands[6]) == Counter(parse_cards("4S,6S,7S,JK,JK"))
    assert (table.deal.turn_up, table.deal.trump) == (Card.parse("9D"), Suit.D)
    assert (table.state.phase, table.state.turn) == ("play", 0)
    assert cards_in_play(table.state) == Counter(pack(table.state.rules))
    assert len(pack(table.state.rules)) == 106


# Robbing the turn-up (spades trumps, 9S turned; seat 2 holds AS; seat 0 leads).


def _robbing_deal(hands: list[str] = BRUFF_HANDS, turn_up: str = "9S") -> Table:
    table = recorded_game("bruff", {}, hands, turn_up, dealer=5)
    table.play(0, "2H")
    table.play(1, "2C")
    return table


def _robs(table: Table, seat: int) -> list[dict[str, str]]:
    return [action for action in table.legal(seat) if action["type"] == "rob"]


def test_the_ace_holder_may_rob_before_their_own_first_play() -> None:
    table = _robbing_deal()

    assert _robs(table, 2) == [
        {"type": "rob", "discard": code} for code in ("AS", "2D", "3D", "4D", "6D")
    ]
    table.act(2, {"type": "rob", "discard": "4D"})

    assert table.deal.robbed_by == 2
    assert Counter(table.deal.hands[2]) == Counter(parse_cards("AS,2D,3D,6D,9S"))
    assert table.deal.face_down == parse_cards("4D"), "the discard is out of play"
    assert _robs(table, 2) == [], "one rob per deal"
    assert table.legal(2) == plays("9S", "AS", "2D", "3D", "6D")
    table.play(2, "2D")
    table.play_out()
    assert Card.parse("4D") not in [card for trick in table.deal.tricks for card in trick.cards]
    assert cards_in_play(table.state) == Counter(pack(table.state.rules))


def test_the_ace_holder_may_not_rob_after_their_first_play() -> None:
    table = _robbing_deal()
    table.play(2, "2D")  # declining is simply playing
    table.trick("8H,8C,7D")
    assert table.deal.tricks[0].winner == 3

    table.play(3, "KH")
    table.play(4, "9C")
    table.play(5, "8D")
    table.play(0, "3H")
    table.play(1, "3C")
    assert _robs(table, 2) == []
    with pytest.raises(IllegalPlayError, match="only before your own first play of the deal"):
        table.act(2, {"type": "rob", "discard": "3D"})


def test_the_ace_holder_robs_only_on_their_own_turn() -> None:
    table = recorded_game("bruff", {}, BRUFF_HANDS, "9S", dealer=5)

    assert _robs(table, 2) == []
    with pytest.raises(NotYourTurnError, match="seat 0 is to act, not seat 2"):
        table.act(2, {"type": "rob", "discard": "4D"})


def test_the_dealer_may_rob_a_turned_ace_and_nobody_else_may() -> None:
    hands = [hand.replace("AS", "KS") for hand in BRUFF_HANDS]
    table = recorded_game("bruff", {}, hands, "AS", dealer=5)
    for seat, card in enumerate(["2H", "2C", "2D", "8H", "8C"]):
        assert _robs(table, seat) == []
        table.play(seat, card)

    assert _robs(table, 5) == [
        {"type": "rob", "discard": code} for code in ("7D", "8D", "TD", "JD", "QD")
    ]
    table.act(5, {"type": "rob", "discard": "QD"})
    assert Card.parse("AS") in table.deal.hands[5]
    assert table.deal.face_down == parse_cards("QD")


def test_ah_gives_the_right_to_rob_when_hearts_are_trumps() -> None:
    hands = [hand.replace("AS", "AH") for hand in BRUFF_HANDS]
    hands[0] = "2S,3S,4S,6S,7S"
    table = recorded_game("bruff", {}, hands, "9H", dealer=5)
    table.play(0, "2S")
    table.play(1, "2C")

    assert _robs(table, 2)[0] == {"type": "rob", "discard": "2D"}
    table.act(2, {"type": "rob", "discard": "2D"})
    assert Card.parse("9H") in table.deal.hands[2]


def test_ah_gives_no_right_to_rob_when_spades_are_trumps() -> None:
    hands = [hand.replace("AS", "AH") for hand in BRUFF_HANDS]
    hands[0] = "2S,3S,4S,6S,7S"
    hands[3] = "8H,TH,JH,QH,AS"  # the ace of trumps is held, by a seat that has not robbed
    table = recorded_game("bruff", {}, hands, "9S", dealer=5)
    table.play(0, "7S")
    table.play(1, "2C")

    assert _robs(table, 2) == []
    with pytest.raises(IllegalPlayError) as refused:
        table.act(2, {"type": "rob", "discard": "2D"})
    assert str(refused.value) == (
        "only the holder of AS may rob (or the dealer when AS is turned); the joker gives no "
        "right"
    )


def test_the_joker_never_gives_the_right_to_rob() -> None:
    hands = [hand.replace("AS", "JK") for hand in BRUFF_HANDS]
    table = _robbing_deal(hands)

    assert _robs(table, 2) == []
    with pytest.raises(IllegalPlayError, match="the joker gives no right"):
        table.act(2, {"type": "rob", "discard": "2D"})


def test_without_robbing_the_ace_holder_may_not_rob() -> None:
    hands = ["2H,3H,4H,6H,7H", "2C,3C,4C,6C,7C", "AS,2D,3D,4D,6D", "8H,TH,JH,QH,KH"]
    table = recorded_game("classic", {"robbing": False}, hands, "9S", dealer=3)
    table.play(0, "2H")
    table.play(1, "2C")

    assert _robs(table, 2) == []
    with pytest.raises(IllegalPlayError, match="this game is played without robbing"):
        table.act(2, {"type": "rob", "discard": "2D"})
