"""The stream hub on its own: a store outage ends every stream of a tail quietly, once
logged, and the next stream starts afresh."""

from __future__ import annotations

import logging
import threading

import pytest
from http_table import Table

from events.envelope import RecordedEvent
from events.redis_store import RedisEventStore
from events.store import StoreUnavailableError
from service.http.sse import EventStream
from service.http.stream_hub import StreamHub, StreamsFullError


class FlakyTails:
    """The store's tail, short blocks, and an outage at will."""

    def __init__(self, store: RedisEventStore) -> None:
        self.store = store
        self.down = threading.Event()

    def tail(self, game_id: str, after: int, block_ms: int, *,
             prev_hash: str | None = None) -> list[RecordedEvent]:
        if self.down.is_set():
            raise StoreUnavailableError("store unavailable (a test's outage)")
        return self.store.tail(game_id, after, block_ms, prev_hash=prev_hash)

    def close(self) -> None:
        pass


def _drain(stream: EventStream, into: list[bytes]) -> threading.Thread:
    thread = threading.Thread(target=lambda: into.append(b"".join(stream)))
    thread.start()
    return thread


def test_an_outage_ends_the_tails_streams_quietly_and_the_next_starts_afresh(
    table: Table, api_store: RedisEventStore, caplog: pytest.LogCaptureFixture
) -> None:
    tails = FlakyTails(api_store)
    hub = StreamHub(api_store, tails=tails, max_streams=10, is_over=lambda *_: False,
                    block_seconds=0.1)
    _, version = table.turn()
    texts: list[bytes] = []
    threads = [_drain(EventStream(hub.subscribe(table.id, version, version), "spectator",
                                  wait=30), texts) for _ in range(3)]
    assert hub.held == 3
    with caplog.at_level(logging.WARNING, logger="service.http.stream_hub"):
        tails.down.set()
        for thread in threads:
            thread.join(10)
            assert not thread.is_alive()
    assert texts == [b"retry: 1000\n\n"] * 3
    assert hub.held == 0
    broke = [r for r in caplog.records if "broke off" in r.getMessage()]
    assert len(broke) == 1  # Once for the tail, not once per stream.

    tails.down.clear()
    received: list[bytes] = []
    subscription = hub.subscribe(table.id, version, version)
    thread = _drain(EventStream(subscription, "spectator", wait=0.5), received)
    table.step()
    thread.join(10)
    assert f"id: {version + 1}\n".encode() in received[0]
    hub.close()


def test_a_closed_hub_refuses_new_streams(api_store: RedisEventStore, table: Table) -> None:
    hub = StreamHub(api_store, max_streams=10, is_over=lambda *_: False)
    hub.close()
    with pytest.raises(StreamsFullError, match="shutting down"):
        hub.subscribe(table.id, 0, 0)


