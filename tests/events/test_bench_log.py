"""The log benchmark runs end to end on a scratch log: its proofs are as long as the tree is
deep, the cost per game counts the leaves each way of signing leaves, and a bad size is an
argparse error."""

from __future__ import annotations

import argparse

import pytest

from bench import log as bench_log


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    bench_log.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_a_small_run_reports_proofs_appends_and_the_cost_per_game(redis_url: str) -> None:
    figures = bench_log.run(_args("--redis-url", redis_url, "--sizes", "64,300", "--batch",
                                  "50", "--appends", "10", "--proofs", "10", "--games", "1"))
    small, large = figures["sizes"]["64"], figures["sizes"]["300"]
    assert (small["leaves"], large["leaves"]) == (64, 300)
    assert small["inclusion"]["hashes_max"] == 6 == small["inclusion"]["hashes_mean"]
    assert large["inclusion"]["hashes_max"] == 9
    assert small["consistency"]["hashes_max"] <= 7 and large["consistency"]["hashes_max"] <= 10
    assert small["appends_per_second"] > 0 and small["ratio_to_bare"] > 0
    assert small["bytes_per_leaf"] > 300  # At least the leaf itself.
    game = figures["per_game"]
    assert game["every_event"]["leaves_per_game"] == game["events_per_game"]
    ends = game["deal_ends_only"]["leaves_per_game"]
    assert game["deals_per_game"] <= ends <= game["deals_per_game"] + 1  # And the last event.
    assert game["every_event"]["bytes_per_game"] > game["deal_ends_only"]["bytes_per_game"]


def test_a_size_below_two_is_refused() -> None:
    with pytest.raises(SystemExit):
        _args("--sizes", "1")
