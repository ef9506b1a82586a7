"""Stateless rulings: which cards of a hand may be played to a trick, and who wins a trick.

The same answers, field for field, as ``fortyfive rules legal|winner --json``
(:mod:`service.cli.rules`): :func:`legal_ruling` and :func:`trick_ruling` take plain values
and return those JSON objects.
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from engine.cards import Card, Suit, parse_cards
from engine.errors import InvalidActionError, InvalidCardError
from engine.legality import legal_cards
from engine.profiles import RuleSet, make_ruleset
from engine.ranking import Ranking, is_protected, ranking
from engine.shuffle import pack
from engine.tricks import winner_ruling
from service.schemas import LegalRequestSchema, LegalSchema, WinnerRequestSchema, WinnerSchema

HAND_SIZE = 5
"""The most cards a hand holds."""

blp = Blueprint(
    "rules", __name__, url_prefix="/v1/rules",
    description="Stateless rulings for a hand, a trick and a trump",
)


def legal_ruling(
    profile: str,
    options: Mapping[str, Any],
    players: int | None,
    trump: str,
    trick: Sequence[str],
    hand: Sequence[str],
) -> dict[str, Any]:
    """Returns :func:`legal_answer` (``legal``, ``ruling``, ``rule``, ``trumps``,
    ``top_trumps``) for *hand* playing to
    *trick* (cards in play order, empty for a lead) with *trump*; the legal cards keep the
    order of *hand*, each once.

    :raises ProfileError: for a bad profile, option or player count.
    :raises InvalidCardError: for a card or suit that is not one, or not in this pack.
    :raises InvalidActionError: for a hand of more than five cards, or a complete trick.
    """
    rules = make_ruleset(profile, options, players)
    order = ranking(Suit.parse(trump), rules)
    played, held = parse_cards(list(trick)), parse_cards(list(hand))
    if len(held) > HAND_SIZE:
        raise InvalidActionError(
            f"hand has {len(held)} cards, but a hand holds at most {HAND_SIZE}"
        )
    if len(played) >= rules.players:
        raise InvalidActionError(
            f"trick has {len(played)} cards: with {rules.players} players the trick is "
            "complete and nobody is left to play"
        )
    _check_pack(rules, {"trick": played, "hand": held})
    return legal_answer(held, played, order, rules)


def legal_answer(
    hand: Sequence[Card], trick: Sequence[Card], order: Ranking, rules: RuleSet
) -> dict[str, Any]:
    """Returns the answer of ``rules legal`` for checked cards (shared with the CLI):
    ``legal`` (in hand order, each once), the ``ruling`` and its ``rule``, and the hand's
    ``trumps`` highest first with its ``top_trumps`` (5, J, AH and the joker: the trumps
    that may be withheld from a lower led trump), so a client can mark them without knowing
    the ranking."""
    allowed, ruling = legal_cards(hand, trick, order, rules)
    distinct = dict.fromkeys(hand)
    trumps = [card for card in order.trump_order if card in distinct]
    return {
        "legal": [card.code() for card in distinct if card in allowed],
        "ruling": ruling.text,
        "rule": ruling.rule_id,
        "trumps": [card.code() for card in trumps],
        "top_trumps": [card.code() for card in trumps if is_protected(card, order.trump)],
    }


def trick_ruling(
    profile: str, options: Mapping[str, Any], players: int | None, trump: str, trick: Sequence[str]
) -> dict[str, Any]:
    """Returns ``{"winner": index, "card": code, "ruling": text, "rule": rule_id}`` for
    *trick* (cards in play order) with *trump*; *index* is 0-based in play order.

    :raises ProfileError: for a bad profile, option or player count.
    :raises InvalidCardError: for a card or suit that is not one, or not in this pack.
    :raises InvalidActionError: for an empty trick, or one with more cards than players.
    """
    rules = make_ruleset(profile, options, players)
    order = ranking(Suit.parse(trump), rules)
    played = parse_cards(list(trick))
    if not 1 <= len(played) <= rules.players:
        raise InvalidActionError(
            f"trick has {len(played)} cards, but a trick has one card from each of the "
            f"{rules.players} players (see players)"
        )
    _check_pack(rules, {"trick": played})
    index, ruling = winner_ruling(played, order)
    return {
        "winner": index, "card": played[index].code(), "ruling": ruling.text,
        "rule": ruling.rule_id,
    }


def _check_pack(rules: RuleSet, groups: Mapping[str, Sequence[Card]]) -> None:
    """Checks the cards of *groups* (field name -> cards) could all be in play at once.

    :raises InvalidCardError: for a card not in the pack (the joker of a game without one),
        or more copies of a card than the pack holds.
    """
    in_pack = Counter(pack(rules))
    for name, cards in groups.items():
        for card in cards:
            if not in_pack[card]:
                raise InvalidCardError(
                    f"{name}: {card.code()} is not in the pack: {rules.profile} is played "
                    "here without a joker"
                )
    seen: Counter[Card] = Counter()
    for cards in groups.values():
        seen.update(cards)
    for card, count in seen.items():
        if count > in_pack[card]:
            where = " and ".join(name for name, cards in groups.items() if card in cards)
            raise InvalidCardError(
                f"{where}: {card.code()} appears {count} times, but the pack has "
                f"{in_pack[card]}"
            )


@blp.route("/legal")
class Legal(MethodView):
    """Legal plays."""

    @blp.doc(security=[{}])
    @blp.arguments(LegalRequestSchema())
    @blp.response(200, LegalSchema)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(413, response="CONTENT_TOO_LARGE")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    def post(self, body: dict[str, Any]) -> Any:
        """Which cards of a hand may be played to a trick, and the rule that decides."""
        return legal_ruling(
            body["profile"], body["options"], body.get("players"), body["trump"],
            body["trick"], body["hand"],
        )


@blp.route("/winner")
class Winner(MethodView):
    """Trick winners."""

    @blp.doc(security=[{}])
    @blp.arguments(WinnerRequestSchema())
    @blp.response(200, WinnerSchema)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(413, response="CONTENT_TOO_LARGE")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    def post(self, body: dict[str, Any]) -> Any:
        """Which card of a trick wins it, and the rule that decides."""
        return trick_ruling(
            body["profile"], body["options"], body.get("players"), body["trump"], body["trick"]
        )
