"""A bot's choice of action: simple, sound play that only uses what its seat may know.

The bot sees its own hand and public play, never another hand, so it can sit at any table. It
draws chance (a cut position, a tie between equal choices) from an injected generator: the
engine itself draws no randomness.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.action_values import PASS, Action, action_json
from engine.actions import legal_moves
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
    """Returns the action the bot in *seat* takes now as the JSON object a client posts, or
    ``None`` if it has nothing to do: :func:`choose_move` at the edge."""
    move = choose_move(state, seat, chance)
    return None if move is None else action_json(move)


def choose_move(state: GameState, seat: Seat, chance: Chance) -> Action | None:
    """Returns the action the bot in *seat* takes now, one of :func:`legal_moves`, or
    ``None`` if it has nothing to do. Searches (the strong level's play-outs) call it on every
    step, so it decides on the engine's typed values, never their JSON."""
    moves = [move for move in legal_moves(state, seat) if move.type != "jink"]
    deal = state.deal
    if not moves or deal is None:
        return None
    kind = moves[0].type
    if kind == "cut":
        committed = committed_cut_move(state, seat)
        return committed if committed is not None else moves[chance.randrange(len(moves))]
    if kind == "bury":
        return min(moves, key=lambda move: _keep_value(card_of(move)))
    if kind in ("bid", "hold", "pass"):
        return _bid(state, deal, seat, moves)
    if kind == "name_trump":
        suit = _best_suit(deal.hands[seat], state.rules)
        return next(move for move in moves if move.suit is suit)
    if kind == "discard":
        return _discard(deal, seat, state.rules, moves)
    robs = [move for move in moves if move.type == "rob"]
    if robs:
        assert deal.trump is not None
        order = ranking(deal.trump, state.rules)
        return min(robs, key=lambda move: _strength(card_of(move), order))
    return _play(state, deal, seat, moves)


def committed_cut_move(state: GameState, seat: Seat) -> Action | None:
    """Returns the cut a bot (or the turn clock) makes for *seat* in a ``/2`` deal: drawn from
    the game's committed contribution secret, so the server could not pick it once it knew the
    seed; ``None`` in a game without one (``/1``)."""
    deal = state.deal
    secret = state.contribution_secret
    if deal is None or secret is None or deal.algorithm != ALGORITHM_2 or deal.context is None:
        return None
    size = len(pack(state.rules))
    return Action("cut", position=committed_cut(secret, deal.context, deal.number, seat, size))


def card_of(move: Action) -> Card:
    """The card of a play, a rob's discard or a burial (the actions that name one)."""
    assert move.card is not None, f"a {move.type} names a card"
    return move.card


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


def _bid(state: GameState, deal: DealState, seat: Seat, moves: list[Action]) -> Action:
    """Bids by the strength of its best trump suit; passes on a weak hand."""
    hand = deal.hands[seat]
    suit = _best_suit(hand, state.rules)
    order = ranking(suit, state.rules)
    tops = sum(1 for card in hand if card in order.trump_power and is_protected(card, suit))
    trumps = sum(1 for card in hand if card in order.trump_power)
    worth = 5 * (tops + trumps)
    bids = [move for move in moves
            if move.type == "bid" and move.amount is not None and move.amount <= worth]
    holds = [move for move in moves if move.type == "hold"]
    if holds and deal.auction is not None and (deal.auction.high or 0) <= worth:
        return holds[0]
    if bids:
        return bids[0]
    return PASS


def _discard(deal: DealState, seat: Seat, rules: RuleSet, moves: list[Action]) -> Action:
    """Throws every non-trump (as far as the stock allows)."""
    assert deal.trump is not None
    order = ranking(deal.trump, rules)
    weak = sorted(card.code() for card in deal.hands[seat] if card not in order.trump_power)
    for move in moves:
        if sorted(card.code() for card in move.cards) == weak:
            return move
    return moves[0]


def _play(state: GameState, deal: DealState, seat: Seat, moves: list[Action]) -> Action:
    """Plays the card :func:`play_choice` picks among the legal plays."""
    assert deal.trump is not None and deal.current is not None
    plays = {card_of(move): move for move in moves if move.type == "play"}
    trick = deal.current
    order = ranking(deal.trump, state.rules)
    return plays[play_choice(list(plays), trick.cards, trick.seats, seat, order, state.rules)]


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
