"""``fortyfive bot --level``: the API bot decides at the level asked, through the level
registry, with its budget; a level or budget it does not know is refused in one line, and
``serve`` and ``worker`` refuse a bad ``BOT_BUDGET_MS`` before they start."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import pytest

from engine import bot_levels
from engine.actions import decide_and_apply, legal_actions, start_game
from engine.fold import fold
from replay.views import game_view
from service.cli import main
from service.cli.bot import SeatPlayer


class _OneView:
    """A game client that shows one seat's view and records what the seat posts."""

    def __init__(self, view: dict[str, Any]) -> None:
        self._view = view
        self.posted: list[tuple[Mapping[str, Any], int, str]] = []

    def view(self) -> dict[str, Any]:
        return self._view

    def act(self, action: Mapping[str, Any], version: int, key: str) -> int:
        self.posted.append((action, version, key))
        return 201


@pytest.mark.parametrize(("level", "budget"), [("strong", 30), ("basic", 100)])
def test_the_bot_decides_on_its_view_at_its_level_and_budget(
        monkeypatch: pytest.MonkeyPatch, level: str, budget: int) -> None:
    calls: list[tuple[str, int, int]] = []
    basic = bot_levels.DECIDERS["basic"]
    for name in bot_levels.DECIDERS:
        def recorded(state: Any, seat: int, chance: Any, budget_ms: int,
                     name: str = name) -> Any:
            calls.append((name, seat, budget_ms))
            return basic(state, seat, chance, budget_ms)
        monkeypatch.setitem(bot_levels.DECIDERS, name, recorded)
    state = fold(start_game("classic", {}, ["human", "human"], b"\1" * 32, b"\2" * 32))
    seat = state.turn
    assert seat is not None
    client = _OneView(game_view(state, seat))
    player = SeatPlayer(client, random.Random("t"), level=level,  # type: ignore[arg-type]
                        budget_ms=budget)
    assert player._turn() is False
    assert calls == [(level, seat, budget)]
    [(action, version, _)] = client.posted
    assert version == state.version and action in legal_actions(state, seat)


def _fy2_view(seat_of: str) -> tuple[Any, int, dict[str, Any]]:
    """A four-seat classic game whose first deal (hmac-sha256-fy/2) waits for its cut; the
    view of its cutter (*seat_of* ``"cutter"``) or of another seat."""
    state = fold(start_game("classic", {}, ["human"] * 4, b"\1" * 32, b"\2" * 32,
                            context="g-nonce", contribution_secret=b"\3" * 32, nonce_window=2))
    assert state.phase == "cut" and state.turn is not None
    seat = state.turn if seat_of == "cutter" else (state.turn + 1) % 4
    return state, seat, game_view(state, seat)


def test_the_bot_adds_its_own_nonce_to_its_cut() -> None:
    state, seat, view = _fy2_view("cutter")
    client = _OneView(view)
    player = SeatPlayer(client, random.Random("t"))
    player._turn()
    [(action, version, _)] = client.posted
    assert action["type"] == "cut" and version == state.version
    assert re.fullmatch(r"[0-9a-f]{64}", action["nonce"])
    player._turn()  # A retry of the same version sends the very same action.
    assert client.posted[1][0] == action and client.posted[1][2] == client.posted[0][2]


def test_the_bot_contributes_a_nonce_once_a_deal_when_another_seat_cuts() -> None:
    state, seat, view = _fy2_view("other")
    client = _OneView(view)
    player = SeatPlayer(client, random.Random("t"))
    player._turn()
    [(action, version, key)] = client.posted
    assert action["type"] == "contribute" and version == state.version
    assert re.fullmatch(r"[0-9a-f]{64}", action["nonce"])
    decide_and_apply(state, seat, action)  # The engine takes it as it stands.
    player._turn()
    assert len(client.posted) == 1, "one contribution a deal"
    # Once the seat's nonce is in, the view says so and nothing more is due.
    contributed = {**view, "deal": {**view["deal"], "contributed": [seat]}}
    assert SeatPlayer(_OneView(contributed), random.Random("t"))._turn() is False


def test_the_bot_sends_no_nonce_to_a_deal_that_takes_none() -> None:
    state = fold(start_game("classic", {}, ["human"] * 4, b"\1" * 32, b"\2" * 32))
    assert state.deal is not None and state.deal.algorithm != "hmac-sha256-fy/2"
    assert state.turn is not None
    client = _OneView(game_view(state, (state.turn + 1) % 4))
    SeatPlayer(client, random.Random("t"))._turn()
    assert client.posted == []


@pytest.mark.parametrize(("argv", "says"), [
    (["--level", "expert"], "fortyfive bot: argument --level: invalid choice: 'expert'"),
    (["--level", "strong", "--budget-ms", "0"],
     "fortyfive bot: --budget-ms 0: expected 1 to 60000 milliseconds"),
])
def test_an_unknown_level_or_budget_is_one_line_and_status_2(
        capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    status = main(["bot", "--url", "http://127.0.0.1:9", "--game", "g", "--token", "t", *argv])
    _, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and says in err, err


@pytest.mark.parametrize("argv", [["serve"], ["worker", "--redis-url", "redis://127.0.0.1:9/0"]])
def test_serve_and_worker_refuse_a_bad_budget_before_they_start(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        argv: list[str]) -> None:
    monkeypatch.setenv("BOT_BUDGET_MS", "fast")
    status = main(argv)
    _, err = capsys.readouterr()
    assert status == 2 and err == (f"fortyfive {argv[0]}: BOT_BUDGET_MS must be a whole number "
                                   "of milliseconds from 1 to 60000, got 'fast'\n")
