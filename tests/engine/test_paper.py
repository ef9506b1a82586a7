"""A paper table's score card held to the rules of its game (engine.paper): what a table
would enter by mistake is refused naming the deal, and a good card gives the winner the
rules give."""

from __future__ import annotations

import pytest

from engine.paper import ScoreCardDeal, ScoreCardError, score_card_result, splits
from engine.profiles import make_ruleset


def _card(*rows: tuple[int, ...], first: int = 0, players: int = 4) -> list[ScoreCardDeal]:
    return [ScoreCardDeal((first + n) % players, row) for n, row in enumerate(rows)]


def test_a_deals_points_are_tricks_and_the_bonus_to_a_side_that_took_a_trick() -> None:
    classic = make_ruleset("classic", {}, 4)
    assert splits(classic, (30, 0)) == [((5, 0), 0)]
    # Five tricks and no trump out; or four and the bonus, a deal cut short by the target.
    assert splits(classic, (25, 0)) == [((5, 0), None), ((4, 0), 0)]
    assert splits(classic, (30, 5)) == []  # More than five tricks and one bonus make.
    no_bonus = make_ruleset("classic", {"bonus": False}, 4)
    assert splits(no_bonus, (20, 10)) == []


def test_deal_end_gives_the_game_to_the_side_counted_first_from_the_dealers_left() -> None:
    rules = make_ruleset("classic", {"target": 45, "finish": "deal_end"}, 4)
    # Both sides pass 45 in deal 3 (dealt by seat 2): counting starts at seat 3, side B.
    card = _card((20, 10), (10, 20), (15, 15))
    assert score_card_result(rules, card).winner == 1
    with pytest.raises(ScoreCardError, match="the rules give the game to side B"):
        score_card_result(rules, card, winner=0)


def test_chronology_with_two_sides_past_the_target_needs_the_card_to_name_the_winner() -> None:
    rules = make_ruleset("classic", {"target": 45}, 4)
    card = _card((20, 10), (10, 20), (15, 15))
    with pytest.raises(ScoreCardError, match="the card must name which"):
        score_card_result(rules, card)
    assert score_card_result(rules, card, winner=0).winner == 0
    # Ended by chronology: the last deal may stop short of five tricks once a side is there.
    assert score_card_result(rules, _card((20, 10), (10, 20), (15, 0))).winner == 0
    with pytest.raises(ScoreCardError, match="deal 1: A 15, B 0 is not a split"):
        score_card_result(rules, _card((15, 0), (20, 10), (10, 20), (15, 15)))


def test_spoil_five_scores_nothing_when_no_side_took_three_tricks() -> None:
    # Three sides of two: two tricks each and one, whoever had the bonus, spoils the deal.
    rules = make_ruleset("classic", {"target": 45, "spoil_five": True, "finish": "deal_end",
                                     "layout": "pairs"}, 6)
    assert rules.sides == 3
    assert score_card_result(rules, _card((0, 0, 0), (30, 0, 0), (15, 15, 0), players=6)
                             ).scores == (45, 15, 0)
    with pytest.raises(ScoreCardError, match="spoil five spoils the deal"):
        score_card_result(rules, _card((10, 10, 10), (30, 0, 0), (15, 15, 0), players=6))


def test_bruff_plays_three_sides_and_a_side_taking_every_trick_wins_at_once() -> None:
    rules = make_ruleset("bruff", {"target": 45}, 6)
    card = _card((30, 0, 0), players=6)
    assert score_card_result(rules, card).winner == 0  # jink take_all
    with pytest.raises(ScoreCardError, match="the game ends here"):
        score_card_result(rules, _card((30, 0, 0), (10, 10, 10), players=6))
    assert score_card_result(rules, _card((15, 10, 5), (15, 15, 0), (20, 5, 5),
                                          players=6)).scores == (50, 30, 10)


def test_a_card_that_stops_before_the_target_or_skips_a_dealer_is_refused() -> None:
    rules = make_ruleset("classic", {"target": 45}, 4)
    with pytest.raises(ScoreCardError, match="before any side reached 45"):
        score_card_result(rules, _card((20, 10)))
    with pytest.raises(ScoreCardError, match="seat 1 deals after seat 0"):
        score_card_result(rules, [ScoreCardDeal(0, (20, 10)), ScoreCardDeal(2, (30, 0))])
    with pytest.raises(ScoreCardError, match="paper tables play classic or bruff"):
        score_card_result(make_ruleset("auction", {}, 4), _card((20, 10)))


def test_a_round_called_at_its_time_takes_the_deals_finished_and_no_more() -> None:
    """At the bell a paper table enters the deals it finished: the card may stop before the
    target (the standings give the game to the side ahead, engine.drive_state.CALLED_RULE), but
    each deal listed is a whole one, and a deal past the target still ends the game."""
    rules = make_ruleset("classic", {"target": 45}, 4)
    short = _card((20, 10), (15, 15))
    with pytest.raises(ScoreCardError, match="before any side reached 45"):
        score_card_result(rules, short)
    called = score_card_result(rules, short, called=True)
    assert (called.scores, called.winner) == ((35, 25), None)
    with pytest.raises(ScoreCardError, match="not a split"):
        score_card_result(rules, _card((20, 10), (10, 0)), called=True)  # A deal cut short.
    with pytest.raises(ScoreCardError, match="the game ends here"):
        score_card_result(rules, _card((30, 0), (25, 5), (5, 25)), called=True)
