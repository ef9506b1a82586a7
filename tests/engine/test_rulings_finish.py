"""docs/rules.md §Scoring and the end of a game: trick chronology, a finish declared only once
certain, the bruff jink, the classic end-of-deal count, the announced jink, cap_at_target,
spoil five, matches, and two identical cards."""

from __future__ import annotations

from collections import Counter

import pytest
from deals import Table, cards_in_play, recorded_game

from engine.actions import legal_actions
from engine.cards import parse_cards
from engine.errors import ProfileError
from engine.profiles import make_ruleset
from engine.rejections import GameOverError, IllegalPlayError
from engine.shuffle import pack
from replay.views import game_view

# Bruff, spades trumps (9S turned), dealer 5, sides 0, 1, 2, 0, 1, 2. Seat 0 leads KS and wins;
# seat 1 wins the second trick with KH. Seat 4 holds either 5S (withheld from the KS lead, so
# the KS bonus stays unproven) or 8S (then KS is the deal's highest trump, proven only when the
# hands are exhausted). With scores 35:40:0, side 0 reaches 45 at trick 1 if KS's bonus counts,
# and side 1 reaches 45 at trick 2 in any case.
CHRONOLOGY = ["KS,2H,3C,4D,6H", "KH,7C,8C,TD,2D", "3H,QC,5C,7D,8D",
              "4H,9C,6C,3D,6D", "5S,5H,TC,JD,KD", "7H,8H,9D,2C,4C"]


def _chronology(seat_four: str) -> Table:
    hands = CHRONOLOGY[:4] + [seat_four] + CHRONOLOGY[5:]
    table = recorded_game("bruff", {}, hands, "9S", dealer=5, scores=(35, 40, 0))
    table.trick(f"KS,2D,8D,6D,{'JD' if '5S' in seat_four else '8S'},9D")
    table.trick("2H,KH,3H,4H,5H,8H")
    return table


def test_play_goes_on_while_an_unproven_bonus_could_give_another_side_an_earlier_finish() -> None:
    table = _chronology("5S,5H,TC,JD,KD")

    assert not table.deal.bonus_proven
    assert (table.state.phase, table.state.winner, table.state.turn) == ("play", None, 1)
    assert table.facts("target_reached") == []
    assert table.state.scores == (35, 40, 0), "no score is final while the deal is undecided"


def test_a_higher_trump_played_later_settles_the_finish_on_the_other_side() -> None:
    table = _chronology("5S,5H,TC,JD,KD")
    table.play_in_turn("7C,QC,9C,5S")  # the 5S proves the bonus belongs to trick 3

    assert table.state.phase == "over"
    assert table.state.winner == 1
    [reached] = table.facts("target_reached")
    assert (reached.ruling.rule_id, reached.trick, reached.side, reached.points) == (
        "finish.chronology", 2, 1, 45
    )
    result = table.deal.result
    assert result is not None
    assert (result.ended_at_trick, result.points, result.scores) == (2, (5, 5, 0), (40, 45, 0))


def test_cards_of_a_trick_cut_short_by_a_finish_stay_on_the_table_bug() -> None:
    # The finish is declared in the middle of trick 3: its four cards were played and must not
    # vanish from the deal (they left the hands).
    table = _chronology("5S,5H,TC,JD,KD")
    table.play_in_turn("7C,QC,9C,5S")

    assert table.state.phase == "over"
    assert table.deal.current is not None
    assert table.deal.current.cards == parse_cards("7C,QC,9C,5S")
    assert table.deal.current.winner is None
    assert len(table.deal.tricks) == 2
    assert cards_in_play(table.state) == Counter(pack(table.state.rules))


