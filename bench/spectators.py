"""Many event-stream spectators in one process, on raw non-blocking sockets.

``bench.stream`` runs :func:`spectate_main` in a child process: it opens the streams, says
how many were held, records the ``id`` and ``event`` of every server-sent event each stream
receives, and once told the events every stream should have had, reports how many got
exactly those, in order. One thread and :mod:`selectors` serve every socket, so a thousand
spectators cost little CPU next to the server they measure.

The protocol on stdin and stdout is one JSON line each way:

- out: ``{"held": n, "refused": {status: count}, "seconds": s}`` once every stream has its
  answer's head (or failed);
- in: ``[[version, type], ...]``, the events each held stream should receive;
- out: ``{"delivered": n, "complete": n, "incomplete": [...]}`` once every held stream has
  received that many events or ended, or the time limit passed.
"""

from __future__ import annotations

import json
import os
import selectors
import socket
import sys
import time
from typing import Any

OPEN_SECONDS = 60.0
"""How long the streams may take to be answered."""

DELIVERY_SECONDS = 30.0
"""How long the streams may take to receive the last expected event once it is stored."""


class Spectator:
    """One stream: its socket, the HTTP answer being parsed, and the events received."""

    def __init__(self, port: int, path: str, after: int) -> None:
        self.sock = socket.socket()
        self.sock.setblocking(False)
        self.sock.connect_ex(("127.0.0.1", port))
        self.request = (
            f"GET {path}/stream?after={after}&wait=60 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        ).encode()
        self.status: int | None = None
        self.ended = False
        self.events: list[list[Any]] = []
        self._raw = bytearray()
        self._chunked = False
        self._text = ""

    def feed(self, data: bytes) -> None:
        """Takes bytes from the socket (``b""``: the server closed it)."""
        if not data:
            self.ended = True
            if self.status is None:
                self.status = 0
            return
        self._raw += data
        if self.status is None:
            head_end = self._raw.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head = bytes(self._raw[:head_end]).decode("latin-1").lower()
            self.status = int(head.split(None, 2)[1])
            self._chunked = "transfer-encoding: chunked" in head
            del self._raw[:head_end + 4]
        if self._chunked:
            self._dechunk()
        else:
            self._text += self._raw.decode("utf-8")
            self._raw.clear()
        self._parse_events()

    def _dechunk(self) -> None:
        raw = self._raw
        while True:
            line_end = raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(bytes(raw[:line_end]).split(b";")[0], 16)
            if size == 0:
                self.ended = True
                raw.clear()
                return
            if len(raw) < line_end + 2 + size + 2:
                return
            self._text += bytes(raw[line_end + 2:line_end + 2 + size]).decode("utf-8")
            del raw[:line_end + 2 + size + 2]

    def _parse_events(self) -> None:
        *blocks, self._text = self._text.split("\n\n")
        for block in blocks:
            fields = dict(line.split(": ", 1) for line in block.split("\n")
                          if line and not line.startswith(":") and ": " in line)
            if "data" in fields:
                self.events.append([int(fields["id"]), fields["event"]])


def spectate_main(argv: list[str] | None = None) -> int:
    """Runs the spectators: ``PORT PATH STREAMS AFTER SECONDS`` (see the module's doc)."""
    port, path, streams, after, seconds = argv or sys.argv[1:]
    deadline = time.monotonic() + float(seconds)
    selector = selectors.DefaultSelector()
    start = time.monotonic()
    spectators = [Spectator(int(port), path, int(after)) for _ in range(int(streams))]
    for spectator in spectators:
        selector.register(spectator.sock, selectors.EVENT_WRITE, spectator)
    stdin = sys.stdin.fileno()
    os.set_blocking(stdin, False)
    selector.register(stdin, selectors.EVENT_READ, None)
    expected: list[list[Any]] | None = None
    incoming = b""
    answered = False
    delivery_deadline = deadline
    while time.monotonic() < min(deadline, delivery_deadline):
        if not answered and all(s.status is not None for s in spectators):
            answered = True
            held = [s for s in spectators if s.status == 200]
            refused: dict[str, int] = {}
            for spectator in spectators:
                if spectator.status != 200:
                    status = str(spectator.status)
                    refused[status] = refused.get(status, 0) + 1
            _say({"held": len(held), "refused": refused,
                  "seconds": round(time.monotonic() - start, 3)})
        elif not answered and time.monotonic() - start > OPEN_SECONDS:
            for spectator in spectators:
                if spectator.status is None:
                    spectator.status = -1  # Never answered.
            continue
        if expected is not None and all(
            s.ended or len(s.events) >= len(expected) for s in spectators if s.status == 200
        ):
            break
        for key, mask in selector.select(timeout=1.0):
            spectator = key.data
            if spectator is None:
                chunk = os.read(stdin, 1 << 20)
                if not chunk:
                    return 1  # The benchmark went away.
                incoming += chunk
                if incoming.endswith(b"\n"):
                    expected = json.loads(incoming)
                    delivery_deadline = time.monotonic() + DELIVERY_SECONDS
                continue
            if mask & selectors.EVENT_WRITE:
                try:
                    spectator.sock.send(spectator.request)
                except OSError:
                    spectator.feed(b"")
                    selector.unregister(spectator.sock)
                    continue
                selector.modify(spectator.sock, selectors.EVENT_READ, spectator)
                continue
            try:
                data = spectator.sock.recv(1 << 16)
            except OSError:
                data = b""
            spectator.feed(data)
            if spectator.ended:
                selector.unregister(spectator.sock)
                spectator.sock.close()
    _say(_delivery([s for s in spectators if s.status == 200], expected or []))
    return 0


def _delivery(held: list[Spectator], expected: list[list[Any]]) -> dict[str, Any]:
    """Returns how many events the held streams received and how many got exactly
    *expected*, with a few examples of those that did not."""
    incomplete = [s for s in held if s.events != expected]
    return {
        "delivered": sum(len(s.events) for s in held),
        "complete": len(held) - len(incomplete),
        "incomplete": [
            {"received": len(s.events), "first": s.events[:1], "last": s.events[-1:],
             "ended": s.ended}
            for s in incomplete[:3]
        ],
    }


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
