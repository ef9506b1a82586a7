"""Drives run by the workers: rounds start by themselves, partners change, standings follow
the games, duplicate tables get the same cards."""

from __future__ import annotations

from typing import Any

from rq import Queue
from worker_helpers import drive as run_all
from worker_helpers import state_of

from engine.drives import drive_of
from engine.seating import partner_pairs
from engine.standings import table_result
from events.drive_store import DriveStore
from events.redis_store import RedisEventStore
from replay.formats.build import build_history, replay_log
from replay.verification.verify import verify
from service.application import drives, signing
from workers import context
from workers.dispatcher import Dispatcher


def _bots(count: int) -> list[dict[str, str]]:
    return [{"name": f"P{n:02d}", "type": "bot"} for n in range(1, count + 1)]


def _create(store: RedisEventStore, **fields: Any) -> str:
    drive_id, _, _ = drives.create_drive(DriveStore(store), **fields)
    return drive_id


def _finish(dispatcher: Dispatcher, queue: Queue, rounds: int = 80) -> None:
    run_all(dispatcher, queue, rounds=rounds)


def test_a_progressive_drive_of_eight_bots_plays_itself_to_the_end(
    store: RedisEventStore, dispatcher: Dispatcher, queue: Queue,
) -> None:
    drive_id = _create(store, profile="classic", options={"target": 25}, players=_bots(8),
                       format="progressive", rounds=3)
    _finish(dispatcher, queue)
    drive, _ = drives.load(DriveStore(store), drive_id)
    assert drive.status == "finished"
    assert [r.number for r in drive.played] == [1, 2, 3] and all(r.ended for r in drive.played)
    partners = [frozenset(pair) for r in drive.schedule for t in r
                for pair in partner_pairs(t, 2)]
    assert len(partners) == len(set(partners)) == 12
    results = {g: table_result(g, state_of(g)) for r in drive.played for g in r.games}
    assert all(result.over and result.winner is not None for result in results.values())
    table = drives.standings_view(drive, results)["players"]
    won = {row["name"]: row["games_won"] for row in table}
    expected = {p["name"]: 0 for p in drive.players}
    for played, tables in zip(drive.played, drive.schedule, strict=True):
        for game, seats in zip(played.games, tables, strict=True):
            for player in partner_pairs(seats, 2)[results[game].winner]:
                expected[drive.players[player]["name"]] += 1
    assert won == expected and sum(won.values()) == 3 * 2 * 2
    assert [row["place"] for row in table][0] == 1
    assert sorted(table, key=lambda r: (-r["points"], -r["games_won"])) == table
    # Each round's end and the drive's end were signed once, at that event, and kept.
    kept = signing.drive_checkpoints(store.client, drive_id)
    ends = {("finished" if e.type == "drive_finished" else f"round:{e.data['round']}"):
            (e.version, e.hash) for e in DriveStore(store).read(drive_id)
            if e.type in ("round_ended", "drive_finished")}
    assert {moment: (c["version"], c["head"]) for moment, c in kept.items()} == ends
    assert len(ends) == 4 and all(c["drive_id"] == drive_id for c in kept.values())
    assert drives.keep_checkpoints(DriveStore(store), drive_id, context.signing()) == []


def test_a_drive_game_is_a_drive_game_by_its_id() -> None:
    game = drives.game_id_of("dr-" + "1" * 20, 2, 5)
    assert drive_of(game) == "dr-" + "1" * 20 and context is not None