def test_the_first_side_to_the_target_wins_though_a_later_trick_took_another_side_over() -> None:
    table = _chronology("8S,5H,TC,JD,KD")
    assert table.state.phase == "play", "side 1 has 45 at trick 2, but KS may carry the bonus"
    table.trick("7C,QC,9C,TC,2C,3C")
    table.trick("5C,6C,JD,4C,4D,8C")
    table.trick("7H,6H,TD,7D,3D,KD")

    [bonus] = table.facts("bonus_proven")
    assert (bonus.ruling.rule_id, bonus.trick, bonus.credited_trick) == (
        "bonus.proven.hands_exhausted", 5, 1
    )
    assert table.state.winner == 0
    [reached] = table.facts("target_reached")
    assert (reached.ruling.rule_id, reached.trick, reached.side, reached.points) == (
        "finish.chronology", 1, 0, 45
    )
    result = table.deal.result
    assert result is not None
    assert result.ended_at_trick == 1
    assert result.points == (10, 0, 0), "later tricks do not count"
    assert table.state.scores == (45, 40, 0)


# Bruff: seat 0 holds KS (or 5S) and KH and wins the first two tricks; nobody else holds a
# trump or a heart above KH.
TWICE = ["KS,KH,2C,3C,4C", "2H,3H,5C,6C,7C", "4H,5H,8C,9C,TC",
         "6H,7H,2D,3D,4D", "8H,9H,5D,6D,7D", "TH,JH,8D,9D,TD"]


def test_a_finish_certain_in_every_placement_of_the_bonus_is_declared_at_the_later_trick() -> None:
    table = recorded_game("bruff", {}, TWICE, "9S", dealer=5, scores=(35, 0, 0))
    table.trick("KS,2H,4H,6H,8H,TH")
    assert table.state.phase == "play", "40, or 45 if KS carries the bonus: not certain yet"
    table.trick("KH,3H,5H,7H,9H,JH")

    assert table.state.winner == 0
    [reached] = table.facts("target_reached")
    assert (reached.trick, reached.side, reached.points) == (2, 0, 45)
    assert table.facts("bonus_proven") == []
    assert table.state.scores == (45, 0, 0), "only the certain points count"


def test_play_stops_at_a_certain_finish_and_later_tricks_are_not_played() -> None:
    hands = [TWICE[0].replace("KS", "5S")] + TWICE[1:]
    table = recorded_game("bruff", {}, hands, "9S", dealer=5, scores=(40, 0, 0))
    table.trick("5S,2H,4H,6H,8H,TH")

    assert table.state.phase == "over"
    assert table.state.winner == 0
    assert table.state.turn is None
    assert len(table.deal.tricks) == 1
    assert [len(hand) for hand in table.deal.hands] == [4] * 6
    assert table.state.scores == (50, 0, 0)
    for seat in range(6):
        assert legal_actions(table.state, seat) == ()
    with pytest.raises(GameOverError):
        table.play(0, "KH")


@pytest.mark.parametrize(("finish", "over_after_trick_one"), [("trick", True), ("deal_end", False)])
def test_the_classic_finish_option_chooses_chronology_or_the_end_of_the_deal(
    finish: str, over_after_trick_one: bool
) -> None:
    hands = ["5S,KH,2C,3C,4C", "2H,3H,5C,6C,7C", "4H,5H,8C,9C,TC", "6H,7H,2D,3D,4D"]
    table = recorded_game("classic", {"finish": finish}, hands, "9S", dealer=3, scores=(40, 0))
    table.trick("5S,2H,4H,6H")

    assert (table.state.phase == "over") is over_after_trick_one
    if not over_after_trick_one:
        table.play_out()
    assert table.state.winner == 0
    [reached] = table.facts("target_reached")
    if over_after_trick_one:
        assert (reached.ruling.rule_id, reached.trick) == ("finish.chronology", 1)
    else:
        assert (reached.ruling.rule_id, reached.trick) == ("finish.deal_end", 5)


