"""Why a card of a hand may not be played, in the words a player uses at the table.

The ruling texts (:mod:`engine.ruling_texts`) state the rule of a hand and a trick in the
notation ("4H,5H,AH are the only legal plays: 4H is not a protected trump..."); a player who
taps a card wants to hear about that card, with suit symbols: "7♠ may not be played: a trump
was led (7♥), so you must play a trump. Your 4♥ is not a top trump...". These sentences are
made from the same decision (:func:`engine.legality.legal_cards` and its ruling's facts), so
they say nothing the ruling does not: the rule id and the ruling stay the authority, and a
client shows them beside the sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Suit
from engine.ranking import is_protected
from engine.rulings import Ruling

SYMBOLS = {"S": "\u2660", "C": "\u2663", "D": "\u2666", "H": "\u2665"}
"""The suit symbols a player reads."""

SUIT_WORDS = {"S": "spade", "C": "club", "D": "diamond", "H": "heart"}

REFUSING_RULES = frozenset({
    "play.trump_lead.must_trump", "play.plain_lead.trump_or_follow",
    "play.plain_lead.must_follow",
})
"""The rule ids under which some card of a hand may not be played (every other play ruling
allows the whole hand)."""


def card_text(code: str) -> str:
    """Returns a card as a player writes it: "10♥", "A♠", "the joker"."""
    if code == "JK":
        return "the joker"
    rank = "10" if code[0] == "T" else code[:-1]
    return f"{rank}{SYMBOLS[code[-1]]}"


def _listed(codes: Sequence[str]) -> str:
    """Returns "A♥", "5♥ or A♥", "4♥, 5♥ or A♥"."""
    names = [card_text(code) for code in codes]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _top_trumps(trump: str, with_joker: bool) -> str:
    """Returns the top trumps of *trump*: "5♠, J♠, A♥ and the joker"."""
    names = [f"5{SYMBOLS[trump]}", f"J{SYMBOLS[trump]}", "A\u2665"]
    if with_joker:
        names.append("the joker")
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _your(code: str) -> str:
    """Returns "your 4♥", "your joker"."""
    return "your joker" if code == "JK" else f"your {card_text(code)}"


def _the_led(code: str) -> str:
    """Returns "the 5♠ led", "the joker led"."""
    return "the joker led" if code == "JK" else f"the {card_text(code)} led"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def refusal(card: Card, why: Ruling, legal: Sequence[str], with_joker: bool) -> str:
    """Returns why *card* may not be played, for a hand whose legal cards are *legal* (codes,
    in hand order) under *why* (the ruling of :func:`~engine.legality.legal_cards` for that
    hand and trick). *with_joker* says whether the pack holds a joker (it is then a top trump).

    :raises ValueError: when *why* allows every card, or *card* is one of *legal*.
    """
    code = card.code()
    if why.rule_id not in REFUSING_RULES or code in legal:
        raise ValueError(f"{code} may be played under {why.rule_id}")
    facts = dict(why.args)
    led = str(facts["led"])
    name = _capital(card_text(code))
    plays = _listed(legal)
    if why.rule_id == "play.trump_lead.must_trump":
        trump = str(facts["trump"])
        reasons = []
        for forced in facts["forced"]:
            if not is_protected(Card.parse(forced), Suit.parse(trump)):
                reasons.append(
                    f"{_your(forced)} is not a top trump "
                    f"({_top_trumps(trump, with_joker)}), so it may not be held back")
            elif forced == led:
                reasons.append(
                    f"{_your(forced)} is a top trump, but a top trump may be held back only "
                    f"from a lower trump, and {_the_led(led)} is the same card")
            else:
                reasons.append(
                    f"{_your(forced)} is a top trump, but a top trump may be held back only "
                    f"from a lower trump, and {_the_led(led)} is higher")
        return (f"{name} may not be played: a trump was led ({card_text(led)}), so you must "
                f"play a trump. {_capital('; '.join(reasons))}. You may play {plays}.")
    suit = str(facts["suit"])
    word = f"{SYMBOLS[suit]} {SUIT_WORDS[suit]}"
    never_heart = suit == "H" and code in ("AH", "JK")
    trump_note = f" ({card_text(code)} is a trump, never a heart)" if never_heart else ""
    if why.rule_id == "play.plain_lead.must_follow":
        return (f"{name} may not be played: {card_text(led)} was led and you hold a {word}, "
                f"so you must follow with a {SUIT_WORDS[suit]}{trump_note}. "
                f"You may play {plays}.")
    return (f"{name} may not be played: {card_text(led)} was led and you hold a {word}, so "
            f"you must follow with a {SUIT_WORDS[suit]} or play a trump. You may play {plays}.")
