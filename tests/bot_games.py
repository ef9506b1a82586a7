"""Whole games of basic bots stopped at every decision, a generator that records its draws,
and a state with its hidden cards dealt again: what the noninterference tests of the bots
(tests/engine/test_strong_bot.py) and of a state rebuilt from a seat's view
(tests/replay/test_seat_state.py) replay decision by decision.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

from engine.actions import decide, legal_actions, start_game
from engine.bots import choose_action
from engine.fold import apply_event, fold
from engine.state import GameState, Seat


class RecordingChance:
    """A seeded generator that records every draw asked of it."""

    def __init__(self, seed: str) -> None:
        self.random = random.Random(seed)
        self.draws: list[tuple[int, int]] = []

    def randrange(self, stop: int, /) -> int:
        value = self.random.randrange(stop)
        self.draws.append((stop, value))
        return value


def decisions(profile: str, players: int, options: dict[str, Any], seed: str,
              erratic: frozenset[Seat] = frozenset()) -> Iterator[tuple[GameState, Seat]]:
    """Plays one game of basic bots and yields the state at each decision with its seat; the
    *erratic* seats take any legal action, drawn at random, instead of the basic rules'."""
    counter = iter(range(1 << 30))

    def entropy() -> bytes:
        return hashlib.sha256(f"{seed}/{next(counter)}".encode()).digest()

    state = fold(start_game(profile, options, ["bot"] * players, entropy(), entropy(),
                            context=f"ctx-{seed}", contribution_secret=entropy()))
    chance = random.Random(seed)
    while state.phase != "over":
        seat = state.turn
        assert seat is not None
        yield state, seat
        if seat in erratic:
            legal = legal_actions(state, seat)
            action = legal[chance.randrange(len(legal))]
        else:
            action = choose_action(state, seat, chance)
        assert action is not None
        for event in decide(state, seat, action, entropy=entropy()):
            state = apply_event(state, event)


def shuffled_hidden(state: GameState, seat: Seat, seed: str) -> GameState:
    """Returns *state* with the cards *seat* cannot see (other hands, the stock, the face-down
    cards) dealt among those places at random, each keeping its size."""
    deal = state.deal
    assert deal is not None
    others = [other for other in range(len(deal.hands)) if other != seat]
    hidden = [card for other in others for card in deal.hands[other]]
    hidden += [*deal.stock, *deal.face_down]
    random.Random(seed).shuffle(hidden)
    cards = iter(hidden)
    hands = tuple(deal.hands[other] if other == seat
                  else tuple(next(cards) for _ in deal.hands[other])
                  for other in range(len(deal.hands)))
    stock = tuple(next(cards) for _ in deal.stock)
    face_down = tuple(next(cards) for _ in deal.face_down)
    return state._replace(deal=deal._replace(hands=hands, stock=stock, face_down=face_down),
                          contribution_secret=None)
