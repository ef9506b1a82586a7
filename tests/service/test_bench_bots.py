"""``fortyfive bench bots``: a small run plays real games, and its figures are computed right
(Wilson intervals against known values, counts that add up, reproducible rows)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.bots import SIDES, play_game, summarize, wilson
from service.cli import main


@pytest.mark.parametrize(("won", "games", "low", "high"), [
    (117, 200, 0.5157, 0.6511),  # Issue 27's basic bots in bruff: 58.5% [51.6, 65.1].
    (150, 200, 0.6857, 0.8049),  # Issue 27's basic bots in classic: 75.0% [68.6, 80.5].
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (530, 1000, 0.4990, 0.5607),
])
def test_the_wilson_interval_matches_known_values(won: int, games: int, low: float,
                                                  high: float) -> None:
    assert wilson(won, games) == pytest.approx((low, high), abs=1e-4)


def test_a_row_s_figures_are_summed_from_its_games() -> None:
    games = [
        {"won": True, "cpu": {"strong": 0.5, "basic": 0.01}, "decisions": {"strong": 10,
                                                                           "basic": 20},
         "slowest": {"strong": 0.12, "basic": 0.0002},
         "searches": [(9000, 0.1), (3000, 0.02)],
         "contracts": [("strong", 20, True, 10), ("basic", 25, False, -30)]},
        {"won": False, "cpu": {"strong": 1.5, "basic": 0.03}, "decisions": {"strong": 30,
                                                                           "basic": 40},
         "slowest": {"strong": 0.09, "basic": 0.0005},
         "searches": [(6000, 0.03)],
         "contracts": [("strong", 20, False, -25), ("strong", 15, True, 5)]},
        {"won": True, "cpu": {"strong": 0.0, "basic": 0.0}, "decisions": {"strong": 0,
                                                                         "basic": 0},
         "slowest": {"strong": 0.0, "basic": 0.0},
         "contracts": []},
    ]
    row = summarize("auction", "strong", "basic", "s", games)
    assert (row["games"], row["won"], row["win_rate"]) == (3, 2, 0.6667)
    assert row["wilson_95"] == [round(bound, 4) for bound in wilson(2, 3)]
    assert row["cpu_ms_per_decision"] == {"basic": 0.667, "strong": 50.0}
    assert row["cpu_ms_slowest"] == {"basic": 0.5, "strong": 120.0}
    assert row["decisions"] == {"basic": 60, "strong": 40}
    # Three searches: 18,000 steps in 150 ms of CPU.
    assert row["strong_search"] == {"decisions": 3, "cpu_ms_per_search": 50.0,
                                    "steps_per_ms": 120.0}
    assert row["seeds"] == "s/auction/strong-basic/0..2"
    # Games 0 and 1 are a set, won and lost; game 2 starts a set the row does not finish.
    assert row["sets"] == {"count": 1, "by_games_won": {"0": 0, "1": 1, "2": 0}}
    assert row["aim_low"] == 0.53 and row["aim_met"] is False
    assert row["contracts"] == {
        "basic": {"25": {"contracts": 1, "made": 0, "set": 1, "net_points": -30,
                         "net_per_contract": -30.0}},
        "strong": {"15": {"contracts": 1, "made": 1, "set": 0, "net_points": 5,
                          "net_per_contract": 5.0},
                   "20": {"contracts": 2, "made": 1, "set": 1, "net_points": -15,
                          "net_per_contract": -7.5}},
    }


def test_a_game_s_contracts_are_its_deals_with_a_bid() -> None:
    game = play_game(("auction", "basic", "random", "contracts", 0, 100, None))
    assert game["decisions"]["basic"] > 0 and game["decisions"]["random"] > 0
    for level, bid, made, net in game["contracts"]:
        assert level in ("basic", "random")
        assert bid in (5, 10, 15, 20, 25, 30)
        # A set contract loses its bid, and the other side scores what it took; a made one
        # takes at least the bid of the deal's 30 points, leaving the others the rest.
        assert net >= 2 * bid - 30 if made else net <= -bid


@pytest.mark.parametrize("profile", ["classic", "bruff"])
def test_the_games_of_a_set_are_dealt_alike(profile: str) -> None:
    # Basic bots play a deal the same way whichever level is called first, so the games of a
    # set are one game with the first level's side moved: one side wins each of them. Dealt
    # other cards, the games' winners would be independent.
    sides = SIDES[profile]
    for deal_set in range(3):
        games = [play_game((profile, "basic", "basic", "sets", deal_set * sides + side, 100,
                            None)) for side in range(sides)]
        assert sum(game["won"] for game in games) == 1
        assert len({game["decisions"]["basic"] for game in games}) == 1


def test_the_command_plays_its_rows_and_reports_them(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    argv = ["bench", "bots", "--json", "--games", "2", "--worlds", "1",
            "--rows", "classic:strong-basic,auction:strong-random", "--seed", "t"]
    assert main(argv) == 0
    figures: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert figures["settings"] == {"games_per_row": 2, "seed": "t", "strong": {"worlds": 1},
                                   "jobs": 1}
    classic, auction = figures["rows"]
    assert (classic["profile"], classic["first"], classic["second"]) == (
        "classic", "strong", "basic")
    for row in (classic, auction):
        assert row["games"] == 2 and 0 <= row["won"] <= 2
        assert row["wilson_95"] == [round(bound, 4) for bound in wilson(row["won"], 2)]
        assert set(row["cpu_ms_per_decision"]) == {row["first"], row["second"]}
        assert set(row["cpu_ms_slowest"]) == {row["first"], row["second"]}
        assert all(row["cpu_ms_slowest"][level] >= row["cpu_ms_per_decision"][level]
                   for level in (row["first"], row["second"]))
        assert row["cpu_ms_slowest"]["strong"] > 0
        assert all(count > 0 for count in row["decisions"].values())
    for row in (classic, auction):
        search = row["strong_search"]  # Some of the strong level's decisions searched.
        assert 0 < search["decisions"] < row["decisions"]["strong"]
        assert search["steps_per_ms"] > 0 and search["cpu_ms_per_search"] > 0
    assert classic["aim_low"] == 0.53 and "contracts" not in classic
    for bids in auction["contracts"].values():
        for figures_of_bid in bids.values():
            assert figures_of_bid["made"] + figures_of_bid["set"] == figures_of_bid["contracts"]
    # Searching a fixed number of worlds, the same seed plays the same games.
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    for first, second in zip(figures["rows"], again["rows"], strict=True):
        for row in (first, second):
            row.pop("cpu_ms_per_decision")
            row.pop("cpu_ms_slowest")
            row["strong_search"].pop("cpu_ms_per_search")
            row["strong_search"].pop("steps_per_ms")
        assert first == second


def test_an_unknown_row_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bots", "--rows", "classic:strong-expert"]) == 2
    assert "expected PROFILE:FIRST-SECOND" in capsys.readouterr().err
