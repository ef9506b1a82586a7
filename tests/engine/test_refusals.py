"""Why a card may not be played, in a player's words: each refusing rule, and against the
engine's own decision for many hands (the sentence lists exactly the legal cards and names the
forced trumps the ruling names)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine.cards import Card, Suit, parse_cards
from engine.legality import legal_cards
from engine.profiles import make_ruleset
from engine.query import legal_query
from engine.ranking import ranking
from engine.refusals import REFUSING_RULES, card_text, refusal
from engine.shuffle import pack


def _refusals(trick: str, hand: str, trump: str, profile: str = "classic",
              **options: Any) -> dict[str, str]:
    players = None if profile != "classic" else 2
    return dict(legal_query(profile, options, players, trump, trick, hand)["refusals"])


def test_an_unprotected_trump_must_be_played_to_a_trump_lead() -> None:
    said = _refusals("7H", "4H,5H,AH,KD", "H")
    assert said == {"KD": (
        "K\u2666 may not be played: a trump was led (7\u2665), so you must play a trump. "
        "Your 4\u2665 is not a top trump (5\u2665, J\u2665 and A\u2665), so it may not be held "
        "back. You may play 4\u2665, 5\u2665 or A\u2665.")}


def test_the_joker_is_named_a_top_trump_only_where_the_pack_has_one() -> None:
    with_joker = _refusals("7S", "3S,KD", "S", profile="bruff")["KD"]
    without = _refusals("7S", "3S,KD", "S")["KD"]
    assert "(5\u2660, J\u2660, A\u2665 and the joker)" in with_joker
    assert "(5\u2660, J\u2660 and A\u2665)" in without


def test_a_top_trump_below_the_lead_is_forced_and_the_sentence_says_the_lead_is_higher() -> None:
    said = _refusals("5S", "JS,2D", "S", profile="auction")
    assert said["2D"].startswith("2\u2666 may not be played: a trump was led (5\u2660)")
    assert ("Your J\u2660 is a top trump, but a top trump may be held back only from a lower "
            "trump, and the 5\u2660 led is higher. You may play J\u2660.") in said["2D"]


def test_a_plain_lead_may_be_trumped_or_followed() -> None:
    said = _refusals("KH", "3H,7C,5S", "S")
    assert said == {"7C": (
        "7\u2663 may not be played: K\u2665 was led and you hold a \u2665 heart, so you must "
        "follow with a heart or play a trump. You may play 3\u2665 or 5\u2660.")}


def test_must_follow_refuses_a_trump_and_says_the_ace_of_hearts_is_never_a_heart() -> None:
    said = _refusals("KH", "3H,5S,AH", "S", follow="must_follow")
    assert set(said) == {"5S", "AH"}
    assert said["5S"] == ("5\u2660 may not be played: K\u2665 was led and you hold a \u2665 "
                          "heart, so you must follow with a heart. You may play 3\u2665.")
    assert "(A\u2665 is a trump, never a heart)" in said["AH"]


def test_a_ruling_that_allows_the_card_is_no_refusal() -> None:
    rules = make_ruleset("bruff")
    order = ranking(Suit.S, rules)
    hand = parse_cards("AH,KD")
    legal, why = legal_cards(hand, parse_cards("7S,5S"), order, rules)
    with pytest.raises(ValueError, match="may be played"):
        refusal(Card.parse("KD"), why, [card.code() for card in legal], True)


@pytest.mark.parametrize("profile", ["bruff", "auction", "classic"])
def test_every_refusal_lists_exactly_the_legal_cards_and_the_forced_trumps(profile: str) -> None:
    chance = random.Random(f"refusals-{profile}")
    options: dict[str, Any] = {"joker": "below_ah"} if profile == "classic" else {}
    rules = make_ruleset(profile, options, 4 if profile != "bruff" else None)
    cards = sorted(set(pack(rules)))
    seen: set[str] = set()
    for _ in range(1500):
        drawn = chance.sample(cards, 5 + chance.randint(1, 3))
        hand, trick = drawn[:5], drawn[5:]
        trump = chance.choice("SCDH")
        if chance.random() < 0.3:
            options = {**options, "follow": "must_follow"} if profile == "classic" else options
        answer = legal_query(profile, options, 4 if profile != "bruff" else None, trump,
                             [c.code() for c in trick], [c.code() for c in hand])
        refused = {c.code() for c in hand} - set(answer["legal"])
        assert set(answer["refusals"]) == refused
        if refused:
            assert answer["rule"] in REFUSING_RULES
            seen.add(answer["rule"])
        for code, text in answer["refusals"].items():
            name = card_text(code)
            assert text.startswith(f"{name[:1].upper()}{name[1:]} may not be played: ")
            plays = text.rsplit("You may play ", 1)[1].rstrip(".")
            assert re.split(r", | or ", plays) == [card_text(c) for c in answer["legal"]]
            assert not re.search(r"\b(?:[2-9TJQKA][SCDH]|JK)\b", text), text  # symbols only
            led = card_text(trick[0].code())
            assert led in text or (led == "the joker" and "(the joker)" in text)
            if answer["rule"] == "play.trump_lead.must_trump":
                order = ranking(Suit.parse(trump), rules)
                _, why = legal_cards(tuple(hand), tuple(trick), order, rules)
                for forced in dict(why.args)["forced"]:
                    yours = "your joker" if forced == "JK" else f"your {card_text(forced)}"
                    assert f"{yours} is".lower() in text.lower(), text
    assert seen == (REFUSING_RULES if profile == "classic" else
                    REFUSING_RULES - {"play.plain_lead.must_follow"})
