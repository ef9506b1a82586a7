"""The fold cache folds only the events it has not seen."""

from __future__ import annotations

import dataclasses
import threading
import uuid
from collections.abc import Iterable

import pytest

from events.envelope import RecordedEvent
from events.errors import CorruptStreamError
from events.fold_cache import FoldCache, on_events
from events.redis_store import RedisEventStore, game_key
from events.types import BidMade, Event


@dataclasses.dataclass(frozen=True)
class Tally:
    """A toy state: the amounts bid, in order, and the version they were folded to."""

    amounts: tuple[int, ...] = ()
    version: int = 0


def _apply(state: Tally, recorded: RecordedEvent) -> Tally:
    event = recorded.event
    assert isinstance(event, BidMade)
    assert recorded.version == state.version + 1, "folded out of order"
    return Tally((*state.amounts, event.amount), recorded.version)


class CountingReader:
    """Wraps a store, recording the ``after`` of every read and the events it returned."""

    def __init__(self, store: RedisEventStore) -> None:
        self.store = store
        self.reads: list[tuple[int, int]] = []

    def read(self, game_id: str, after: int = 0, limit: int | None = None, *,
             prev_hash: str | None = None) -> list[RecordedEvent]:  # fmt: skip
        events = self.store.read(game_id, after, limit, prev_hash=prev_hash)
        self.reads.append((after, len(events)))
        return events


def _bids(count: int, start: int = 0) -> list[Event]:
    return [BidMade(0, amount) for amount in range(start, start + count)]


def test_a_cached_game_reads_only_the_events_after_its_version(
    store: RedisEventStore, game_id: str
) -> None:
    reader = CountingReader(store)
    cache = FoldCache(reader, Tally, _apply)
    store.append(game_id, 0, _bids(5), actor=0)
    assert cache.load(game_id).state == Tally((0, 1, 2, 3, 4), 5)
    assert cache.load(game_id).version == 5
    store.append(game_id, 5, _bids(2, start=5), actor=0)
    loaded = cache.load(game_id)
    assert loaded.state == Tally((0, 1, 2, 3, 4, 5, 6), 7)
    assert loaded.head_hash == store.read(game_id)[-1].envelope.hash
    assert reader.reads == [(0, 5), (5, 0), (5, 2)]
    assert (cache.misses, cache.hits) == (1, 2)


def test_a_load_tells_the_last_event_it_read_and_none_when_the_cache_was_current(
    store: RedisEventStore, game_id: str
) -> None:
    cache = FoldCache(store, Tally, _apply)
    store.append(game_id, 0, _bids(3), actor=0)
    folded, last = cache.load_reading(game_id)
    assert last is not None and last.version == folded.version == 3
    assert last == store.read(game_id)[-1]
    assert cache.load_reading(game_id) == (folded, None), "nothing new, nothing read"
    store.append(game_id, 3, _bids(1, start=3), actor=0)
    folded, last = cache.load_reading(game_id)
    assert last is not None and (last.version, folded.version) == (4, 4)


def test_an_unknown_game_folds_to_the_initial_state_and_is_not_cached(
    store: RedisEventStore, game_id: str
) -> None:
    cache = FoldCache(store, Tally, _apply)
    loaded = cache.load(game_id)
    assert (loaded.state, loaded.version) == (Tally(), 0)
    assert len(cache) == 0


def test_the_least_recently_loaded_game_is_dropped_first(store: RedisEventStore) -> None:
    reader = CountingReader(store)
    cache = FoldCache(reader, Tally, _apply, max_games=2)
    games = [f"g-{uuid.uuid4().hex}" for _ in range(3)]
    for game in games:
        store.append(game, 0, _bids(1), actor=0)
    cache.load(games[0])
    cache.load(games[1])
    cache.load(games[0])
    cache.load(games[2])  # drops games[1]
    assert len(cache) == 2
    reader.reads.clear()
    cache.load(games[0])
    cache.load(games[1])
    assert reader.reads == [(1, 0), (0, 1)]


def test_invalidate_and_clear_force_a_full_fold(store: RedisEventStore, game_id: str) -> None:
    reader = CountingReader(store)
    cache = FoldCache(reader, Tally, _apply)
    store.append(game_id, 0, _bids(3), actor=0)
    cache.load(game_id)
    cache.invalidate(game_id)
    cache.load(game_id)
    cache.clear()
    cache.load(game_id)
    assert reader.reads == [(0, 3), (0, 3), (0, 3)]


def test_a_history_rewritten_under_the_cache_is_detected(
    store: RedisEventStore, game_id: str
) -> None:
    cache = FoldCache(store, Tally, _apply)
    store.append(game_id, 0, _bids(2), actor=0)
    cache.load(game_id)
    store.client.delete(game_key(game_id))
    rewriter = RedisEventStore(store.client)
    rewriter.append(game_id, 0, _bids(3, start=10), actor=0)
    with pytest.raises(CorruptStreamError, match="at version 3: prev_hash"):
        cache.load(game_id)


