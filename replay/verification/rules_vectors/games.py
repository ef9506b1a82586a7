"""Whole games played for the deal and auction vectors: recorded deals (hands given, as at a
real table) played out through the engine's own commands and fold.

Every action is one the engine lists as legal for the seat to act
(:func:`engine.actions.legal_actions`), checked and turned into its event by
:func:`engine.actions.decide`, and folded by :func:`engine.fold.apply_event`: the scores, the
bonus's proof and the finish are the fold's. Chance picks the actions; some deals are dealt so
that rare rulings occur (the ace of trumps or the joker turned, a trump five turned, a hand of
the five best trumps for a jink or a bid of 30).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

from engine.actions import decide, legal_actions
from engine.bots import choose_action
from engine.cards import ACE_OF_HEARTS, JOKER, Card, Rank, Suit
from engine.fold import apply_event
from engine.profiles import RuleSet
from engine.ranking import ranking
from engine.shuffle import pack
from engine.state import DealState, GameState
from events.types import DealRecorded, GameCreated
from replay.formats.derive import apply_start
from replay.formats.document import StartBlock
from replay.verification.rules_vectors.draws import Draws
from replay.verification.rules_vectors.tables import Table

HAND = 5
_ENTROPY = bytes(32)
"""What :func:`engine.actions.decide` is given for a next shuffle; its events are dropped
(the next deal is recorded, not shuffled)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Call:
    """A call of the auction and what the seat could have called instead."""

    seat: int
    action: dict[str, Any]
    bids: tuple[int, ...]
    """The amounts the seat could bid."""
    hold: bool
    """Whether the seat could hold."""


