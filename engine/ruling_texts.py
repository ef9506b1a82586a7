"""The sentences of every ruling, by version of the ruling texts.

A sentence is made from a ruling's rule id and the facts of its case (:class:`Ruling.args
<engine.rulings.Ruling>`). Every hand history names the version of the ruling texts it was
written with, and verification renders the engine's rulings in that version, so a sentence can
be improved without breaking a history already shared. Never change a sentence of a published
version: add a version instead (:data:`TEXTS_VERSION`), and list what changed in docs/rules.md.

- Version 1: the sentences of every history of format 1.0 (sides numbered from 0).
- Version 2: sides named A, B, C as everywhere else; the trick and renege sentences of the
  rules query; a finish whose trick depends on an unproven bonus said "by trick k at the
  latest"; a bonus credited to a trick that does not count said so; "no plain heart"; "an AH".
- Version 3: seats numbered from 1, as people count them, wherever a sentence names one (the
  irregularities of :mod:`replay.formats.irregularities`: "seat 1 played 7S out of turn"); the
  API, the events and the histories' data still number them from 0. The rulings' sentences of
  version 2 name no seat, so version 3 writes them alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.cards import Card, card_sort_key
from engine.rule_ids import RULE_IDS
from engine.sides import side_name

TEXTS_VERSION = 3
"""The version of the ruling texts this code writes."""

Args = Mapping[str, Any]
Sentence = Callable[[Args], str]

_SUIT_WORDS = {"S": "spade", "C": "club", "D": "diamond", "H": "heart"}


def _sorted(codes: Sequence[str]) -> str:
    """Returns distinct card codes in the engine's display order, comma-separated."""
    cards = sorted({Card.parse(code) for code in codes}, key=card_sort_key)
    return ",".join(card.code() for card in cards)


def _a(code: str) -> str:
    """Returns *code* with its article, as it is read aloud: "an AH", "an 8S", "a 5S"."""
    return f"{'an' if code[0] in 'A8' else 'a'} {code}"


def _cap(text: str) -> str:
    """Returns *text* with its first letter upper-case (and the rest as it is)."""
    return text[:1].upper() + text[1:]


def _trump_name(code: str, trump: str) -> str | None:
    """Returns how a player names a protected trump ("the trump jack", "AH"), or ``None`` for
    a trump that is not protected."""
    if code == "JK":
        return "the joker"
    if code == "AH":
        return "AH"
    if code == f"5{trump}":
        return "the trump five"
    if code == f"J{trump}":
        return "the trump jack"
    return None


# Version 1 -----------------------------------------------------------------------------------


def _v1_withhold(a: Args) -> str:
    if "seat" in a:
        return (f"Seat {a['seat']} kept {','.join(a['kept'])} from the {a['led']} lead: "
                "protected trumps above the lead may be withheld.")
    return (f"{_sorted(a['kept'])} may be withheld: every trump held is protected and outranks "
            f"the {a['led']} led (compare with the lead only).")


def _must_trump(a: Args, article: Callable[[str], str]) -> str:
    reasons = []
    for code in _sorted(a["forced"]).split(","):
        name = _trump_name(code, a["trump"])
        if name is not None:
            reasons.append(f"{article(a['led'])} lead forces {name}")
        else:
            reasons.append(f"{code} is not a protected trump")
    verb = "must be played" if len(set(a["trumps"])) == 1 else "are the only legal plays"
    return (f"{_sorted(a['trumps'])} {verb}: {'; '.join(reasons)} (a protected trump may only "
            "be withheld from a lower lead).")


def _v1_bonus_where(a: Args) -> str:
    return f"the bonus goes to trick {a['trick']}."


def _bonus_proofs(where: Sentence) -> dict[str, Sentence]:
    """Returns the sentences of the three bonus proofs, each ending with *where* the bonus
    goes."""
    return {
        "bonus.proven.five": lambda a: (
            f"{a['card']} is the trump five, the highest trump: " + where(a)),
        "bonus.proven.higher_out": lambda a: (
            f"{a['card']} is the highest trump: the only higher one ({', '.join(a['higher'])})"
            " is the turn-up, out of play; " + where(a)),
        "bonus.proven.hands_exhausted": lambda a: (
            f"The hands are exhausted: {a['card']} was the deal's highest trump; " + where(a)),
    }