def test_a_failing_fold_leaves_the_cache_unchanged(store: RedisEventStore, game_id: str) -> None:
    def fragile(state: Tally, recorded: RecordedEvent) -> Tally:
        if recorded.version == 3:
            raise ValueError("boom")
        return _apply(state, recorded)

    cache = FoldCache(store, Tally, fragile)
    store.append(game_id, 0, _bids(2), actor=0)
    assert cache.load(game_id).version == 2
    store.append(game_id, 2, _bids(1), actor=0)
    with pytest.raises(ValueError, match="boom"):
        cache.load(game_id)
    assert len(cache) == 1


def test_concurrent_loads_while_appending_always_see_a_correct_fold(
    store: RedisEventStore, game_id: str
) -> None:
    cache = FoldCache(store, Tally, _apply)
    stop = threading.Event()
    seen: list[list[int]] = [[] for _ in range(6)]
    errors: list[BaseException] = []

    def loader(index: int) -> None:
        try:
            while not stop.is_set():
                folded = cache.load(game_id)
                assert folded.state.amounts == tuple(range(folded.version))
                seen[index].append(folded.version)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    loaders = [threading.Thread(target=loader, args=(i,)) for i in range(6)]
    for thread in loaders:
        thread.start()
    for version in range(120):
        store.append(game_id, version, _bids(1, start=version), actor=0)
    stop.set()
    for thread in loaders:
        thread.join()
    assert errors == []
    for versions in seen:
        assert versions == sorted(versions), "a load went backwards"
    assert cache.load(game_id).state == Tally(tuple(range(120)), 120)


def test_a_slow_load_never_replaces_a_newer_cached_state(
    store: RedisEventStore, game_id: str
) -> None:
    store.append(game_id, 0, _bids(2), actor=0)
    gate, reading = threading.Event(), threading.Event()

    class SlowFirstRead(CountingReader):
        def read(self, game_id: str, after: int = 0, limit: int | None = None, *,
                 prev_hash: str | None = None) -> list[RecordedEvent]:  # fmt: skip
            events = super().read(game_id, after, limit, prev_hash=prev_hash)
            if len(self.reads) == 1:
                reading.set()
                gate.wait(60)
            return events

    reader = SlowFirstRead(store)
    cache = FoldCache(reader, Tally, _apply)
    slow = threading.Thread(target=cache.load, args=(game_id,))
    slow.start()
    assert reading.wait(60), "the first load never read"
    store.append(game_id, 2, _bids(1, start=2), actor=0)
    assert cache.load(game_id).version == 3
    gate.set()
    slow.join()
    reader.reads.clear()
    assert cache.load(game_id).version == 3
    assert reader.reads == [(3, 0)]


def test_on_events_adapts_a_fold_over_bare_events(store: RedisEventStore, game_id: str) -> None:
    def total(state: int, event: Event) -> int:
        assert isinstance(event, BidMade)
        return state + event.amount

    store.append(game_id, 0, _bids(4), actor=0)
    cache = FoldCache(store, lambda: 0, on_events(total))
    assert cache.load(game_id).state == 0 + 1 + 2 + 3


def test_an_on_events_step_folds_the_same_in_the_cache_and_called_alone(
    store: RedisEventStore, game_id: str
) -> None:
    def total(state: int, event: Event) -> int:
        assert isinstance(event, BidMade)
        return state + event.amount

    step = on_events(total)
    store.append(game_id, 0, _bids(4), actor=0)
    cache = FoldCache(store, lambda: 0, step)
    assert cache.load(game_id).state == 0 + 1 + 2 + 3
    assert step(10, store.read(game_id)[1]) == 10 + 1  # The step itself, as any caller calls it.
    store.append(game_id, 4, _bids(2), actor=0)
    assert cache.load(game_id).state == 0 + 1 + 2 + 3 + 0 + 1


def test_max_games_below_one_is_refused(store: RedisEventStore) -> None:
    with pytest.raises(ValueError, match="invalid max_games"):
        FoldCache(store, Tally, _apply, max_games=0)


