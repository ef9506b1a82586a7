"""One live tail per game per process, fanned out to every stream of that game.

A stream of ``GET /v1/games/{id}/stream`` does not block on the store itself: it subscribes to
its game's :class:`_Tail` in this process's :class:`StreamHub`. The tail is one thread (one
greenlet under gunicorn's gevent workers) and one Redis connection that waits with
``XREAD BLOCK`` from the last version it holds, keeps the latest :data:`KEEP_EVENTS` events,
and wakes every subscriber when more arrive (at most every :data:`ANNOUNCE_SECONDS`, so a
burst of events is one write per stream). So a thousand spectators of one game cost one
Redis connection, one read and one verification per event, and each viewer's message is
formatted once per event, whoever else watches with the same view.

A subscriber behind the tail's window (a client resuming with an old ``Last-Event-ID``)
catches up with plain, non-blocking reads of the store, then follows the tail. The hub holds
at most ``max_streams`` subscriptions: the next one is refused with
:class:`StreamsFullError` (a 503 with ``Retry-After``) instead of waiting for a slot.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from events.envelope import RecordedEvent
from events.store import StoreError
from replay.views import Viewer

logger = logging.getLogger(__name__)

BLOCK_SECONDS = 5.0
"""The longest single XREAD BLOCK of a tail: below the store's socket timeout, and how long
a tail without subscribers lingers (a reconnecting client finds it still there)."""

ANNOUNCE_SECONDS = 0.05
"""The least time between two wake-ups of a tail's subscribers: events that come faster are
sent together, so a burst costs each stream one write, not one per event."""

KEEP_EVENTS = 256
"""How many of its latest events a tail keeps for its subscribers."""

READ_PAGE = 1000
"""The most events one catch-up read returns."""

STREAMS_RETRY_AFTER = 2
"""The ``Retry-After`` seconds of a stream refused because the process holds its maximum."""


class StreamsFullError(Exception):
    """This process already holds as many live streams as it may (or is shutting down)."""

    def __init__(self, limit: int, *, closing: bool = False) -> None:
        held = "is shutting down" if closing else f"holds its maximum of {limit} live streams"
        super().__init__(f"this server {held}: retry in {STREAMS_RETRY_AFTER} s")
        self.limit = limit
        self.retry_after = STREAMS_RETRY_AFTER


IsOver = Callable[[str, int], bool]
"""``is_over(game_id, version)``: whether the game is over at *version* (its last event)."""


@dataclasses.dataclass(slots=True)
class _Entry:
    """One event a tail keeps, and its message per viewer once someone needed it."""

    recorded: RecordedEvent
    messages: dict[Viewer, bytes] = dataclasses.field(default_factory=dict)


class _Tail:
    """The live tail of one game: its thread, its window of latest events, its subscribers."""

    def __init__(self, game_id: str, head: int) -> None:
        self.game_id = game_id
        self.lock = threading.Lock()
        self.arrived = threading.Event()
        """Set (and replaced by a fresh one) when events arrive or the tail fails: one
        wake-up for every waiting subscriber."""
        self.entries: list[_Entry] = []
        self.base = head
        """The version just before ``entries[0]``."""
        self.head = head
        self.over = False
        self.error: StoreError | None = None
        self.subscribers = 0
        self.finished = False

    def window(self, after: int) -> list[_Entry]:
        """Returns the kept entries after version *after* (call with the lock held)."""
        return self.entries[max(after - self.base, 0):]


class StreamHub:
    """The live tails of one process and the bound on its streams.

    *store* is an :class:`events.redis_store.RedisEventStore` (or anything with its ``read``)
    for the catch-up reads; the tails wait on *tails* (another store on the same Redis, with
    connections of its own; by default *store*). *is_over* tells when a game has ended, so its
    streams end too.
    """

    def __init__(
        self,
        store: Any,
        *,
        tails: Any = None,
        max_streams: int,
        is_over: IsOver,
        block_seconds: float = BLOCK_SECONDS,
    ) -> None:
        self._store = store
        self._tail_store = tails if tails is not None else store
        self._is_over = is_over
        self._block_ms = int(block_seconds * 1000)
        self.max_streams = max_streams
        self._lock = threading.Lock()
        self._tails: dict[str, _Tail] = {}
        self._held = 0
        self._closing = False

    @property
    def held(self) -> int:
        """How many streams this process holds now."""
        return self._held

    def subscribe(
        self, game_id: str, after: int, known: int, *, over: bool = False
    ) -> Subscription:
        """Returns a subscription to *game_id*'s events after version *after*; *known* is
        the game's version as the caller just read it (at least *after*), and *over* whether
        the game had ended by then.

        :raises StreamsFullError: if the process holds ``max_streams`` streams already.
        """
        with self._lock:
            if self._closing:
                raise StreamsFullError(self.max_streams, closing=True)
            if self._held >= self.max_streams:
                raise StreamsFullError(self.max_streams)
            tail = self._tails.get(game_id)
            start = tail is None
            if tail is None:
                tail = self._tails[game_id] = _Tail(game_id, known)
            tail.subscribers += 1
            self._held += 1
        if start:
            threading.Thread(
                target=self._follow, args=(tail,), name=f"tail-{game_id}", daemon=True
            ).start()
        return Subscription(self, tail, after, known if over else None, known)

    def close(self) -> None:
        """Stops taking subscriptions and lets every tail end (within one block), closing
        the tails' own store: call it before closing *store*."""
        with self._lock:
            self._closing = True
        if self._tail_store is not self._store:
            self._tail_store.close()

    def _release(self, tail: _Tail) -> None:
        with self._lock:
            tail.subscribers -= 1
            self._held -= 1

    def _retire(self, tail: _Tail, *, unless_watched: bool) -> bool:
        """Drops *tail* from the hub (if it has no subscribers, when *unless_watched*);
        returns whether it did."""
        with self._lock:
            if unless_watched and tail.subscribers > 0 and not self._closing:
                return False
            tail.finished = True
            if self._tails.get(tail.game_id) is tail:
                del self._tails[tail.game_id]
            return True

    def _follow(self, tail: _Tail) -> None:
        """The tail's thread: XREAD BLOCK from its head, keep and announce what arrives,
        until nobody is subscribed (or the store fails: subscribers then get the error)."""
        prev_hash: str | None = None
        announced = 0.0
        while not self._retire(tail, unless_watched=True):
            pause = announced + ANNOUNCE_SECONDS - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            try:
                batch = self._tail_store.tail(
                    tail.game_id, tail.head, self._block_ms, prev_hash=prev_hash
                )
                over = bool(batch) and self._is_over(tail.game_id, batch[-1].version)
            except Exception as error:  # noqa: BLE001 - the subscribers get it, not the thread
                if not self._retire(tail, unless_watched=True):
                    self._retire(tail, unless_watched=False)
                    if isinstance(error, StoreError):
                        logger.warning("the live tail of game %s broke off: %s",
                                       tail.game_id, error)
                    else:
                        logger.exception("the live tail of game %s failed", tail.game_id)
                        error = StoreError(f"the live tail of game {tail.game_id} failed")
                    with tail.lock:
                        tail.error = error
                        arrived, tail.arrived = tail.arrived, threading.Event()
                    arrived.set()
                return
            if not batch:
                continue
            prev_hash = batch[-1].envelope.hash
            with tail.lock:
                tail.entries += [_Entry(recorded) for recorded in batch]
                tail.head = batch[-1].version
                tail.over = over
                dropped = len(tail.entries) - KEEP_EVENTS
                if dropped > 0:
                    del tail.entries[:dropped]
                    tail.base += dropped
                arrived, tail.arrived = tail.arrived, threading.Event()
            arrived.set()
            announced = time.monotonic()

    def read(self, game_id: str, after: int, upto: int) -> list[RecordedEvent]:
        """Returns the stored events after *after* up to *upto* (one non-blocking read)."""
        events: list[RecordedEvent] = self._store.read(
            game_id, after=after, limit=min(upto - after, READ_PAGE)
        )
        return events


