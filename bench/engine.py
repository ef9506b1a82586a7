"""Engine throughput: random games per second, fold cost per event, fold against json.loads.

Three figures, all measured in one run on the same machine:

- ``games``: complete games per second for each profile, every action drawn uniformly from
  :func:`engine.actions.legal_actions` (seeded, so runs are comparable), each action checked
  by :func:`engine.actions.decide` and applied by the fold, as the service does. In the
  auction a seat draws only among passing, holding and the lowest legal bid: uniformly random
  bids are mostly set, and both sides then sink below zero and never reach 120.
- ``fold``: microseconds per event to fold the logs of those games from scratch.
- ``fold_vs_json``: folding one complete 6-player ``bruff`` game against ``json.loads`` of
  the same events, both as bare data (``{"type": ..., "data": ...}`` per event) and as the
  store holds them (sealed envelopes, decoded one by one as a load does). The ratio says how
  much replaying a game costs beyond reading it; the aim is 10x or less.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.actions import decide, legal_actions, start_game
from engine.fold import apply_event, fold
from engine.profiles import PROFILES, profile_players
from events.chain import seal_events
from events.types import Event, event_to_data

RATIO_AIM = 10.0
"""The most fold may cost, as a multiple of json.loads of the same game."""

MAX_DEALS = 1000
"""A random game still running after this many deals is reported instead of waited for."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--games", type=_positive, default=20,
                        help="random games per profile (default 20)")
    parser.add_argument("--seed", default="bench", help="any text: the games drawn (default "
                        "'bench')")
    parser.add_argument("--profiles", type=_profiles, default=PROFILES,
                        help="comma-separated profiles to play (default: all)")
    parser.add_argument("--repeat", type=_positive, default=5,
                        help="timing repeats; the best is kept (default 5)")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return value


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
        "games": games,
        "fold": {
            "events": total_events,
            "microseconds_per_event": round(fold_seconds / total_events * 1e6, 2),
        },
        "fold_vs_json": compare_with_json(bruff_game, args.repeat),
    }


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
        for event in decide(state, seat, action, entropy=entropy()):
            state = apply_event(state, event)
            events.append(event)
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
    loops = max(1, 2000 // len(events))
    fold_seconds = _best(lambda: [fold(events) for _ in range(loops)], repeat) / loops
    bare_seconds = _best(lambda: [json.loads(bare) for _ in range(loops)], repeat) / loops
    stored_seconds = _best(
        lambda: [[json.loads(body) for body in stored] for _ in range(loops)], repeat
    ) / loops
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


def _best(work: Callable[[], object], repeat: int) -> float:
    """Returns the fastest of *repeat* timings of *work*, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best