@dataclasses.dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A deal played to its end, and the game around it."""

    table: Table
    series: str
    """``m`` for the deals every table plays, from games that start at 0; ``r`` for those
    played to find rare rulings, from games that start near the target."""
    match: int
    """Which match (a single game unless ``match_games`` is above 1) of the series it is."""
    game: int
    """The game of the match (1 unless ``match_games`` is above 1)."""
    before: GameState
    """The game when the deal was recorded (its scores, dealer and games won)."""
    hands: tuple[tuple[Card, ...], ...]
    turn_up: Card | None
    stock: tuple[Card, ...]
    actions: tuple[tuple[int, dict[str, Any]], ...]
    """Every action of the deal in order: (seat, the action's JSON object)."""
    calls: tuple[Call, ...]
    after: GameState
    """The game once the deal was over."""
    opened_at: int
    """The version of the deal's ``deal_recorded`` event: action k is version opened_at + k."""

    @property
    def deal(self) -> DealState:
        """The deal as the fold left it."""
        assert self.after.deal is not None, "a played deal is the game's last"
        return self.after.deal


def play_table(table: Table, series: str = "m", deals: int | None = None) -> list[PlayedDeal]:
    """Returns *deals* deals (by default :attr:`Table.deals`) of whole games at *table* (the
    last game may be cut short), drawn from the seeded chance of the table and *series*."""
    rules = table.rules()
    wanted = table.deals if deals is None else deals
    draws = Draws(f"deals/{table.name}" if series == "m" else f"deals/{series}/{table.name}")
    played: list[PlayedDeal] = []
    match = 0
    while len(played) < wanted:
        match += 1
        label = "match" if series == "m" else f"{series}/match"
        seed = hashlib.sha256(f"{table.name}/{label}/{match}".encode()).hexdigest()
        state = apply_event(None, GameCreated(table.profile, rules.options(),
                                              ("human",) * rules.players, seed))
        if series != "m":
            state = _near_the_target(state, draws)
        bots = draws.chance(50)
        while state.winner is None and len(played) < wanted:
            deal = _play_deal(table, series, match, rules, state, draws, bots)
            played.append(deal)
            state = deal.after
    return played


def _near_the_target(state: GameState, draws: Draws) -> GameState:
    """Returns the fresh game *state* moved to scores 5 to 25 below the target, as a record of
    a real table that starts from given scores does (:func:`replay.formats.derive.apply_start`):
    finishes, and their subtle cases, come at once."""
    rules = state.rules
    scores = tuple(rules.target - 5 * (1 + draws.randrange(5)) for _ in range(rules.sides))
    start = StartBlock(version=state.version, hash="", dealer=state.dealer, scores=scores,
                       games_won=(0,) * rules.sides, game_number=1)
    return apply_start(state, start)


def _play_deal(table: Table, series: str, match: int, rules: RuleSet, state: GameState,
               draws: Draws, bots: bool) -> PlayedDeal:
    number = state.deal.number + 1 if state.deal is not None else 1
    hands, turn_up, stock, strong = _draw_hands(rules, draws)
    before = state
    state = apply_event(state, DealRecorded(
        number, tuple(tuple(card.code() for card in hand) for hand in hands),
        turn_up.code() if turn_up is not None else None,
        tuple(card.code() for card in stock)))
    opened_at = state.version
    actions: list[tuple[int, dict[str, Any]]] = []
    calls: list[Call] = []
    while state.deal is not None and state.deal.phase != "over":
        jinker = _jinker(state, draws, strong)
        if jinker is not None:
            seat, action = jinker, {"type": "jink"}
        else:
            turn = state.turn
            assert turn is not None, "a deal in progress has a seat to act"
            seat, action = turn, _choose(state, turn, draws, bots, strong)
        listed = legal_actions(state, seat)
        if state.deal.phase == "bidding":
            calls.append(Call(seat, action,
                              tuple(a["amount"] for a in listed if a["type"] == "bid"),
                              any(a["type"] == "hold" for a in listed)))
        assert action in listed, f"{action} is listed as legal"
        event = decide(state, seat, action, entropy=_ENTROPY)[0]
        state = apply_event(state, event)
        actions.append((seat, action))
    return PlayedDeal(table, series, match, before.game_number, before, tuple(hands), turn_up,
                      stock, tuple(actions), tuple(calls), state, opened_at)


def _draw_hands(rules: RuleSet, draws: Draws
                ) -> tuple[list[tuple[Card, ...]], Card | None, tuple[Card, ...], int | None]:
    """Returns the hands (by seat), the turn-up, the stock and the seat dealt the five best
    trumps (or ``None``).

    One deal in ten turns up the ace of trumps (the dealer may rob), one in twenty the joker,
    one in ten a trump five (the jack is then the best trump in play), and one in eight gives
    a seat the five best trumps (a jink, a bid of 30)."""
    cards = draws.shuffled(pack(rules))
    fixed: dict[int, tuple[Card, ...]] = {}
    turn_up: Card | None = None
    strong: int | None = None
    rig = draws.randrange(100)
    suit = draws.choice(tuple(Suit))
    best = ranking(suit, rules).trump_order[:HAND]
    if rig < 12:
        strong = draws.randrange(rules.players)
        fixed[strong] = best
    if not rules.auction:
        if rig < 12:
            turn_up = next(card for card in cards if card.suit is suit
                           and card not in best and card != ACE_OF_HEARTS)
        elif rig < 22:
            turn_up = ACE_OF_HEARTS if suit is Suit.H else Card(Rank.ACE, suit)
        elif rig < 27 and rules.joker != "none":
            turn_up = JOKER
        elif rig < 37:
            turn_up = Card(Rank.FIVE, suit)
    for card in (*(card for hand in fixed.values() for card in hand), turn_up):
        if card is not None:
            cards.remove(card)
    hands: list[tuple[Card, ...]] = []
    for seat in range(rules.players):
        if seat in fixed:
            hands.append(fixed[seat])
        else:
            hands.append(tuple(cards[:HAND]))
            del cards[:HAND]
    if not rules.auction and turn_up is None:
        turn_up = cards.pop(0)
    return hands, turn_up, tuple(cards), strong


def _jinker(state: GameState, draws: Draws, strong: int | None) -> int | None:
    """Returns the seat that announces a jink now, or ``None``: the seat dealt the five best
    trumps usually does, any other seat now and then."""
    deal = state.deal
    if deal is None or state.rules.jink != "announced" or deal.phase != "play":
        return None
    seat = strong if strong is not None else draws.randrange(state.rules.players)
    if {"type": "jink"} not in legal_actions(state, seat):
        return None
    return seat if draws.chance(80 if strong is not None else 10) else None


def _choose(state: GameState, seat: int, draws: Draws, bots: bool,
            strong: int | None) -> dict[str, Any]:
    """Returns the action *seat* takes: a bot's choice, or a random legal one (robbing and
    passing often enough to be seen, bidding low as a rule); the seat with the five best
    trumps bids 30 and keeps its hand."""
    deal = state.deal
    assert deal is not None
    listed = [action for action in legal_actions(state, seat) if action["type"] != "jink"]
    kinds = {action["type"] for action in listed}
    if seat == strong:
        if {"type": "bid", "amount": 30} in listed:
            return {"type": "bid", "amount": 30}
        if "name_trump" in kinds:
            return {"type": "name_trump", "suit": _strong_suit(state, seat).name}
        if "discard" in kinds:
            return {"type": "discard", "cards": []}
    if bots:
        chosen = choose_action(state, seat, draws)
        assert chosen is not None, "a seat to act has an action"
        return chosen
    if "rob" in kinds and draws.chance(60):
        return draws.choice([action for action in listed if action["type"] == "rob"])
    if "pass" in kinds and draws.chance(45):
        return {"type": "pass"}
    if "hold" in kinds and draws.chance(40):
        return {"type": "hold"}
    if "bid" in kinds and draws.chance(70):
        return next(action for action in listed if action["type"] == "bid")  # The lowest.
    others = [action for action in listed
              if action["type"] not in ("rob", "pass", "hold")] or listed
    return draws.choice(others)


def _strong_suit(state: GameState, seat: int) -> Suit:
    """Returns the suit of which *seat* holds the five best trumps."""
    deal = state.deal
    assert deal is not None
    hand = deal.hands[seat]
    return next(suit for suit in Suit
                if set(ranking(suit, state.rules).trump_order[:HAND]) <= set(hand))