class SizedTally:
    """Sizes a :class:`Tally` at 100 bytes per amount, counting each call."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def __call__(self, state: Tally) -> int:
        self.calls.append(state.version)
        return 100 * len(state.amounts)


def test_the_cache_is_bounded_by_bytes_least_recently_loaded_first(
    store: RedisEventStore,
) -> None:
    reader = CountingReader(store)
    cache = FoldCache(reader, Tally, _apply, max_bytes=1000, sizer=SizedTally())
    games = [f"g-{uuid.uuid4().hex}" for _ in range(3)]
    for game in games:
        store.append(game, 0, _bids(4), actor=0)  # 400 bytes each
    cache.load(games[0])
    cache.load(games[1])
    assert (len(cache), cache.bytes) == (2, 800)
    cache.load(games[2])  # 1200 bytes: drops games[0]
    assert (len(cache), cache.bytes) == (2, 800)
    reader.reads.clear()
    cache.load(games[1])
    cache.load(games[0])
    assert reader.reads == [(4, 0), (0, 4)]
    assert cache.stats() == {"games": 2, "bytes": 800, "bytes_per_game": 400, "max_games": 1024,
                             "max_bytes": 1000, "hits": 1, "misses": 4}


def test_one_game_larger_than_the_bound_stays_cached(store: RedisEventStore, game_id: str) -> None:
    cache = FoldCache(store, Tally, _apply, max_bytes=150, sizer=SizedTally())
    store.append(game_id, 0, _bids(3), actor=0)
    cache.load(game_id)
    assert (len(cache), cache.bytes) == (1, 300)
    cache.invalidate(game_id)
    assert (len(cache), cache.bytes) == (0, 0)


def test_a_state_is_measured_when_its_version_doubles_and_estimated_between(
    store: RedisEventStore, game_id: str
) -> None:
    sizer = SizedTally()
    cache = FoldCache(store, Tally, _apply, sizer=sizer)
    version = 0
    for _ in range(70):
        store.append(game_id, version, _bids(1, start=version), actor=0)
        version += 1
        cache.load(game_id)
        if version == 20:
            assert cache.bytes == 2000  # 100 measured at version 1, 100 per event since
    assert sizer.calls == [1, 33, 66]
    assert cache.bytes == 7000  # 6600 measured at version 66, 100 per event since
    cache.clear()
    assert cache.bytes == 0 and cache.stats()["bytes_per_game"] == 0


def test_max_bytes_below_one_is_refused(store: RedisEventStore) -> None:
    with pytest.raises(ValueError, match="invalid max_bytes"):
        FoldCache(store, Tally, _apply, max_bytes=0)


def test_deep_size_counts_every_object_once() -> None:
    import sys

    from events.sizing import deep_size

    shared = ("a" * 100,)
    value = {"x": [shared, shared], "y": Tally((1, 2), 2)}
    alone = deep_size(value)
    assert alone >= sys.getsizeof(value) + sys.getsizeof(shared) + sys.getsizeof(shared[0])
    assert deep_size({"x": [shared], "y": Tally((1, 2), 2)}) < alone  # one list slot less
    assert deep_size([shared, shared]) == sys.getsizeof([shared, shared]) + deep_size(shared)


def test_deep_size_walks_slots_dicts_and_atoms_exactly() -> None:
    import enum
    import sys

    from events.sizing import deep_size

    class Color(enum.IntEnum):
        RED = 1

    class Slotted:
        __slots__ = ("a", "b", "__weakref__")

        def __init__(self) -> None:
            self.a = ["x" * 50]  # b is never set: skipped.

    class Both(Slotted):
        __slots__ = ("c", "__dict__")

        def __init__(self) -> None:
            super().__init__()
            self.c = (1.5,)
            self.d = {"k": b"v" * 10}

    size = sys.getsizeof
    slotted = Slotted()
    assert deep_size(slotted) == size(slotted) + size(slotted.a) + size(slotted.a[0])
    both = Both()
    expected = (size(both) + size(both.a) + size(both.a[0]) + size(both.c) + size(1.5)
                + size(both.__dict__) + size("d") + size(both.d) + size("k") + size(both.d["k"]))
    assert deep_size(both) == expected
    assert deep_size(Color.RED) == size(Color.RED)  # An int: nothing further.
    assert deep_size(int) == size(int)
    assert deep_size(frozenset({7})) == size(frozenset({7})) + size(7)


def test_an_on_events_step_with_a_fold_folds_each_read_in_one_call(
    store: RedisEventStore, game_id: str
) -> None:
    def total(state: int, event: Event) -> int:
        assert isinstance(event, BidMade)
        return state + event.amount

    batches: list[list[int]] = []

    def fold_all(events: Iterable[Event], state: int) -> int:
        amounts = [event.amount for event in events if isinstance(event, BidMade)]
        batches.append(amounts)
        return state + sum(amounts)

    step = on_events(total, fold_all)
    store.append(game_id, 0, _bids(4), actor=0)
    cache = FoldCache(store, lambda: 0, step)
    assert cache.load(game_id).state == 0 + 1 + 2 + 3
    store.append(game_id, 4, _bids(2, start=10), actor=0)
    assert cache.load(game_id).state == 6 + 10 + 11
    assert batches == [[0, 1, 2, 3], [10, 11]]  # Each read folded at once, the new events only.
    assert step(10, store.read(game_id)[1]) == 10 + 1  # The step alone still applies one event.
