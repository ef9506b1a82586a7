"""``fortyfive bot``: the engine's bot playing one seat of a game over the HTTP API.

::

    fortyfive bot --url URL --game ID --token TOKEN [--level strong] [--budget-ms MS]
                  [--seed TEXT]

It holds what any third party's program holds, the seat's token: it follows the game's event
stream, reads the seat's own view after each event (never anything hidden), decides on that
view at its ``--level`` (:mod:`engine.bot_levels`; :mod:`replay.seat_state` rebuilds a state
from the view) and posts the
action with ``If-Match`` (the view's version) and an ``Idempotency-Key`` (so a post retried
after a dropped connection is taken once). A dropped stream is resumed with ``Last-Event-ID``;
a service that is down (restarting, 5xx, rate-limited) is retried with a capped backoff. Like
the web table, it adds its own nonce to every deal that takes one (docs/verification.md,
section 6): with its cut when it cuts, else with a ``contribute`` as soon as the deal waits for
its cut, so that a bot's cut need not wait out the nonce window for this seat and the deal is
not only as fair as the server. It exits 0 when the game is over; 1 if the service refuses it
for good; 2 for bad arguments or a token the game does not know.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from engine.bot_levels import DEFAULT_BUDGET_MS, decide
from engine.levels import BASIC, LEVELS
from engine.shuffle import ALGORITHM_2
from engine.sides import seat_name, side_name
from replay.seat_state import SeatViewError, state_from_view
from service.application.backoff import Backoff
from service.cli import UsageError
from service.cli.game_client import GameClient, RefusedError, ServiceUnavailableError
from service.cli.play import add_budget_option, budget_option


def register(subparsers: Any) -> None:
    """Adds the ``bot`` command."""
    parser = subparsers.add_parser(
        "bot", help="play one seat of a game over the API with the engine's bot",
        description="Plays the seat a token is for, following the game's event stream and "
        "posting actions with If-Match and Idempotency-Key; reconnects after a dropped stream "
        "or a restart of the service; exits 0 when the game is over.")
    parser.add_argument("--url", required=True, help="the service's address, e.g. "
                        "http://127.0.0.1:8045")
    parser.add_argument("--game", required=True, metavar="ID",
                        help="the game's id (a seat token is bound to one game but does not "
                        "name it)")
    parser.add_argument("--token", required=True, help="the seat's bearer token")
    parser.add_argument("--level", choices=LEVELS, default=BASIC,
                        help="how the bot decides (docs/bots.md; default basic: its fixed "
                        "rules, a decision in microseconds; strong searches)")
    add_budget_option(parser)
    parser.add_argument("--seed", help="any text: makes the bot's random draws reproducible")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None,
        sleep: Callable[[float], None] = time.sleep) -> int:
    """Plays the seat until the game is over; returns the exit status."""
    out = out or sys.stdout
    if not args.token.strip():
        raise UsageError("fortyfive bot: --token is empty")
    try:
        client = GameClient(args.url, args.game, args.token)
    except ValueError as error:
        raise UsageError(f"fortyfive bot: {error}") from None
    player = SeatPlayer(client, random.Random(
        args.seed if args.seed is not None else secrets.token_hex(8)), level=args.level,
        budget_ms=budget_option(args.budget_ms, "fortyfive bot"))
    backoff = Backoff(initial=0.2, factor=2.0, cap=5.0, reset_after=30.0)
    try:
        while True:
            started = time.monotonic()
            try:
                player.follow()
                break
            except ServiceUnavailableError as error:
                delay = backoff.next_delay(healthy_for=time.monotonic() - started)
                print(f"fortyfive bot: {error}; trying again in {delay:g} s", file=sys.stderr)
                sleep(delay)
    except RefusedError as error:
        if player.seat is None and error.status in (401, 403, 404, 422):
            raise UsageError(f"fortyfive bot: {error}") from None
        print(f"fortyfive bot: the service refused: {error}", file=sys.stderr)
        return 1
    except SeatViewError as error:
        raise UsageError(f"fortyfive bot: the token is not a seat's: {error}") from None
    print(over_line(args.game, player), file=out)
    return 0


def over_line(game_id: str, player: SeatPlayer) -> str:
    """Returns the line the bot ends with, as a person reads it: seats counted from 1 and
    sides named A, B... (the API's ``seat`` and ``winner`` count from 0)."""
    seat = "?" if player.seat is None else seat_name(player.seat)
    winner = "nobody" if player.winner is None else f"side {side_name(player.winner)}"
    return (f"game {game_id} over: seat {seat} played {player.played} actions; "
            f"{winner} won")


class SeatPlayer:
    """The bot at one seat: reads the seat's view and acts on it when it has something to do.
    """

    def __init__(self, client: GameClient, chance: random.Random, *, level: str = BASIC,
                 budget_ms: int = DEFAULT_BUDGET_MS) -> None:
        self.client = client
        self.chance = chance
        self.level = level
        """How the bot decides (:data:`engine.levels.LEVELS`)."""
        self.budget_ms = budget_ms
        """The CPU a strong bot spends on one decision, in milliseconds."""
        self.seat: int | None = None
        self.seen = 0
        """The last version this bot has read (where its stream resumes)."""
        self.played = 0
        self.winner: int | None = None
        self.run_id = secrets.token_hex(6)
        self.decided: tuple[int, dict[str, Any] | None] | None = None
        """The action decided on a version: a post retried after a failure sends the same
        action under the same key (drawing again could choose another)."""
        self.nonces: dict[int, str] = {}
        """This seat's nonce for each deal, drawn once: a retried post sends the same."""
        self.contributed_to: int | None = None
        """The last deal this bot's ``contribute`` was answered for (taken or refused)."""

    def follow(self) -> None:
        """Acts on the view, then on each new event, resuming the stream whenever it ends,
        until the game is over.

        :raises ServiceUnavailableError: when the service went away (the caller waits and
            calls again: the stream resumes after the last version read).
        """
        while not self._turn():
            for event in self.client.events(self.seen):
                if event.version > self.seen and self._turn():
                    return

    def _turn(self) -> bool:
        """Reads the view and takes the seat's action if it has one; True if the game is
        over."""
        view = self.client.view()
        state, self.seat = state_from_view(view)
        self.seen = max(self.seen, state.version)
        if view["phase"] == "over":
            self.winner = view["winner"]
            return True
        if self.decided is None or self.decided[0] != state.version:
            decided = decide(self.level, state, self.seat, self.chance,
                             budget_ms=self.budget_ms)
            if decided is not None and decided["type"] == "cut" and self._takes_nonce(view):
                decided = {**decided, "nonce": self._nonce(view)}
            self.decided = (state.version, decided)
        action = self.decided[1]
        if action is not None:
            key = f"bot-{self.run_id}-{state.version}"
            if self.client.act(action, state.version, key) == 201:
                self.played += 1
        elif self._takes_nonce(view) and self.contributed_to != view["deal"]["number"]:
            deal = view["deal"]["number"]
            contribution = {"type": "contribute", "nonce": self._nonce(view)}
            status = self.client.act(contribution, state.version,
                                     f"bot-{self.run_id}-nonce-{deal}")
            if status != 412:  # Taken, or no longer taken (cut, or its window closed).
                self.contributed_to = deal
        return False

    def _takes_nonce(self, view: dict[str, Any]) -> bool:
        """True when this seat may still add a nonce to the deal of *view*: it waits for
        its cut, is dealt by the algorithm that takes nonces, and has none from this seat."""
        deal = view.get("deal")
        return (deal is not None and view["phase"] == "cut"
                and deal["algorithm"] == ALGORITHM_2 and self.seat not in deal["contributed"])

    def _nonce(self, view: dict[str, Any]) -> str:
        """Returns this seat's nonce for the deal of *view*: 32 fresh random bytes in hex,
        drawn from the system's strong source (never from the seeded *chance*)."""
        return self.nonces.setdefault(view["deal"]["number"], secrets.token_hex(32))