class Subscription:
    """One stream's place in its game's tail: :meth:`next` returns what it has not seen."""

    def __init__(
        self, hub: StreamHub, tail: _Tail, after: int, ends_at: int | None, known: int
    ) -> None:
        self._hub = hub
        self._tail = tail
        self.last = after
        """The version of the last event returned."""
        self._ends_at = ends_at
        self._known = known
        self._closed = False

    @property
    def done(self) -> bool:
        """Whether the game is over and every event up to its end was returned."""
        tail = self._tail
        if self._ends_at is not None and self.last >= self._ends_at:
            return True
        return tail.over and self.last >= tail.head

    def next(self, timeout: float, viewer: Viewer, render: Callable[[RecordedEvent], bytes]
             ) -> list[bytes]:
        """Returns the messages (``render(event)`` for *viewer*, cached per event) of the
        events after :attr:`last`, waiting up to *timeout* seconds for one; ``[]`` if none.

        :raises events.store.StoreError: if the tail broke off on a store error (logged by
            the tail), or a catch-up read failed (logged here).
        """
        tail = self._tail
        with tail.lock:
            entries, catch_up_to = self._take()
            arrived = tail.arrived
        if not entries and not catch_up_to and timeout > 0:
            arrived.wait(timeout)
            with tail.lock:
                entries, catch_up_to = self._take()
        if catch_up_to:
            try:
                events = self._hub.read(tail.game_id, self.last, catch_up_to)
            except StoreError as error:
                logger.warning("a stream of game %s broke off: %s", tail.game_id, error)
                raise
            if events:
                self.last = events[-1].version
            return [render(recorded) for recorded in events]
        messages = []
        for entry in entries:
            message = entry.messages.get(viewer)
            if message is None:
                message = entry.messages[viewer] = render(entry.recorded)
            messages.append(message)
        if entries:
            self.last = entries[-1].recorded.version
        return messages

    def _take(self) -> tuple[list[_Entry], int]:
        """Returns the kept entries after :attr:`last`, or else the version up to which to
        read the store first (0: neither; wait). Called with the tail's lock held.

        :raises events.store.StoreError: if the tail broke off on a store error.
        """
        tail = self._tail
        if tail.error is not None:
            raise tail.error
        if self.last < tail.base:
            return [], tail.base
        if tail.head > self.last:
            return tail.window(self.last), 0
        if self.last < self._known:
            return [], self._known  # Stored already; the tail has not read that far yet.
        return [], 0

    def close(self) -> None:
        """Gives the stream's place back (once)."""
        if not self._closed:
            self._closed = True
            self._hub._release(self._tail)
