"""The sentences of rulings: exactly true for the case at hand, pinned word for word, and
versioned (every rule id has a sentence in every version of the ruling texts)."""

from __future__ import annotations

import pytest
from deals import Table, recorded_game
from test_rulings_finish import TWICE, _chronology

from engine.cards import Suit, parse_cards
from engine.legality import legal_cards
from engine.profiles import make_ruleset
from engine.ranking import ranking
from engine.rule_ids import RULE_IDS
from engine.ruling_texts import SENTENCES, TEXTS_VERSION, known_versions, sentence
from engine.rulings import ruling
from engine.tricks import winner_ruling

# Bruff, hearts trumps (9H turned), dealer 5, scores A 25, B 35, C 30. A takes trick 1 with KC;
# B trumps trick 2 with JH, the highest trump so far but unproven (5H is still out); C takes
# trick 3 with KS and B trick 4 with KD. B reaches 45 at trick 4, or at trick 2 if the JH is the
# deal's highest trump: B wins either way, but which trick is not certain.
UNPROVEN = ["KC,2D,6S,3D,7C", "2C,JH,2S,QD,8C", "3C,4D,KS,8D,9C",
            "4C,5D,3S,9D,5H", "5C,6D,4S,KD,TC", "6C,7D,5S,TD,JC"]


def _unproven_finish() -> Table:
    table = recorded_game("bruff", {}, UNPROVEN, "9H", dealer=5, scores=(25, 35, 30))
    table.trick("KC,2C,3C,4C,5C,6C")
    table.trick("2D,JH,4D,5D,6D,7D")
    table.trick("2S,KS,3S,4S,5S,6S")
    table.play_in_turn("8D,9D,KD,TD,3D,QD")
    return table


def test_a_finish_whose_trick_is_not_certain_says_by_which_trick_at_the_latest() -> None:
    table = _unproven_finish()

    assert table.state.winner == 1
    [reached] = table.facts("target_reached")
    assert (reached.trick, reached.side, reached.points) == (4, 1, 45)
    assert reached.ruling.text == (
        "Side B reached 45 by trick 4 at the latest (at trick 2 if the unproven bonus lies in "
        "trick 2), before any other side: it wins, and later tricks do not count. The scores "
        "are counted to trick 4 without the bonus: the points of tricks 3 to 4 are "
        "provisional, since they would not count if the finish was at trick 2."
    )
    result = table.deal.result
    assert result is not None
    assert (result.points, result.scores) == ((5, 10, 5), (30, 45, 35)), (
        "C's trick-3 points are counted, the bonus is not")
    assert reached.ruling.text_in(1) == (
        "Side 1 reached 45 at trick 4, before any other side: it wins, and later tricks do not "
        "count.")


def test_a_finish_one_trick_after_its_earliest_names_that_one_trick() -> None:
    table = recorded_game("bruff", {}, TWICE, "9S", dealer=5, scores=(35, 0, 0))
    table.trick("KS,2H,4H,6H,8H,TH")
    table.trick("KH,3H,5H,7H,9H,JH")

    [reached] = table.facts("target_reached")
    assert reached.ruling.text == (
        "Side A reached 45 by trick 2 at the latest (at trick 1 if the unproven bonus lies in "
        "trick 1), before any other side: it wins, and later tricks do not count. The scores "
        "are counted to trick 2 without the bonus: the points of trick 2 are provisional, "
        "since they would not count if the finish was at trick 1."
    )


def test_a_bonus_credited_to_a_trick_never_completed_says_nobody_scores_it() -> None:
    table = _chronology("5S,5H,TC,JD,KD")
    table.play_in_turn("7C,QC,9C,5S")  # The finish comes in the middle of trick 3.

    [bonus] = table.facts("bonus_proven")
    assert (bonus.trick, bonus.credited_trick) == (3, 3)
    assert bonus.ruling.text == (
        "5S is the trump five, the highest trump: the bonus belongs to trick 3, but the game "
        "ended before that trick was completed: nobody scores it."
    )
    assert bonus.ruling.text_in(1) == (
        "5S is the trump five, the highest trump: the bonus goes to trick 3.")
    [reached] = table.facts("target_reached")
    assert reached.ruling.text == (
        "Side B reached 45 at trick 2, before any other side: it wins, and later tricks do not "
        "count.")


