"""The drive's pure parts: the movement, the fold of its events, standings and matchpoints,
and the deck of a board."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import start_game
from engine.boards import board_order
from engine.drives import fold_drive
from engine.errors import DriveError
from engine.fold import fold
from engine.profiles import make_ruleset
from engine.seating import (
    check_players,
    fixed_partners,
    meetings,
    movement,
    partner_pairs,
    schedule_of,
    table_size,
)
from engine.shuffle import ShuffleError, deal_key
from engine.standings import TableResult, public_results, standings, table_result
from events.drive_types import DRIVE_EVENT_TYPES
from events.types import GameAbandoned, event_from_data
from replay.verification.drive_standings import Outcome, derive


@pytest.mark.parametrize(("players", "size"), [(8, 4), (12, 4), (12, 6), (16, 4), (40, 4)])
def test_nobody_partners_the_same_player_twice_while_the_count_allows(
    players: int, size: int,
) -> None:
    rounds = movement(players, size, players - 1)
    pairs = [frozenset(pair) for r in rounds for table in r
             for pair in partner_pairs(table, size // 2)]
    assert len(pairs) == len(set(pairs)) == players * (players - 1) // 2
    for tables in rounds:
        seated = [player for table in tables for player in table]
        assert sorted(seated) == list(range(players))


def test_the_movement_repeats_only_after_every_pair_has_met() -> None:
    rounds = movement(4, 4, 4)
    assert rounds[3] == rounds[0] or {frozenset(p) for p in partner_pairs(rounds[3][0], 2)} == {
        frozenset(p) for p in partner_pairs(rounds[0][0], 2)}


def test_tables_seat_four_or_six_and_a_short_table_is_refused() -> None:
    assert (table_size("classic"), table_size("auction"), table_size("bruff")) == (4, 4, 6)
    with pytest.raises(DriveError, match="do not fill tables of 6: use 6 or 12 players"):
        check_players(10, 6)
    with pytest.raises(DriveError, match="fill_with_bots"):
        check_players(3, 4)
    check_players(12, 6)


def _drive(format: str = "progressive", players: int = 8, boards: int = 0) -> dict[str, Any]:
    return {"type": "drive_created", "data": {
        "profile": "classic", "options": {}, "format": format, "rounds": 1, "table_size": 4,
        "players": [{"name": f"P{n}", "type": "bot"} for n in range(players)],
        "schedule": [[list(t) for t in r] for r in movement(players, 4, 1)], "boards": boards}}


def _fold(events: list[dict[str, Any]]) -> Any:
    """Folds drive events written as ``{"type", "data"}`` (a round without boards has
    none)."""
    typed = [event_from_data(e["type"], {"boards": [], **e["data"]}
                             if e["type"] == "round_started" else e["data"], DRIVE_EVENT_TYPES)
             for e in events]
    return fold_drive("d", typed)


def test_the_fold_refuses_events_out_of_order() -> None:
    with pytest.raises(DriveError, match="starts with 'round_ended'"):
        _fold([{"type": "round_ended", "data": {"round": 1, "heads": None}}])
    with pytest.raises(DriveError, match="only after its last round"):
        _fold([_drive(), {"type": "drive_finished", "data": {}}])
    with pytest.raises(DriveError, match="round 2 starts out of order"):
        _fold([_drive(), {"type": "round_started", "data": {"round": 2, "games": []}}])


def test_equal_players_share_a_place_and_are_listed_by_name() -> None:
    drive = _fold([_drive(), {"type": "round_started",
                                         "data": {"round": 1, "games": ["g1", "g2"]}}])
    results = {"g1": TableResult("g1", True, 0, (45, 20), {}),
               "g2": TableResult("g2", True, 1, (30, 45), {})}
    table = standings(drive, results)
    assert [row["place"] for row in table] == [1, 1, 1, 1, 5, 5, 7, 7]
    assert [row["points"] for row in table] == [45, 45, 45, 45, 30, 30, 20, 20]
    assert table[0]["name"] < table[1]["name"]
    tables = drive.schedule[0]
    winners = set(partner_pairs(tables[0], 2)[0]) | set(partner_pairs(tables[1], 2)[1])
    assert {drive.players[row["player"]]["name"] for row in table if row["games_won"]} == {
        drive.players[p]["name"] for p in winners}


def test_matchpoints_score_one_per_table_beaten_and_a_half_per_tie() -> None:
    drive = _fold([_drive("duplicate", 12, 2), {"type": "round_started", "data": {
        "round": 1, "games": ["a", "b", "c"],
        "boards": [{"board": f"d/r1/b{n}", "deal": n, "commitment": "00" * 32, "cut": 1}
                   for n in (1, 2)]}}])
    results = {
        "a": TableResult("a", True, None, (0, 0), {1: (20, 10), 2: (15, 15)}),
        "b": TableResult("b", True, None, (0, 0), {1: (10, 20), 2: (15, 15)}),
        "c": TableResult("c", True, None, (0, 0), {1: (20, 10)}),
    }
    by_player = {row["player"]: row["points"] for row in standings(drive, results)}
    side = [partner_pairs(t, 2) for t in drive.schedule[0]]
    # Board 1: side 0 of a and c tie (1/2 each) and beat b's (1 each); side 1 of b beats both
    # and a's and c's tie. Board 2: a and b tie on both sides (1/2 each); c did not play it.
    points = [[by_player[members[0]] for members in sides] for sides in side]
    assert points == [[1.5 + 0.5, 0.5 + 0.5], [0 + 0.5, 2 + 0.5], [1.5, 0.5]]
    assert all(by_player[a] == by_player[b] for sides in side for a, b in sides)


def _duplicate_round(revealed: tuple[int, ...]) -> Any:
    boards = [{"board": f"d/r1/b{n}", "deal": n, "commitment": "00" * 32, "cut": 1} for n in (1, 2)]
    events = [_drive("duplicate", 8, 2), {"type": "round_started", "data": {
        "round": 1, "games": ["a", "b"], "boards": boards}}]
    events += [{"type": "board_revealed", "data": {"round": 1, "board": f"d/r1/b{n}",
                                                   "deal": n, "seed": "11" * 32}}
               for n in revealed]
    return _fold(events)


def test_no_table_shows_what_it_made_on_a_board_another_table_is_still_playing() -> None:
    # Table a has played both boards and won; table b is still on board 1.
    results = {"a": TableResult("a", True, 0, (25, 5), {1: (20, 0), 2: (5, 5)}),
               "b": TableResult("b", False, None, (0, 0), {})}
    hidden = public_results(_duplicate_round(()), results)
    assert hidden["a"] == TableResult("a", False, None, (0, 0), {})
    assert standings(_duplicate_round(()), results) != standings(_duplicate_round(()), hidden)
    assert {row["points"] for row in standings(_duplicate_round(()), hidden)} == {0}
    # Board 1 revealed (b finished it too): a shows board 1 only, not yet its end.
    results["b"] = TableResult("b", False, None, (10, 10), {1: (10, 10)})
    one = public_results(_duplicate_round((1,)), results)
    assert one["a"] == TableResult("a", False, None, (20, 0), {1: (20, 0)})
    # Every board revealed: the results as they are.
    assert public_results(_duplicate_round((1, 2)), results) == results
    progressive = _fold([_drive(), {"type": "round_started",
                                              "data": {"round": 1, "games": ["a", "b"]}}])
    assert public_results(progressive, results) == results


def test_a_table_abandoned_before_it_finished_a_deal_has_no_deal_to_compare() -> None:
    opening = start_game("classic", {"target": 45}, ("human",) * 4, b"\0" * 32, b"\1" * 32)
    state = fold([*opening, GameAbandoned(10, 5)])
    assert state.phase == "over"
    assert table_result("g", state) == TableResult("g", True, None, (0, 0), {})


def test_a_board_deck_depends_on_its_board_and_cut_and_nothing_else() -> None:
    rules = make_ruleset("classic", {}, 4)
    seed = "11" * 32
    first = board_order(rules, seed, "d/r1/b1", 1, 10)
    assert first == board_order(rules, seed, "d/r1/b1", 1, 10)
    assert first != board_order(rules, seed, "d/r1/b2", 1, 10)
    assert first != board_order(rules, seed, "d/r1/b1", 1, 11)
    assert sorted(map(str, first)) == sorted(map(str, board_order(rules, "22" * 32, "x", 1, 1)))
    assert deal_key("00" * 32, "c", 1, 1, ()) != deal_key("00" * 32, "c", 2, 1, ())
    with pytest.raises(ShuffleError, match="invalid cut 52"):
        board_order(rules, seed, "d/r1/b1", 1, 52)


def test_each_deal_of_a_match_counts_the_points_it_made_not_the_reset_after_a_game() -> None:
    from test_properties import play_random_game  # The engine tests' random player.

    game = play_random_game("classic", {"target": 15, "match_games": 2}, 4, seed=7)
    state = game.states[-1]
    assert state.phase == "over" and state.game_number == 2, "the match took two games"
    result = table_result("g", state)
    assert all(points >= 0 for deal in result.deals.values() for points in deal), result.deals
    finished = [*state.past_deals, state.deal]
    assert result.deals == {deal.number: tuple(deal.result.points) for deal in finished}


def test_a_drive_ranks_by_points_or_by_games_won_and_the_verifier_agrees() -> None:
    results = {"a": TableResult("a", True, 0, (25, 10), {}),
               "b": TableResult("b", True, 1, (0, 10), {}),
               "c": TableResult("c", True, 0, (10, 0), {}),
               "d": TableResult("d", True, 1, (30, 20), {})}
    outcomes = {g: Outcome(r.over, r.winner, r.scores, r.deals) for g, r in results.items()}
    orders = {}
    for rank_by in ("points", "games_won"):
        created = _drive("progressive", 8)
        created["data"].update(rank_by=rank_by, rounds=2, schedule=[
            [list(t) for t in r] for r in movement(8, 4, 2)])
        drive = _fold([created,
                       {"type": "round_started", "data": {"round": 1, "games": ["a", "b"]}},
                       {"type": "round_ended", "data": {"round": 1, "heads": None}},
                       {"type": "round_started", "data": {"round": 2, "games": ["c", "d"]}}])
        table = standings(drive, results)
        first, second = ("games_won", "points") if rank_by == "games_won" else (
            "points", "games_won")
        keys = [(-row[first], -row[second]) for row in table]
        assert drive.rank_by == rank_by and keys == sorted(keys)
        assert derive(drive, outcomes) == table
        orders[rank_by] = [row["name"] for row in table]
    # Some players won more games with fewer points: the two rankings differ.
    assert orders["points"] != orders["games_won"]


@pytest.mark.parametrize(("players", "size"), [(16, 4), (24, 6)])
def test_fixed_partners_keep_their_partner_and_meet_each_moving_pair_once(
    players: int, size: int,
) -> None:
    tables, sides = players // size, size // 2
    schedule = fixed_partners(players, size, tables)
    for tables_of_round in schedule:
        assert sorted(p for t in tables_of_round for p in t) == list(range(players))
        for table in tables_of_round:
            assert all(pair[0] // 2 == pair[1] // 2 and pair[0] % 2 == 0
                       for pair in partner_pairs(table, sides))
    met = [frozenset(p[0] // 2 for p in partner_pairs(t, sides)) for r in schedule for t in r]
    assert len(met) == len(set(met))  # No two partnerships meet twice over the tables' rounds.
    partners, opponents = meetings(schedule, sides)
    # Every stationary partnership (side 1: the first 2 x tables players) meets every moving
    # one once; in classic that is everyone's count.
    assert set(partners) == {1} and set(opponents[:2 * tables]) == {(size - 2) * tables}
    if sides == 2:
        assert set(opponents) == {2 * tables}
    round_robin = meetings(schedule_of("round_robin", players, size, tables), sides)
    assert min(round_robin[0]) == min(tables, players - 1)
    with pytest.raises(DriveError, match="movement must be one of round_robin, fixed_partners, "
                                         "winners_move, got 'howell'"):
        schedule_of("howell", players, size, 1)
