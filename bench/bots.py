"""Bot strength: levels against each other and against random players, per profile, with
Wilson 95% intervals, the seeds, and the CPU each level spends per decision (on the mean,
``cpu_ms_per_decision``, and its slowest, ``cpu_ms_slowest``); for the strong level, its
decisions that searched apart (``strong_search``: their mean CPU, and the play-out steps a
millisecond of it bought, which calibrates :data:`engine.strong_bot.STEPS_PER_MS`).

Each row plays *games* complete games of one profile in-process with the engine (no Redis):
one side's seats play the row's first level, every other seat the second. The first level's
side changes from game to game (game n puts it on side n mod sides), so no side's seats or
first dealer favour it, and the games of a set, one per side, are dealt the same cards (the
cards of ``SEED/PROFILE/deals/SET``, whatever the row's levels; the cuts drawn from the game's
committed contribution secret), so the luck of the deal cancels out of a set rather than
adding to the spread. The players' draws come from a generator seeded with
``SEED/PROFILE/FIRST-SECOND/n``: a row is reproducible when the strong level runs on a number
of worlds (``--worlds``) instead of a time budget; its budget is a count of play-out steps, so
a budget's row is reproducible too.

Levels: ``strong`` (:mod:`engine.strong_bot`), ``basic`` (:mod:`engine.bots`) and ``random``
(every legal action alike). The rows' ``aim`` is issue 27's floor for the lower bound of the
first level's win rate at 1,000 games a row; ``chance`` is one side's share when all play
alike. For the auction, each level's contracts by bid: how many, made, set, and the net points
(the bidding side's points of the deal less the other side's).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from bench import BenchUsageError, positive_int
from engine import bots, strong_bot
from engine.actions import decide_and_apply, legal_actions, start_game_and_apply
from engine.levels import BASIC, STRONG
from engine.profiles import PROFILES
from engine.state import GameState, Seat

LEVELS = ("strong", "basic", "random")

PLAYERS = {"classic": 4, "bruff": 6, "auction": 4}
"""The table each profile is played at (classic: 4 in pairs, its default layout)."""

SIDES = {"classic": 2, "bruff": 3, "auction": 2}
"""The sides of that table (two pairs; bruff's three pairs): the games of a set."""

AIMS: dict[tuple[str, str, str], float] = {
    ("classic", "strong", "basic"): 0.53,
    ("bruff", "strong", "basic"): 0.36,
    ("auction", "strong", "basic"): 0.53,
    ("bruff", "strong", "random"): 0.55,
    ("classic", "strong", "random"): 0.70,
}
"""Issue 27's floors for the lower 95% bound of the first level's game win rate."""

DEFAULT_ROWS = tuple(AIMS)

MAX_DEALS = 500
"""A game still running after this many deals is an error of the bench, not a result."""

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--games", type=positive_int, default=100,
                        help="games per row (default 100; issue 27 asks 1000)")
    parser.add_argument("--seed", default="bench", help="any text: the games drawn (default "
                        "'bench')")
    parser.add_argument("--rows", type=_rows, default=DEFAULT_ROWS,
                        help="comma-separated PROFILE:FIRST-SECOND, e.g. classic:strong-basic "
                        "(default: the five rows issue 27 sets aims for)")
    parser.add_argument("--budget-ms", type=positive_int, default=100,
                        help="the strong level's budget per decision (default 100)")
    parser.add_argument("--worlds", type=positive_int, default=None,
                        help="search this many worlds per decision instead of a budget: "
                        "reproducible figures")
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help="processes playing games side by side (default 1)")


def _rows(text: str) -> tuple[tuple[str, str, str], ...]:
    rows = []
    for item in (part.strip() for part in text.split(",") if part.strip()):
        profile, _, pairing = item.partition(":")
        first, _, second = pairing.partition("-")
        if profile not in PLAYERS or first not in LEVELS or second not in LEVELS:
            raise argparse.ArgumentTypeError(
                f"expected PROFILE:FIRST-SECOND with a profile of {', '.join(PLAYERS)} and "
                f"levels of {', '.join(LEVELS)}, got {item!r}")
        rows.append((profile, first, second))
    if not rows:
        raise argparse.ArgumentTypeError("expected at least one row")
    return tuple(rows)


