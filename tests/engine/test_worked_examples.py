"""The worked examples of the rule documents, played as full deals through ``decide``.

Seed 000 §09 (bruff): spades trumps; seats from the dealer's left are A, B, C, A, B, C. The first
A leads 7S, the first B plays 5S; the first C holds AH as its only trump and may keep it and
discard KD, because it compares with the 7S led, not the 5S played later. B wins the trick and
the proven bonus: 10 points.

Seed 001 §06 (auction): spades trumps, East leads 7S, South 5S, West AS, North AH; North-South
bid 20 and take three tricks including this one (20, bid made), East-West take two (10), and
70:85 becomes 90:95. Then the renege example: with JS as the only trump and 2D, a 9S lead lets
2D be discarded, a 5S lead forces JS.

The hands are completed so that all five tricks are legal; every other card of the pack lies in
the stock, so each test can also check that no card is created or lost.
"""

from __future__ import annotations

from collections import Counter

import pytest
from deals import Table, cards_in_play, plays, recorded_game

from engine.rejections import IllegalPlayError
from engine.scoring import trick_points
from engine.shuffle import pack

# Seed 000: the dealer is seat 5, so seats 0..5 are A, B, C, A, B, C and sides 0, 1, 2, 0, 1, 2.
A1, B1, C1, A2, B2, C2 = range(6)
BRUFF_HANDS = [
    "7S,KH,9H,3C,6D",  # first A: leads 7S
    "5S,KC,8H,2C,5D",  # first B: the trump five
    "AH,KD,QH,4C,7D",  # first C: AH is its only trump
    "2S,3S,QD,8C,6H",  # second A: follows with 2S
    "QC,TH,9C,8D,2H",  # second B: void in trumps, discards QC
    "4D,JD,7H,6C,5C",  # second C (dealer): void in trumps, discards 4D
]
BRUFF_TRICKS_2_TO_5 = [
    "2C,AH,8C,9C,5C,3C",  # B leads; C trumps with AH although it holds 4C
    "QH,6H,TH,7H,KH,8H",  # C leads; the first A wins with KH
    "9H,5D,7D,3S,2H,6C",  # A leads; the second A trumps with 3S
    "QD,8D,JD,6D,KC,4C",  # the second A wins with QD
]


def _bruff_example() -> Table:
    table = recorded_game("bruff", {}, BRUFF_HANDS, "9S", dealer=5)
    assert table.state.turn == A1, "the player left of the dealer leads"
    return table


def test_first_c_may_keep_ah_and_discard_kd_after_7s_then_5s() -> None:
    table = _bruff_example()
    table.play(A1, "7S")
    table.play(B1, "5S")

    assert table.legal(C1) == plays("4C", "7D", "KD", "QH", "AH")
    table.play(C1, "KD")
    [renege] = table.facts("renege_allowed")
    assert (renege.seat, renege.trick, renege.ruling.rule_id) == (
        C1, 1, "play.trump_lead.withhold"
    )
    assert renege.ruling.text == (
        "AH may be withheld: every trump held is protected and outranks the 7S led (compare "
        "with the lead only)."
    )


def test_first_b_wins_trick_one_with_5s_for_ten_points_at_once() -> None:
    table = _bruff_example()
    table.play(A1, "7S")
    table.play(B1, "5S")

    # The trump five proves the bonus the moment it is played, before the trick is complete.
    [bonus] = table.facts("bonus_proven")
    assert (bonus.ruling.rule_id, bonus.trick, bonus.credited_trick, bonus.seat, bonus.side) == (
        "bonus.proven.five", 1, 1, B1, 1
    )
    assert table.deal.bonus_proven

    trick = table.trick("KD,2S,QC,4D")
    assert trick.winner == B1
    [won] = table.facts("trick_won")
    assert (won.trick, won.side, won.points, won.ruling.rule_id) == (
        1, 1, 5, "trick.highest_trump"
    )
    assert trick_points(table.deal, table.state.rules, bonus.credited_trick) == [(1, 10)]
    assert table.state.turn == B1, "the first B leads the next trick"


def test_the_bruff_example_deal_hands_out_thirty_points() -> None:
    table = _bruff_example()
    table.trick("7S,5S,KD,2S,QC,4D")
    winners = [table.trick(cards).winner for cards in BRUFF_TRICKS_2_TO_5]

    assert winners == [C1, A1, A2, A2]
    result = table.deal.result
    assert result is not None
    assert result.points == (15, 10, 5)
    assert sum(result.points) == 30
    assert result.tricks_won == (3, 1, 1)
    assert result.ended_at_trick == 5
    assert result.winner is None
    assert table.state.scores == (15, 10, 5)
    assert table.state.dealer == 0, "the deal passes left"
    assert table.state.phase == "shuffle"
    assert cards_in_play(table.state) == Counter(pack(table.state.rules))


