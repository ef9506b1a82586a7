"""Engine throughput: moves per second, random games per second, fold cost per event, fold
against json.loads, and (with ``--peer``) the same moves on another Python engine.

The figures, all measured in one run on the same machine:

- ``moves_per_second``: six random players playing complete ``bruff`` games, each move the
  seat's legal actions listed as the engine's typed values (:func:`engine.actions.legal_moves`,
  as a bot or a search uses them), one drawn uniformly, checked and applied once
  (:func:`engine.actions.decide_and_apply`: the events and the state they fold to). Shuffle
  seeds are drawn from the same seeded generator as the choices.
- ``peer`` (only with ``--peer DIR``): the same workload on a checkout of the Twenty-Five engine
  (github.com/peteclarkez/twentyfive; mutable state, no events), loaded from *DIR* at run time
  and never part of this project: six random players, full games, each move the peer's legal
  moves listed and one applied through ``GameEngine.apply_move`` (which checks it). Both ways
  of listing them are timed, the public ``get_state().legal_moves`` and the leaner internal
  ``_compute_legal_moves()``; ``ratio`` is ``moves_per_second`` over the faster of the two.

- ``games``: complete games per second for each profile, every action drawn uniformly from
  :func:`engine.actions.legal_actions` (seeded, so runs are comparable), each action checked
  by :func:`engine.actions.decide` and applied by the fold, as the service does. In the
  auction a seat draws only among passing, holding and the lowest legal bid: uniformly random
  bids are mostly set, and both sides then sink below zero and never reach 120.
- ``fold``: microseconds per event to fold the logs of those games from scratch.
- ``fold_vs_json``: folding one complete 6-player ``bruff`` game against ``json.loads`` of
  the same events, both as bare data (``{"type": ..., "data": ...}`` per event) and as the
  store holds them (sealed envelopes, decoded one by one as a load does). The ratio says how
  much replaying a game costs beyond reading it; the aim is 6x or less.
- ``compiled_modules``: the engine's modules that ran compiled by mypyc (``setup.py``); empty
  for a build without it (``FORTYFIVE_PURE=1``, or no C compiler), whose figures differ.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import pathlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench import positive_int
from engine.actions import (
    decide_and_apply,
    legal_actions,
    legal_moves,
    start_game,
    start_game_and_apply,
)
from engine.compiled import compiled_modules
from engine.fold import fold
from engine.profiles import PROFILES, profile_players
from events.chain import seal_events
from events.types import Event, event_to_data

RATIO_AIM = 6.0
"""The most fold may cost, as a multiple of json.loads of the same game."""

MOVES_AIM = 2.0
"""The engine's moves per second, as a multiple of the peer's, that the project aims at."""

PEER_PLAYERS = 6
"""Players at the peer's table, as in bruff."""

MAX_DEALS = 1000
"""A random game still running after this many deals is reported instead of waited for."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--games", type=positive_int, default=20,
                        help="random games per profile (default 20)")
    parser.add_argument("--seed", default="bench", help="any text: the games drawn (default "
                        "'bench')")
    parser.add_argument("--profiles", type=_profiles, default=PROFILES,
                        help="comma-separated profiles to play (default: all)")
    parser.add_argument("--repeat", type=positive_int, default=5,
                        help="timing repeats; the best is kept (default 5)")
    parser.add_argument("--move-games", type=positive_int, default=300,
                        help="bruff games played for moves_per_second, and by the peer "
                        "(default 300: about a second a run on a quiet machine)")
    parser.add_argument("--peer", type=_peer_dir, default=None, metavar="DIR",
                        help="a checkout of peteclarkez/twentyfive: measure its moves per "
                        "second side by side and report the ratio")



def _peer_dir(text: str) -> pathlib.Path:
    path = pathlib.Path(text)
    if not (path / "twentyfive" / "game" / "engine.py").is_file():
        raise argparse.ArgumentTypeError(
            f"expected a checkout of peteclarkez/twentyfive (with twentyfive/game/engine.py), "
            f"got {text!r}"
        )
    return path


def _profiles(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in PROFILES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"expected profiles from {', '.join(PROFILES)}, got {text!r}"
        )
    return names


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs the benchmark and returns its figures."""
    figures: dict[str, Any] = {}
    moves, peer = measure_moves(args.move_games, args.seed, args.repeat, args.peer)
    figures["moves_per_second"] = round(moves["moves_per_second"])
    figures["moves"] = moves
    if peer is not None:
        figures["peer"] = peer
    profiles: tuple[str, ...] = args.profiles
    games: dict[str, Any] = {}
    logs: list[Sequence[Event]] = []
    for profile in profiles:
        started = time.perf_counter()
        played = [random_game(profile, f"{args.seed}/{profile}/{n}") for n in range(args.games)]
        elapsed = time.perf_counter() - started
        events = sum(len(log) for log in played)
        games[profile] = {
            "games": len(played),
            "games_per_second": round(len(played) / elapsed, 2),
            "events_per_game": round(events / len(played), 1),
            "seconds": round(elapsed, 3),
        }
        logs += played
    total_events = sum(len(log) for log in logs)
    fold_seconds = _best(lambda: [fold(log) for log in logs], args.repeat)
    bruff_game = random_game("bruff", f"{args.seed}/compare")
    return {
        **figures,
        "games": games,
        "fold": {
            "events": total_events,
            "microseconds_per_event": round(fold_seconds / total_events * 1e6, 2),
        },
        "fold_vs_json": compare_with_json(bruff_game, args.repeat),
        # Which of the engine's modules ran as C extensions (setup.py): none in a pure build.
        "compiled_modules": list(compiled_modules()),
    }


