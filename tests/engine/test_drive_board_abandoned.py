"""A board its director abandons at one duplicate table: the game skips it (``board_skipped``)
and goes on with the next board, the drive records it (``board_abandoned``), and the
standings score it with the adjusted share, as the engine and the verifier each derive it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import decide_and_apply, start_game
from engine.boards import PLAYED_OUT
from engine.bots import choose_action
from engine.drive_state import BoardAdjustment
from engine.drives import apply_drive_event, fold_drive
from engine.errors import DriveError, EventSequenceError
from engine.fold import apply_event, fold
from engine.seating import movement, partner_pairs
from engine.shuffle import commitment
from engine.standings import TableResult, standings, table_result
from engine.state import GameState
from events.drive_types import DRIVE_EVENT_TYPES, BoardAbandoned
from events.types import BoardDealt, BoardSkipped, SeedRevealed, event_from_data
from replay.verification.drive_standings import Outcome, derive

SEEDS = {1: "11" * 32, 2: "22" * 32}
BOARDS = 2


def _board(deal: int) -> BoardDealt:
    return BoardDealt(deal, f"d/r1/b{deal}", BOARDS, "hmac-sha256-fy/2",
                      commitment(SEEDS[deal]), 7 + deal, SEEDS[deal], finish=PLAYED_OUT)


def _game() -> GameState:
    created = start_game("classic", {"target": 45}, ("bot",) * 4, b"\0" * 32, b"\1" * 32)[0]
    return fold([created, _board(1)])


def _play_out(state: GameState) -> GameState:
    """Plays the deal in progress to its end with the basic bots."""
    chance = random.Random(5)
    while state.deal is not None and state.deal.phase != "over":
        seat = state.turn
        assert seat is not None, state.phase
        action = choose_action(state, seat, chance)
        assert action is not None
        _, state = decide_and_apply(state, seat, action, entropy=bytes(32))
    return state


def test_a_skipped_board_ends_without_a_result_and_the_next_board_has_the_usual_dealer() -> None:
    state = _game()
    dealer = state.deal.dealer if state.deal else -1
    skipped = apply_event(state, BoardSkipped(1, "d/r1/b1"))
    deal = skipped.deal
    assert deal is not None and deal.skipped and deal.phase == "over" and deal.result is None
    # The drive reveals the board once every table has finished it; nobody acts meanwhile.
    assert skipped.phase == "reveal" and skipped.turn is None and skipped.winner is None
    assert table_result("g", skipped).deals == {}
    revealed = apply_event(skipped, SeedRevealed(1, SEEDS[1]))
    assert revealed.phase == "shuffle"
    second = apply_event(revealed, _board(2))
    assert second.deal is not None and second.deal.number == 2
    assert second.deal.dealer == (dealer + 1) % 4, "the dealer moves on as after any deal"


def test_skipping_the_last_board_decides_the_game_over_the_boards_played() -> None:
    state = _play_out(_game())
    state = apply_event(state, SeedRevealed(1, SEEDS[1]))
    state = apply_event(state, _board(2))
    scores = state.scores
    state = apply_event(state, BoardSkipped(2, "d/r1/b2"))
    leaders = [side for side, score in enumerate(scores) if score == max(scores)]
    assert len(leaders) == 1 and state.winner == leaders[0], scores
    assert state.phase == "reveal", "its seed is the drive's to reveal"
    state = apply_event(state, SeedRevealed(2, SEEDS[2]))
    assert state.phase == "over" and state.scores == scores
    result = table_result("g", state)
    assert sorted(result.deals) == [1] and result.over


def test_a_board_is_skipped_only_while_its_table_plays_it() -> None:
    state = _game()
    with pytest.raises(EventSequenceError, match="not playing it"):
        apply_event(state, BoardSkipped(2, "d/r1/b2"))
    with pytest.raises(EventSequenceError, match="not playing it"):
        apply_event(state, BoardSkipped(1, "d/r1/b9"))
    played = _play_out(state)
    with pytest.raises(EventSequenceError, match="has finished"):
        apply_event(played, BoardSkipped(1, "d/r1/b1"))


def _drive(format: str = "duplicate") -> Any:
    created = event_from_data("drive_created", {
        "profile": "classic", "options": {}, "format": format, "rounds": 1, "table_size": 4,
        "players": [{"name": f"P{n}", "type": "bot"} for n in range(12)],
        "schedule": [[list(t) for t in r] for r in movement(12, 4, 1)],
        "boards": BOARDS if format == "duplicate" else 0}, DRIVE_EVENT_TYPES)
    started = event_from_data("round_started", {
        "round": 1, "games": ["a", "b", "c"],
        "boards": [{"board": f"d/r1/b{n}", "deal": n, "commitment": commitment(SEEDS[n]),
                    "cut": 1} for n in range(1, BOARDS + 1)] if format == "duplicate" else []},
        DRIVE_EVENT_TYPES)
    return fold_drive("d", [created, started])


def test_the_drive_records_a_board_abandoned_and_refuses_what_does_not_fit() -> None:
    drive = _drive()
    after = apply_drive_event(drive, BoardAbandoned(1, 2, 1, ("average_plus", "average"), "ill"))
    assert after.board_adjustments == (BoardAdjustment(1, 2, 1, ("average_plus", "average"),
                                                       "ill"),)
    assert after.adjustment(1, 2) is None, "the table itself is not abandoned"
    refused = [
        (after, BoardAbandoned(1, 2, 1, ("average", "average"), ""), "abandoned already"),
        (drive, BoardAbandoned(1, 4, 1, ("average", "average"), ""), "has no table 4"),
        (drive, BoardAbandoned(1, 1, 3, ("average", "average"), ""), "has no board 3"),
        (drive, BoardAbandoned(1, 1, 1, ("average",), ""), "for each of its 2 sides"),
        (drive, BoardAbandoned(2, 1, 1, ("average", "average"), ""), "not the round in play"),
        (_drive("progressive"), BoardAbandoned(1, 1, 1, ("average", "average"), ""),
         "only a duplicate drive"),
        (apply_drive_event(drive, event_from_data("board_revealed", {
            "round": 1, "board": "d/r1/b1", "deal": 1, "seed": SEEDS[1]}, DRIVE_EVENT_TYPES)),
         BoardAbandoned(1, 1, 1, ("average", "average"), ""), "every table has played it"),
    ]
    for state, event, message in refused:
        with pytest.raises(DriveError, match=message):
            apply_drive_event(state, event)


def test_a_board_abandoned_at_a_table_scores_its_share_and_is_compared_nowhere() -> None:
    drive = apply_drive_event(_drive(), BoardAbandoned(
        1, 3, 1, ("average_plus", "average_minus"), "a card was exposed"))
    for deal in (1, 2):
        drive = apply_drive_event(drive, event_from_data("board_revealed", {
            "round": 1, "board": f"d/r1/b{deal}", "deal": deal, "seed": SEEDS[deal]},
            DRIVE_EVENT_TYPES))
    # Table c finished board 1 before its game could skip it: the ruling stands all the same.
    results = {
        "a": TableResult("a", True, 0, (30, 10), {1: (20, 10), 2: (10, 0)}),
        "b": TableResult("b", True, 1, (15, 20), {1: (10, 20), 2: (5, 0)}),
        "c": TableResult("c", True, 0, (35, 5), {1: (30, 5), 2: (5, 0)}),
    }
    by_player = {row["player"]: row["points"] for row in standings(drive, results)}
    sides = [partner_pairs(t, 2) for t in drive.schedule[0]]
    points = [[by_player[members[0]] for members in table] for table in sides]
    # Board 1 compares a and b only (1 other table each); c scores 60 and 40 per cent of 2.
    # Board 2: side A: a beats b and c (2), b and c tie (1/2 each) and lose to a (1/2 each);
    # side B: all three tie (1 each).
    assert points == [[1 + 2, 0 + 1], [0 + 0.5, 1 + 1], [1.2 + 0.5, 0.8 + 1]]
    outcomes = {g: Outcome(r.over, r.winner, r.scores, r.deals) for g, r in results.items()}
    assert derive(drive, outcomes) == standings(drive, results)
