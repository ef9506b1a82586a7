"""Events as a viewer may see them, one by one or as a live server-sent event stream.

A stream sends each new event as ``id: <version>``, ``event: <type>``, ``data: <JSON>`` (the
same object as an entry of ``GET /v1/games/{id}/events``). It follows its game's tail in the
process's :class:`service.http.stream_hub.StreamHub` from the last version sent, so nothing is lost
or repeated; a client that reconnects with ``Last-Event-ID: <version>`` gets exactly the
events after it. After *wait* seconds without an event the stream ends cleanly (clients
reconnect), and once the game is over and everything is sent it ends for good (``204`` on
reconnecting, which tells an ``EventSource`` to stop).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from events.envelope import RecordedEvent
from events.store import StoreError
from replay.views import Viewer, event_view
from service.http.stream_hub import Subscription

KEEPALIVE_SECONDS = 5.0
"""How often an idle stream sends a keep-alive comment (which also notices a client that
went away)."""

MIN_WAIT_SECONDS = KEEPALIVE_SECONDS
"""The shortest idle wait a stream may be asked for: one keep-alive period. A live stream
that ends sooner is polling: with the stream's ``retry: 1000`` an idle ``EventSource`` would
reconnect every second or so, each time a request against the ``streams`` rate limit. The
backlog alone is ``GET /v1/games/{id}/events``."""


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


class EventStream:
    """The body of one live stream: an iterable of server-sent events that gives its
    subscription back when the server closes it (also when it was never iterated).

    Sends each new event of *subscription* for *viewer*, a keep-alive comment after each
    :data:`KEEPALIVE_SECONDS` without one (which also notices a client that went away);
    ends after *wait* seconds without an event, or once the game is over and everything
    was sent.
    """

    def __init__(
        self,
        subscription: Subscription,
        viewer: Viewer,
        *,
        wait: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._subscription = subscription
        self._viewer = viewer
        self._wait = wait
        self._clock = clock

    def __iter__(self) -> Iterator[bytes]:
        """Yields the stream's chunks. A store error ends it (logged where it happened, once
        for all the streams of a tail): the client reconnects with the last id it received,
        and is answered 503 until the store is back."""
        subscription, clock = self._subscription, self._clock
        try:
            yield b"retry: 1000\n\n"
            deadline = clock() + self._wait
            while True:
                remaining = max(deadline - clock(), 0.0)
                messages = subscription.next(
                    min(remaining, KEEPALIVE_SECONDS), self._viewer, self._render
                )
                if messages:
                    yield b"".join(messages)
                    if subscription.done:
                        return
                    deadline = clock() + self._wait
                    continue
                if subscription.done or remaining <= 0:
                    return
                yield b": keep-alive\n\n"
        except StoreError:
            return
        finally:
            subscription.close()

    def _render(self, recorded: RecordedEvent) -> bytes:
        return format_message(event_item(recorded, self._viewer)).encode("utf-8")

    def close(self) -> None:
        """Ends the stream and releases its place (the WSGI server calls this)."""
        self._subscription.close()
