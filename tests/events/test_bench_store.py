"""The store benchmark runs end to end and reports its figures with their ratios."""

from __future__ import annotations

import argparse
import pathlib

import pytest

from bench import BenchUsageError
from bench import store as bench_store
from events.redis_store import RedisEventStore


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    bench_store.add_arguments(parser)
    return parser.parse_args(list(argv))


def _assert_ratio(reported: float, decimals: int, over: float, under: float) -> None:
    """Asserts *reported* (rounded to *decimals*) is *over* / *under*, each of those rounded
    to 0.1: within half a last digit of each rounding."""
    ratio = over / under
    slack = 0.5 * 10 ** -decimals + ratio * (0.05 / over + 0.05 / under)
    assert abs(reported - ratio) <= slack * 1.0001, (reported, over, under)


def test_a_small_run_reports_appends_and_loads_side_by_side(redis_url: str) -> None:
    figures = bench_store.run(
        _args("--redis-url", redis_url, "--appends", "50", "--events", "40", "--loads", "3")
    )
    appends, loads = figures["appends"], figures["loads"]
    assert figures["server"]["embedded"] is False
    assert appends["count"] == 50
    _assert_ratio(appends["ratio_store_to_bare"], 3,
                  appends["store_per_second"], appends["bare_xadd_per_second"])
    assert loads["events"] == 40 and loads["fold"] == "engine"
    _assert_ratio(loads["speedup_cached_over_cold"], 1,
                  loads["cached_per_second"], loads["cold_per_second"])
    assert isinstance(appends["within_aim"], bool) and isinstance(loads["within_aim"], bool)
    redis = appends["redis"]  # From INFO commandstats, read around each side's turn.
    commands = redis["append_commands"]
    assert commands["evalsha"]["calls"] == 1.0  # One script call an append...
    assert commands["xadd"]["calls"] == 2.0  # ...whose XADDs (the game's, the feed's) count too.
    assert redis["script_to_xadd"] == pytest.approx(
        redis["script_usec_per_call"] / redis["bare_xadd_usec_per_call"], rel=0.01)
    assert redis["redis_cpu_us_per_append"] >= 0 and redis["redis_cpu_us_per_bare_xadd"] >= 0
    phases = figures["cold_phases"]
    parts = [phases[f"{name}_milliseconds"] for name in ("read", "checks", "decode", "fold")]
    assert phases["events"] == 40 and all(part > 0 for part in parts)
    assert phases["total_milliseconds"] == pytest.approx(sum(parts), abs=0.01)
    assert phases["microseconds_per_event"] == pytest.approx(
        phases["total_milliseconds"] * 1000 / 40, rel=0.01)
    memory = figures["memory"]
    assert memory["cached_games"] == 1 and memory["bytes_per_cached_game"] > 40 * 50
    assert memory["bytes_per_event"] == pytest.approx(
        memory["bytes_per_cached_game"] / 40, rel=0.01)


def test_the_digest_fold_is_deterministic_and_order_sensitive(
    store: RedisEventStore, game_id: str
) -> None:
    (initial, apply), game = bench_store._digest_game(12)
    store.append(game_id, 0, game, actor="server")
    recorded = store.read(game_id)
    state = initial()
    for event in recorded:
        state = apply(state, event)
    again = initial()
    for event in recorded:
        again = apply(again, event)
    swapped = initial()
    for event in [recorded[1], recorded[0], *recorded[2:]]:
        swapped = apply(swapped, event)
    assert state == again
    assert state != swapped
    assert sum(count for _, count in state[1]) == 12


def test_the_engine_fold_loads_a_game_the_engine_played(redis_url: str) -> None:
    pytest.importorskip("engine.actions")
    figures = bench_store.run(
        _args("--redis-url", redis_url, "--appends", "5", "--events", "60", "--loads", "2",
              "--fold", "engine")
    )  # fmt: skip
    assert figures["loads"]["fold"] == "engine"
    assert figures["loads"]["events"] == 60


def test_before_loads_the_same_game_by_another_checkout_in_turns(redis_url: str) -> None:
    pytest.importorskip("engine.actions")
    checkout = pathlib.Path(bench_store.__file__).resolve().parents[1]  # This one, as "before".
    figures = bench_store.run(
        _args("--redis-url", redis_url, "--appends", "5", "--events", "40", "--loads", "3",
              "--before", str(checkout))
    )  # fmt: skip
    before = figures["before_and_after"]
    assert before["loads"] == 3 and before["events"] == 40
    assert before["before"]["cpu_milliseconds"] > 0 and before["after"]["cpu_milliseconds"] > 0
    assert before["ratio_cpu_after_to_before"] == pytest.approx(
        before["after"]["cpu_milliseconds"] / before["before"]["cpu_milliseconds"], abs=0.001)
    assert before["within_aim"] == (before["ratio_cpu_after_to_before"] <= 0.5)


def test_before_takes_a_fortyfive_checkout_and_the_engine_fold(tmp_path: pathlib.Path) -> None:
    with pytest.raises(SystemExit):
        _args("--before", str(tmp_path))
    checkout = pathlib.Path(bench_store.__file__).resolve().parents[1]
    with pytest.raises(BenchUsageError, match="--before"):
        bench_store.run(_args("--before", str(checkout), "--fold", "digest"))
