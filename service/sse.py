"""Events as a viewer may see them, one by one or as a live server-sent event stream.

A stream sends each new event as ``id: <version>``, ``event: <type>``, ``data: <JSON>`` (the
same object as an entry of ``GET /v1/games/{id}/events``). It waits with ``XREAD BLOCK`` from
the last version sent, never from ``$``, so nothing between two reads is lost; a client that
reconnects with ``Last-Event-ID: <version>`` gets exactly the events after it. After *wait*
seconds without an event the stream ends cleanly (clients reconnect), and once the game is
over and everything is sent it ends for good (``204`` on reconnecting, which tells an
``EventSource`` to stop).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from events.envelope import RecordedEvent
from events.store import EventStore
from replay.views import Viewer, event_view

BLOCK_CHUNK_SECONDS = 5.0
"""The longest single XREAD BLOCK: below the store's socket timeout, and how often an idle
stream sends a keep-alive comment (which also notices a client that went away)."""


def event_item(recorded: RecordedEvent, viewer: Viewer) -> dict[str, Any]:
    """Returns one event of the log as *viewer* may see it.

    The chain fields (``schema``, ``command_id``, ``prev_hash``, ``hash``) are the
    auditor's only: a hash covers the hidden cards, and with few candidates for a hidden card
    anyone could find it by trying each.
    """
    envelope = recorded.envelope
    item: dict[str, Any] = {
        "version": envelope.version,
        "type": recorded.event.TYPE,
        "actor": envelope.actor,
        "occurred_at": envelope.occurred_at,
        "data": event_view(recorded.event, viewer),
    }
    if viewer == "auditor":
        item.update(
            schema=envelope.schema,
            command_id=envelope.command_id,
            prev_hash=envelope.prev_hash,
            hash=envelope.hash,
        )
    return item


def format_message(item: dict[str, Any]) -> str:
    """Returns the server-sent event for one event item."""
    data = json.dumps(item, sort_keys=True, separators=(",", ":"))
    return f"id: {item['version']}\nevent: {item['type']}\ndata: {data}\n\n"


def stream(
    store: EventStore,
    game_id: str,
    viewer: Viewer,
    *,
    after: int,
    wait: float,
    is_over: Callable[[int], bool],
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[str]:
    """Yields the server-sent events of *game_id* after version *after*, for *viewer*.

    Ends after *wait* seconds without an event, or once *is_over(version)* says the game is
    over at the last version sent. Yields a keep-alive comment at each idle chunk.

    :raises events.store.StoreError: from the store (the stream then breaks off; the client
        reconnects with the last id it received).
    """
    yield "retry: 1000\n\n"
    last = after
    deadline = clock() + wait
    while True:
        remaining = deadline - clock()
        block_ms = int(min(max(remaining, 0.0), BLOCK_CHUNK_SECONDS) * 1000)
        batch = store.tail(game_id, last, block_ms)
        if batch:
            for recorded in batch:
                yield format_message(event_item(recorded, viewer))
                last = recorded.version
            if is_over(last):
                return
            deadline = clock() + wait
            continue
        if remaining <= 0:
            return
        yield ": keep-alive\n\n"
