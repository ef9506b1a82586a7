"""docs/rules.md §Scoring: five a trick, five more for the trick of the deal's highest trump (30 a
deal, 25 with no trump in play), and the bonus proven only from public knowledge."""

from __future__ import annotations

from collections import Counter

from deals import FACT_RULES, Table, cards_in_play, recorded_game

from engine.rule_ids import RULE_IDS
from engine.scoring import trick_points
from engine.shuffle import pack

# Classic, four players in two pairs, spades trumps (9S turned), dealer 3: seat 0 leads.
# Nobody holds 5S: South's JS is the deal's highest trump, played to the third trick.
JS_THIRD = ["2H,3H,4H,6H,7H", "JS,2C,3C,4C,6C", "8H,TH,JH,QH,KH", "2D,3D,4D,6D,7D"]
JS_THIRD_TRICKS = ["2H,2C,KH,2D", "QH,3D,3H,3C", "JH,4D,4H,JS", "4C,8H,6D,6H", "6C,TH,7D,7H"]


def _js_third() -> Table:
    return recorded_game("classic", {}, JS_THIRD, "9S", dealer=3)


def test_each_trick_scores_five_and_the_highest_trumps_trick_five_more() -> None:
    table = _js_third()
    for cards in JS_THIRD_TRICKS:
        table.trick(cards)

    assert [trick.winner for trick in table.deal.tricks] == [2, 2, 1, 1, 1]
    assert trick_points(table.deal, table.state.rules, 3) == [
        (0, 5), (0, 5), (1, 10), (1, 5), (1, 5)
    ]
    assert [fact.points for fact in table.facts("trick_won")] == [5] * 5
    result = table.deal.result
    assert result is not None
    assert result.points == (10, 20)
    assert sum(result.points) == 30
    assert table.state.scores == (10, 20)


def test_the_hands_exhausted_prove_a_bonus_credited_to_an_earlier_trick() -> None:
    table = _js_third()
    for number, cards in enumerate(JS_THIRD_TRICKS, start=1):
        table.trick(cards)
        if number < 5:
            assert not table.deal.bonus_proven, f"not proven after trick {number}"
            assert table.facts("bonus_proven") == []

    [bonus] = table.facts("bonus_proven")
    assert (bonus.ruling.rule_id, bonus.trick, bonus.credited_trick, bonus.seat, bonus.side) == (
        "bonus.proven.hands_exhausted", 5, 3, 1, 1
    )
    assert "JS was the deal's highest trump; the bonus goes to trick 3" in bonus.ruling.text


def test_a_deal_with_no_trump_in_play_is_worth_25() -> None:
    # Bruff, spades trumps: all fifteen trumps (with AH and the joker) lie outside the hands.
    hands = ["2C,3C,4C,6C,7C", "8C,9C,TC,JC,QC", "KC,AC,5C,2D,3D",
             "4D,5D,6D,7D,8D", "9D,TD,JD,QD,KD", "AD,2H,3H,4H,5H"]
    table = recorded_game("bruff", {}, hands, "9S", dealer=5)
    table.play_out()

    assert table.deal.highest is None
    assert table.facts("bonus_proven") == []
    [none] = table.facts("bonus_none")
    assert none.ruling.rule_id == "bonus.none"
    result = table.deal.result
    assert result is not None
    assert sum(result.points) == 25
    assert sum(table.state.scores) == 25


def test_without_the_bonus_option_a_deal_is_worth_25() -> None:
    table = recorded_game("classic", {"bonus": False}, JS_THIRD, "9S", dealer=3)
    for cards in JS_THIRD_TRICKS:
        table.trick(cards)

    assert table.state.scores == (10, 15)
    assert table.facts("bonus_proven") == []
    assert table.facts("bonus_none") == []


# The bonus proven from public knowledge only.

# Bruff, dealer 5, seat 0 leads JS; 5S is turned up and AS lies in the stock.
TURNED_FIVE = ["JS,2H,3H,4H,6H", "7H,8H,TH,2C,3C", "4C,6C,7C,8C,9C",
               "TC,JC,QC,2D,3D", "4D,6D,7D,8D,9D", "TD,JD,QD,KD,KH"]


