"""A seat's view rebuilt into a state (what the API bot decides on), and the bot's
noninterference: what it decides depends on its seat's view only."""

from __future__ import annotations

from typing import Any

import pytest
from bot_games import RecordingChance, decisions, shuffled_hidden

from engine.actions import legal_actions
from engine.bots import choose_action
from replay.seat_state import SeatViewError, state_from_view
from replay.views import game_view

PROFILES = [("classic", 4, {}), ("classic", 3, {}), ("bruff", 6, {}), ("auction", 4, {})]






@pytest.mark.parametrize(("profile", "players", "options"), PROFILES)
def test_the_state_rebuilt_from_a_seat_s_view_shows_that_view_and_its_legal_actions(
        profile: str, players: int, options: dict[str, Any]) -> None:
    for game in range(3):
        for state, seat in decisions(profile, players, options, f"{profile}-{game}"):
            view = game_view(state, seat)
            rebuilt, viewer = state_from_view(view)
            assert viewer == seat
            assert legal_actions(rebuilt, seat) == legal_actions(state, seat)
            # What a deal played on from the rebuilt state counts from (the strong bot's
            # play-outs): the highest trump so far and the scores the deal began at.
            assert rebuilt.deal is not None and state.deal is not None
            if state.deal.phase != "over":
                assert rebuilt.deal.highest == state.deal.highest
                assert rebuilt.deal.start_scores == state.deal.start_scores
            shown = game_view(rebuilt, seat)
            # Facts carry rulings the fold derives; the rebuilt state does not need them.
            for either in (shown, view):
                either["deal"]["facts"] = []
            assert shown == view


@pytest.mark.parametrize(("profile", "players", "options"), PROFILES)
def test_the_bot_decides_the_same_and_draws_the_same_whatever_the_hidden_cards(
        profile: str, players: int, options: dict[str, Any]) -> None:
    checked = 0
    for game in range(3):
        for number, (state, seat) in enumerate(
                decisions(profile, players, options, f"ni-{profile}-{game}")):
            # Without the committed secret, cuts are drawn from chance: draws are compared too.
            plain = state._replace(contribution_secret=None)
            other = shuffled_hidden(plain, seat, f"{game}-{number}")
            assert game_view(other, seat) == game_view(plain, seat)
            first, second = RecordingChance(str(number)), RecordingChance(str(number))
            assert choose_action(plain, seat, first) == choose_action(other, seat, second)
            assert first.draws == second.draws
            rebuilt, _ = state_from_view(game_view(other, seat))
            third = RecordingChance(str(number))
            assert choose_action(rebuilt, seat, third) == choose_action(
                plain, seat, RecordingChance(str(number)))
            assert third.draws == first.draws
            checked += 1
    assert checked > 100


def test_a_spectator_s_view_is_not_a_seat_s() -> None:
    state, _ = next(decisions("classic", 4, {}, "spectator"))
    with pytest.raises(SeatViewError, match="not a seat's view"):
        state_from_view(game_view(state, "spectator"))
