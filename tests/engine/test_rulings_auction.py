"""docs/rules.md §Deal, the auction (001), and its scoring: bids in fives, the dealer's hold, the
100-or-more rule, four passes, trumps named by the winner, the exchange, who leads, and bids
made and set.

Seats North, East, South, West are 0..3; North-South is side 0, East-West side 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from deals import Table, cards_in_play, recorded_game, shuffled_game

from engine.cards import Suit, parse_cards
from engine.rejections import IllegalPlayError, NotYourTurnError, WrongPhaseError
from engine.shuffle import pack
from events.types import BidPassed, DeckShuffled, SeedRevealed

N, E, S, W = range(4)
HANDS = ["2S,3S,4S,6S,7S", "2C,3C,4C,6C,7C", "2D,3D,4D,6D,7D", "2H,3H,4H,6H,7H"]
PASS = {"type": "pass"}
HOLD = {"type": "hold"}


def bid(amount: int) -> dict[str, object]:
    return {"type": "bid", "amount": amount}


def bids(*amounts: int) -> list[dict[str, object]]:
    return [bid(amount) for amount in amounts]


def _table(
    dealer: int = W, scores: Sequence[int] | None = None, hands: Sequence[str] = HANDS,
    options: dict[str, object] | None = None,
) -> Table:
    return recorded_game("auction", options or {}, hands, None, dealer=dealer, scores=scores)


def _calls(table: Table, *calls: tuple[int, dict[str, object]]) -> None:
    for seat, action in calls:
        table.act(seat, action)


# Bidding.


def test_bidding_starts_left_of_the_dealer() -> None:
    for dealer in range(4):
        table = _table(dealer=dealer)
        assert table.state.phase == "bidding"
        assert table.state.turn == (dealer + 1) % 4


def test_bids_are_five_to_thirty_in_fives() -> None:
    table = _table()

    assert table.legal(N) == [*bids(5, 10, 15, 20, 25, 30), PASS]
    for amount in (0, 7, 35, -5):
        with pytest.raises(IllegalPlayError, match=f"cannot bid {amount}: bids are 5 to 30"):
            table.act(N, bid(amount))


def test_the_min_bid_option_makes_fifteen_the_lowest_bid() -> None:
    table = _table(options={"min_bid": 15})

    assert table.legal(N) == [*bids(15, 20, 25, 30), PASS]
    with pytest.raises(IllegalPlayError, match="cannot bid 10: bids are 15 to 30 in fives"):
        table.act(N, bid(10))


def test_a_bid_must_exceed_the_current_bid() -> None:
    table = _table()
    table.act(N, bid(15))

    assert table.legal(E) == [*bids(20, 25, 30), PASS]
    with pytest.raises(IllegalPlayError, match="cannot bid 15: a bid must exceed the current 15"):
        table.act(E, bid(15))


def test_a_pass_is_final_for_the_deal() -> None:
    table = _table()
    _calls(table, (N, PASS), (E, bid(10)), (S, bid(15)), (W, PASS))

    assert table.state.turn == E, "North passed and is skipped"
    assert table.legal(N) == []
    with pytest.raises(NotYourTurnError):
        table.act(N, bid(20))
    _calls(table, (E, bid(20)), (S, bid(25)), (E, PASS))
    assert (table.deal.bidder, table.deal.bid) == (S, 25)


def test_only_the_dealer_may_hold_and_only_when_a_bid_stands() -> None:
    table = _table()
    _calls(table, (N, PASS), (E, PASS), (S, PASS))

    assert table.legal(W) == [*bids(5, 10, 15, 20, 25, 30), PASS], "no bid to hold"
    with pytest.raises(IllegalPlayError, match="cannot hold: there is no bid to hold"):
        table.act(W, HOLD)

    table = _table()
    with pytest.raises(IllegalPlayError, match="cannot hold: only the dealer may hold"):
        table.act(N, HOLD)


def test_the_dealer_holds_the_highest_bid_and_the_others_may_still_raise() -> None:
    table = _table()
    _calls(table, (N, bid(15)), (E, PASS), (S, PASS))
    assert table.legal(W) == [*bids(20, 25, 30), HOLD, PASS]
    table.act(W, HOLD)

    assert (table.deal.auction.high, table.deal.auction.high_seat) == (15, W)
    assert table.state.turn == N
    assert table.legal(N) == [*bids(20, 25, 30), PASS]
    table.act(N, bid(20))
    assert table.legal(W) == [*bids(25, 30), HOLD, PASS], "the dealer may hold again"
    _calls(table, (W, HOLD), (N, PASS))
    assert (table.state.phase, table.deal.bidder, table.deal.bid) == ("trump", W, 20)


def test_a_side_on_100_or_more_cannot_bid_below_20() -> None:
    table = _table(scores=(100, 95))

    assert table.legal(N) == [*bids(20, 25, 30), PASS]
    with pytest.raises(
        IllegalPlayError, match="cannot bid 15: a side on 100 or more may not bid below 20"
    ):
        table.act(N, bid(15))
    table.act(N, PASS)
    assert table.legal(E) == [*bids(5, 10, 15, 20, 25, 30), PASS], "East-West are on 95"


def test_the_hold_is_a_bid_so_a_dealer_on_100_cannot_hold_below_20() -> None:
    table = _table(dealer=S, scores=(105, 0))  # South deals; North-South are on 105
    _calls(table, (W, bid(15)), (N, PASS), (E, PASS))

    assert table.legal(S) == [*bids(20, 25, 30), PASS]
    with pytest.raises(
        IllegalPlayError, match="cannot hold: a side on 100 or more may not hold below 20"
    ):
        table.act(S, HOLD)

    table = _table(dealer=S, scores=(105, 0))
    _calls(table, (W, bid(20)), (N, PASS), (E, PASS))
    assert HOLD in table.legal(S)


def test_thirty_cannot_be_exceeded_but_the_dealer_may_hold_thirty() -> None:
    table = _table()
    table.act(N, bid(30))
    assert table.legal(E) == [PASS]
    _calls(table, (E, PASS), (S, PASS))

    assert table.legal(W) == [HOLD, PASS]
    table.act(W, HOLD)
    assert table.legal(N) == [PASS], "North may not raise 30"
    with pytest.raises(IllegalPlayError, match="cannot bid 35: bids are 5 to 30 in fives"):
        table.act(N, bid(35))
    table.act(N, PASS)
    assert (table.state.phase, table.deal.bidder, table.deal.bid) == ("trump", W, 30)


def test_bidding_ends_when_one_bidder_remains() -> None:
    table = _table()
    _calls(table, (N, bid(5)), (E, PASS), (S, PASS))
    assert table.state.phase == "bidding"
    table.act(W, PASS)

    assert (table.state.phase, table.deal.bidder, table.deal.bid) == ("trump", N, 5)
    assert table.state.turn == N
    assert [call[:2] for call in table.deal.auction.calls] == [
        (N, "bid"), (E, "pass"), (S, "pass"), (W, "pass")
    ]


def test_four_passes_score_nothing_and_the_deal_passes_left() -> None:
    table = _table(scores=(70, 85))
    _calls(table, (N, PASS), (E, PASS), (S, PASS), (W, PASS))

    [passed] = table.facts("passed_out")
    assert passed.ruling.rule_id == "auction.all_pass"
    assert table.deal.result is not None
    assert table.deal.result.points == (0, 0)
    assert table.state.scores == (70, 85)
    assert table.state.dealer == N
    assert table.state.phase == "shuffle"


def test_four_passes_are_followed_by_a_new_shuffle_dealt_by_the_next_player() -> None:
    table = shuffled_game("auction", {}, 4, dealer=E)
    table.act(N, {"type": "cut", "position": 20})
    assert table.state.turn == S
    _calls(table, (S, PASS), (W, PASS), (N, PASS))

    produced = table.act(E, PASS) + table.shuffle()
    assert [type(event) for event in produced] == [BidPassed, SeedRevealed, DeckShuffled]
    assert table.deal.number == 2
    assert table.deal.dealer == S
    assert (table.state.phase, table.state.turn) == ("cut", E)


# Trumps, the exchange, the lead.


def _won_by_south() -> Table:
    table = _table()
    _calls(table, (N, PASS), (E, PASS), (S, bid(10)), (W, PASS))
    return table


def test_the_winning_bidder_names_trumps() -> None:
    table = _won_by_south()

    assert table.legal(S) == [{"type": "name_trump", "suit": suit} for suit in "SCDH"]
    assert table.legal(N) == []
    with pytest.raises(NotYourTurnError):
        table.act(N, {"type": "name_trump", "suit": "S"})
    with pytest.raises(WrongPhaseError, match="the deal is in phase 'trump', not 'play'"):
        table.act(S, {"type": "play", "card": "2D"})
    table.act(S, {"type": "name_trump", "suit": "H"})
    assert table.deal.trump is Suit.H
    assert table.state.phase == "discard"


def test_discards_and_draws_go_clockwise_from_the_dealers_left() -> None:
    table = _won_by_south()
    table.act(S, {"type": "name_trump", "suit": "H"})
    stock = table.deal.stock

    assert table.state.turn == N
    assert len(table.legal(N)) == 32, "any 0 to 5 of the five cards"
    with pytest.raises(IllegalPlayError, match="cannot discard '5S': not in the hand"):
        table.act(N, {"type": "discard", "cards": ["5S"]})
    table.act(N, {"type": "discard", "cards": ["2S", "3S"]})
    assert Counter(table.deal.hands[N]) == Counter(parse_cards("4S,6S,7S") + stock[:2])
    assert table.state.turn == E
    table.act(E, {"type": "discard", "cards": []})
    assert table.deal.hands[E] == parse_cards(HANDS[E])
    table.act(S, {"type": "discard", "cards": ["2D", "3D", "4D"]})
    assert Counter(table.deal.hands[S]) == Counter(parse_cards("6D,7D") + stock[2:5])
    table.act(W, {"type": "discard", "cards": ["7H"]})
    assert table.deal.hands[W][-1] == stock[5]

    assert table.deal.face_down == parse_cards("2S,3S,2D,3D,4D,7H"), "discards are not reused"
    assert table.deal.stock == stock[6:]
    assert cards_in_play(table.state) == Counter(pack(table.state.rules))


def test_the_player_left_of_the_winning_bidder_leads() -> None:
    table = _won_by_south()
    table.act(S, {"type": "name_trump", "suit": "H"})
    for seat in (N, E, S, W):
        table.act(seat, {"type": "discard", "cards": []})

    assert (table.state.phase, table.state.turn) == ("play", W)


# Bids made and set (North holds the five top spades and takes every trick).

SWEEP = ["5S,JS,AH,AS,KS", "2H,3H,4H,6H,7H", "2C,3C,4C,6C,7C", "2D,3D,4D,6D,7D"]
# The hands of seed 001 §06: North-South take 20 (three tricks and the bonus), East-West 10.
EXAMPLE = ["AH,KC,QD,3H,9C", "7S,JS,2D,6D,TH", "5S,9S,KD,4H,8C", "AS,KH,JC,3D,7C"]
EXAMPLE_TRICKS = ["7S,5S,AS,AH", "4H,KH,3H,TH", "3D,QD,6D,KD", "9S,7C,9C,2D", "8C,JC,KC,JS"]


def _north_bids(hands: Sequence[str], amount: int, scores: Sequence[int] = (0, 0)) -> Table:
    table = _table(hands=hands, scores=scores)
    _calls(table, (N, bid(amount)), (E, PASS), (S, PASS), (W, PASS),
           (N, {"type": "name_trump", "suit": "S"}))
    for seat in (N, E, S, W):
        table.act(seat, {"type": "discard", "cards": []})
    return table


def _sweep(table: Table) -> None:
    """Plays the deal out, each seat playing its first legal card."""
    while table.state.turn is not None:
        seat = table.state.turn
        table.play(seat, table.legal(seat)[0]["card"])


def test_a_made_bid_scores_what_the_side_took() -> None:
    table = _north_bids(EXAMPLE, 15, scores=(30, 40))
    for cards in EXAMPLE_TRICKS:
        table.trick(cards)

    [made] = table.facts("bid_made")
    assert (made.ruling.rule_id, made.side, made.points) == ("bid.made", 0, 20)
    assert table.state.scores == (50, 50)


def test_a_set_bid_loses_its_amount_and_scores_may_go_negative() -> None:
    table = _north_bids(EXAMPLE, 25, scores=(10, 0))
    for cards in EXAMPLE_TRICKS:
        table.trick(cards)

    [set_bid] = table.facts("bid_set")
    assert (set_bid.ruling.rule_id, set_bid.side, set_bid.points) == (
        "bid.set", 0, -25
    )
    assert table.deal.result is not None
    assert table.deal.result.points == (-25, 10), "the opponents always score what they took"
    assert table.state.scores == (-15, 10)
    assert table.facts("bid_made") == []


def test_a_made_bid_of_thirty_scores_sixty() -> None:
    table = _north_bids(SWEEP, 30)
    _sweep(table)

    assert table.deal.result is not None
    assert table.deal.result.tricks_won == (5, 0)
    [made] = table.facts("bid_made")
    assert (made.ruling.rule_id, made.points) == ("bid.made_thirty", 60)
    assert table.state.scores == (60, 0)


def test_taking_thirty_after_a_lower_bid_scores_only_thirty() -> None:
    table = _north_bids(SWEEP, 20)
    _sweep(table)

    [made] = table.facts("bid_made")
    assert (made.ruling.rule_id, made.points) == ("bid.made", 30)
    assert table.state.scores == (30, 0)


def test_when_both_sides_reach_120_the_bidding_side_wins() -> None:
    table = _north_bids(EXAMPLE, 20, scores=(110, 110))
    for cards in EXAMPLE_TRICKS:
        table.trick(cards)

    assert table.state.scores == (130, 120)
    assert table.state.winner == 0
    assert table.state.phase == "over"
    [reached] = table.facts("target_reached")
    assert (reached.ruling.rule_id, reached.side, reached.points) == (
        "finish.bidder_priority", 0, 130
    )


def test_the_opponents_win_alone_when_only_they_reach_120() -> None:
    table = _north_bids(EXAMPLE, 20, scores=(50, 115))
    for cards in EXAMPLE_TRICKS:
        table.trick(cards)

    assert table.state.scores == (70, 125)
    assert table.state.winner == 1
    [reached] = table.facts("target_reached")
    assert (reached.ruling.rule_id, reached.side, reached.trick) == ("finish.deal_end", 1, 5)


def test_the_auction_is_not_finished_mid_deal() -> None:
    table = _north_bids(SWEEP, 20, scores=(115, 0))
    table.trick("2H,2C,2D,5S")

    assert table.state.phase == "play", "115 + 10 passes 120, but all five tricks are played"
    assert table.state.winner is None
    _sweep(table)
    assert table.state.winner == 0
    assert table.state.scores == (145, 0)
