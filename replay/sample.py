"""Deterministic sample games, played through the engine's own commands.

A :class:`GameDriver` creates a game and applies actions with :func:`engine.actions.decide`
(so every action is checked by the rules), sealing the resulting events into a hash chain
with fixed, injected times. Seeds and the choices of :func:`seeded_choice` come from SHA-256
of a label, so the same label always gives the same game: the golden corpus, the benchmark
and the tests use this instead of a clock or ``random``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.actions import decide, legal_actions, start_game
from engine.levels import BASIC
from engine.state import GameState
from events.chain import GENESIS_HASH, seal_events
from events.envelope import SERVER, Actor, RecordedEvent, format_timestamp
from events.types import DealRecorded, Event, GameCreated
from replay.formats.derive import apply_start
from replay.formats.document import StartBlock

EPOCH = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
"""The time of every sample game's first event; each later append is one second on."""

Policy = Callable[[GameState, int, Sequence[dict[str, Any]]], dict[str, Any]]
"""Chooses an action for a seat from its legal actions."""


def digest(label: str, *parts: object) -> bytes:
    """Returns 32 bytes derived from *label* and *parts* (SHA-256 of their text)."""
    text = "/".join([label, *map(str, parts)])
    return hashlib.sha256(text.encode("utf-8")).digest()


def seeded_choice(label: str) -> Policy:
    """Returns a policy choosing among the legal actions by a hash of *label*, the game's
    version and the seat: deterministic, and varied enough to reach every phase.

    A jink is announced only when the hash says so one time in eight, so most deals are
    played without one.
    """
    def choose(state: GameState, seat: int, actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
        number = int.from_bytes(digest(label, state.version, seat)[:8], "big")
        choices = [action for action in actions if action["type"] != "jink"]
        if not choices or (len(choices) < len(actions) and number % 8 == 0):
            return actions[0]
        return choices[number % len(choices)]

    return choose


class GameDriver:
    """Plays one game through :func:`engine.actions.decide` and keeps its sealed events."""

    def __init__(self, game_id: str, label: str) -> None:
        self.game_id = game_id
        self.label = label
        self.recorded: list[RecordedEvent] = []
        self.state: GameState | None = None
        self._shuffles = 0
        self._commands = 0

    # Creating a game -------------------------------------------------------------------------

    def start(self, profile: str, seats: Sequence[str], options: Mapping[str, Any] | None = None,
              *, game_seed: bytes | None = None, shuffle: bool = True,
              fy2: bool = False, bot_levels: Sequence[str | None] | None = None) -> GameDriver:
        """Creates the game (and, unless *shuffle* is False, shuffles its first deal); with
        *fy2*, dealt by ``hmac-sha256-fy/2`` with the game id as context, as the service does.
        Its bots are at *bot_levels*, by default ``basic`` (a sample game's moves are played
        by its script, so their level is only what the creation records; basic keeps the
        creation as it was before levels).

        :raises engine.errors.ProfileError: for a bad profile or option.
        """
        seed = game_seed if game_seed is not None else digest(self.label, "game")
        secret = digest(self.label, "contribution") if fy2 else None
        levels = bot_levels or [BASIC if kind == "bot" else None for kind in seats]
        events = start_game(profile, options or {}, seats, seed, self._entropy(),
                            context=self.game_id if fy2 else None, contribution_secret=secret,
                            bot_levels=levels)
        self._append(events if shuffle else events[:1], SERVER, None)
        return self

    def move_to(self, start: StartBlock) -> None:
        """Moves a freshly created game to *start* (dealer and scores of a table record).

        Only for table records: the history states the start, and verification says so.
        """
        assert self.state is not None and self.state.version == 1, "right after creation"
        self.state = apply_start(self.state, start)

    def record_deal(self, hands: Sequence[Sequence[str]], turn_up: str | None,
                    stock: Sequence[str] = ()) -> None:
        """Records a deal made at a real table instead of from a seed."""
        assert self.state is not None, "create the game first"
        number = self.state.deal.number + 1 if self.state.deal is not None else 1
        self._append((DealRecorded(number, tuple(tuple(h) for h in hands), turn_up,
                                   tuple(stock)),), SERVER, None)

    # Playing -------------------------------------------------------------------------------

    def act(self, seat: int, action: Mapping[str, Any], *, server_steps: bool = True) -> None:
        """Applies *seat*'s *action* through :func:`decide`, with the server's steps that
        follow (a seed reveal, the next shuffle) unless *server_steps* is False.

        :raises engine.rejections.ActionRejectedError: when the rules refuse the action.
        """
        assert self.state is not None, "create the game first"
        events = decide(self.state, seat, action, entropy=digest(self.label, "shuffle",
                                                                 self._shuffles + 1))
        if not server_steps:
            events = events[:1]
        if any(event.TYPE == "deck_shuffled" for event in events):
            self._shuffles += 1
        self._commands += 1
        self._append(events, seat, f"cmd-{self._commands}")

    def play(self, policy: Policy, *, until: Callable[[GameState], bool] | None = None,
             limit: int = 5000, server_steps: bool = True) -> None:
        """Lets *policy* act for whichever seat is to act until the game is over, *until*
        holds, or *limit* actions were taken."""
        for _ in range(limit):
            state = self.state
            assert state is not None, "create the game first"
            if state.phase == "over" or (until is not None and until(state)):
                return
            seat = state.turn
            if seat is None:
                return
            actions = legal_actions(state, seat)
            self.act(seat, policy(state, seat, actions), server_steps=server_steps)

    # Sealing ---------------------------------------------------------------------------------

    def _entropy(self) -> bytes:
        self._shuffles += 1
        return digest(self.label, "shuffle", self._shuffles)

    def _append(self, events: Sequence[Event], actor: Actor, command_id: str | None) -> None:
        after = len(self.recorded)
        prev = self.recorded[-1].envelope.hash if self.recorded else GENESIS_HASH
        moment = format_timestamp(EPOCH + timedelta(seconds=after + 1))
        sealed = seal_events(self.game_id, after, prev, events, actor=actor,
                             command_id=command_id, occurred_at=moment)
        for (envelope, _), event in zip(sealed, events, strict=True):
            self.recorded.append(RecordedEvent(envelope, event))
            self.state = _apply(self.state, event)


def _apply(state: GameState | None, event: Event) -> GameState:
    from engine.fold import apply_event

    if state is None and not isinstance(event, GameCreated):
        raise ValueError("a game starts with game_created")
    return apply_event(state, event)