def wilson(won: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """Returns the Wilson score interval of *won* successes in *games* trials.

    >>> [round(bound, 3) for bound in wilson(117, 200)]  # issue 27: 58.5% [51.6, 65.1]
    [0.516, 0.651]
    """
    if games == 0:
        return 0.0, 1.0
    rate = won / games
    middle = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (middle - spread) / scale, (middle + spread) / scale


class _Player:
    """One level's choices, with the CPU they take."""

    def __init__(self, level: str, budget_ms: int, worlds: int | None) -> None:
        self.level = level
        self.cpu = 0.0
        self.slowest = 0.0
        self.decisions = 0
        self.searches: list[tuple[int, float]] = []
        """Each search's play-out steps and CPU seconds (the strong level's)."""
        self._search_steps: int | None = None
        """The play-out steps of the decision being made, once it has searched."""
        self.choose: Callable[[GameState, Seat, random.Random], dict[str, Any] | None]
        if level == "strong":
            self.choose = lambda state, seat, chance: strong_bot.choose_action(
                state, seat, chance, budget_ms=None if worlds else budget_ms,
                max_worlds=worlds, searched=self._searched)
        elif level == "basic":
            self.choose = bots.choose_action
        else:
            self.choose = _random_action

    def _searched(self, steps: int) -> None:
        self._search_steps = steps

    def act(self, state: GameState, seat: Seat, chance: random.Random) -> dict[str, Any]:
        started = time.process_time()
        action = self.choose(state, seat, chance)
        spent = time.process_time() - started
        self.cpu += spent
        self.slowest = max(self.slowest, spent)
        self.decisions += 1
        if self._search_steps is not None:
            self.searches.append((self._search_steps, spent))
            self._search_steps = None
        assert action is not None, f"the {self.level} level had nothing to do at its turn"
        return action


def _random_action(state: GameState, seat: Seat, chance: random.Random
                   ) -> dict[str, Any] | None:
    actions = legal_actions(state, seat)
    return actions[chance.randrange(len(actions))] if actions else None


def play_game(job: tuple[str, str, str, str, int, int, int | None]) -> dict[str, Any]:
    """Plays game *n* of a row; returns whether the first level's side won, the levels' CPU
    and decisions, and (auction) the contracts by level and bid.

    Games are played in sets of one per side (games ``k * sides`` to ``k * sides + sides -
    1``): each puts the first level on another side, and all of the set are dealt the same
    cards while they last (:func:`deal_draws`), so that luck of the cards cancels out of the
    set and a row of a given seed deals the same cards whatever its levels."""
    profile, first, second, seed, number, budget_ms, worlds = job
    players_chance = random.Random(f"{seed}/{profile}/{first}-{second}/{number}")
    sides = SIDES[profile]
    deals = deal_draws(seed, profile, number // sides)
    first_side = number % sides
    levels = [first if seat % sides == first_side else second
              for seat in range(PLAYERS[profile])]
    _, state = start_game_and_apply(
        profile, {}, ["bot"] * PLAYERS[profile], deals(-2), deals(-1),
        context=f"bench-{number // sides}", contribution_secret=deals(0),
        bot_levels=[STRONG if level == STRONG else BASIC for level in levels])
    rules = state.rules
    assert all(rules.side_of(seat) == seat % sides for seat in range(PLAYERS[profile]))
    players = {level: _Player(level, budget_ms, worlds) for level in {first, second}}
    while state.phase != "over":
        seat = state.turn
        deal = state.deal
        assert seat is not None and deal is not None, (
            f"a game in phase {state.phase!r} has no seat to act")
        action = players[levels[seat]].act(state, seat, players_chance)
        _, state = decide_and_apply(state, seat, action, entropy=deals(deal.number))
        if state.deal is not None and state.deal.number > MAX_DEALS:
            raise RuntimeError(f"game {number} of {profile} ran past {MAX_DEALS} deals")
    contracts: list[tuple[str, int, bool, int]] = []
    for deal in (*state.past_deals, state.deal):
        if deal is None or deal.result is None or deal.bidder is None or deal.bid is None:
            continue
        side = rules.side_of(deal.bidder)
        points = deal.result.points
        net = points[side] - sum(points[other] for other in range(rules.sides)
                                 if other != side)
        contracts.append((first if side == first_side else second, deal.bid,
                          points[side] >= 0, net))
    return {"won": state.winner == first_side,
            "cpu": {level: player.cpu for level, player in players.items()},
            "slowest": {level: player.slowest for level, player in players.items()},
            "decisions": {level: player.decisions for level, player in players.items()},
            "searches": players[STRONG].searches if STRONG in players else [],
            "contracts": contracts}


def deal_draws(seed: str, profile: str, deal_set: int) -> Callable[[int], bytes]:
    """Returns the draws that deal a set of games: given a deal's number, the entropy of the
    shuffle after it (-2 and -1 the game's seed and first shuffle, 0 the contribution secret
    the cuts are drawn from). The same whatever the players do, so the games of a set are
    dealt alike until one of them ends."""
    def draw(deal_number: int) -> bytes:
        return hashlib.sha256(f"{seed}/{profile}/deals/{deal_set}/{deal_number}".encode()
                              ).digest()
    return draw


def summarize(profile: str, first: str, second: str, seed: str,
              games: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Returns a row's figures from its games' results (:func:`play_game`)."""
    played = list(games)
    won = sum(1 for game in played if game["won"])
    low, high = wilson(won, len(played))
    cpu: dict[str, float] = {}
    slowest: dict[str, float] = {}
    decisions: dict[str, int] = {}
    for game in played:
        for level, seconds in game["cpu"].items():
            cpu[level] = cpu.get(level, 0.0) + seconds
            slowest[level] = max(slowest.get(level, 0.0), game["slowest"][level])
            decisions[level] = decisions.get(level, 0) + game["decisions"][level]
    sides = SIDES[profile]
    row: dict[str, Any] = {
        "profile": profile, "players": PLAYERS[profile], "first": first, "second": second,
        "games": len(played), "won": won, "win_rate": round(won / len(played), 4),
        "wilson_95": [round(low, 4), round(high, 4)], "chance": round(1 / sides, 4),
        "seeds": f"{seed}/{profile}/{first}-{second}/0..{len(played) - 1}",
        "cpu_ms_per_decision": {level: round(cpu[level] / decisions[level] * 1000, 3)
                                for level in sorted(cpu) if decisions[level]},
        "cpu_ms_slowest": {level: round(slowest[level] * 1000, 3)
                           for level in sorted(cpu) if decisions[level]},
        "decisions": dict(sorted(decisions.items())),
        "sets": _sets(played, sides),
    }
    aim = AIMS.get((profile, first, second))
    if aim is not None:
        row["aim_low"] = aim
        row["aim_met"] = low >= aim
    searches = [search for game in played for search in game.get("searches", ())]
    if searches:
        steps = sum(steps for steps, _ in searches)
        seconds = sum(seconds for _, seconds in searches)
        row["strong_search"] = {
            "decisions": len(searches),
            "cpu_ms_per_search": round(seconds / len(searches) * 1000, 3),
            "steps_per_ms": round(steps / (seconds * 1000), 1) if seconds else None,
        }
    if profile == "auction":
        row["contracts"] = _contracts(game for game in played)
    return row


def _sets(played: list[dict[str, Any]], sides: int) -> dict[str, Any]:
    """Returns how many sets of games dealt alike (:func:`play_game`) the first level won
    how many games of: a set won from every side is a deal sequence won on play, not cards;
    one split between the levels, about what the cards gave."""
    counts = [0] * (sides + 1)
    for start in range(0, len(played) - sides + 1, sides):
        counts[sum(1 for game in played[start:start + sides] if game["won"])] += 1
    return {"count": sum(counts), "by_games_won": {str(won): count
                                                   for won, count in enumerate(counts)}}


def _contracts(games: Iterable[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Each level's contracts by bid: count, made, set, net points in all and per contract."""
    table: dict[str, dict[int, list[int]]] = {}
    for game in games:
        for level, bid, made, net in game["contracts"]:
            counts = table.setdefault(level, {}).setdefault(bid, [0, 0, 0])
            counts[0 if made else 1] += 1
            counts[2] += net
    return {level: {str(bid): {"contracts": made + lost, "made": made, "set": lost,
                               "net_points": net,
                               "net_per_contract": round(net / (made + lost), 2)}
                     for bid, (made, lost, net) in sorted(bids.items())}
            for level, bids in sorted(table.items())}


def _counted(games: Iterable[dict[str, Any]], label: str, total: int
             ) -> list[dict[str, Any]]:
    """Returns the games' results, telling stderr every tenth of the way (a row at 1,000
    games takes hours)."""
    played = []
    for game in games:
        played.append(game)
        if len(played) % max(1, total // 10) == 0 or len(played) == total:
            print(f"bench bots: {label}: {len(played)}/{total} games", file=sys.stderr,
                  flush=True)
    return played


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Plays every row and returns the figures."""
    for profile, _, _ in args.rows:
        if profile not in PROFILES:  # pragma: no cover - PLAYERS lists known profiles only
            raise BenchUsageError(f"unknown profile {profile!r}")
    rows = []
    started = time.perf_counter()
    for profile, first, second in args.rows:
        jobs = [(profile, first, second, args.seed, number, args.budget_ms, args.worlds)
                for number in range(args.games)]
        label = f"{profile} {first}-{second}"
        if args.jobs > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                played = _counted(pool.imap(play_game, jobs), label, len(jobs))
        else:
            played = _counted(map(play_game, jobs), label, len(jobs))
        rows.append(summarize(profile, first, second, args.seed, played))
    return {
        "settings": {"games_per_row": args.games, "seed": args.seed,
                     "strong": ({"worlds": args.worlds} if args.worlds
                                else {"budget_ms": args.budget_ms}),
                     "jobs": args.jobs},
        "rows": rows,
        "seconds": round(time.perf_counter() - started, 1),
    }
