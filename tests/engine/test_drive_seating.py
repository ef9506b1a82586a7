"""Seating a drive from its last round: winners moving on, and the roster's changes as the
drive's fold holds them to the rules."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.drives import fold_drive, player_level
from engine.errors import DriveError
from engine.seating import choose_sit_outs, movement, seat_present, winners_move
from events.drive_types import DRIVE_EVENT_TYPES
from events.types import event_from_data


@given(st.sampled_from([2, 3]), st.integers(min_value=1, max_value=6), st.data())
def test_winners_move_on_a_table_split_and_the_losers_stay_split(
    sides: int, tables: int, data: st.DataObject,
) -> None:
    size = 2 * sides
    before = tuple(tuple(range(t * size, (t + 1) * size)) for t in range(tables))
    movers = [data.draw(st.integers(min_value=0, max_value=sides - 1)) for _ in before]
    after = winners_move(before, movers, sides)
    assert sorted(p for t in after for p in t) == list(range(tables * size))
    for number, table in enumerate(before):
        moving = {table[s] for s in range(movers[number], size, sides)}
        arrived = after[(number + 1) % tables]
        assert moving <= set(arrived)
        assert set(table) - moving <= set(after[number])
    def partnerships(round_: tuple[tuple[int, ...], ...]) -> set[frozenset[int]]:
        return {frozenset(t[s] for s in range(side, size, sides))
                for t in round_ for side in range(sides)}

    assert not partnerships(before) & partnerships(after), "nobody keeps a partner"


def test_a_newcomer_takes_a_leavers_seat_and_a_short_hall_breaks_up_the_last_table() -> None:
    tables = ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11))
    assert seat_present(tables, [p for p in range(13) if p != 5], 4) == (
        (0, 1, 2, 3), (4, 12, 6, 7), (8, 9, 10, 11))
    # Two leave, nobody arrives: table 3 is broken up to fill their seats; two sit out.
    assert seat_present(tables, [p for p in range(12) if p not in (1, 6)], 4) == (
        (0, 8, 2, 3), (4, 5, 9, 7))
    # Five arrive: a new table, and one waits.
    assert seat_present(tables, range(17), 4)[3] == (12, 13, 14, 15)
    assert choose_sit_outs(range(9), 1, [8]) == (7,)


def _events(*extra: dict[str, Any], movement_name: str = "round_robin") -> list[Any]:
    created = {"profile": "classic", "options": {}, "format": "progressive", "rounds": 3,
               "table_size": 4, "boards": 0, "movement": movement_name,
               "odd_players": "sit_out",
               "players": [{"name": f"P{n}", "type": "bot" if n else "human"}
                           for n in range(8)],
               "schedule": [[list(t) for t in r] for r in movement(
                   8, 4, 1 if movement_name == "winners_move" else 3)]}
    return [event_from_data(kind, data, DRIVE_EVENT_TYPES)
            for kind, data in (("drive_created", created),
                               ("round_started", {"round": 1, "games": ["a", "b"],
                                                  "boards": []}),
                               *((e["type"], e["data"]) for e in extra))]


ENDED = {"type": "round_ended", "data": {"round": 1, "heads": None}}


@pytest.mark.parametrize(("extra", "refusal"), [
    ([{"type": "player_added", "data": {"players": [{"name": "N", "type": "human"}],
                                        "withdrawn": [], "schedule": [[], []],
                                        "reason": ""}}],
     "an arrival waits for the end of round 1"),
    ([{"type": "player_substituted", "data": {"player": 1, "name": "S", "type": "human",
                                              "reason": ""}}],
     "a bot and a person change places only between rounds"),
    ([ENDED, {"type": "player_withdrawn", "data": {
        "players": [], "withdrawn": [3], "schedule": [[[0, 1, 2, 3]], [[0, 1, 2, 4]]],
        "reason": ""}}],
     "round 2 seated again does not seat players of the drive still there"),
    ([ENDED, {"type": "player_withdrawn", "data": {
        "players": [], "withdrawn": [3, 4], "schedule": [], "reason": ""}}],
     "beside the player withdrawn, house bots only"),
    ([ENDED, {"type": "player_substituted", "data": {"player": 9, "name": "S",
                                                     "type": "human", "reason": ""}}],
     "player 9 is not a player of the drive still there"),
    ([ENDED, {"type": "player_substituted", "data": {"player": 0, "name": " ",
                                                     "type": "human", "reason": ""}}],
     "a substitute has a name that is not blank"),
    ([ENDED, {"type": "player_substituted", "data": {"player": 0, "name": "S",
                                                     "type": "human", "reason": 7}}],
     "a substitution gives its reason as text"),
    ([ENDED, {"type": "player_substituted", "data": {"player": 0, "name": "S",
                                                     "type": "robot", "reason": ""}}],
     "every player of a drive is an object with a name and a type, human or bot"),
    ([{"type": "player_substituted", "data": {"player": 1, "name": "S", "type": "bot",
                                              "reason": "", "level": "expert"}}],
     "player 'S': a bot's level is basic or strong, not 'expert'"),
    ([ENDED, {"type": "player_substituted", "data": {"player": 0, "name": "S",
                                                     "type": "human", "reason": "",
                                                     "level": "strong"}}],
     "player 'S': only a bot has a level"),
    ([ENDED, {"type": "player_added", "data": {
        "players": [{"name": "N", "type": "human"},
                    {"name": "Bot 1", "type": "bot", "level": "grand"}],
        "withdrawn": [], "schedule": [[], []], "reason": ""}}],
     "player 'Bot 1': a bot's level is basic or strong, not 'grand'"),
])
def test_the_fold_refuses_a_roster_change_that_does_not_fit(
    extra: list[dict[str, Any]], refusal: str,
) -> None:
    with pytest.raises(DriveError, match=refusal):
        fold_drive("d", _events(*extra))


def test_a_winners_move_round_is_seated_at_its_start_and_only_with_players_still_there() -> None:
    withdrawn = {"type": "player_withdrawn", "data": {
        "players": [], "withdrawn": [7], "schedule": [], "reason": "gone"}}
    seated = {"type": "round_started", "data": {
        "round": 2, "games": ["c"], "boards": [], "tables": [[0, 1, 2, 3]]}}
    drive = fold_drive("d", _events(ENDED, withdrawn, seated, movement_name="winners_move"))
    assert drive.schedule[1] == ((0, 1, 2, 3),) and drive.played[1].sitting_out == (4, 5, 6)
    assert drive.withdrawn == (7,) and drive.roster[0].action == "withdraw_player"
    with pytest.raises(DriveError, match="round 2 does not seat players of the drive still"):
        fold_drive("d", _events(ENDED, withdrawn, {**seated, "data": {
            **seated["data"], "tables": [[0, 1, 2, 7]]}}, movement_name="winners_move"))
    unseated = {**seated, "data": {k: v for k, v in seated["data"].items() if k != "tables"}}
    with pytest.raises(DriveError, match="round 2 starts without its tables"):
        fold_drive("d", _events(ENDED, unseated, movement_name="winners_move"))


def test_a_bot_keeps_the_level_its_event_records_and_one_recorded_before_levels_is_basic(
) -> None:
    events = _events(
        {"type": "player_substituted", "data": {"player": 1, "name": "Old", "type": "bot",
                                                "reason": ""}},
        {"type": "player_substituted", "data": {"player": 2, "name": "New", "type": "bot",
                                                "reason": "", "level": "strong"}})
    created = events[0]
    players = [dict(p) for p in created.players]
    players[3] = {**players[3], "level": "strong", "token": "not kept"}
    events[0] = dataclasses.replace(created, players=tuple(players))
    drive = fold_drive("d", events)
    # P4 was created without a level, as every drive before levels: basic.
    assert [player_level(p) for p in drive.players[:5]] == [
        None, "basic", "strong", "strong", "basic"]
    # What the drive keeps of a player is its name, type and level, nothing else given.
    assert drive.players[3] == {"name": "P3", "type": "bot", "level": "strong"}


def test_a_past_round_shows_who_sat_there_not_who_took_the_place_since() -> None:
    """Round 1's tables keep the players who played them; a substitute shows from the round
    it came in (the round in play for one made mid-round)."""
    mid_round = {"type": "player_substituted", "data": {"player": 2, "name": "Mid",
                                                        "type": "bot", "reason": "ill"}}
    between = {"type": "player_substituted", "data": {"player": 0, "name": "Later",
                                                      "type": "bot", "reason": "left",
                                                      "level": "strong"}}
    again = {"type": "player_substituted", "data": {"player": 0, "name": "Last",
                                                    "type": "human", "reason": "swap"}}
    drive = fold_drive("d", _events(mid_round, ENDED, between, again))
    assert drive.player_in_round(2, 1)["name"] == "Mid", "mid-round: from the round in play"
    assert drive.player_in_round(0, 1) == {"name": "P0", "type": "human"}
    assert drive.player_in_round(0, 2) == {"name": "Last", "type": "human"}
    assert drive.player_in_round(1, 1) == drive.players[1]
    assert [c.replaced for c in drive.roster] == ["P2", "P0", "Later"]
