"""The stateless rules query: which cards of a hand may be played to a trick, and who wins a
trick, from plain values.

``fortyfive rules legal|winner`` and ``POST /v1/rules/legal|winner`` are thin layers over
:func:`legal_query` and :func:`winner_query`: the same input gives the same answer and the same
refusal, field for field. The answers are the engine's own rulings (:func:`engine.legality.
legal_cards`, :func:`engine.tricks.winner_ruling`), the ones a history states for the same
situation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, Suit, parse_cards
from engine.errors import FortyFiveError, InvalidActionError, InvalidCardError
from engine.legality import legal_cards
from engine.profiles import RuleSet, make_ruleset
from engine.ranking import Ranking, is_protected, ranking
from engine.refusals import refusal
from engine.shuffle import pack
from engine.tricks import winner_ruling

HAND_SIZE = 5
"""The most cards a hand holds."""

FIELDS = {"trick": "trick", "hand": "hand", "players": "players"}
"""How the API names the inputs in its messages; the CLI passes ``--trick`` and so on."""

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}


def legal_query(
    profile: str, options: Mapping[str, Any], players: int | None, trump: str,
    trick: Sequence[str] | str, hand: Sequence[str] | str,
    *, names: Mapping[str, str] = FIELDS,
) -> dict[str, Any]:
    """Returns ``{"legal": [cards], "ruling": text, "rule": rule_id, "trumps": [cards],
    "top_trumps": [cards], "refusals": {card: text}}`` for *hand* playing to *trick* (cards in
    play order, empty for a lead) with *trump*; the legal cards keep the order of *hand*, each
    once; ``trumps`` are the hand's trumps highest first and ``top_trumps`` those of them that
    may be withheld from a lower led trump (5, J, AH, joker), so a client can mark them without
    knowing the ranking; ``refusals`` says, for each card of the hand that may not be played,
    why in a player's words (:mod:`engine.refusals`).
    Cards are codes, or one comma-separated string.

    *names* says how the caller calls ``trick``, ``hand`` and ``players`` in messages.

    >>> legal_query("bruff", {}, None, "S", "7S,5S", "AH,KD")["rule"]
    'play.trump_lead.withhold'

    :raises ProfileError: for a bad profile, option or player count.
    :raises InvalidCardError: for a card or suit that is not one, or not in this pack.
    :raises InvalidActionError: for an empty hand or one of more than five cards, or a
        complete trick.
    """
    rules, order = _table(profile, options, players, trump)
    played, held = _cards(names["trick"], trick), _cards(names["hand"], hand)
    if not held:
        raise InvalidActionError(
            f"{names['hand']} is empty: give the cards held, e.g. AH,KD")
    if len(held) > HAND_SIZE:
        raise InvalidActionError(
            f"{names['hand']} has {len(held)} cards, but a hand holds at most {HAND_SIZE}")
    if len(played) >= rules.players:
        raise InvalidActionError(
            f"{names['trick']} has {len(played)} cards: with {rules.players} players the trick "
            "is complete and nobody is left to play"
        )
    _check_pack(rules, {names["trick"]: played, names["hand"]: held})
    allowed, why = legal_cards(held, played, order, rules)
    distinct = dict.fromkeys(held)
    trumps = [card for card in order.trump_order if card in distinct]
    legal = [card.code() for card in distinct if card in allowed]
    with_joker = rules.joker != "none"
    return {
        "legal": legal,
        "ruling": why.text,
        "rule": why.rule_id,
        "trumps": [card.code() for card in trumps],
        "top_trumps": [card.code() for card in trumps if is_protected(card, order.trump)],
        "refusals": {card.code(): refusal(card, why, legal, with_joker)
                     for card in distinct if card not in allowed},
    }


def winner_query(
    profile: str, options: Mapping[str, Any], players: int | None, trump: str,
    trick: Sequence[str] | str, *, names: Mapping[str, str] = FIELDS,
) -> dict[str, Any]:
    """Returns ``{"winner": index, "card": code, "ruling": text, "rule": rule_id}`` for
    *trick* (cards in play order) with *trump*; *index* is 0-based in play order.

    >>> winner_query("bruff", {}, None, "S", ["7S", "5S", "KD"])["winner"]
    1

    :raises ProfileError: for a bad profile, option or player count.
    :raises InvalidCardError: for a card or suit that is not one, or not in this pack.
    :raises InvalidActionError: for an empty trick, or one with more cards than players.
    """
    rules, order = _table(profile, options, players, trump)
    played = _cards(names["trick"], trick)
    if not played:
        raise InvalidActionError(
            f"{names['trick']} is empty: a trick needs at least one card to have a winner")
    if len(played) > rules.players:
        raise InvalidActionError(
            f"{names['trick']} has {len(played)} cards, but a trick has one card from each of "
            f"the {rules.players} players (see {names['players']})"
        )
    _check_pack(rules, {names["trick"]: played})
    index, why = winner_ruling(played, order)
    return {"winner": index, "card": played[index].code(), "ruling": why.text,
            "rule": why.rule_id}


def _table(profile: str, options: Mapping[str, Any], players: int | None,
           trump: str) -> tuple[RuleSet, Ranking]:
    rules = make_ruleset(profile, options, players)
    return rules, ranking(Suit.parse(trump), rules)


def _cards(name: str, cards: Sequence[str] | str) -> tuple[Card, ...]:
    try:
        return parse_cards(cards if isinstance(cards, str) else list(cards))
    except FortyFiveError as error:
        raise InvalidCardError(f"{name}: {error}") from None


def _check_pack(rules: RuleSet, groups: Mapping[str, Sequence[Card]]) -> None:
    """Refuses cards of *groups* (name -> cards) that could not all be in play at once: a card
    not in the pack (the joker of a game without one), or more copies than the pack holds.

    :raises InvalidCardError: naming the field and the card.
    """
    in_pack = Counter(pack(rules))
    for name, cards in groups.items():
        for card in cards:
            if not in_pack[card]:
                raise InvalidCardError(
                    f"{name}: {card.code()} is not in the pack: {rules.profile} is played here "
                    "without a joker"
                )
    seen: Counter[Card] = Counter()
    for cards in groups.values():
        seen.update(cards)
    for card, count in seen.items():
        if count <= in_pack[card]:
            continue
        game = (f"a {_NUMBERS[rules.decks]}-pack game has only {_NUMBERS[in_pack[card]]} "
                f"{card.code()}")
        holding = [name for name, cards in groups.items() if card in cards]
        if len(holding) > 1:
            raise InvalidCardError(
                f"{card.code()} is both in {' and in '.join(holding)}, but {game}")
        raise InvalidCardError(f"{holding[0]}: {card.code()} appears {count} times, but {game}")