# The bruff jink: side 0 (seats 0 and 3) holds ten trumps and takes all five tricks.
JINK = ["5S,JS,JK,AH,AS", "2H,3H,4H,6H,7H", "2C,3C,4C,6C,7C",
        "KS,QS,2S,3S,4S", "8H,TH,JH,QH,KH", "8C,9C,TC,JC,QC"]


def test_the_bruff_jink_wins_the_game_whatever_the_scores() -> None:
    table = recorded_game("bruff", {}, JINK, "9S", dealer=5, scores=(0, 40, 40))
    table.play_out()

    result = table.deal.result
    assert result is not None
    assert result.tricks_won == (5, 0, 0)
    assert table.state.scores == (30, 40, 40)
    assert table.state.winner == 0
    [jink] = table.facts("jink")
    assert (jink.ruling.rule_id, jink.side) == ("jink.take_all", 0)


# Classic end of deal: sides counted from the dealer's left, the dealer's side last.


def test_at_the_end_of_a_deal_the_first_side_counted_from_the_dealers_left_wins() -> None:
    hands = ["KH,4H,6H,6D,6C", "KC,2C,2D,2H,3C", "KD,3D,4D,3H,4C"]
    table = recorded_game(
        "classic", {"finish": "deal_end"}, hands, "9S", dealer=0, scores=(40, 40, 40)
    )
    for cards in ("KC,4C,6C", "2D,KD,6D", "3H,KH,2H", "4H,2C,3D", "6H,3C,4D"):
        table.trick(cards)

    assert table.state.scores == (55, 45, 45)
    assert table.state.winner == 1, "seat 1 is counted first, though side 0 has more"
    [reached] = table.facts("target_reached")
    assert (reached.ruling.rule_id, reached.side, reached.points) == (
        "finish.counted_first", 1, 45
    )


@pytest.mark.parametrize(("dealer", "winner"), [(0, 1), (1, 0), (2, 1), (3, 0)])
def test_the_dealers_side_is_counted_last(dealer: int, winner: int) -> None:
    hands = ["2C,4D,8C,9S,2H", "5D,TS,QH,6C,7D", "8D,JC,QS,KS,AC", "JS,5H,3S,3D,7C"]
    table = recorded_game(
        "classic", {"finish": "deal_end"}, hands, "6H", dealer=dealer, scores=(40, 40)
    )
    table.play_out()

    result = table.deal.result
    assert result is not None
    assert min(result.tricks_won) >= 1
    assert min(table.state.scores) >= 45
    assert table.state.winner == winner


# The classic announced jink (two sides only).

STRONG = ["5S,JS,AH,AS,KS", "2H,3H,4H,6H,7H"]


def test_an_announced_jink_made_doubles_the_sides_points() -> None:
    table = recorded_game("classic", {"jink": "announced", "target": 120}, STRONG, "9S", dealer=1)
    assert table.legal(1) == [{"type": "jink"}], "any seat may announce, in turn or not"
    table.act(0, {"type": "jink"})
    table.play_out()

    [jink] = table.facts("jink")
    assert (jink.ruling.rule_id, jink.side, jink.points) == ("jink.announced.made", 0, 60)
    assert table.state.scores == (60, 0)
    assert table.state.winner is None


def test_no_chronology_finish_is_declared_while_an_announced_jink_lives() -> None:
    table = recorded_game("classic", {"jink": "announced"}, STRONG, "9S", dealer=1,
                          scores=(40, 0))
    table.act(0, {"type": "jink"})
    table.trick("5S,2H")

    assert table.state.phase == "play", "40 + 10 passes 45, but the jink decides at the end"
    table.play_out()
    assert table.state.scores == (100, 0)
    assert table.state.winner == 0
    [reached] = table.facts("target_reached")
    assert reached.ruling.rule_id == "finish.deal_end"


