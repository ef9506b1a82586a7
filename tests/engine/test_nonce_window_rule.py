"""The nonce window (engine.nonce_window) and an abandoned game's reveal (engine.actions)."""

from __future__ import annotations

import hashlib

import pytest

from engine.actions import abandonment, decide, start_game
from engine.errors import EventSequenceError
from engine.fold import apply_event, fold
from engine.nonce_window import NONCE_WINDOW, awaited, cut_wait, wait_in
from engine.state import GameState
from events.types import GameAbandoned, SeedRevealed


def _seeds(label: str) -> list[bytes]:
    return [hashlib.sha256(f"{label}/{n}".encode()).digest() for n in range(3)]


def _game(seats: list[str], window: int | None = NONCE_WINDOW) -> GameState:
    game, shuffle, secret = _seeds("window")
    return fold(start_game("classic", {}, seats, game, shuffle, context="g1",
                           contribution_secret=secret, nonce_window=window))


def test_a_cut_waits_for_every_missing_human_nonce_until_the_window_closes() -> None:
    assert cut_wait(2, 0.5, (1,)) == 1.5
    assert cut_wait(2, 2.0, (1,)) == 0.0, "the window has closed"
    assert cut_wait(2, 0.0, ()) == 0.0, "every human seat has sent its nonce"
    assert cut_wait(None, 0.0, (1,)) == 0.0, "a game created before the rule"


def test_the_window_is_committed_at_creation_and_each_nonce_is_counted() -> None:
    state = _game(["bot", "human", "human"])
    assert state.nonce_window == NONCE_WINDOW and state.phase == "cut"
    assert awaited(state) == (1, 2)
    for seat in (1, 2):
        assert wait_in(state, 0.25) == NONCE_WINDOW - 0.25
        for event in decide(state, seat, {"type": "contribute", "nonce": f"{seat:02x}" * 16}):
            state = apply_event(state, event)
    assert awaited(state) == () and wait_in(state, 0.0) == 0.0
    assert awaited(_game(["bot", "bot"])) == (), "no person: nothing to wait for"


@pytest.mark.parametrize("window", [0, -1, True, 1.5])
def test_a_window_is_a_whole_number_of_seconds_from_1(window: object) -> None:
    with pytest.raises(ValueError, match="nonce window"):
        _game(["bot", "human"], window)  # type: ignore[arg-type]


def test_abandoning_a_deal_in_progress_reveals_its_seed_in_the_same_events() -> None:
    state = _game(["human", "human"])
    deal = state.deal
    assert deal is not None and deal.seed is not None
    events = abandonment(state, 100, 50)
    assert events == (GameAbandoned(idle_seconds=100, after_seconds=50),
                      SeedRevealed(deal.number, deal.seed))
    after = fold(events, state)
    assert after.phase == "over" and after.deal is not None and after.deal.seed_revealed
    assert not after.seed_due
    assert fold(events[:1], state).seed_due, "abandoned alone, the game still owes the reveal"


def test_a_second_reveal_of_an_abandoned_deal_is_refused() -> None:
    state = _game(["human", "human"])
    after = fold(abandonment(state, 100, 50), state)
    deal = after.deal
    assert deal is not None and deal.seed is not None
    with pytest.raises(EventSequenceError, match="phase"):
        apply_event(after, SeedRevealed(deal.number, deal.seed))
