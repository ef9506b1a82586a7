"""``fortyfive play``: a whole game in the terminal, one person against bots.

The game runs in-process on the engine (no server needed). The person types the number of an
action from the list shown, or just a card code such as ``5s`` to play it. ``--seed`` makes
the whole game (deals and bots) reproducible. ``--level`` chooses how the bots decide
(docs/bots.md; default ``strong``, as for any bot at a table where a person sits),
``--budget-ms`` about the CPU a strong bot spends on a decision it searches.

Without a terminal the moves are read a line each (``fortyfive play < moves.txt``), and a line
that is no legal move, or input that ends before the game does, is an error: one line on
stderr, exit status 2, as for every command. ``--auto`` needs no input: the bot plays the
person's seat too, and the game, as that seat sees it, is printed to its end.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from engine import bot_levels
from engine.actions import decide, legal_actions, start_game
from engine.bot_levels import DEFAULT_BUDGET_MS
from engine.errors import FortyFiveError
from engine.fold import apply_event, fold
from engine.levels import LEVELS
from engine.profiles import PROFILES, parse_option_text, profile_players
from engine.sides import seat_name, side_name
from engine.state import GameState
from replay.views import game_view
from service.application.environment import BOT_BUDGET_SETTING, bot_budget_ms
from service.cli import UsageError


def register(subparsers: Any) -> None:
    """Adds the ``play`` command."""
    parser = subparsers.add_parser(
        "play", help="play a game in the terminal against bots",
        description="Plays one game in the terminal: you hold one seat and type your actions, "
        "bots hold the others. Nothing is stored.")
    parser.add_argument("--profile", choices=PROFILES, default="bruff",
                        help="the game's rules (default bruff)")
    parser.add_argument("--players", type=int, help="seats at the table (classic: 2 to 10)")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="an option of the profile, e.g. target=15 (repeatable; "
                        "GET /v1/profiles lists them)")
    parser.add_argument("--seat", type=int, default=1,
                        help="your seat, counted from 1 as at the table (default 1)")
    parser.add_argument("--seed", help="any text: makes deals and bots reproducible")
    parser.add_argument("--level", choices=LEVELS, default=None,
                        help="how the bots decide (docs/bots.md); default strong, the level "
                        "of any bot at a table where a person sits")
    add_budget_option(parser)
    parser.add_argument("--auto", action="store_true",
                        help="the bot plays your seat too: no input is read, the game is "
                        "printed as your seat sees it, to its end and its result")
    parser.set_defaults(func=run)


class _Moves:
    """The lines the person types (or a file gives), counted; a terminal asks again after a
    line that is no move, other input is refused at its first such line."""

    def __init__(self, stdin: TextIO) -> None:
        self._stdin = stdin
        self.interactive = _is_terminal(stdin)
        self.number = 0

    def readline(self) -> str:
        line = self._stdin.readline()
        if line:
            self.number += 1
        return line


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # No such method, or a closed stream.
        return False


def run(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Plays one game; returns 0 when it ends.

    :raises UsageError: for an invalid option, seat or profile; and, unless the input is a
        terminal, for a line that is no legal move or input that ends before the game does.
    """
    out = out or sys.stdout
    players = args.players or profile_players(args.profile)[0]
    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"fortyfive play: --option {item!r}: expected K=V")
        try:
            options[key] = parse_option_text(args.profile, key, value)
        except FortyFiveError as error:
            raise UsageError(f"fortyfive play: {error}") from None
    if not 1 <= args.seat <= players:
        raise UsageError(f"fortyfive play: --seat {args.seat}: expected 1..{players}")
    mine = args.seat - 1  # The engine counts seats from 0, people from 1.
    budget = budget_option(args.budget_ms, "fortyfive play")
    moves = None if args.auto else _Moves(stdin or sys.stdin)
    entropy = _entropy(args.seed)
    chance = random.Random(args.seed if args.seed is not None else secrets.token_hex(8))
    seats = ["bot"] * players
    seats[mine] = "human"
    # Dealt by hmac-sha256-fy/2, as the service deals: the deck depends on a game id of its
    # own, and the bots cut from a secret committed before the first deal's seed.
    context = f"play-{entropy().hex()[:16]}"
    try:
        state = fold(start_game(args.profile, options, seats, entropy(), entropy(),
                                context=context, contribution_secret=entropy(),
                                bot_levels=[args.level if kind == "bot" else None
                                            for kind in seats]))
    except FortyFiveError as error:
        raise UsageError(f"fortyfive play: {error}") from None
    level = next(level for level in state.seat_levels if level is not None)
    bot_seats = ", ".join(seat_name(seat) for seat, kind in enumerate(seats) if kind == "bot")
    print(f"Bots ({level}, docs/bots.md) hold seats {bot_seats}.", file=out)
    shown = 0
    while state.phase != "over":
        shown = _show_news(state, shown, mine, out)
        seat = state.turn
        assert seat is not None, "a game in play has a seat to act"
        if seat == mine and moves is not None:
            action = _ask(state, seat, moves, out)
            if action is None:
                deal = state.deal.number if state.deal else 1
                raise UsageError(
                    f"fortyfive play: the input ended before the game did (deal {deal}, your "
                    "turn); the game is abandoned (--auto lets the bot play your seat)")
        else:
            # With --auto the person's seat is played at the bots' level too.
            action = bot_levels.decide(state.seat_levels[seat] or level, state, seat, chance,
                                       budget_ms=budget)
            assert action is not None, "a bot always has an action on its turn"
        try:
            events = decide(state, seat, action, entropy=entropy())
        except FortyFiveError as error:
            print(f"  ! {error}", file=out)
            continue
        for event in events:
            state = apply_event(state, event)
    _show_news(state, shown, mine, out)
    sides = state.rules.seats_of(state.winner or 0)
    winner = side_name(state.winner or 0)
    print(f"Game over: side {winner} (seats {', '.join(map(seat_name, sides))}) wins; "
          f"scores {_scores(state.scores)}.", file=out)
    return 0