def _v1_bid(a: Args) -> str:
    took = a["took"]
    return (f"Side {a['side']} bid {a['bid']} and took {took}: "
            + ("a made 30 scores 60." if a["bid"] == 30 else f"it scores {took}."))


V1: dict[str, Sentence] = {
    "play.lead": lambda a: "The leader may lead any card.",
    "play.trump_lead.void": lambda a: (
        f"No trump in hand after a {a['led']} lead: any card may be played."),
    "play.trump_lead.withhold": _v1_withhold,
    "play.trump_lead.must_trump": lambda a: _must_trump(a, lambda code: f"a {code}"),
    "play.plain_lead.trump_or_follow": lambda a: (
        f"A {a['led']} lead may be trumped; otherwise {a['suit']} must be followed when held."),
    "play.plain_lead.must_follow": lambda a: (
        f"A {a['led']} lead must be followed with {a['suit']} when able."),
    "play.plain_lead.void": lambda a: (
        f"No {a['suit']} in hand after a {a['led']} lead: any card may be played."),
    "trick.highest_trump": lambda a: f"{a['card']} is the highest trump in the trick.",
    "trick.highest_of_led_suit": lambda a: (
        f"No trump was played: {a['card']} is the highest card of the led suit."),
    "trick.identical_first": lambda a: (
        f"{a['card']} wins: of two identical cards the first played ranks higher."),
    **_bonus_proofs(_v1_bonus_where),
    "bonus.none": lambda a: "No trump was played this deal: no bonus, 25 points in all.",
    "bonus.disabled": lambda a: "This game is played without the highest-trump bonus.",
    "finish.chronology": lambda a: (
        f"Side {a['side']} reached {a['target']} at trick {a['trick']}, before any other side: "
        "it wins, and later tricks do not count."),
    "finish.deal_end": lambda a: (
        f"Side {a['side']} reached {a['target']} at the end of the deal."),
    "finish.counted_first": lambda a: (
        f"Sides {', '.join(map(str, a['sides']))} reached {a['target']} in one deal; counting "
        f"from the dealer's left, side {a['side']} is counted first and wins."),
    "finish.bidder_priority": lambda a: (
        f"Both sides reached {a['target']}; the bidding side {a['bidder_side']} "
        f"{'made its bid and wins' if a['won'] else 'did not reach it'}."),
    "jink.take_all": lambda a: f"Side {a['side']} took all five tricks: the jink wins the game.",
    "jink.announced.made": lambda a: (
        f"Side {a['side']} announced a jink and took all five tricks: its {a['base']} points "
        f"are doubled to {a['points']}."),
    "jink.announced.failed": lambda a: (
        f"Side {a['side']} announced a jink but lost trick {a['trick']}: the game goes to "
        f"side {a['other']}."),
    "bid.made": _v1_bid,
    "bid.made_thirty": _v1_bid,
    "bid.set": lambda a: (
        f"Side {a['side']} bid {a['bid']} but took only {a['took']}: it loses {a['bid']}."),
    "auction.all_pass": lambda a: "All four players passed: no score, the deal passes left.",
    "spoil_five": lambda a: "No side took three of the five tricks: nobody scores this deal.",
    "rob.ace_holder": lambda a: RULE_IDS["rob.ace_holder"],
    "rob.dealer_ace_turned": lambda a: RULE_IDS["rob.dealer_ace_turned"],
    "match.game_won": lambda a: f"Side {a['side']} wins game {a['game']}.",
}


# Version 2 -----------------------------------------------------------------------------------


def _s(side: int) -> str:
    return side_name(side)


