"""What the dispatcher plans for a game state, and the names it gives jobs and keys."""

from __future__ import annotations

import random
import re

from worker_helpers import entropy

from engine.actions import decide, start_game
from engine.bots import choose_action
from engine.fold import apply_event, fold
from engine.nonce_window import NONCE_WINDOW
from engine.state import GameState
from workers import keys
from workers.plan import finished_deals, plan

RQ_JOB_ID = re.compile(r"[A-Za-z0-9_-]+")


def _game(seats: list[str], **options: object) -> GameState:
    seeds = entropy("plan")
    return fold(start_game("classic", options, seats, seeds(), seeds()))


def _play_until(state: GameState, done: object) -> GameState:
    """Plays bot moves for every seat until *done(state)*."""
    seeds = entropy("plan-play")
    chance = random.Random(1)
    assert callable(done)
    while not done(state):
        seat = state.turn
        assert seat is not None
        action = choose_action(state, seat, chance)
        assert action is not None
        for event in decide(state, seat, action, entropy=seeds()):
            state = apply_event(state, event)
    return state


def test_a_bot_to_act_gets_play_bots_and_no_projection_job() -> None:
    state = _game(["bot", "bot"])
    names = {job.name: job for job in plan("g1", state)}
    assert set(names) == {"play_bots"}, "the dispatcher projects every state itself"
    assert names["play_bots"].args == ("g1", state.version)
    assert names["play_bots"].job_id == keys.bot_job_id("g1", state.version)
    assert names["play_bots"].delay is None


def test_a_human_to_act_gets_a_turn_clock_only_when_the_game_has_one() -> None:
    timed = _game(["human", "human"], turn_seconds=30)
    seat = timed.turn
    clocks = [job for job in plan("g1", timed) if job.name == "turn_clock"]
    assert [(job.args, job.delay) for job in clocks] == [(("g1", timed.version, seat), 30)]
    untimed = _game(["human", "human"])
    assert plan("g1", untimed) == []


def test_every_finished_deal_is_planned_for_sealing_and_nothing_is_played_once_over() -> None:
    over = _play_until(_game(["bot", "bot"]), lambda s: s.phase == "over")
    numbers = finished_deals(over)
    assert numbers and numbers == tuple(range(1, len(numbers) + 1))
    jobs = plan("g1", over)
    assert {job.name for job in jobs} == {"seal_deal"}
    assert [job.args[1] for job in jobs if job.name == "seal_deal"] == list(numbers)


def test_deals_already_sealed_are_not_planned_again() -> None:
    over = _play_until(_game(["bot", "bot"]), lambda s: s.phase == "over")
    first, *rest = finished_deals(over)
    seals = [job.args[1] for job in plan("g1", over, sealed={first}) if job.name == "seal_deal"]
    assert seals == rest


def test_a_deal_in_play_is_not_sealed() -> None:
    state = _game(["bot", "bot"])
    assert finished_deals(state) == ()
    assert not [job for job in plan("g1", state) if job.name == "seal_deal"]


def test_job_ids_are_valid_for_rq_and_distinct_for_lookalike_game_ids() -> None:
    games = ["a.b", "a_2eb", "a_b", "a-b", "a", "a-1"]
    ids = [
        make(game, number)
        for game in games
        for make in (keys.bot_job_id, keys.clock_job_id, keys.seal_job_id, keys.project_job_id)
        for number in (1, 12)
    ]
    assert all(RQ_JOB_ID.fullmatch(job_id) for job_id in ids)
    assert len(set(ids)) == len(ids)


def test_keys_of_a_game_carry_its_partition_tag() -> None:
    assert keys.sealed_key("g1", 3) == "f45:{p165}:sealed:g1:3"
    assert keys.cursor_key(7, "main") == "f45:{p007}:dispatch:main"


def test_a_bot_cutter_waits_for_the_human_seats_nonces() -> None:
    state = _game(["bot", "human"])
    state = _play_until(state, lambda s: s.phase == "cut" and s.turn == 0)
    assert state.deal is not None and state.deal.algorithm == "hmac-sha256-fy/1"
    waits = [job.delay for job in plan("g1", state) if job.name == "play_bots"]
    assert waits == [None], "a /1 deal takes no nonce: nothing to wait for"
    seeds = entropy("plan-2")
    two = fold(start_game("classic", {}, ["bot", "human"], seeds(), seeds(), context="g2",
                          contribution_secret=seeds()))
    two = _play_until(two, lambda s: s.phase == "cut" and s.turn == 0)
    assert [job.delay for job in plan("g2", two) if job.name == "play_bots"] == [
        NONCE_WINDOW]
    for event in decide(two, 1, {"type": "contribute", "nonce": "0f" * 16}):
        two = apply_event(two, event)
    assert [job.delay for job in plan("g2", two) if job.name == "play_bots"] == [None]