def test_sides_are_named_by_letter_in_every_ruling_as_in_show_and_the_notation() -> None:
    table = _unproven_finish()

    [won] = table.facts("game_won")
    assert won.ruling.text == "Side B wins game 1."
    assert won.ruling.text_in(1) == "Side 1 wins game 1."
    assert sentence("finish.counted_first", {"sides": (0, 2), "target": 45, "side": 2}) == (
        "Sides A, C reached 45 in one deal; counting from the dealer's left, side C is counted "
        "first and wins.")
    assert sentence("jink.announced.failed", {"side": 0, "trick": 3, "other": 1}) == (
        "Side A announced a jink but lost trick 3: the game goes to side B.")
    assert sentence("bid.set", {"side": 1, "bid": 25, "took": 20}) == (
        "Side B bid 25 but took only 20: it loses 25.")


def test_a_void_in_plain_hearts_holding_ah_says_no_plain_heart() -> None:
    bruff = make_ruleset("bruff")
    _, why = legal_cards(parse_cards("AH,2C,3D"), parse_cards("9H"),
                         ranking(Suit.S, bruff), bruff)
    assert why.rule_id == "play.plain_lead.void"
    assert why.text == "No plain heart in hand after a 9H lead: any card may be played."
    assert why.text_in(1) == "No H in hand after a 9H lead: any card may be played."


def test_the_withhold_rule_states_both_conditions() -> None:
    assert RULE_IDS["play.trump_lead.withhold"] == (
        "On a trump lead, a player may play a non-trump only when every trump held is "
        "protected (trump 5, trump J, AH, joker) and each outranks the card led.")


def test_an_ah_lead_takes_an() -> None:
    classic = make_ruleset("classic", {"joker": "below_ah"}, 4)
    order = ranking(Suit.S, classic)
    _, why = legal_cards(parse_cards("JK,2D"), parse_cards("AH"), order, classic)
    assert why.rule_id == "play.trump_lead.must_trump"
    assert why.text == (
        "JK must be played: an AH lead forces the joker (a protected trump may only be "
        "withheld from a lower lead).")
    assert why.text_in(1).startswith("JK must be played: a AH lead forces the joker")


@pytest.mark.parametrize(("trick", "text"), [
    ("7S,5S,KD", "5S is the highest of the 2 trumps played: it wins the trick."),
    ("7D,KD,2C", "No trump was played and KD is the highest diamond (the suit led): it wins "
                 "the trick."),
    ("KD,2S,3C", "2S is the only trump played: it wins the trick."),
])
def test_the_trick_sentences(trick: str, text: str) -> None:
    order = ranking(Suit.S, make_ruleset("bruff"))
    assert winner_ruling(parse_cards(trick), order)[1].text == text


def test_two_identical_cards_name_the_first() -> None:
    order = ranking(Suit.S, make_ruleset("classic", {"decks": 2}, 8))
    index, why = winner_ruling(parse_cards("KD,KD,2C"), order)
    assert index == 0
    assert why.text == (
        "KD was played twice: the first, card 1 of the trick, ranks higher and wins.")


def test_every_rule_id_has_a_sentence_in_every_version() -> None:
    assert known_versions() == (1, 2, TEXTS_VERSION) == (1, 2, 3)
    for version, sentences in SENTENCES.items():
        assert set(sentences) == set(RULE_IDS), version


def test_a_ruling_is_a_value_of_its_rule_and_facts() -> None:
    assert ruling("trick.highest_trump", card="5S", trumps=2) == ruling(
        "trick.highest_trump", trumps=2, card="5S")
    assert ruling("trick.highest_trump", card="5S", trumps=2).to_dict(1) == {
        "rule": "trick.highest_trump", "text": "5S is the highest trump in the trick."}


def test_every_rule_has_an_example_that_every_version_writes() -> None:
    from engine.rule_ids import RULE_SECTIONS
    from engine.ruling_texts import EXAMPLES

    assert set(EXAMPLES) == set(RULE_IDS) == set(RULE_SECTIONS)
    for version in known_versions():
        for rule_id, args in EXAMPLES.items():
            assert sentence(rule_id, args, version).endswith("."), (rule_id, version)