def test_a_failed_announced_jink_gives_the_game_to_the_other_side() -> None:
    table = recorded_game("classic", {"jink": "announced"}, STRONG, "9S", dealer=1)
    table.act(1, {"type": "jink"})
    table.trick("5S,2H")

    assert table.state.phase == "over"
    assert table.state.winner == 0
    [jink] = table.facts("jink")
    assert (jink.ruling.rule_id, jink.trick, jink.side) == ("jink.announced.failed", 1, 0)
    assert table.state.scores == (0, 0)


def test_a_jink_is_announced_only_before_the_opening_lead_and_once() -> None:
    table = recorded_game("classic", {"jink": "announced"}, STRONG, "9S", dealer=1)
    table.act(0, {"type": "jink"})
    with pytest.raises(IllegalPlayError, match="only once per deal, before the opening lead"):
        table.act(1, {"type": "jink"})

    table = recorded_game("classic", {"jink": "announced"}, STRONG, "9S", dealer=1)
    table.play(0, "5S")
    assert {"type": "jink"} not in table.legal(1)
    with pytest.raises(IllegalPlayError, match="only once per deal, before the opening lead"):
        table.act(1, {"type": "jink"})


def test_a_jink_is_announced_only_where_the_option_allows_it() -> None:
    table = recorded_game("classic", {}, STRONG, "9S", dealer=1)
    assert table.legal(1) == []
    with pytest.raises(IllegalPlayError, match="played with the jink option 'none'"):
        table.act(1, {"type": "jink"})


def test_bruff_refuses_an_announced_jink_saying_its_jink_needs_no_announcement() -> None:
    table = recorded_game("bruff", {}, JINK, "9S", dealer=5)
    with pytest.raises(IllegalPlayError, match="in bruff a side wins by taking all five"):
        table.act(0, {"type": "jink"})


def test_the_announced_jink_needs_exactly_two_sides() -> None:
    assert make_ruleset("classic", {"jink": "announced"}, 4).sides == 2
    assert make_ruleset("classic", {"jink": "announced", "layout": "triples"}, 6).sides == 2
    with pytest.raises(ProfileError, match="needs exactly two sides"):
        make_ruleset("classic", {"jink": "announced"}, 3)
    with pytest.raises(ProfileError, match="needs exactly two sides"):
        make_ruleset("classic", {"jink": "announced", "layout": "pairs"}, 6)


# cap_at_target, spoil five, matches.


def test_cap_at_target_changes_nothing_in_the_engines_scores() -> None:
    hands = ["5S,KH,2C,3C,4C", "2H,3H,5C,6C,7C", "4H,5H,8C,9C,TC", "6H,7H,2D,3D,4D"]
    tables = [
        recorded_game("classic", {"cap_at_target": cap}, hands, "9S", dealer=3, scores=(40, 0))
        for cap in (False, True)
    ]
    for table in tables:
        table.trick("5S,2H,4H,6H")

    plain, capped = tables
    assert capped.state.scores == plain.state.scores == (50, 0)
    assert capped.deal.result == plain.deal.result
    assert capped.deal.facts == plain.deal.facts
    assert capped.state.winner == plain.state.winner == 0
    # What docs/rules.md says it changes: the scores a view shows, the game's and the deal
    # result's; the facts keep the score reached.
    shown = game_view(capped.state, "auditor")
    assert shown["scores"] == [45, 0] and shown["deal"]["result"]["scores"] == [45, 0]
    assert game_view(plain.state, "auditor")["scores"] == [50, 0]
    reached = {fact["kind"]: fact["points"] for fact in shown["deal"]["facts"]
               if fact["kind"] in ("target_reached", "game_won")}
    assert reached == {"target_reached": 50, "game_won": 50}


SPOILED = ["7D,3H,2S,4H,QS", "7S,AD,2D,AS,4S", "QC,5D,3C,QD,8S", "9C,4D,KS,JC,TD",
           "6C,KC,KH,JD,2H"]


