"""``fortyfive play``: a whole game in the terminal against bots, dealt as the service deals."""

from __future__ import annotations

import argparse
import io
from typing import Any

import pytest

from engine import bot_levels
from engine.shuffle import ALGORITHM_2
from events.types import DeckShuffled
from service.cli import main, play


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="fortyfive")
    play.register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["play", *argv])


def _game(monkeypatch: pytest.MonkeyPatch, *argv: str, answers: str) -> tuple[int, str, list[Any]]:
    """Plays with *answers* on stdin; returns the exit status, the output and every event."""
    events: list[Any] = []
    real_fold, real_apply = play.fold, play.apply_event

    def fold(opening: Any) -> Any:
        events.extend(opening)
        return real_fold(opening)

    def apply_event(state: Any, event: Any) -> Any:
        events.append(event)
        return real_apply(state, event)

    monkeypatch.setattr(play, "fold", fold)
    monkeypatch.setattr(play, "apply_event", apply_event)
    out = io.StringIO()
    status = play.run(_args(*argv), stdin=io.StringIO(answers), out=out)
    return status, out.getvalue(), events


def test_a_whole_game_is_played_to_its_end_and_dealt_by_fy2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, printed, events = _game(monkeypatch, "--profile", "classic", "--players", "2",
                                    "--option", "target=15", "--seed", "t", "--level", "basic",
                                    answers="1\n" * 2000)
    assert status == 0, printed[-500:]
    assert "Game over: side" in printed
    shuffles = [event for event in events if isinstance(event, DeckShuffled)]
    assert shuffles and {event.algorithm for event in shuffles} == {ALGORITHM_2}
    assert len({event.context for event in shuffles}) == 1  # One game id for every deal.


def test_the_same_seed_plays_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ("--profile", "classic", "--players", "2", "--option", "target=15", "--seed", "s",
            "--level", "basic")
    first = _game(monkeypatch, *argv, answers="1\n" * 2000)
    second = _game(monkeypatch, *argv, answers="1\n" * 2000)
    assert first[1] == second[1]


class _Unread(io.StringIO):
    def readline(self, *_: Any) -> str:  # type: ignore[override]
        raise AssertionError("--auto read its input")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _main(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: io.StringIO,
          *argv: str) -> tuple[int, str, str]:
    """Runs ``fortyfive play`` as the command line does, with *stdin*."""
    monkeypatch.setattr("sys.stdin", stdin)
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_auto_plays_the_seat_by_the_bot_to_the_end_without_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = ("--profile", "classic", "--players", "3", "--option", "target=15", "--seed", "a",
            "--seat", "2", "--auto", "--level", "basic")
    status, out, err = _main(capsys, monkeypatch, _Unread(), *argv)
    assert (status, err) == (0, "")
    last = out.splitlines()[-1]
    assert last.startswith("Game over: side ") and "wins; scores A " in last, last
    # Seats counted from 1: side A..C of three players is seat 1..3.
    side = last.split()[3]
    assert f"side {side} (seats {' ABC'.index(side)}) wins" in last, last
    assert "your hand" not in out and "> " not in out  # Nothing was asked.
    assert "Bots (basic, docs/bots.md) hold seats 1, 3." in out  # The person holds seat 2.
    again = _main(capsys, monkeypatch, _Unread(), *argv)
    assert again == (status, out, err)  # The seed makes it the same game.


def test_input_that_ends_before_the_game_is_refused_in_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _, err = _main(capsys, monkeypatch, io.StringIO(""), "--seed", "e")
    assert status == 2 and err.count("\n") == 1
    assert err.startswith("fortyfive play: the input ended before the game did (deal 1, ")
    assert "--auto" in err


def test_a_line_that_is_no_move_is_refused_naming_the_line_unless_at_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = ("--profile", "classic", "--players", "2", "--seed", "m", "--level", "basic")
    status, _, err = _main(capsys, monkeypatch, io.StringIO("1\nnonsense\n1\n"), *argv)
    assert status == 2 and err.count("\n") == 1
    assert err.startswith("fortyfive play: line 2: 'nonsense' is not one of the ")
    # At a terminal the same line is asked again, and the game goes on.
    status, out, err = _main(capsys, monkeypatch, _Terminal("1\nnonsense\n" + "1\n" * 2000),
                             *argv)
    assert (status, err) == (0, "")
    assert "? 'nonsense': type a number from 1 to " in out and "Game over: side" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--seat", "7"], "fortyfive play: --seat 7: expected 1..6"),
    (["--seat", "0"], "fortyfive play: --seat 0: expected 1..6"),
    (["--option", "target"], "fortyfive play: --option 'target': expected K=V"),
    (["--option", "colour=red"], "fortyfive play: unknown option 'colour' for profile 'bruff'"),
    (["--profile", "classic", "--players", "11"], "fortyfive play: classic is played by 2 to "),
    (["--profile", "whist"], "fortyfive play: argument --profile: invalid choice: 'whist'"),
    (["--level", "expert"], "fortyfive play: argument --level: invalid choice: 'expert'"),
    (["--budget-ms", "0"], "fortyfive play: --budget-ms 0: expected 1 to 60000 milliseconds"),
])
def test_invalid_arguments_are_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str],
    message: str,
) -> None:
    status, out, err = _main(capsys, monkeypatch, _Unread(), *argv)
    assert (status, out) == (2, "")
    assert err.startswith(message) and err.count("\n") == 1


def _spied_levels(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int]]:
    """Makes every level decide as basic, recording (level, seat, budget) of each decision."""
    calls: list[tuple[str, int, int]] = []
    basic = bot_levels.DECIDERS["basic"]
    for level in bot_levels.DECIDERS:
        def recorded(state: Any, seat: int, chance: Any, budget_ms: int,
                     level: str = level) -> Any:
            calls.append((level, seat, budget_ms))
            return basic(state, seat, chance, budget_ms)
        monkeypatch.setitem(bot_levels.DECIDERS, level, recorded)
    return calls


@pytest.mark.parametrize(("argv", "level", "budget"), [
    ((), "strong", 5),  # Unnamed, at a table where a person sits: strong (docs/bots.md).
    (("--level", "basic"), "basic", 5),
    (("--level", "strong"), "strong", 5),  # The suite's BOT_BUDGET_MS (conftest).
    (("--level", "strong", "--budget-ms", "40"), "strong", 40),
])
def test_the_bots_play_at_the_level_asked_with_its_budget(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...],
    level: str, budget: int,
) -> None:
    monkeypatch.setenv("BOT_BUDGET_MS", "5")
    calls = _spied_levels(monkeypatch)
    status, out, err = _main(capsys, monkeypatch, _Unread(), "--profile", "classic",
                             "--players", "3", "--option", "target=15", "--seed", "l",
                             "--auto", *argv)
    assert (status, err) == (0, ""), err
    # The person holds seat 1 (--seat's default): the bots hold the others, counted from 1.
    assert f"Bots ({level}, docs/bots.md) hold seats 2, 3." in out
    assert calls and {(called, spent) for called, _, spent in calls} == {(level, budget)}
    assert {seat for _, seat, _ in calls} == {0, 1, 2}, "--auto plays seat 0 at their level"