def _v2_bonus_where(a: Args) -> str:
    trick = a["trick"]
    uncounted = a.get("uncounted")
    if uncounted == "not_completed":
        return (f"the bonus belongs to trick {trick}, but the game ended before that trick was "
                "completed: nobody scores it.")
    if uncounted == "not_counted":
        return (f"the bonus belongs to trick {trick}, but the game was decided at trick "
                f"{a['ended']} and later tricks do not count: nobody scores it.")
    return f"the bonus goes to trick {trick}."


def _v2_trick_trump(a: Args) -> str:
    if a["trumps"] == 1:
        return f"{a['card']} is the only trump played: it wins the trick."
    return f"{a['card']} is the highest of the {a['trumps']} trumps played: it wins the trick."


def _v2_chronology(a: Args) -> str:
    side, target, trick = _s(a["side"]), a["target"], a["trick"]
    earliest = a.get("earliest", trick)
    if earliest == trick:
        text = (f"Side {side} reached {target} at trick {trick}, before any other side: it "
                "wins, and later tricks do not count.")
        if a.get("bonus_trick") is not None:
            text += (f" The bonus is not proven (it may lie in trick {a['bonus_trick']}), so "
                     "it is not scored.")
        return text
    later = (f"trick {trick}" if earliest + 1 == trick
             else f"tricks {earliest + 1} to {trick}")
    return (f"Side {side} reached {target} by trick {trick} at the latest (at trick "
            f"{earliest} if the unproven bonus lies in trick {a['bonus_trick']}), before any "
            "other side: it wins, and later tricks do not count. The scores are counted to "
            f"trick {trick} without the bonus: the points of {later} are provisional, since "
            f"they would not count if the finish was at trick {earliest}.")


def _v2_bid(a: Args) -> str:
    took = a["took"]
    return (f"Side {_s(a['side'])} bid {a['bid']} and took {took}: "
            + ("a made 30 scores 60." if a["bid"] == 30 else f"it scores {took}."))


V2: dict[str, Sentence] = {
    **V1,
    "play.trump_lead.void": lambda a: (
        f"No trump in hand after {_a(a['led'])} lead: any card may be played."),
    "play.trump_lead.withhold": lambda a: (
        f"{_sorted(a['kept'])} may be withheld: every trump held is protected and outranks "
        f"the {a['led']} led (compare with the lead only)."),
    "play.trump_lead.must_trump": lambda a: _must_trump(a, _a),
    "play.plain_lead.trump_or_follow": lambda a: (
        f"{_cap(_a(a['led']))} lead may be trumped; otherwise a plain "
        f"{_SUIT_WORDS[a['suit']]} must be played when held."),
    "play.plain_lead.must_follow": lambda a: (
        f"{_cap(_a(a['led']))} lead must be followed with a plain "
        f"{_SUIT_WORDS[a['suit']]} when one is held."),
    "play.plain_lead.void": lambda a: (
        f"No plain {_SUIT_WORDS[a['suit']]} in hand after {_a(a['led'])} lead: any card may "
        "be played."),
    "trick.highest_trump": _v2_trick_trump,
    "trick.highest_of_led_suit": lambda a: (
        f"No trump was played and {a['card']} is the highest {_SUIT_WORDS[a['suit']]} (the "
        "suit led): it wins the trick."),
    "trick.identical_first": lambda a: (
        f"{a['card']} was played twice: the first, card {a['position']} of the trick, ranks "
        "higher and wins."),
    **_bonus_proofs(_v2_bonus_where),
    "finish.chronology": _v2_chronology,
    "finish.deal_end": lambda a: (
        f"Side {_s(a['side'])} reached {a['target']} at the end of the deal."),
    "finish.counted_first": lambda a: (
        f"Sides {', '.join(_s(side) for side in a['sides'])} reached {a['target']} in one "
        f"deal; counting from the dealer's left, side {_s(a['side'])} is counted first and "
        "wins."),
    "finish.bidder_priority": lambda a: (
        f"Both sides reached {a['target']}; the bidding side {_s(a['bidder_side'])} "
        f"{'made its bid and wins' if a['won'] else 'did not reach it'}."),
    "jink.take_all": lambda a: (
        f"Side {_s(a['side'])} took all five tricks: the jink wins the game."),
    "jink.announced.made": lambda a: (
        f"Side {_s(a['side'])} announced a jink and took all five tricks: its {a['base']} "
        f"points are doubled to {a['points']}."),
    "jink.announced.failed": lambda a: (
        f"Side {_s(a['side'])} announced a jink but lost trick {a['trick']}: the game goes to "
        f"side {_s(a['other'])}."),
    "bid.made": _v2_bid,
    "bid.made_thirty": _v2_bid,
    "bid.set": lambda a: (
        f"Side {_s(a['side'])} bid {a['bid']} but took only {a['took']}: it loses "
        f"{a['bid']}."),
    "match.game_won": lambda a: f"Side {_s(a['side'])} wins game {a['game']}.",
}

