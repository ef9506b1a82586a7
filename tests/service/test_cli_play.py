"""``fortyfive play``: a whole game in the terminal against bots, dealt as the service deals."""

from __future__ import annotations

import argparse
import io
from typing import Any

import pytest

from engine.shuffle import ALGORITHM_2
from events.types import DeckShuffled
from service.cli import play


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
                                    "--option", "target=15", "--seed", "t", answers="1\n" * 2000)
    assert status == 0, printed[-500:]
    assert "Game over: side" in printed
    shuffles = [event for event in events if isinstance(event, DeckShuffled)]
    assert shuffles and {event.algorithm for event in shuffles} == {ALGORITHM_2}
    assert len({event.context for event in shuffles}) == 1  # One game id for every deal.


def test_the_same_seed_plays_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ("--profile", "classic", "--players", "2", "--option", "target=15", "--seed", "s")
    first = _game(monkeypatch, *argv, answers="1\n" * 2000)
    second = _game(monkeypatch, *argv, answers="1\n" * 2000)
    assert first[1] == second[1]


def test_input_that_ends_abandons_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    status, printed, _ = _game(monkeypatch, "--profile", "classic", "--players", "2",
                               "--seed", "e", answers="")
    assert status == 1 and "input ended; game abandoned" in printed
