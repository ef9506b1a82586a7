"""An in-process cache of folded game states, fast-forwarded with only the events it lacks.

Loading a game the cache holds at version *v* costs one read of the events after *v* (usually
none), so a hot game is one small round trip rather than a full replay. The fold itself comes
from outside (``events`` imports nothing of the engine): an initial-state factory and an
``apply(state, recorded_event) -> state`` function.

States are shared between threads and callers, so they must be immutable (frozen dataclasses,
tuples) and ``apply`` must return a new state rather than change the one it is given.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from events.chain import GENESIS_HASH
from events.envelope import RecordedEvent
from events.types import Event

S = TypeVar("S")


class EventReader(Protocol):
    """The part of :class:`events.store.EventStore` a fold cache reads through."""

    def read(
        self,
        game_id: str,
        after: int = 0,
        limit: int | None = None,
        *,
        prev_hash: str | None = None,
    ) -> list[RecordedEvent]:
        """Returns the verified events of *game_id* after version *after*."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class Folded(Generic[S]):
    """A game's state folded up to a version, with the hash of the event at that version."""

    state: S
    version: int
    """The version of the last event folded in (0: none)."""
    head_hash: str
    """The hash of that event (the genesis hash when there is none)."""


class FoldCache(Generic[S]):
    """Folds games from a store and keeps the latest state of the most recent ones.

    Thread-safe: folding runs outside the lock and a result replaces a cached state only if
    it is not older, so concurrent loads never move a game backwards.
    """

    def __init__(
        self,
        store: EventReader,
        initial: Callable[[], S],
        apply: Callable[[S, RecordedEvent], S],
        *,
        max_games: int = 1024,
    ) -> None:
        """Reads from *store*, starts each fold at ``initial()`` and folds with *apply*,
        keeping at most *max_games* states (least recently loaded are dropped first).

        :raises ValueError: if *max_games* is below 1.
        """
        if max_games < 1:
            raise ValueError(f"invalid max_games {max_games!r}: expected an integer >= 1")
        self._store = store
        self._initial = initial
        self._apply = apply
        self._max_games = max_games
        self._games: collections.OrderedDict[str, Folded[S]] = collections.OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        """Loads that started from a cached state."""
        self.misses = 0
        """Loads that folded from the first event."""

    def load(self, game_id: str) -> Folded[S]:
        """Returns *game_id*'s state folded over every stored event.

        Starts from the cached state, if any, and folds in only the events after it. A game
        with no events gives ``initial()`` at version 0 (and is not cached).

        :raises events.store.StoreError: from the store (unavailable, corrupt stream...).
        """
        with self._lock:
            start = self._games.get(game_id)
            if start is None:
                self.misses += 1
            else:
                self.hits += 1
                self._games.move_to_end(game_id)
        if start is None:
            start = Folded(self._initial(), 0, GENESIS_HASH)
        new = self._store.read(game_id, after=start.version, prev_hash=start.head_hash)
        if not new:
            return start
        state = start.state
        for recorded in new:
            state = self._apply(state, recorded)
        folded = Folded(state, new[-1].version, new[-1].envelope.hash)
        self._keep(game_id, folded)
        return folded

    def invalidate(self, game_id: str) -> None:
        """Forgets the cached state of *game_id* (the next load folds from the start)."""
        with self._lock:
            self._games.pop(game_id, None)

    def clear(self) -> None:
        """Forgets every cached state."""
        with self._lock:
            self._games.clear()

    def __len__(self) -> int:
        """Returns the number of games cached."""
        with self._lock:
            return len(self._games)

    def _keep(self, game_id: str, folded: Folded[S]) -> None:
        """Caches *folded* unless a newer state of the game is already cached."""
        with self._lock:
            cached = self._games.get(game_id)
            if cached is None or cached.version < folded.version:
                self._games[game_id] = folded
            self._games.move_to_end(game_id)
            while len(self._games) > self._max_games:
                self._games.popitem(last=False)


def on_events(apply: Callable[[S, Event], S]) -> Callable[[S, RecordedEvent], S]:
    """Returns a fold step over recorded events from one over bare events, such as an
    engine's ``apply_event(state, event)``."""

    def step(state: S, recorded: RecordedEvent) -> S:
        return apply(state, recorded.event)

    return step
