"""An in-process cache of folded game states, fast-forwarded with only the events it lacks.

Loading a game the cache holds at version *v* costs one read of the events after *v* (usually
none), so a hot game is one small round trip rather than a full replay. The fold itself comes
from outside (``events`` imports nothing of the engine): an initial-state factory and an
``apply(state, recorded_event) -> state`` function.

States are shared between threads and callers, so they must be immutable (frozen dataclasses,
tuples) and ``apply`` must return a new state rather than change the one it is given.

The cache is bounded by games and by bytes (:func:`events.sizing.deep_size` of each state).
Sizing a state walks it, so a game's state is sized when it is first kept and again each
time its version has doubled since (and grown by at least :data:`MEASURE_STEP` events); in
between its size is extrapolated from its last measures (a game's state grows about
linearly with its events), so sizing costs an amortized constant per event.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
from collections.abc import Callable, Iterable
from typing import Generic, Protocol, TypeVar

from events.chain import GENESIS_HASH
from events.envelope import RecordedEvent
from events.sizing import deep_size
from events.types import Event

S = TypeVar("S")

MEASURE_STEP = 32
"""The fewest events a game grows by before its state is measured again."""


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
        max_bytes: int | None = None,
        sizer: Callable[[S], int] = deep_size,
    ) -> None:
        """Reads from *store*, starts each fold at ``initial()`` and folds with *apply*,
        keeping at most *max_games* states and, with *max_bytes*, at most that many bytes of
        them as *sizer* counts them (least recently loaded are dropped first; the one most
        recently kept always stays, however large).

        :raises ValueError: if *max_games* or *max_bytes* is below 1.
        """
        if max_games < 1:
            raise ValueError(f"invalid max_games {max_games!r}: expected an integer >= 1")
        if max_bytes is not None and max_bytes < 1:
            raise ValueError(f"invalid max_bytes {max_bytes!r}: expected None or an integer >= 1")
        self._store = store
        self._initial = initial
        self._apply = apply
        self._apply_event: Callable[[S, Event], S] | None = getattr(apply, _EVENT_STEP, None)
        self._fold_events: Callable[[Iterable[Event], S], S] | None = getattr(
            apply, _EVENTS_FOLD, None)
        self._max_games = max_games
        self._max_bytes = max_bytes
        self._sizer = sizer
        self._games: collections.OrderedDict[str, Folded[S]] = collections.OrderedDict()
        self._sizes: dict[str, _Size] = {}
        self._bytes = 0
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
        return self.load_reading(game_id)[0]

    def load_reading(self, game_id: str) -> tuple[Folded[S], RecordedEvent | None]:
        """Returns what :meth:`load` does, and the last event it read from the store to get
        there: the one at the state's version, or ``None`` when the cached state was current
        (so a caller that needs that event, say its time, reads it only then).

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
            return start, None
        state = start.state
        apply_event = self._apply_event
        fold_events = self._fold_events
        if fold_events is not None:  # An on_events step with its fold: all the events at once.
            state = fold_events([recorded.event for recorded in new], state)
        elif apply_event is not None:  # An on_events step: the same, one call less per event.
            for recorded in new:
                state = apply_event(state, recorded.event)
        else:
            for recorded in new:
                state = self._apply(state, recorded)
        folded = Folded(state, new[-1].version, new[-1].envelope.hash)
        self._keep(game_id, folded)
        return folded, new[-1]

    def invalidate(self, game_id: str) -> None:
        """Forgets the cached state of *game_id* (the next load folds from the start)."""
        with self._lock:
            if self._games.pop(game_id, None) is not None:
                self._forget_size(game_id)

    def clear(self) -> None:
        """Forgets every cached state."""
        with self._lock:
            self._games.clear()
            self._sizes.clear()
            self._bytes = 0

    @property
    def bytes(self) -> int:
        """The bytes of the cached states (measured or estimated, see the module)."""
        with self._lock:
            return self._bytes

    def stats(self) -> dict[str, int | None]:
        """Returns the cache's figures: games and bytes held, bytes per game, the bounds,
        and the loads that hit or missed."""
        with self._lock:
            games, held = len(self._games), self._bytes
        return {
            "games": games,
            "bytes": held,
            "bytes_per_game": held // games if games else 0,
            "max_games": self._max_games,
            "max_bytes": self._max_bytes,
            "hits": self.hits,
            "misses": self.misses,
        }

    def __len__(self) -> int:
        """Returns the number of games cached."""
        with self._lock:
            return len(self._games)

    def _keep(self, game_id: str, folded: Folded[S]) -> None:
        """Caches *folded* unless a newer state of the game is already cached."""
        size = self._size_of(game_id, folded)
        with self._lock:
            cached = self._games.get(game_id)
            if cached is None or cached.version < folded.version:
                self._forget_size(game_id)
                self._games[game_id] = folded
                self._sizes[game_id] = size
                self._bytes += size.now
            self._games.move_to_end(game_id)
            while len(self._games) > self._max_games or (
                self._max_bytes is not None and self._bytes > self._max_bytes
                and len(self._games) > 1
            ):
                dropped, _ = self._games.popitem(last=False)
                self._forget_size(dropped)

    def _size_of(self, game_id: str, folded: Folded[S]) -> _Size:
        """Returns the size of *folded*: measured when the game was never measured, its
        version has gone back, or it has doubled (and grown by :data:`MEASURE_STEP` events)
        since the last measure; else estimated from the last measure and the bytes per event
        between the last two (or, after one, its mean bytes per event)."""
        last = self._sizes.get(game_id)
        version = max(folded.version, 1)
        if last is None or version < last.version or (
            version >= 2 * last.version and version >= last.version + MEASURE_STEP
        ):
            measured = self._sizer(folded.state)
            if last is not None and version > last.version:
                rate = max(0.0, (measured - last.measured) / (version - last.version))
            else:
                rate = measured / version
            return _Size(measured, version, measured, rate)
        now = last.measured + int((version - last.version) * last.rate)
        return _Size(now, last.version, last.measured, last.rate)

    def _forget_size(self, game_id: str) -> None:
        """Takes *game_id*'s state out of the byte count (under the lock)."""
        size = self._sizes.pop(game_id, None)
        if size is not None:
            self._bytes -= size.now


@dataclasses.dataclass(frozen=True, slots=True)
class _Size:
    """The bytes of a cached state now, the version and bytes last measured, and the bytes
    per event it grows by."""

    now: int
    version: int
    measured: int
    rate: float


def on_events(
    apply: Callable[[S, Event], S], fold: Callable[[Iterable[Event], S], S] | None = None
) -> Callable[[S, RecordedEvent], S]:
    """Returns a fold step over recorded events from one over bare events, such as an
    engine's ``apply_event(state, event)``; with *fold* (such as the engine's ``fold(events,
    state)``, which must give what applying each event in turn gives), :class:`FoldCache`
    folds the events it reads in one call, so that the engine can fold a run of them at
    once."""

    def step(state: S, recorded: RecordedEvent) -> S:
        return apply(state, recorded.event)

    setattr(step, _EVENT_STEP, apply)  # FoldCache calls it at once.
    if fold is not None:
        setattr(step, _EVENTS_FOLD, fold)
    return step


_EVENT_STEP = "_fold_cache_apply_event"
"""The attribute of an :func:`on_events` step that holds the function over bare events."""

_EVENTS_FOLD = "_fold_cache_fold_events"
"""The attribute of an :func:`on_events` step that holds its fold over many bare events."""
