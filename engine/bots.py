"""A bot's choice of action: simple, sound play that only uses what its seat may know.

The bot sees its own hand and public play, never another hand, so it can sit at any table. It
draws chance (a cut position, a tie between equal choices) from an injected generator: the
engine itself draws no randomness.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.actions import legal_actions
from engine.cards import ACE_OF_HEARTS, JOKER, Card, Suit
from engine.profiles import RuleSet
from engine.ranking import Ranking, is_protected, ranking, trick_strengths
from engine.shuffle import ALGORITHM_2, committed_cut, pack
from engine.state import DealState, GameState, Seat


class Chance(Protocol):
    """What a bot needs from a random generator (``random.Random`` fits)."""

    def randrange(self, stop: int, /) -> int:
        """Returns a number in 0..stop-1."""
        ...


def choose_action(state: GameState, seat: Seat, chance: Chance) -> dict[str, Any] | None:
    """Returns the action the bot in *seat* takes now, or ``None`` if it has nothing to do."""
    actions = [action for action in legal_actions(state, seat) if action["type"] != "jink"]
    deal = state.deal
    if not actions or deal is None:
        return None
    kind = actions[0]["type"]
    if kind == "cut":
        committed = committed_cut_action(state, seat)
        return committed if committed is not None else actions[chance.randrange(len(actions))]
    if kind == "bury":
        return min(actions, key=lambda action: _keep_value(Card.parse(action["card"])))
    if kind in ("bid", "hold", "pass"):
        return _bid(state, deal, seat, actions)
    if kind == "name_trump":
        suit = _best_suit(deal.hands[seat], state.rules)
        return {"type": "name_trump", "suit": suit.name}
    if kind == "discard":
        return _discard(deal, seat, state.rules, actions)
    robs = [action for action in actions if action["type"] == "rob"]
    if robs:
        assert deal.trump is not None
        order = ranking(deal.trump, state.rules)
        return min(robs, key=lambda action: _strength(Card.parse(action["discard"]), order))
    return _play(state, deal, seat, actions)


def committed_cut_action(state: GameState, seat: Seat) -> dict[str, Any] | None:
    """Returns the cut a bot (or the turn clock) makes for *seat* in a ``/2`` deal: drawn from
    the game's committed contribution secret, so the server could not pick it once it knew the
    seed; ``None`` in a game without one (``/1``)."""
    deal = state.deal
    secret = state.contribution_secret
    if deal is None or secret is None or deal.algorithm != ALGORITHM_2 or deal.context is None:
        return None
    size = len(pack(state.rules))
    return {"type": "cut",
            "position": committed_cut(secret, deal.context, deal.number, seat, size)}


def _keep_value(card: Card) -> int:
    """How much a card is worth keeping before trumps are known."""
    if card is JOKER or card == ACE_OF_HEARTS:
        return 100
    return int(card.rank)


def _strength(card: Card, order: Ranking) -> int:
    power = order.trump_power.get(card)
    return 100 + power if power is not None else order.plain_power.get(card, 0)


def _suit_strength(hand: tuple[Card, ...], suit: Suit, rules: RuleSet) -> int:
    order = ranking(suit, rules)
    return sum(order.trump_power.get(card, 0) for card in hand)


def _best_suit(hand: tuple[Card, ...], rules: RuleSet) -> Suit:
    return max(Suit, key=lambda suit: (_suit_strength(hand, suit, rules), -int(suit)))


def _bid(
    state: GameState, deal: DealState, seat: Seat, actions: list[dict[str, Any]]
) -> dict[str, Any]:
    """Bids by the strength of its best trump suit; passes on a weak hand."""
    hand = deal.hands[seat]
    suit = _best_suit(hand, state.rules)
    order = ranking(suit, state.rules)
    tops = sum(1 for card in hand if card in order.trump_power and is_protected(card, suit))
    trumps = sum(1 for card in hand if card in order.trump_power)
    worth = 5 * (tops + trumps)
    bids = [action for action in actions if action["type"] == "bid" and action["amount"] <= worth]
    holds = [action for action in actions if action["type"] == "hold"]
    if holds and deal.auction is not None and (deal.auction.high or 0) <= worth:
        return holds[0]
    if bids:
        return bids[0]
    return {"type": "pass"}


def _discard(
    deal: DealState, seat: Seat, rules: RuleSet, actions: list[dict[str, Any]]
) -> dict[str, Any]:
    """Throws every non-trump (as far as the stock allows)."""
    assert deal.trump is not None
    order = ranking(deal.trump, rules)
    weak = sorted(card.code() for card in deal.hands[seat] if card not in order.trump_power)
    for action in actions:
        if sorted(action["cards"]) == weak:
            return action
    return actions[0]


def _play(
    state: GameState, deal: DealState, seat: Seat, actions: list[dict[str, Any]]
) -> dict[str, Any]:
    """Plays the card :func:`play_choice` picks among the legal plays."""
    assert deal.trump is not None and deal.current is not None
    cards = [Card.parse(action["card"]) for action in actions if action["type"] == "play"]
    trick = deal.current
    order = ranking(deal.trump, state.rules)
    card = play_choice(cards, trick.cards, trick.seats, seat, order, state.rules)
    return {"type": "play", "card": card.code()}


def play_choice(cards: Sequence[Card], trick_cards: Sequence[Card], trick_seats: Sequence[Seat],
                seat: Seat, order: Ranking, rules: RuleSet) -> Card:
    """Returns the card of the legal *cards* the basic bot plays to a trick holding
    *trick_cards* (played by *trick_seats*): the strongest lead, the cheapest card when the
    partner is winning or nothing wins, else the cheapest card that wins. The strong level's
    opponent model asks it what a basic player would have played from a hand."""
    cheapest = min(cards, key=lambda card: _strength(card, order))
    if not trick_cards:
        return max(cards, key=lambda c: _strength(c, order))
    strengths = trick_strengths(trick_cards, order)
    best = max(strengths)
    if rules.side_of(trick_seats[strengths.index(best)]) == rules.side_of(seat):
        return cheapest
    winners = [
        card for card in cards
        if trick_strengths((*trick_cards, card), order)[-1] > best
    ]
    if winners:
        return min(winners, key=lambda c: _strength(c, order))
    return cheapest