def test_an_unrobbed_turn_up_proves_the_bonus_once_the_first_trick_is_complete() -> None:
    table = recorded_game("bruff", {}, TURNED_FIVE, "5S", dealer=5)
    table.play(0, "JS")
    for seat, card in enumerate(["2C", "4C", "2D", "4D"], start=1):
        assert not table.deal.bonus_proven, "an unseen AS could still rob the turn-up"
        table.play(seat, card)
    assert not table.deal.bonus_proven
    table.play(5, "TD")

    [bonus] = table.facts("bonus_proven")
    assert (bonus.ruling.rule_id, bonus.trick, bonus.credited_trick, bonus.side) == (
        "bonus.proven.higher_out", 1, 1, 0
    )
    assert "the only higher one (5S) is the turn-up" in bonus.ruling.text


def test_a_robbed_turn_up_proves_nothing() -> None:
    hands = list(TURNED_FIVE)
    hands[3] = "AS,JC,QC,2D,3D"  # seat 3 holds the ace of trumps and robs the 5S
    table = recorded_game("bruff", {}, hands, "5S", dealer=5)
    table.play_in_turn("JS,2C,4C")
    table.act(3, {"type": "rob", "discard": "2D"})
    table.trick("AS,4D,TD")  # AS must be played: it is not protected

    assert table.deal.tricks[0].winner == 0
    assert not table.deal.bonus_proven
    assert table.facts("bonus_proven") == []


def test_without_robbing_the_turn_up_is_out_of_play_at_once() -> None:
    hands = ["JS,2H,3H,4H,6H", "7H,8H,TH,2C,3C", "4C,6C,7C,8C,9C", "TC,JC,QC,2D,3D"]
    table = recorded_game("classic", {"robbing": False}, hands, "5S", dealer=3)
    table.play(0, "JS")

    [bonus] = table.facts("bonus_proven")
    assert (bonus.ruling.rule_id, bonus.trick, bonus.credited_trick) == (
        "bonus.proven.higher_out", 1, 1
    )


def test_a_turn_up_below_the_highest_missing_trump_proves_nothing() -> None:
    hands = list(TURNED_FIVE)
    hands[0] = "JK,2H,3H,4H,6H"  # the joker is led; JS is turned, but 5S is unseen
    table = recorded_game("bruff", {}, hands, "JS", dealer=5)
    table.trick("JK,2C,4C,2D,4D,TD")

    assert table.deal.highest is not None
    assert table.deal.highest.card.code() == "JK"
    assert not table.deal.bonus_proven


# Bruff, spades trumps, dealer 5. Seat 0 leads KS; seats 1, 2, 3 and 5 hold no trump; seat 4
# holds 5S and withholds it (protected, above the KS led). Its discard proves nothing.
WITHHELD = ["KS,2H,3C,4D,6H", "KH,7C,8C,TD,2D", "3H,QC,5C,7D,8D",
            "4H,9C,6C,3D,6D", "5S,5H,TC,JD,KD", "7H,8H,9D,2C,4C"]


def test_a_discard_on_a_trump_lead_proves_nothing() -> None:
    table = recorded_game("bruff", {}, WITHHELD, "9S", dealer=5)
    table.trick("KS,2D,8D,6D,JD,9D")

    [renege] = table.facts("renege_allowed")
    assert (renege.seat, renege.trick) == (4, 1)
    assert not table.deal.bonus_proven, "5 of 6 players discarded, yet 5S may be out there"
    table.trick("2H,KH,3H,4H,5H,8H")
    assert not table.deal.bonus_proven

    table.play(1, "7C")
    table.play(2, "QC")
    table.play(3, "9C")
    table.play(4, "5S")
    [bonus] = table.facts("bonus_proven")
    assert (bonus.ruling.rule_id, bonus.trick, bonus.credited_trick, bonus.side) == (
        "bonus.proven.five", 3, 3, 1
    )


# Rulings on derived facts.


def test_the_rule_ids_a_fact_may_carry_are_all_registered() -> None:
    for kind, rules in FACT_RULES.items():
        assert rules <= set(RULE_IDS), kind


def test_every_fact_of_a_played_deal_carries_a_registered_ruling() -> None:
    table = recorded_game("bruff", {}, WITHHELD, "9S", dealer=5)
    table.trick("KS,2D,8D,6D,JD,9D")
    table.play_out()

    kinds = Counter(fact.kind for fact in table.deal.facts)
    assert kinds == Counter(
        {"trick_won": 5, "renege_allowed": 1, "bonus_proven": 1}
    ), kinds
    for fact in table.deal.facts:
        assert fact.ruling.rule_id in FACT_RULES[fact.kind]
        assert fact.ruling.text
        assert fact.to_dict()["ruling"] == {"rule": fact.ruling.rule_id, "text": fact.ruling.text}
    assert cards_in_play(table.state) == Counter(pack(table.state.rules))
