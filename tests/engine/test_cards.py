"""Card notation: every card parses and prints back; bad text is refused, quoting the input."""

from __future__ import annotations

import pytest

from engine.cards import (
    JOKER,
    STANDARD_DECK,
    Card,
    Rank,
    Suit,
    card_sort_key,
    format_cards,
    parse_cards,
)
from engine.errors import InvalidCardError, shown

ALL_CARDS = (*STANDARD_DECK, JOKER)


def test_there_are_53_distinct_cards_with_the_joker() -> None:
    assert len(ALL_CARDS) == 53
    assert len({card.code() for card in ALL_CARDS}) == 53


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: card.code())
def test_every_card_code_parses_back_to_the_same_card(card: Card) -> None:
    assert Card.parse(card.code()) is card
    assert str(card) == card.code()


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: card.code())
def test_every_card_parses_from_lower_case(card: Card) -> None:
    assert Card.parse(card.code().lower()) is card


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: card.code())
def test_repr_evaluates_back_to_the_card(card: Card) -> None:
    assert repr(card) == f"Card.parse({card.code()!r})"
    assert eval(repr(card)) is card


def test_codes_use_the_notation_rank_letters_and_suit_letters() -> None:
    codes = [card.code() for card in STANDARD_DECK[:13]]
    assert codes == ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
    assert JOKER.code() == "JK"
    assert [card.code() for card in STANDARD_DECK[12::13]] == ["AS", "AC", "AD", "AH"]


@pytest.mark.parametrize("text", ["10d", "td", "Td", "tD", "10D", "TD", " 10d "])
def test_ten_of_diamonds_parses_from_every_spelling(text: str) -> None:
    assert Card.parse(text).code() == "TD"


def test_joker_parses_in_any_case() -> None:
    assert Card.parse("jk") is JOKER
    assert Card.parse("Jk") is JOKER
    assert JOKER.is_joker and JOKER.suit is None
    assert not Card.parse("JS").is_joker


def test_parsed_cards_carry_rank_and_suit() -> None:
    card = Card.parse("5h")
    assert card.rank is Rank.FIVE and card.suit is Suit.H
    assert Card(Rank.TEN, Suit.D) == Card.parse("10D")


@pytest.mark.parametrize("text", ["1S", "5X", "JKS", "", "  ", "10", "S5", "11S", "5S,", "5 S"])
def test_refuses_text_that_is_not_a_card_quoting_the_input(text: str) -> None:
    with pytest.raises(InvalidCardError) as caught:
        Card.parse(text)
    assert str(caught.value).startswith(f"invalid card {text!r}:")


@pytest.mark.parametrize("value", [5, None, 5.0, ["5S"], b"5S"])
def test_refuses_values_that_are_not_strings(value: object) -> None:
    with pytest.raises(InvalidCardError) as caught:
        Card.parse(value)  # type: ignore[arg-type]
    assert str(caught.value) == f"invalid card {shown(value)}: expected a string such as '5S'"


def test_invalid_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card.parse("ZZ")


def test_parse_cards_of_an_empty_string_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards("   ") == ()


def test_parse_cards_reads_a_comma_separated_string_in_order() -> None:
    assert format_cards(parse_cards("7s, 5S,10d,jk")) == "7S,5S,TD,JK"


def test_parse_cards_reads_a_list_of_codes() -> None:
    cards = parse_cards(["ah", "10d"])
    assert cards == (Card.parse("AH"), Card.parse("TD"))
    assert isinstance(cards, tuple)


def test_parse_cards_names_the_bad_code() -> None:
    with pytest.raises(InvalidCardError, match="invalid card '5X'"):
        parse_cards("5S,5X,KD")
    with pytest.raises(InvalidCardError, match="invalid card ''"):
        parse_cards("5S,,KD")


def test_format_cards_round_trips_the_whole_pack() -> None:
    text = format_cards(ALL_CARDS)
    assert parse_cards(text) == ALL_CARDS
    assert format_cards(parse_cards(text.lower())) == text


@pytest.mark.parametrize("suit", list(Suit), ids=lambda suit: suit.name)
def test_every_suit_letter_parses_back(suit: Suit) -> None:
    assert Suit.parse(suit.name) is suit
    assert Suit.parse(suit.name.lower()) is suit


@pytest.mark.parametrize("text", ["X", "", "spades", "JK"])
def test_refuses_text_that_is_not_a_suit_quoting_the_input(text: str) -> None:
    with pytest.raises(InvalidCardError, match=f"invalid suit {text!r}"):
        Suit.parse(text)


def test_red_suits_are_diamonds_and_hearts() -> None:
    assert [suit.name for suit in Suit if suit.is_red] == ["D", "H"]


def test_sort_key_orders_by_suit_then_face_value_with_the_joker_last() -> None:
    cards = parse_cards("JK,AH,2S,KD,TS,3C")
    assert format_cards(sorted(cards, key=card_sort_key)) == "2S,TS,3C,KD,AH,JK"