def test_a_duplicate_drive_deals_the_same_hands_at_every_table_and_ranks_by_matchpoints(
    store: RedisEventStore, dispatcher: Dispatcher, queue: Queue,
) -> None:
    drive_id = _create(store, profile="classic", options={"target": 120}, players=_bots(12),
                       format="duplicate", rounds=2, boards=2)
    _finish(dispatcher, queue)
    drive, _ = drives.load(DriveStore(store), drive_id)
    assert drive.status == "finished"
    results = {}
    for played in drive.played:
        assert len(played.boards) == 2 and all(b.seed is not None for b in played.boards)
        assert len({b.commitment for b in played.boards}) == 2
        states = [state_of(game) for game in played.games]
        results.update({g: table_result(g, s) for g, s in zip(played.games, states, strict=True)})
        for number in (1, 2):
            deals = [next(d for d in (*s.past_deals, s.deal)
                          if d is not None and d.number == number) for s in states]
            assert len({d.hands for d in deals}) == 1 and len({d.dealer for d in deals}) == 1
            assert len({d.turn_up for d in deals}) == 1 and deals[0].board.endswith(f"b{number}")
        assert all(s.phase == "over" and len(results[g].deals) == 2
                   for g, s in zip(played.games, states, strict=True))
    game = drive.played[0].games[1]
    for viewer in ("auditor", 0):
        history = build_history(game, replay_log(store.read(game)), viewer)
        report = verify(history)
        assert report.ok, report.to_dict()
    table = drives.standings_view(drive, results)["players"]
    # Three tables a board: a side's matchpoints on a board are 0 to 2; each board hands out
    # 3 tables x 2 sides x 1 = 6 matchpoints per side-pair comparison, 2 players a side.
    assert sum(row["points"] for row in table) == 2 * 2 * (2 * 3) * 2
    assert [row["place"] for row in table] == sorted(row["place"] for row in table)


def test_a_drive_of_forty_players_at_ten_tables_runs_to_the_end(
    store: RedisEventStore, dispatcher: Dispatcher, queue: Queue,
) -> None:
    drive_id = _create(store, profile="classic", options={"target": 10}, players=_bots(40),
                       format="progressive", rounds=1)
    _finish(dispatcher, queue)
    drive, _ = drives.load(DriveStore(store), drive_id)
    assert drive.status == "finished" and [len(r.games) for r in drive.played] == [10]
    assert all(state_of(game).phase == "over" for r in drive.played for game in r.games)
    partners = [frozenset(pair) for r in drive.schedule for t in r
                for pair in partner_pairs(t, 2)]
    assert len(partners) == len(set(partners)) == 20


def test_a_duplicate_table_plays_every_board_though_a_side_reaches_the_target(
    store: RedisEventStore, dispatcher: Dispatcher, queue: Queue,
) -> None:
    # Issue 25.1: with a target of 15 a side reaches it on the first or second board; the
    # table must still play every board (so every board compares), end, and count its winner.
    drive_id = _create(store, profile="classic", options={"target": 15}, players=_bots(8),
                       format="duplicate", rounds=1, boards=3)
    _finish(dispatcher, queue)
    drive, _ = drives.load(DriveStore(store), drive_id)
    assert drive.status == "finished"
    played = drive.played[0]
    states = {game: state_of(game) for game in played.games}
    results = {game: table_result(game, state) for game, state in states.items()}
    for game, state in states.items():
        assert state.phase == "over" and sorted(results[game].deals) == [1, 2, 3], game
        totals = [sum(points[side] for points in results[game].deals.values())
                  for side in range(2)]
        assert list(state.scores) == totals
        expected = None if totals[0] == totals[1] else totals.index(max(totals))
        assert state.winner == expected
    view = drives.drive_view(drive, results, head="0" * 64)
    assert all(t["status"] == "over" for t in view["rounds"][0]["tables"])
    table = drives.standings_view(drive, results)["players"]
    won = {row["name"]: row["games_won"] for row in table}
    expected_won = {p["name"]: 0 for p in drive.players}
    for game, seats in zip(played.games, drive.schedule[0], strict=True):
        if results[game].winner is not None:
            for player in partner_pairs(seats, 2)[results[game].winner]:
                expected_won[drive.players[player]["name"]] += 1
    assert won == expected_won
    # Two tables, three boards: on each board each side-pair comparison gives 1 matchpoint
    # per side between them, to two players each.
    assert sum(row["points"] for row in table) == 3 * 2 * 2 * 1
