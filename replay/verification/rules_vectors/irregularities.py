"""Irregularity vectors: a record of a real table whose last action broke a rule, and what the
replay reports for it (the rule it broke, the sentence, and whether the replay could go on).

A record starts with the first deal of a played match, its actions up to a point, and then one
irregular action: a card played out of turn, a card not held, a renege, an action of another
phase, a rob or a hold the rules refuse, a card played after the game was won. The report is
the replay's own (:class:`replay.formats.derive.Replayer`, the code that replays a table record
and lists its irregularities in a history).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.action_values import action_of
from engine.actions import decide
from engine.cards import ACE_OF_HEARTS, Card, Rank, Suit
from engine.fold import apply_event, fold
from engine.legality import legal_cards
from engine.ranking import ranking
from engine.state import GameState
from events.types import (
    BidHeld,
    BidMade,
    CardPlayed,
    DealRecorded,
    Event,
    GameCreated,
    TurnUpRobbed,
)
from replay.formats.derive import Replayer
from replay.verification.rules_vectors.deals import deal_id
from replay.verification.rules_vectors.draws import Draws
from replay.verification.rules_vectors.games import PlayedDeal

Breach = Callable[[GameState], Event | None]
"""Returns the irregular event to append at a state, or ``None`` where it cannot be made."""

_ENTROPY = bytes(32)


def _out_of_turn(state: GameState) -> Event | None:
    deal = state.deal
    if deal is None or deal.phase != "play" or deal.current is None or deal.trump is None:
        return None
    rules = state.rules
    for step in range(1, rules.players):
        seat = (deal.turn + step) % rules.players if deal.turn is not None else step
        if seat not in deal.current.seats and deal.hands[seat]:
            allowed, _ = legal_cards(deal.hands[seat], deal.current.cards,
                                     ranking(deal.trump, rules), rules)
            return CardPlayed(seat, allowed[0].code())
    return None


def _not_held(state: GameState) -> Event | None:
    deal = state.deal
    if deal is None or deal.phase != "play" or deal.turn is None:
        return None
    held = set(deal.hands[deal.turn])
    other = next((card for hand in deal.hands for card in hand if card not in held), None)
    return None if other is None else CardPlayed(deal.turn, other.code())


def _renege(state: GameState) -> Event | None:
    deal = state.deal
    if deal is None or deal.phase != "play" or deal.turn is None or deal.trump is None:
        return None
    assert deal.current is not None
    hand = deal.hands[deal.turn]
    allowed, _ = legal_cards(hand, deal.current.cards, ranking(deal.trump, state.rules),
                             state.rules)
    refused = [card for card in hand if card not in allowed]
    return CardPlayed(deal.turn, refused[0].code()) if refused else None


def _wrong_phase(state: GameState) -> Event | None:
    deal = state.deal
    if deal is None or deal.phase != "play" or deal.turn is None:
        return None
    return BidMade(deal.turn, 20)


def _refused_rob(state: GameState) -> Event | None:
    deal = state.deal
    if (deal is None or deal.phase != "play" or deal.turn is None or deal.trump is None
            or deal.turn_up is None or deal.tricks or not state.rules.robbing):
        return None
    ace = ACE_OF_HEARTS if deal.trump is Suit.H else Card(Rank.ACE, deal.trump)
    hand = deal.hands[deal.turn]
    if ace in hand or deal.turn == deal.dealer:
        return None
    return TurnUpRobbed(deal.turn, hand[0].code())


def _refused_hold(state: GameState) -> Event | None:
    deal = state.deal
    if deal is None or deal.phase != "bidding" or deal.turn is None:
        return None
    return BidHeld(deal.turn) if deal.turn != deal.dealer else None


BREACHES: dict[str, Breach] = {
    "out_of_turn": _out_of_turn, "not_held": _not_held, "renege": _renege,
    "wrong_phase": _wrong_phase, "refused_rob": _refused_rob, "refused_hold": _refused_hold,
}
"""Each irregular action a record may end with, by name."""


def irregularity_cases(deals: list[PlayedDeal]) -> list[dict[str, Any]]:
    """Returns the irregularity cases made from the first deal of each match among *deals*
    (at most two matches of a table), and one card played after the game was won where a
    first deal won the game."""
    cases: list[dict[str, Any]] = []
    firsts = [played for played in deals if played.before.deals_played == 0]
    for played in firsts[:2]:
        draws = Draws(f"irregularities/{deal_id(played)}")
        steps = _steps(played)
        for name, breach in BREACHES.items():
            points = [index for index, (state, _) in enumerate(steps)
                      if breach(state) is not None]
            if points:
                at = draws.choice(points)
                event = breach(steps[at][0])
                assert event is not None
                cases.append(_case(played, name, steps[:at], event))
    won = next((played for played in firsts if played.after.winner is not None), None)
    if won is not None:
        steps = _steps(won)
        late = CardPlayed(0, won.hands[0][0].code())
        cases.append(_case(won, "after_won", steps, late))
    return cases


def _steps(played: PlayedDeal) -> list[tuple[GameState, Event]]:
    """Returns each action of *played* as the state before it and the event it produced."""
    state = _recorded(played)[2]
    steps = []
    for seat, action in played.actions:
        event = decide(state, seat, action, entropy=_ENTROPY)[0]
        steps.append((state, event))
        state = apply_event(state, event)
    return steps


def _recorded(played: PlayedDeal) -> tuple[GameCreated, DealRecorded, GameState]:
    """Returns the events that open *played*'s match with its deal, and the state after."""
    rules = played.table.rules()
    created = GameCreated(played.table.profile, rules.options(), ("human",) * rules.players,
                          played.before.game_seed)
    recorded = DealRecorded(
        1, tuple(tuple(card.code() for card in hand) for hand in played.hands),
        played.turn_up.code() if played.turn_up is not None else None,
        tuple(card.code() for card in played.stock))
    return created, recorded, fold([created, recorded])


def _case(played: PlayedDeal, name: str, steps: list[tuple[GameState, Event]],
          last: Event) -> dict[str, Any]:
    """Returns the case of a record: *played*'s deal, the actions of *steps*, then *last*."""
    created, recorded, _ = _recorded(played)
    events = [created, recorded, *(event for _, event in steps), last]
    replayer = Replayer(legality=True)
    applied = all(replayer.apply(version, event)
                  for version, event in enumerate(events, start=1))
    actions = [{"seat": getattr(event, "seat", None), **(action_of(event) or {})}
               for event in events[2:]]
    return {
        "id": f"{deal_id(played)}/{name}",
        "table": played.table.name,
        "dealer": replayer.states[1].dealer,
        "hands": [[card.code() for card in hand] for hand in played.hands],
        "turn_up": played.turn_up.code() if played.turn_up is not None else None,
        "stock": [card.code() for card in played.stock],
        "actions": actions,
        "irregularities": [
            {"action": irregularity.version - 2, "rule": irregularity.rule,
             "text": irregularity.text, "refused": irregularity.refused}
            for irregularity in replayer.irregularities
        ],
        "applied": applied,
    }