def play_moves(games: int, seed: str) -> dict[str, Any]:
    """Plays *games* complete six-player bruff games with random players and returns the
    moves made, the seconds taken and their rate; see the module's ``moves_per_second``."""
    chance = random.Random(f"{seed}/moves")
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        _, state = start_game_and_apply("bruff", {}, ["bot"] * 6, chance.randbytes(32),
                                        chance.randbytes(32))
        entropy = chance.randbytes(32)
        while True:
            seat = state.turn
            if seat is None:  # The server's steps come with the move that makes them due.
                assert state.phase == "over", f"a game in phase {state.phase!r} has no seat"
                break
            actions = legal_moves(state, seat)
            action = actions[int(chance.random() * len(actions))]
            events, state = decide_and_apply(state, seat, action, entropy=entropy)
            if len(events) > 1:  # A deal ended: a next shuffle took the entropy.
                entropy = chance.randbytes(32)
            moves += 1
    elapsed = time.perf_counter() - started
    return {"games": games, "moves": moves, "seconds": round(elapsed, 3),
            "moves_per_second": round(moves / elapsed, 1),
            "microseconds_per_move": round(elapsed / moves * 1e6, 2)}


def measure_moves(
    games: int, seed: str, repeat: int, peer: pathlib.Path | None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Returns the figures of :func:`play_moves` and, given a *peer* checkout, the peer's on
    the same workload, both ways of listing its legal moves, with the ratio. The runs take
    turns (ours, the peer's public way, its lean way), *repeat* times, and the fastest run of
    each is kept, so that a busy machine slows all three alike. The peer shuffles with the
    module-level generator, so that is seeded for its runs and restored afterwards."""
    engine_class = _load_peer(peer) if peer is not None else None
    ours: list[dict[str, Any]] = []
    public: list[dict[str, Any]] = []
    lean: list[dict[str, Any]] = []
    saved = random.getstate()
    try:
        for _ in range(repeat):
            ours.append(play_moves(games, seed))
            if engine_class is not None:
                public.append(_peer_moves(engine_class, games, seed, lean=False))
                lean.append(_peer_moves(engine_class, games, seed, lean=True))
    finally:
        random.setstate(saved)
    moves = _fastest(ours)
    if engine_class is None:
        return moves, None
    best_public, best_lean = _fastest(public), _fastest(lean)
    faster = max(best_public["moves_per_second"], best_lean["moves_per_second"])
    return moves, {
        "engine": "peteclarkez/twentyfive",
        "games": games,
        "moves": best_lean["moves"],
        "public_moves_per_second": best_public["moves_per_second"],
        "lean_moves_per_second": best_lean["moves_per_second"],
        "public_microseconds_per_move": best_public["microseconds_per_move"],
        "lean_microseconds_per_move": best_lean["microseconds_per_move"],
        "ratio": round(moves["moves_per_second"] / faster, 2),
        "aim": f">= {MOVES_AIM:g}x",
    }


def _load_peer(directory: pathlib.Path) -> Any:
    """Returns the peer's ``GameEngine`` class, imported from the checkout at *directory*."""
    root = str(directory.resolve())
    sys.path.insert(0, root)
    try:
        module = importlib.import_module("twentyfive.game.engine")
    finally:
        sys.path.remove(root)
    origin = pathlib.Path(module.__file__ or "").resolve()
    if not origin.is_relative_to(directory.resolve()):
        raise RuntimeError(f"twentyfive was imported from {origin}, not from the --peer checkout")
    return module.GameEngine


def _peer_moves(engine_class: Any, games: int, seed: str, *, lean: bool) -> dict[str, Any]:
    chance = random.Random(f"{seed}/moves")
    random.seed(f"{seed}/peer")
    names = [f"P{seat}" for seat in range(PEER_PLAYERS)]
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        engine = engine_class(player_names=names, audit_dir=None)
        while not engine.is_game_over:
            if lean:
                legal = engine._compute_legal_moves()
            else:
                legal = engine.get_state().legal_moves
            engine.apply_move(legal[int(chance.random() * len(legal))])
            moves += 1
    elapsed = time.perf_counter() - started
    return {"moves": moves, "moves_per_second": round(moves / elapsed, 1),
            "microseconds_per_move": round(elapsed / moves * 1e6, 2)}


def _fastest(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Returns the figures of the fastest of *runs*."""
    return max(runs, key=lambda run: float(run["moves_per_second"]))


def random_game(profile: str, seed: str) -> list[Event]:
    """Returns the events of one complete game of *profile*, every action drawn at random.

    Everything follows from *seed*: the shuffles, the first dealer and each choice.
    """
    chance = random.Random(seed)
    counter = iter(range(1 << 62))

    def entropy() -> bytes:
        return hashlib.sha256(f"{seed}/{next(counter)}".encode()).digest()

    players = profile_players(profile)[0]
    events = list(start_game(profile, {}, ["bot"] * players, entropy(), entropy()))
    state = fold(events)
    while state.phase != "over":
        if state.deals_played > MAX_DEALS:
            raise RuntimeError(f"random {profile} game {seed!r} not over after {MAX_DEALS} deals")
        seat = state.turn
        assert seat is not None, f"a game in phase {state.phase!r} has no seat to act"
        actions = [action for action in legal_actions(state, seat) if action["type"] != "jink"]
        bids = [action for action in actions if action["type"] == "bid"]
        if bids:
            actions = [action for action in actions if action["type"] != "bid"] + bids[:1]
        action = actions[chance.randrange(len(actions))]
        batch, state = decide_and_apply(state, seat, action, entropy=entropy())
        events += batch
    return events


def compare_with_json(events: Sequence[Event], repeat: int) -> dict[str, Any]:
    """Returns the time to fold *events* against ``json.loads`` of the same events, twice:
    as bare data (``{"type", "data"}`` per event) and as the store holds them (sealed
    envelopes with version, actor, timestamp and hash chain: what loading a game decodes)."""
    bare = json.dumps([{"type": event.TYPE, "data": event_to_data(event)} for event in events])
    sealed = seal_events(
        "bench-game", 0, "0" * 64, events, actor="server", command_id=None,
        occurred_at="2026-01-01T00:00:00.000000Z",
    )
    stored = [body for _, body in sealed]
    # One fold and one decode at a time, in turns, for many rounds, the fastest of each kept:
    # each timing is short enough that on a busy machine some rounds run undisturbed.
    fold_seconds, bare_seconds, stored_seconds = _best_in_turns([
        lambda: fold(events),
        lambda: json.loads(bare),
        lambda: [json.loads(body) for body in stored],
    ], repeat * 40)
    return {
        "profile": "bruff",
        "players": 6,
        "events": len(events),
        "fold_microseconds": round(fold_seconds * 1e6, 1),
        "bare_json_bytes": len(bare.encode()),
        "bare_json_loads_microseconds": round(bare_seconds * 1e6, 1),
        "ratio_to_bare": round(fold_seconds / bare_seconds, 2),
        "stored_json_bytes": sum(len(body) for body in stored),
        "stored_json_loads_microseconds": round(stored_seconds * 1e6, 1),
        "ratio_to_stored": round(fold_seconds / stored_seconds, 2),
        "aim": f"<= {RATIO_AIM:g}x",
    }


def _best_in_turns(works: Sequence[Callable[[], object]], rounds: int) -> list[float]:
    """Returns the fastest timing of each of *works*, run in turns for *rounds* rounds."""
    best = [float("inf")] * len(works)
    for _ in range(rounds):
        for index, work in enumerate(works):
            started = time.perf_counter()
            work()
            best[index] = min(best[index], time.perf_counter() - started)
    return best


def _best(work: Callable[[], object], repeat: int) -> float:
    """Returns the fastest of *repeat* timings of *work*, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best
