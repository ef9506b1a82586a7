"""Which cards may be played: every ruling of docs/rules.md §Play, the renege privilege."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import Card, Suit, format_cards, parse_cards
from engine.legality import check_card, legal_cards
from engine.profiles import make_ruleset
from engine.ranking import ranking
from engine.rejections import IllegalPlayError
from engine.rule_ids import RULE_IDS
from engine.rulings import Ruling


def _legal(
    trick: str, hand: str, trump: str, profile: str = "bruff", players: int | None = None,
    **options: Any,
) -> tuple[str, Ruling]:
    """Returns the legal cards (canonical order, comma-separated) and the ruling."""
    rules = make_ruleset(profile, options, players)
    cards, ruling = legal_cards(
        parse_cards(hand), parse_cards(trick), ranking(Suit.parse(trump), rules), rules
    )
    assert ruling.rule_id in RULE_IDS
    return format_cards(cards), ruling


def _check(trick: str, hand: str, trump: str, card: str, profile: str = "bruff") -> Ruling:
    rules = make_ruleset(profile)
    return check_card(
        parse_cards(hand), parse_cards(trick), ranking(Suit.parse(trump), rules), rules,
        Card.parse(card),
    )


# The lead.


def test_the_leader_may_lead_any_card() -> None:
    legal, ruling = _legal("", "5S,AH,KD,2C,JK", "S")
    assert legal == "5S,2C,KD,AH,JK"
    assert ruling.rule_id == "play.lead"


# Plain-suit leads, default trump_or_follow.


def test_plain_lead_may_be_trumped_while_holding_the_led_suit() -> None:
    legal, ruling = _legal("KD", "3D,2S,QC", "S")
    assert legal == "2S,3D"
    assert ruling.rule_id == "play.plain_lead.trump_or_follow"


def test_plain_lead_must_be_followed_when_not_trumping() -> None:
    legal, _ = _legal("KD", "3D,9D,QC,KH", "S")
    assert legal == "3D,9D"
    assert "QC" not in legal and "KH" not in legal


def test_player_void_in_the_led_suit_may_play_anything() -> None:
    legal, ruling = _legal("KD", "2S,QC,KH", "S")
    assert legal == "2S,QC,KH"
    assert ruling.rule_id == "play.plain_lead.void"


def test_player_void_in_the_led_suit_need_not_trump() -> None:
    legal, _ = _legal("KD", "5S,QC", "S")
    assert "QC" in legal


def test_ace_of_hearts_alone_does_not_follow_a_heart_lead() -> None:
    # docs/rules.md: AH is a trump for every purpose, never a heart. With diamonds trumps a player
    # whose only "heart" is AH is void in hearts and may play anything.
    legal, ruling = _legal("KH", "AH,2C,3S", "D")
    assert legal == "3S,2C,AH"
    assert ruling.rule_id == "play.plain_lead.void"


def test_ace_of_hearts_may_trump_a_heart_lead_while_holding_hearts() -> None:
    legal, ruling = _legal("KH", "AH,3H,2C", "D")
    assert legal == "3H,AH"
    assert ruling.rule_id == "play.plain_lead.trump_or_follow"


def test_joker_is_a_trump_on_a_plain_lead_not_a_card_of_any_suit() -> None:
    legal, _ = _legal("KC", "JK,2C,3S", "H")
    assert legal == "2C,JK"
    legal, ruling = _legal("KC", "JK,3S", "H")
    assert legal == "3S,JK"
    assert ruling.rule_id == "play.plain_lead.void"


def test_must_follow_option_forbids_trumping_while_holding_the_led_suit() -> None:
    legal, ruling = _legal("KD", "3D,2S,QC", "S", "classic", follow="must_follow")
    assert legal == "3D"
    assert ruling.rule_id == "play.plain_lead.must_follow"


def test_must_follow_option_still_lets_a_void_player_play_anything() -> None:
    legal, ruling = _legal("KD", "2S,QC", "S", "classic", follow="must_follow")
    assert legal == "2S,QC"
    assert ruling.rule_id == "play.plain_lead.void"


def test_must_follow_option_does_not_count_the_ace_of_hearts_as_a_heart() -> None:
    legal, _ = _legal("KH", "AH,3H", "D", "classic", follow="must_follow")
    assert legal == "3H"


# Trump leads.


def test_trump_lead_must_be_answered_with_a_trump() -> None:
    legal, ruling = _legal("KS", "2S,QD,3C", "S")
    assert legal == "2S"
    assert ruling.rule_id == "play.trump_lead.must_trump"


def test_trump_lead_lets_a_player_with_no_trump_play_anything() -> None:
    legal, ruling = _legal("KS", "QD,3C,KH", "S")
    assert legal == "3C,QD,KH"
    assert ruling.rule_id == "play.trump_lead.void"


def test_a_led_ace_of_hearts_is_a_trump_lead() -> None:
    legal, ruling = _legal("AH", "2D,KH,3C", "D")
    assert legal == "2D"
    assert ruling.rule_id == "play.trump_lead.must_trump"


def test_trump_lead_leaves_every_trump_legal_not_only_a_higher_one() -> None:
    legal, _ = _legal("KS", "2S,AS,3C", "S")
    assert legal == "2S,AS"


# The renege privilege: seed 000 §09, 001 §06, 000 §06.


def test_bruff_worked_example_ace_of_hearts_may_be_kept_despite_the_later_five() -> None:
    # Seed 000 §09: spades trumps; 7S led, 5S played; C holds AH and KD and may discard KD.
    legal, ruling = _legal("7S,5S", "AH,KD", "S")
    assert legal == "KD,AH"
    assert ruling.rule_id == "play.trump_lead.withhold"
    assert _check("7S,5S", "AH,KD", "S", "KD").rule_id == "play.trump_lead.withhold"


def test_auction_example_nine_lead_lets_the_trump_jack_be_kept() -> None:
    # Seed 001 §06: only trump JS, and 2D; a 9S lead allows discarding 2D.
    legal, ruling = _legal("9S", "JS,2D", "S", "auction")
    assert legal == "JS,2D"
    assert ruling.rule_id == "play.trump_lead.withhold"


def test_auction_example_five_lead_forces_the_trump_jack() -> None:
    # Seed 001 §06: on a 5S lead with the same holding JS must be played.
    legal, ruling = _legal("5S", "JS,2D", "S", "auction")
    assert legal == "JS"
    assert ruling.rule_id == "play.trump_lead.must_trump"
    with pytest.raises(IllegalPlayError) as caught:
        _check("5S", "JS,2D", "S", "2D", "auction")
    assert str(caught.value) == (
        "illegal play: '2D'; JS must be played: a 5S lead forces the trump jack (a protected "
        "trump may only be withheld from a lower lead)."
    )
    assert caught.value.ruling is not None
    assert caught.value.ruling.rule_id == "play.trump_lead.must_trump"


@pytest.mark.parametrize(
    ("led", "held", "forced"),
    [
        # "the five can force J, five or J can force the joker, and five, J or joker can
        # force AH" (seed 000 §06, spades trumps).
        ("5S", "JS", True), ("5S", "JK", True), ("5S", "AH", True),
        ("JS", "JK", True), ("JS", "AH", True),
        ("JK", "AH", True),
        # Everything below a protected trump leaves it free to be withheld.
        ("JS", "5S", False),
        ("JK", "5S", False), ("JK", "JS", False),
        ("AH", "5S", False), ("AH", "JS", False), ("AH", "JK", False),
        ("AS", "AH", False), ("KS", "JK", False), ("TS", "JS", False), ("2S", "5S", False),
    ],
)
def test_bruff_protected_trumps_are_forced_only_by_a_higher_lead(
    led: str, held: str, forced: bool
) -> None:
    legal, ruling = _legal(led, f"{held},2D", "S")
    if forced:
        assert legal == held
        assert ruling.rule_id == "play.trump_lead.must_trump"
    else:
        assert set(legal.split(",")) == {held, "2D"}
        assert ruling.rule_id == "play.trump_lead.withhold"


@pytest.mark.parametrize("led", ["JS", "JK", "AH", "AS", "KS", "2S", "TS"])
def test_the_trump_five_can_never_be_forced(led: str) -> None:
    legal, ruling = _legal(led, "5S,2D", "S")
    assert set(legal.split(",")) == {"5S", "2D"}
    assert ruling.rule_id == "play.trump_lead.withhold"


@pytest.mark.parametrize(("ace", "trump"), [("AS", "S"), ("AC", "C"), ("AD", "D")])
def test_trump_aces_other_than_hearts_have_no_protection(ace: str, trump: str) -> None:
    legal, ruling = _legal(f"2{trump}", f"{ace},KH", trump)
    assert legal == ace
    assert ruling.rule_id == "play.trump_lead.must_trump"


def test_ace_of_hearts_is_protected_as_the_ace_of_trumps_when_hearts_are_trumps() -> None:
    legal, ruling = _legal("KH", "AH,2D", "H")
    assert set(legal.split(",")) == {"AH", "2D"}
    assert ruling.rule_id == "play.trump_lead.withhold"


def test_holding_a_protected_and_an_unprotected_trump_forces_some_trump() -> None:
    legal, ruling = _legal("7S", "JS,3S,KD", "S")
    assert legal == "3S,JS"
    assert ruling.rule_id == "play.trump_lead.must_trump"
    assert "3S is not a protected trump" in ruling.text


def test_a_protected_trump_below_the_lead_forces_a_trump_even_with_a_higher_one_held() -> None:
    # JK led (bruff): 5S outranks it, AH does not; the player must play some trump, and may
    # choose the five.
    legal, ruling = _legal("JK", "5S,AH,2D", "S")
    assert legal == "5S,AH"
    assert ruling.rule_id == "play.trump_lead.must_trump"
    assert "a JK lead forces AH" in ruling.text


def test_the_privilege_compares_with_the_lead_not_a_higher_card_played_later() -> None:
    legal, ruling = _legal("2S,5S,JS", "JK,QC", "S")
    assert set(legal.split(",")) == {"JK", "QC"}
    assert ruling.rule_id == "play.trump_lead.withhold"


def test_several_protected_trumps_above_the_lead_may_all_be_withheld() -> None:
    legal, ruling = _legal("KS", "5S,JS,AH,JK,2D", "S")
    assert legal == "5S,JS,2D,AH,JK"
    assert ruling.rule_id == "play.trump_lead.withhold"
    assert ruling.text.startswith("5S,JS,AH,JK may be withheld")


def test_classic_joker_below_ah_is_forced_by_a_led_ace_of_hearts() -> None:
    legal, ruling = _legal("AH", "JK,2D", "S", "classic", joker="below_ah")
    assert legal == "JK"
    assert ruling.rule_id == "play.trump_lead.must_trump"
    assert "forces the joker" in ruling.text


def test_classic_joker_below_ah_may_withhold_the_ace_of_hearts_from_a_joker_lead() -> None:
    legal, ruling = _legal("JK", "AH,2D", "S", "classic", joker="below_ah")
    assert legal == "2D,AH"
    assert ruling.rule_id == "play.trump_lead.withhold"


def test_classic_joker_is_protected_from_a_lower_trump() -> None:
    legal, ruling = _legal("AS", "JK,2D", "S", "classic", joker="below_ah")
    assert legal == "2D,JK"
    assert ruling.rule_id == "play.trump_lead.withhold"


def test_second_identical_protected_trump_is_forced_by_the_first_from_two_packs() -> None:
    # Of two identical cards the one played first ranks higher, so a held 5S does not
    # outrank a led 5S.
    legal, ruling = _legal("5S", "5S,2D", "S", "classic", players=8, decks=2)
    assert legal == "5S"
    assert ruling.rule_id == "play.trump_lead.must_trump"


def test_two_pack_duplicates_appear_once_among_the_legal_cards() -> None:
    legal, _ = _legal("", "KD,KD,2S", "S", "classic", players=8, decks=2)
    assert legal == "2S,KD"


# check_card.


def test_raises_when_card_not_in_hand() -> None:
    with pytest.raises(IllegalPlayError) as caught:
        _check("7S", "2S,KD", "S", "QS")
    assert str(caught.value) == "illegal play: 'QS' is not in the hand (2S,KD)"


def test_check_card_returns_the_ruling_that_allows_the_card() -> None:
    assert _check("", "2S", "S", "2S").rule_id == "play.lead"
    assert _check("KD", "2S,3D", "S", "2S").rule_id == "play.plain_lead.trump_or_follow"


def test_check_card_refuses_an_unforced_discard_naming_what_must_be_played() -> None:
    with pytest.raises(IllegalPlayError) as caught:
        _check("KD", "3D,QC", "S", "QC")
    message = str(caught.value)
    assert message.startswith("illegal play: 'QC'; ")
    assert "A KD lead may be trumped; otherwise a plain diamond must be played" in message
    assert caught.value.ruling is not None
    assert caught.value.ruling.rule_id == "play.plain_lead.trump_or_follow"
