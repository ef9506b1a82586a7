"""``drive verify`` derives a drive's standings on a path of its own
(replay/verification/drive_standings.py): it agrees with the service's
(:func:`engine.standings.standings` over :func:`engine.standings.public_results`) on any
results, and would tell them apart if either were wrong."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.drive_state import DriveState
from engine.drives import fold_drive
from engine.seating import movement
from engine.standings import TableResult, public_results, standings
from events.drive_types import DRIVE_EVENT_TYPES
from events.types import event_from_data
from replay.verification.drive_standings import Outcome, derive


def _drive(format: str, players: int, rounds: int, boards: int,
           revealed: list[list[bool]], late: bool = False,
           called: list[bool] | None = None) -> DriveState:
    """Returns a drive folded from its events; with *late*, a player arrives after round 1
    and one player sits each later round out (the arrival, then player 0, ...)."""
    events: list[dict[str, Any]] = [{"type": "drive_created", "data": {
        "profile": "classic", "options": {}, "format": format, "rounds": rounds,
        "odd_players": "sit_out",
        "table_size": 4, "boards": boards if format == "duplicate" else 0,
        "players": [{"name": f"P{n % 5}{n}", "type": "bot"} for n in range(players)],
        "schedule": [[list(t) for t in r] for r in movement(players, 4, rounds)]}}]
    for number in range(1, rounds + 1):
        ids = [f"g{number}.{t}" for t in range(players // 4)]
        dealt = [{"board": f"d/r{number}/b{d}", "deal": d, "commitment": "00" * 32, "cut": 1}
                 for d in range(1, boards + 1)] if format == "duplicate" else []
        events.append({"type": "round_started",
                       "data": {"round": number, "games": ids, "boards": dealt}})
        for board in dealt:
            if revealed[number - 1][board["deal"] - 1]:
                events.append({"type": "board_revealed", "data": {
                    "round": number, "board": board["board"], "deal": board["deal"],
                    "seed": "11" * 32}})
        if called and called[number - 1]:
            events.append({"type": "round_called", "data": {"round": number, "reason": ""}})
        if number < rounds:
            events.append({"type": "round_ended", "data": {"round": number, "heads": None}})
        if number == 1 and late and rounds > 1:
            plan = movement(players, 4, rounds)
            again = []
            for later in range(2, rounds + 1):
                out = (players + later - 2) % (players + 1)
                seated = [p for p in range(players + 1) if p != out]
                again.append([[seated[i] for i in t] for t in plan[later - 1]])
            events.append({"type": "player_added", "data": {
                "players": [{"name": "Late", "type": "human"}], "withdrawn": [],
                "schedule": again, "reason": ""}})
    return fold_drive("d", [event_from_data(e["type"], e["data"], DRIVE_EVENT_TYPES)
                            for e in events])


points = st.integers(min_value=0, max_value=30)


@st.composite
def drives_and_results(draw: st.DrawFn) -> tuple[DriveState, dict[str, TableResult]]:
    format = draw(st.sampled_from(["progressive", "duplicate"]))
    players = draw(st.sampled_from([8, 12]))
    rounds = draw(st.integers(min_value=1, max_value=3))
    boards = draw(st.integers(min_value=1, max_value=3))
    revealed = [[draw(st.booleans()) for _ in range(boards)] for _ in range(rounds)]
    drive = _drive(format, players, rounds, boards, revealed, late=draw(st.booleans()),
                   called=[draw(st.booleans()) for _ in range(rounds)])
    results = {}
    for played in drive.played:
        for game in played.games:
            if not draw(st.booleans()) and format == "progressive":
                continue  # Not started yet, as far as the results go.
            numbers = range(1, boards + 1) if format == "duplicate" else range(
                1, draw(st.integers(min_value=0, max_value=3)) + 1)
            deals = {n: (draw(points), draw(points)) for n in numbers if draw(st.booleans())}
            over = draw(st.booleans())
            winner = draw(st.sampled_from([None, 0, 1])) if over else None
            scores = tuple(sum(p[side] for p in deals.values()) for side in (0, 1))
            results[game] = TableResult(game, over, winner, scores, deals)
    return drive, results


@given(drives_and_results())
def test_the_verifiers_standings_are_the_services_on_any_results(
    case: tuple[DriveState, dict[str, TableResult]],
) -> None:
    drive, results = case
    outcomes = {game: Outcome(r.over, r.winner, r.scores, r.deals) for game, r in results.items()}
    assert derive(drive, outcomes) == standings(drive, public_results(drive, results))


def test_a_player_who_sits_out_scores_the_rounds_average_on_both_paths() -> None:
    drive = _drive("progressive", 8, 2, 1, [[True], [True]], late=True)
    assert drive.played[1].sitting_out == (8,) and drive.odd_players == "sit_out"
    results = {f"g{r}.{t}": TableResult(f"g{r}.{t}", True, 0, (20 + t, 4), {1: (20 + t, 4)})
               for r in (1, 2) for t in (0, 1)}
    outcomes = {game: Outcome(r.over, r.winner, r.scores, r.deals) for game, r in results.items()}
    rows = {row["name"]: row for row in derive(drive, outcomes)}
    assert rows["Late"]["points"] == 10.5  # Half of 21, the most a side made in round 2.
    assert derive(drive, outcomes) == standings(drive, results)


def test_a_changed_result_changes_the_derived_standings() -> None:
    drive = _drive("progressive", 8, 1, 1, [[True]])
    outcomes = {"g1.0": Outcome(True, 0, (10, 0), {1: (10, 0)}),
                "g1.1": Outcome(True, 1, (0, 10), {1: (0, 10)})}
    before = derive(drive, outcomes)
    after = derive(drive, {**outcomes, "g1.1": Outcome(True, 0, (10, 0), {1: (10, 0)})})
    assert before != after
    assert [row["points"] for row in before] == [10] * 4 + [0] * 4
    assert sum(row["games_won"] for row in before) == 4