def test_spoil_five_gives_nobody_points_when_no_side_takes_three_tricks() -> None:
    table = recorded_game("classic", {"spoil_five": True}, SPOILED, "3D", dealer=4)
    table.play_out()

    result = table.deal.result
    assert result is not None
    assert result.tricks_won == (0, 1, 2, 1, 1)
    assert result.points == (0, 0, 0, 0, 0)
    assert table.state.scores == (0, 0, 0, 0, 0)
    [spoiled] = table.facts("spoiled")
    assert spoiled.ruling.rule_id == "spoil_five"

    unspoiled = recorded_game("classic", {}, SPOILED, "3D", dealer=4)
    unspoiled.play_out()
    assert sum(unspoiled.state.scores) == 30
    assert unspoiled.facts("spoiled") == []


def test_with_spoil_five_no_finish_is_declared_before_a_side_has_three_tricks() -> None:
    table = recorded_game(
        "classic", {"spoil_five": True}, SPOILED, "3D", dealer=4, scores=(0, 0, 40, 0, 0)
    )
    table.play_out()

    result = table.deal.result
    assert result is not None
    assert result.ended_at_trick == 5
    assert table.state.winner is None, "seat 2 took two tricks, but the deal was spoiled"
    assert table.state.scores == (0, 0, 40, 0, 0)


def test_a_match_goes_on_with_fresh_scores_until_a_side_wins_enough_games() -> None:
    table = recorded_game("bruff", {"match_games": 2}, JINK, "9S", dealer=5, scores=(0, 40, 40))
    table.play_out()

    assert table.state.winner is None
    assert table.state.games_won == (1, 0, 0)
    assert table.state.game_winners == (0,)
    assert table.state.scores == (0, 0, 0), "scores reset for the next game"
    assert table.state.game_number == 2
    assert table.state.phase == "shuffle"
    [won] = table.facts("game_won")
    assert (won.ruling.rule_id, won.side) == ("match.game_won", 0)

    table.record(JINK, "9S")
    assert table.deal.dealer == 0, "the deal keeps passing left"
    assert table.deal.start_scores == (0, 0, 0)
    table.play_out()
    assert table.state.games_won == (2, 0, 0)
    assert table.state.winner == 0
    assert table.state.phase == "over"


def test_of_two_identical_cards_the_one_played_first_wins() -> None:
    hands = ["KC,2H,3H,4H,6H", "5S,7H,8H,9H,TH", "5S,JH,QH,KH,2D", "3D,4D,6D,7D,8D",
             "9D,TD,JD,QD,KD", "2C,3C,4C,6C,7C", "8C,9C,TC,JC,QC"]
    options = {"layout": "individuals", "decks": 2}
    table = recorded_game("classic", options, hands, "9S", dealer=6)
    trick = table.trick("KC,5S,5S,3D,9D,2C,8C")

    assert trick.winner == 1
    [won] = table.facts("trick_won")
    assert won.ruling.rule_id == "trick.identical_first"
    [bonus] = table.facts("bonus_proven")
    assert (bonus.seat, bonus.credited_trick) == (1, 1)


def test_two_identical_plain_cards_are_ruled_by_the_first_played_bug() -> None:
    # Two packs, no trump in the trick: the first KC wins because it came first, not because
    # it is "the highest card of the led suit" (the second KC is just as high).
    hands = ["KC,2H,3H,4H,6H", "KC,7H,8H,9H,TH", "5C,JH,QH,KH,2D", "3D,4D,6D,7D,8D",
             "9D,TD,JD,QD,KD", "2C,3C,4C,6C,7C", "8C,9C,TC,JC,QC"]
    options = {"layout": "individuals", "decks": 2}
    table = recorded_game("classic", options, hands, "9S", dealer=6)
    trick = table.trick("KC,KC,5C,3D,9D,2C,8C")

    assert trick.winner == 0
    [won] = table.facts("trick_won")
    assert won.ruling.rule_id == "trick.identical_first"
    assert "KC" in won.ruling.text