V3: dict[str, Sentence] = dict(V2)
"""Version 3 changes only sentences naming a seat, and no ruling's sentence of version 2 names
one (its withhold sentence dropped version 1's seat)."""

EXAMPLES: dict[str, dict[str, Any]] = {
    "play.lead": {},
    "play.trump_lead.void": {"led": "7S"},
    "play.trump_lead.withhold": {"led": "7S", "kept": ("AH",), "seat": 2},
    "play.trump_lead.must_trump": {"led": "5S", "trumps": ("JS",), "forced": ("JS",),
                                   "trump": "S"},
    "play.plain_lead.trump_or_follow": {"led": "KD", "suit": "D"},
    "play.plain_lead.must_follow": {"led": "KD", "suit": "D"},
    "play.plain_lead.void": {"led": "9H", "suit": "H"},
    "trick.highest_trump": {"card": "5S", "trumps": 2},
    "trick.highest_of_led_suit": {"card": "AS", "suit": "S"},
    "trick.identical_first": {"card": "KD", "position": 1},
    "bonus.proven.five": {"card": "5S", "trick": 1},
    "bonus.proven.higher_out": {"card": "JS", "higher": ("5S",), "trick": 2},
    "bonus.proven.hands_exhausted": {"card": "AS", "trick": 1},
    "bonus.none": {},
    "bonus.disabled": {},
    "finish.chronology": {"side": 1, "target": 45, "trick": 4, "earliest": 2,
                          "bonus_trick": 2},
    "finish.deal_end": {"side": 0, "target": 45},
    "finish.counted_first": {"sides": (0, 1), "target": 45, "side": 1},
    "finish.bidder_priority": {"target": 120, "bidder_side": 0, "won": True},
    "jink.take_all": {"side": 0},
    "jink.announced.made": {"side": 0, "base": 30, "points": 60},
    "jink.announced.failed": {"side": 0, "trick": 3, "other": 1},
    "bid.made": {"side": 0, "bid": 20, "took": 25},
    "bid.made_thirty": {"side": 0, "bid": 30, "took": 30},
    "bid.set": {"side": 1, "bid": 25, "took": 20},
    "auction.all_pass": {},
    "spoil_five": {},
    "rob.ace_holder": {},
    "rob.dealer_ace_turned": {},
    "match.game_won": {"side": 1, "game": 1},
}
"""A typical case of every rule id, for docs/rules.md and the tests of every version."""

SENTENCES: dict[int, dict[str, Sentence]] = {1: V1, 2: V2, 3: V3}
"""Every version of the ruling texts: rule id -> the function that writes its sentence."""


def sentence(rule_id: str, args: Args, version: int = TEXTS_VERSION) -> str:
    """Returns the sentence of *rule_id* for the case *args* in the texts of *version*.

    >>> sentence("match.game_won", {"side": 1, "game": 2}), sentence(
    ...     "match.game_won", {"side": 1, "game": 2}, 1)
    ('Side B wins game 2.', 'Side 1 wins game 2.')

    :raises KeyError: for a version this code does not know.
    """
    return SENTENCES[version][rule_id](args)


def known_versions() -> tuple[int, ...]:
    """Returns the versions of the ruling texts this code can write, oldest first."""
    return tuple(sorted(SENTENCES))
