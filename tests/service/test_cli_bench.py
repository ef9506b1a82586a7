"""``fortyfive bench``: lazy dispatch to bench modules, one-line errors, and the engine bench."""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import types
from typing import Any

import pytest

from bench.drive import movement_figures
from bench.engine import random_game
from engine.fold import fold
from service.cli import main
from service.cli.bench import TARGETS, format_table


def _fake(name: str, figures: dict[str, Any], option: str | None = None) -> types.ModuleType:
    """Returns a stand-in bench module that reports *figures* and the options it was given."""
    module = types.ModuleType(f"bench.{name}", f"Fake {name} benchmark.")

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        if option:
            parser.add_argument(option, type=int, default=1)

    def run(args: argparse.Namespace) -> dict[str, Any]:
        return {**figures, "args": sorted(vars(args))}

    module.add_arguments = add_arguments  # type: ignore[attr-defined]
    module.run = run  # type: ignore[attr-defined]
    return module


@pytest.fixture
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaces every bench module with a fast fake; only ``store`` knows ``--clients``."""
    for target in TARGETS:
        module = _fake(target, {"ops": 1.5}, "--clients" if target == "store" else None)
        monkeypatch.setitem(sys.modules, f"bench.{target}", module)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["bench", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_bench_runs_the_chosen_module_and_prints_pretty_json(
    capsys: pytest.CaptureFixture[str], fakes: None
) -> None:
    status, out, err = _run(capsys, "store", "--json", "--clients", "3")
    assert (status, err) == (0, "")
    assert json.loads(out) == {"ops": 1.5, "args": ["clients", "json"]}
    assert out.startswith("{\n  ")


def test_bench_json_flag_may_come_before_the_target(
    capsys: pytest.CaptureFixture[str], fakes: None
) -> None:
    status, out, _ = _run(capsys, "--json", "http")
    assert status == 0 and json.loads(out)["ops"] == 1.5


def test_bench_all_runs_every_module_in_order(
    capsys: pytest.CaptureFixture[str], fakes: None
) -> None:
    status, out, _ = _run(capsys, "all", "--json", "--clients", "2")
    assert status == 0
    results = json.loads(out)
    assert list(results) == [
        "engine", "store", "http", "history", "stream", "grind", "sign", "drive"]
    assert results["store"]["args"] == ["clients", "json"]
    assert results["engine"]["args"] == ["json"]


def test_bench_without_a_target_runs_all(
    capsys: pytest.CaptureFixture[str], fakes: None
) -> None:
    status, out, _ = _run(capsys)
    assert status == 0
    assert out.splitlines()[0].split() == ["engine.ops", "1.5"]


def test_bench_prints_a_readable_table_without_json(
    capsys: pytest.CaptureFixture[str], fakes: None
) -> None:
    status, out, _ = _run(capsys, "history")
    assert status == 0
    assert out == "ops   1.5\nargs  json\n"


def test_format_table_aligns_nested_names() -> None:
    assert format_table({"a": {"bb": 1, "c": [1, 2]}, "d": 0.5}) == (
        "a.bb  1\na.c   1, 2\nd     0.5"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["all", "--nope"], "fortyfive bench all: no benchmark knows --nope"),
        (["http", "--clients", "2"], "fortyfive bench http: unrecognized arguments: --clients 2"),
        (["store", "--clients", "many"], "argument --clients: invalid int value: 'many'"),
        (["gpu"], "argument target: invalid choice: 'gpu'"),
    ],
)
def test_bench_refuses_bad_options_in_one_line(
    capsys: pytest.CaptureFixture[str], fakes: None, argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and message in err


def test_a_benchmark_refusing_its_options_is_a_usage_error_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    checkout = pathlib.Path(__file__).resolve().parents[2]
    status, out, err = _run(capsys, "store", "--before", str(checkout), "--fold", "digest")
    assert (status, out) == (2, "")
    assert err == ("fortyfive bench store: --before loads the game with the engine's fold; "
                   "leave out --fold digest\n")


def test_a_missing_bench_module_is_named_in_one_line(
    capsys: pytest.CaptureFixture[str], fakes: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "bench.http", None)
    status, out, err = _run(capsys, "http")
    assert (status, out) == (2, "")
    assert err == "fortyfive bench: missing benchmark module: bench.http (bench/http.py)\n"
    status, out, err = _run(capsys, "all")
    assert (status, out) == (2, "")
    assert "bench.http (bench/http.py)" in err and err.count("\n") == 1


def test_a_bench_module_without_run_is_refused(
    capsys: pytest.CaptureFixture[str], fakes: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = types.ModuleType("bench.store")
    module.add_arguments = lambda parser: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bench.store", module)
    status, _, err = _run(capsys, "store")
    assert status == 2
    assert err == "fortyfive bench: bench.store has no run() function\n"


# The engine benchmark itself.


def test_bench_engine_reports_games_fold_and_the_json_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "engine", "--games", "1", "--repeat", "1", "--profiles",
                            "bruff,classic", "--json")
    assert (status, err) == (0, "")
    figures = json.loads(out)
    assert list(figures["games"]) == ["bruff", "classic"]
    assert figures["games"]["bruff"]["games"] == 1
    assert figures["games"]["bruff"]["games_per_second"] > 0
    assert figures["fold"]["microseconds_per_event"] > 0
    comparison = figures["fold_vs_json"]
    assert (comparison["profile"], comparison["players"]) == ("bruff", 6)
    for baseline in ("bare", "stored"):
        assert comparison[f"ratio_to_{baseline}"] == pytest.approx(
            comparison["fold_microseconds"]
            / comparison[f"{baseline}_json_loads_microseconds"], rel=0.05
        )
    assert comparison["stored_json_bytes"] > comparison["bare_json_bytes"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--profiles", "bruff,poker"], "argument --profiles: expected profiles from bruff"),
        (["--games", "0"], "argument --games: expected a whole number of 1 or more, got '0'"),
    ],
)
def test_bench_engine_refuses_bad_options_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, "engine", *argv)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and message in err


# The stream benchmark, with small numbers (it starts `fortyfive serve`).


def test_bench_stream_checks_every_spectator_got_every_event(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "stream", "--json", "--streams", "20", "--actions", "6",
                            "--interval", "0", "--workers", "1")
    assert (status, err) == (0, "")
    figures = json.loads(out)
    assert (figures["streams_held"], figures["streams_refused"]) == (20, {})
    assert figures["actions"] == 6 and figures["events_per_stream"] >= 6
    assert figures["events_expected"] == 20 * figures["events_per_stream"]
    assert figures["events_delivered"] == figures["events_expected"]
    assert (figures["streams_complete"], figures["streams_incomplete"]) == (20, [])
    assert figures["get_game"]["count"] >= 1
    assert figures["get_game"]["p99_ms"] >= figures["get_game"]["p50_ms"] > 0


def test_bench_stream_counts_the_streams_its_server_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(capsys, "stream", "--json", "--streams", "8", "--max-streams", "5",
                          "--actions", "2", "--interval", "0", "--workers", "1")
    assert status == 0
    figures = json.loads(out)
    assert (figures["streams_held"], figures["streams_refused"]) == (5, {"503": 3})
    assert figures["streams_complete"] == 5 and figures["aim_met"] is False


@pytest.mark.parametrize("profile", ["bruff", "auction", "classic"])
def test_random_games_are_complete_and_reproducible(profile: str) -> None:
    events = random_game(profile, "test/1")
    state = fold(events)
    assert state.phase == "over" and state.winner is not None
    assert random_game(profile, "test/1") == events
    assert random_game(profile, "test/2") != events


@pytest.mark.parametrize("target", TARGETS)
def test_a_bench_modules_help_is_plain_text(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["bench", target, "--help"])
    out = capsys.readouterr().out
    assert out.startswith(f"usage: fortyfive bench {target}")
    assert "`" not in out and ":mod:" not in out, out
    description = " ".join(out.split("\n\n")[1].split())  # The module's first paragraph.
    assert description.endswith("."), description


def test_bench_sign_reports_signatures_and_verifications_per_second(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(capsys, "sign", "--json", "--rounds", "20", "--repeat", "1")
    figures = json.loads(out)
    assert status == 0 and figures["signature_bytes"] == 64
    assert figures["signed_per_second"] > 0 and figures["verified_per_second"] > 0
    assert figures["cached_per_second"] > figures["signed_per_second"]


def test_bench_engine_reports_moves_per_second_of_random_bruff_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "engine", "--games", "1", "--repeat", "1", "--profiles",
                            "bruff", "--move-games", "2", "--json")
    assert (status, err) == (0, "")
    figures = json.loads(out)
    moves = figures["moves"]
    assert moves["games"] == 2 and moves["moves"] > 2 * 30
    assert figures["moves_per_second"] == round(moves["moves_per_second"]) > 0
    assert moves["microseconds_per_move"] == pytest.approx(1e6 / moves["moves_per_second"],
                                                           rel=0.05)
    assert "peer" not in figures


_FAKE_PEER = '''
class GameEngine:
    """A stand-in for the peer: six moves a game, one legal move at a time."""

    def __init__(self, player_names, *, audit_dir):
        assert len(player_names) == 6 and audit_dir is None
        self.left = 6

    @property
    def is_game_over(self):
        return self.left == 0

    def _compute_legal_moves(self):
        return [self.left]

    def get_state(self):
        return type("State", (), {"legal_moves": (self.left,)})()

    def apply_move(self, move):
        assert move == self.left
        self.left -= 1
'''


def test_bench_engine_measures_a_peer_checkout_side_by_side(
    capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = tmp_path / "twentyfive" / "game" / "engine.py"
    engine.parent.mkdir(parents=True)
    for package in (engine.parent.parent, engine.parent):
        (package / "__init__.py").write_text("")
    engine.write_text(_FAKE_PEER)
    for name in ("twentyfive", "twentyfive.game", "twentyfive.game.engine"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        status, out, err = _run(capsys, "engine", "--games", "1", "--repeat", "1",
                                "--profiles", "bruff", "--move-games", "2", "--peer",
                                str(tmp_path), "--json")
    finally:
        for name in ("twentyfive", "twentyfive.game", "twentyfive.game.engine"):
            sys.modules.pop(name, None)
    assert (status, err) == (0, "")
    figures = json.loads(out)
    peer = figures["peer"]
    assert (peer["engine"], peer["games"], peer["moves"]) == ("peteclarkez/twentyfive", 2, 12)
    faster = max(peer["public_moves_per_second"], peer["lean_moves_per_second"])
    assert peer["ratio"] == pytest.approx(figures["moves"]["moves_per_second"] / faster,
                                          abs=0.01)
    assert peer["aim"] == ">= 2x"


def test_bench_engine_refuses_a_peer_directory_without_the_peer(
    capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path
) -> None:
    status, out, err = _run(capsys, "engine", "--peer", str(tmp_path))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert "argument --peer: expected a checkout of peteclarkez/twentyfive" in err


def test_bench_drive_refuses_a_drive_that_cannot_be_made_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "drive", "--format", "duplicate", "--tables", "1")
    assert (status, out) == (2, "")
    assert err.splitlines() == ["fortyfive bench drive: --tables 1: a duplicate drive compares "
                                "tables: it needs two or more, not one (5 players or more, "
                                "with fill_with_bots)"]


def test_timings_take_turns_so_that_other_load_falls_on_every_work_alike() -> None:
    from bench import best_times_in_turns

    calls: list[str] = []
    timings = best_times_in_turns(
        {"verify": lambda: calls.append("verify"), "fold": lambda: calls.append("fold")},
        rounds=2, repeat=3)
    assert calls == ["verify", "verify", "fold", "fold"] * 3
    assert list(timings) == ["verify", "fold"] and all(t > 0 for t in timings.values())


def test_bench_history_reports_verification_and_fold_measured_in_turns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "history", "--json", "--rounds", "1", "--repeat", "2")
    assert (status, err) == (0, "")
    figures = json.loads(out)
    assert figures["game"]["events"] > 30 and figures["game"]["deals"] >= 1
    assert figures["verify_cost_in_folds"] == round(
        figures["fold_per_second"] / figures["verify_per_second"], 1)
    assert figures["verify_seat_view_per_second"] > 0


def test_bench_drive_reports_the_partners_and_opponents_of_every_movement() -> None:
    figures = movement_figures(40, 4, 3)
    assert set(figures) == {"round_robin", "fixed_partners", "winners_move"}
    assert figures["round_robin"]["partners_min"] == 3
    assert figures["fixed_partners"] == {"partners_mean": 1.0, "partners_min": 1,
                                         "opponents_mean": 6.0, "opponents_min": 6,
                                         "from": "schedule"}
    assert figures["round_robin"]["opponents_min"] < 6
    # Winners move on and split: a new partner every round, and the only opponent met
    # twice in 6 seats is at most the partner who stayed with them and is now across.
    moved = figures["winners_move"]
    assert (moved["partners_min"], moved["from"]) == (3, "simulated")
    assert moved["opponents_min"] >= 5 > figures["round_robin"]["opponents_min"]
    played = (((0, 1, 2, 3), (4, 5, 6, 7)), ((0, 1, 4, 5), (2, 3, 6, 7)))  # As it was played.
    assert movement_figures(8, 4, 2, played=("winners_move", played))["winners_move"] == {
        "partners_mean": 2.0, "partners_min": 2, "opponents_mean": 3.0, "opponents_min": 3,
        "from": "played"}