def _scores(scores: Sequence[int]) -> str:
    """Returns the sides' scores as the table shows them: "A 10, B 25"."""
    return ", ".join(f"{side_name(side)} {score}" for side, score in enumerate(scores))


def add_budget_option(parser: argparse.ArgumentParser) -> None:
    """Adds ``--budget-ms``, read back by :func:`budget_option`."""
    parser.add_argument("--budget-ms", type=int, default=None, metavar="MS",
                        help="about the CPU, in milliseconds, a strong bot spends on a "
                        "decision it searches (a forced one costs nothing, the slowest take "
                        "two or three times it; default "
                        f"${BOT_BUDGET_SETTING}, else {DEFAULT_BUDGET_MS})")


def budget_option(value: int | None, command: str) -> int:
    """Returns a strong bot's budget per decision: *value* (``--budget-ms``), else the
    environment's ``BOT_BUDGET_MS``, else :data:`engine.bot_levels.DEFAULT_BUDGET_MS`.

    :raises UsageError: for a budget that is not 1 to 60000 milliseconds.
    """
    if value is None:
        try:
            return bot_budget_ms(DEFAULT_BUDGET_MS)
        except ValueError as error:
            raise UsageError(f"{command}: {error}") from None
    if not 1 <= value <= 60_000:
        raise UsageError(f"{command}: --budget-ms {value}: expected 1 to 60000 milliseconds")
    return value


def _entropy(seed: str | None) -> Callable[[], bytes]:
    """Returns a source of 32-byte seeds: secrets, or a hash chain of *seed*."""
    if seed is None:
        return lambda: secrets.token_bytes(32)
    counter = iter(range(1 << 62))
    return lambda: hashlib.sha256(f"{seed}/{next(counter)}".encode()).digest()


def _show_news(state: GameState, shown: int, seat: int, out: TextIO) -> int:
    """Prints the facts of the current deal not yet shown; returns how many are shown."""
    deal = state.deal
    if deal is None:
        return shown
    view = game_view(state, seat)["deal"]
    facts = view["facts"]
    if shown > len(facts):
        shown = 0
    for fact in facts[shown:]:
        print(f"  * {fact['ruling']['text']}", file=out)
    return len(facts)


def _ask(state: GameState, seat: int, moves: _Moves, out: TextIO) -> dict[str, Any] | None:
    """Shows the table to *seat* and reads its choice; ``None`` at end of input.

    :raises UsageError: for a line that is no legal move, unless the input is a terminal
        (which asks again).
    """
    view = game_view(state, seat)
    deal = view["deal"]
    actions = list(legal_actions(state, seat))
    trick = deal["current_trick"]["cards"] if deal["current_trick"] else []
    print(
        f"\nDeal {deal['number']}, dealer seat {seat_name(deal['dealer'])}, trump "
        f"{deal['trump'] or '?'}"
        f"{', turn-up ' + deal['turn_up'] if deal['turn_up'] else ''}; "
        f"scores {_scores(view['scores'])}",
        file=out,
    )
    if trick:
        print("  trick: " + " ".join(f"seat {seat_name(c['seat'])} {c['card']}"
                                     for c in trick), file=out)
    print(f"  your hand: {' '.join(view['hand'])}", file=out)
    if actions and actions[0]["type"] == "cut":
        actions = actions[:1] + actions[len(actions) // 2: len(actions) // 2 + 1]
    for number, action in enumerate(actions, start=1):
        detail = " ".join(str(v) for k, v in action.items() if k != "type")
        print(f"  {number}) {action['type']} {detail}".rstrip(), file=out)
    while True:
        print("> ", end="", file=out, flush=True)
        line = moves.readline()
        if not line:
            return None
        text = line.strip()
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        for action in actions:
            if action.get("card", "").upper() == text.upper().replace("10", "T"):
                return action
        hint = f"type a number from 1 to {len(actions)} or the code of a card listed"
        if not moves.interactive:
            raise UsageError(f"fortyfive play: line {moves.number}: {text!r} is not one of "
                             f"the {len(actions)} moves listed: {hint}")
        print(f"  ? {text!r}: {hint}", file=out)
