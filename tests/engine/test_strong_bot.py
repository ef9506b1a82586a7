"""The strong bot (engine/strong_bot.py) and its worlds (engine/worlds.py): it decides from its
seat's view alone (noninterference), its worlds agree with public play, and its choices are
legal and reproducible."""

from __future__ import annotations

import collections
import random
from typing import Any

import pytest
from bot_games import RecordingChance, decisions, shuffled_hidden

from engine import bots, strong_bot
from engine.actions import legal_actions
from engine.legality import legal_mask
from engine.ranking import ranking
from engine.state import GameState, Seat
from engine.worlds import Knowledge, plausibility, sample_world
from replay.seat_state import state_from_view
from replay.views import game_view

PROFILES = [("classic", 4, {}), ("classic", 3, {}), ("bruff", 6, {}), ("auction", 4, {}),
            ("classic", 4, {"follow": "must_follow"})]






def choose(state: GameState, seat: Seat, chance: RecordingChance) -> dict[str, Any] | None:
    return strong_bot.choose_action(state, seat, chance, budget_ms=None, max_worlds=2)


@pytest.mark.parametrize(("profile", "players", "options"), PROFILES)
def test_the_strong_bot_decides_the_same_and_draws_the_same_whatever_the_hidden_cards(
        profile: str, players: int, options: dict[str, Any]) -> None:
    checked = searched = 0
    for number, (state, seat) in enumerate(
            decisions(profile, players, options, f"strong-ni-{profile}-{players}")):
        if number % 2:
            continue  # Every other decision: a search costs a few milliseconds.
        plain = state._replace(contribution_secret=None)
        other = shuffled_hidden(plain, seat, f"hidden-{number}")
        assert game_view(other, seat) == game_view(plain, seat)
        first, second = RecordingChance(str(number)), RecordingChance(str(number))
        chosen = choose(plain, seat, first)
        assert chosen == choose(other, seat, second)
        assert first.draws == second.draws
        rebuilt, _ = state_from_view(game_view(other, seat))
        third = RecordingChance(str(number))
        assert choose(rebuilt, seat, third) == chosen
        assert third.draws == first.draws
        assert chosen is None or chosen in legal_actions(plain, seat)
        checked += 1
        searched += len(first.draws) > 1
    assert checked > 20
    assert searched > 10  # Most of them searched worlds (and drew for them), not shortcuts.


@pytest.mark.parametrize(("profile", "players", "options"), PROFILES)
def test_every_world_holds_the_same_cards_and_agrees_with_public_play(
        profile: str, players: int, options: dict[str, Any]) -> None:
    chance = random.Random(profile)
    worlds = 0
    for state, seat in decisions(profile, players, options, f"worlds-{profile}-{players}"):
        deal = state.deal
        assert deal is not None
        if deal.phase != "play":
            continue
        knowledge = Knowledge(state, seat)
        world = sample_world(state, knowledge, chance)
        dealt = world.deal
        assert dealt is not None
        assert sorted(dealt.hands[seat], key=int) == sorted(deal.hands[seat], key=int)
        assert [len(hand) for hand in dealt.hands] == [len(hand) for hand in deal.hands]
        assert (len(dealt.stock), len(dealt.face_down)) == (len(deal.stock),
                                                             len(deal.face_down))

        def every_card(one: GameState) -> collections.Counter[Any]:
            held = one.deal
            assert held is not None
            return collections.Counter(
                [*(card for hand in held.hands for card in hand), *held.stock,
                 *held.face_down])

        assert every_card(world) == every_card(state)
        if deal.robbed_by is not None and deal.robbed_by != seat and \
                deal.turn_up in deal.hands[deal.robbed_by]:
            assert deal.turn_up in dealt.hands[deal.robbed_by]
        # Every card another seat played was legal from the hand the world gives it then.
        assert deal.trump is not None
        order = ranking(deal.trump, state.rules)
        tricks = [*deal.tricks, *([deal.current] if deal.current is not None else [])]
        plays = [(who, trick.cards[:index], card) for trick in tricks
                 for index, (who, card) in enumerate(zip(trick.seats, trick.cards,
                                                         strict=True))]
        for index, (who, before, card) in enumerate(plays):
            if who == seat:
                continue
            later = tuple(played for other, _, played in plays[index:] if other == who)
            assert legal_mask(dealt.hands[who] + later, before, order, state.rules) >> card & 1
        worlds += 1
    assert worlds > 10


def test_a_search_without_a_budget_or_a_number_of_worlds_is_refused() -> None:
    for state, seat in decisions("classic", 4, {}, "no-limit"):
        if len(legal_actions(state, seat)) > 1 and state.phase == "play":
            with pytest.raises(ValueError, match="budget or a number of worlds"):
                strong_bot.choose_action(state, seat, random.Random(0), budget_ms=None)
            return
    raise AssertionError("no play with a choice")


def test_the_strong_bot_calls_as_the_basic_rule_does_in_the_auction() -> None:
    # Searched, its calls did worse than the basic rule's (engine.strong_bot.SEARCHED).
    calls = 0
    for number, (state, seat) in enumerate(decisions("auction", 4, {}, "bid-cap")):
        deal = state.deal
        if deal is None or deal.phase != "bidding" or deal.number > 3:
            continue
        basic = bots.choose_action(state, seat, random.Random(0))
        assert choose(state, seat, RecordingChance(f"bid-{number}")) == basic
        calls += 1
    assert calls > 5


def test_worlds_dealt_by_the_opponent_model_agree_with_how_basic_players_played() -> None:
    # Against basic players, keeping out of each hand the cards that would have made its
    # owner play otherwise gives worlds in which every play seen is the one the basic rules
    # make from that hand; drawn only under the rules' constraints, few are.
    chance = random.Random("model")
    agreeing = {True: 0, False: 0}
    worlds = 0
    for state, seat in decisions("classic", 4, {}, "model-worlds"):
        deal = state.deal
        assert deal is not None
        if deal.phase != "play" or len(deal.tricks) < 2:
            continue
        knowledge = Knowledge(state, seat)
        for modelled in (True, False):
            world = sample_world(state, knowledge, chance, modelled=modelled)
            agreeing[modelled] += plausibility(world, knowledge) == 1.0
        worlds += 1
    assert worlds > 10
    assert agreeing[True] >= 0.9 * worlds
    assert agreeing[False] <= 0.5 * worlds


def test_a_player_whose_play_the_model_cannot_explain_is_no_longer_modelled() -> None:
    # Seat 1 plays at random, the others by the basic rules. The model ("a sound player plays
    # as the basic rules would") must not keep cards out of seat 1's hand for long: a random
    # play shows itself against the cards that seat is seen to hold. The basic players are
    # never taken for unsound: their every play is the rules'.
    found_at: list[int] = []
    for state, seat in decisions("classic", 4, {}, "erratic", erratic=frozenset({1})):
        deal = state.deal
        assert deal is not None
        if seat == 1 or deal.phase != "play":
            continue
        knowledge = Knowledge(state, seat)
        assert knowledge.unmodelled <= {1}
        if 1 in knowledge.unmodelled:
            assert not knowledge.unlikely[1], "the model says nothing of an unsound hand"
            found_at.append(deal.number)
    assert found_at, "the random player was never found out"
    assert min(found_at) <= 2, "found out within its first two deals"