# Seed 001: North, East, South, West are seats 0..3; North-South is side 0, East-West side 1.
N, E, S, W = range(4)
AUCTION_HANDS = [
    "AH,KC,QD,3H,9C",  # North
    "7S,JS,2D,6D,TH",  # East: JS is its only trump besides the 7S it leads
    "5S,9S,KD,4H,8C",  # South
    "AS,KH,JC,3D,7C",  # West, the dealer
]


def _auction_example() -> Table:
    """Returns the 001 deal after North bid 20, named spades and nobody exchanged.

    The previous score 70:85 stands for earlier deals: the builder replaces the game's scores
    before recording this deal (``_replace``), so this deal starts from it.
    """
    table = recorded_game("auction", {}, AUCTION_HANDS, None, dealer=W, scores=(70, 85))
    assert table.state.turn == N, "bidding starts left of the dealer"
    table.act(N, {"type": "bid", "amount": 20})
    for seat in (E, S, W):
        table.act(seat, {"type": "pass"})
    table.act(N, {"type": "name_trump", "suit": "S"})
    for seat in (N, E, S, W):
        table.act(seat, {"type": "discard", "cards": []})
    assert table.state.turn == E, "the player left of the winning bidder leads"
    return table


def test_south_wins_7s_5s_as_ah_and_the_bonus_is_proven_at_once() -> None:
    table = _auction_example()
    trick = table.trick("7S,5S,AS,AH")

    assert trick.winner == S
    [bonus] = table.facts("bonus_proven")
    assert (bonus.ruling.rule_id, bonus.trick, bonus.credited_trick, bonus.side) == (
        "bonus.proven.five", 1, 1, 0
    )
    assert trick_points(table.deal, table.state.rules, 1) == [(0, 10)]


def test_north_south_make_their_bid_of_twenty_and_70_85_becomes_90_95() -> None:
    table = _auction_example()
    table.trick("7S,5S,AS,AH")  # South, with the bonus
    table.trick("4H,KH,3H,TH")  # West
    table.trick("3D,QD,6D,KD")  # South

    # South leads 9S: East's only trump is the protected JS, above the 9S led, so 2D may go.
    table.play(S, "9S")
    table.play(W, "7C")
    table.play(N, "9C")
    assert table.legal(E) == plays("JS", "2D")
    table.play(E, "2D")
    assert table.deal.tricks[-1].winner == S
    table.trick("8C,JC,KC,JS")  # East's JS wins the last trick

    result = table.deal.result
    assert result is not None
    assert result.tricks_won == (3, 2)
    assert result.points == (20, 10)
    [made] = table.facts("bid_made")
    assert (made.side, made.points, made.ruling.rule_id) == (0, 20, "bid.made")
    assert table.state.scores == (90, 95)
    assert result.winner is None
    assert cards_in_play(table.state) == Counter(pack(table.state.rules))


def test_only_trump_js_must_be_played_to_a_5s_lead() -> None:
    hands = [
        "KC,QD,3H,9C,4S",  # North
        "5S,AH,6D,TH,8S",  # East leads the trump five
        "JS,2D,KD,4H,8C",  # South: JS is its only trump, with 2D
        "AS,KH,JC,3D,7C",  # West, the dealer
    ]
    table = recorded_game("auction", {}, hands, None, dealer=W)
    table.act(N, {"type": "bid", "amount": 15})
    for seat in (E, S, W):
        table.act(seat, {"type": "pass"})
    table.act(N, {"type": "name_trump", "suit": "S"})
    for seat in (N, E, S, W):
        table.act(seat, {"type": "discard", "cards": []})
    table.play(E, "5S")

    assert table.legal(S) == plays("JS")
    with pytest.raises(IllegalPlayError) as refused:
        table.play(S, "2D")
    assert str(refused.value) == (
        "illegal play: '2D'; JS must be played: a 5S lead forces the trump jack (a protected "
        "trump may only be withheld from a lower lead). (seat 2, trick 1, trump S)"
    )
    assert refused.value.ruling is not None
    assert refused.value.ruling.rule_id == "play.trump_lead.must_trump"
    assert refused.value.legal == tuple(plays("JS"))
