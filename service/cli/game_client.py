"""A seat's client of one game over the HTTP API, as a third party's program would hold it:
the seat's view (``GET /v1/games/{id}`` with its token), the game's server-sent events
(``GET /v1/games/{id}/stream``, resumed with ``Last-Event-ID``) and actions posted with
``If-Match`` and ``Idempotency-Key``.

A service that cannot be reached or answers 5xx is a :class:`ServiceUnavailableError` (worth
retrying); an answer that no retry changes (a bad token, an unknown game) is a
:class:`RefusedError` with the problem's title and detail.
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

TIMEOUT_SECONDS = 30.0
"""How long a read may wait: longer than the stream's 5-second keep-alive, so a stream that
goes quiet for longer is a dead connection."""


class ServiceUnavailableError(Exception):
    """No answer, a connection dropped, or a 5xx: the service may come back."""


class RefusedError(Exception):
    """The service refused the request for a reason a retry does not change."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One server-sent event of the game: its version (the SSE ``id``) and type."""

    version: int
    type: str
    data: dict[str, Any]


class GameClient:
    """Plays through one seat token of the game *game_id* at the service *url*."""

    def __init__(self, url: str, game_id: str, token: str,
                 timeout: float = TIMEOUT_SECONDS) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--url {url!r}: expected http://HOST[:PORT] or https://...")
        self.secure = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port
        self.base = parts.path.rstrip("/")
        self.game_path = f"{self.base}/v1/games/{urllib.parse.quote(game_id, safe='')}"
        self.token = token
        self.timeout = timeout

    def view(self) -> dict[str, Any]:
        """Returns the seat's view of the game."""
        status, _, body = self._request("GET", self.game_path)
        if status != 200:
            raise _refused(status, body)
        view: dict[str, Any] = json.loads(body)
        return view

    def act(self, action: Mapping[str, Any], version: int, key: str) -> int:
        """Posts *action* taken on the view of *version* with the idempotency *key*; returns
        201 (done, or replayed), 409 (no longer the seat's to take) or 412 (the game moved
        on): the events tell what happened."""
        status, _, body = self._request(
            "POST", f"{self.game_path}/actions", json.dumps(dict(action)).encode(),
            {"Content-Type": "application/json", "If-Match": f'"{version}"',
             "Idempotency-Key": key})
        if status in (201, 409, 412):
            return status
        raise _refused(status, body)

    def events(self, after: int) -> Iterator[StreamEvent]:
        """Yields the game's events after version *after* until the stream ends (its wait
        ran out, or the game is over and every event was sent)."""
        connection = self._connection()
        try:
            try:
                connection.request("GET", f"{self.game_path}/stream", headers={
                    **self._auth(), "Accept": "text/event-stream",
                    "Last-Event-ID": str(after)})
                response = connection.getresponse()
            except (OSError, http.client.HTTPException) as error:
                raise ServiceUnavailableError(f"stream: {error}") from None
            if response.status == 204:
                return
            if response.status != 200:
                raise _refused(response.status, response.read())
            yield from _parse(response)
        finally:
            connection.close()

    def _request(self, method: str, path: str, body: bytes | None = None,
                 headers: Mapping[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        connection = self._connection()
        try:
            connection.request(method, path, body=body, headers={**self._auth(),
                                                                 **(headers or {})})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        except (OSError, http.client.HTTPException) as error:
            raise ServiceUnavailableError(f"{method} {path}: {error}") from None
        finally:
            connection.close()

    def _connection(self) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self.secure else http.client.HTTPConnection
        return kind(self.host, self.port, timeout=self.timeout)

    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def _parse(response: http.client.HTTPResponse) -> Iterator[StreamEvent]:
    """Yields the events of an SSE body (comments and keep-alives skipped); a connection
    that drops mid-stream is a :class:`ServiceUnavailableError`."""
    fields: dict[str, str] = {}
    while True:
        try:
            raw = response.readline()
        except (OSError, http.client.HTTPException) as error:
            raise ServiceUnavailableError(f"stream dropped: {error}") from None
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if "data" in fields and "id" in fields:
                data = json.loads(fields["data"])
                yield StreamEvent(int(fields["id"]), fields.get("event", "message"), data)
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            fields[name] = f"{fields[name]}\n{value}" if name == "data" and name in fields \
                else value


def _refused(status: int, body: bytes) -> Exception:
    """The error an answer other than the expected one stands for."""
    try:
        problem = json.loads(body)
        said = f"{problem.get('title', '')}: {problem.get('detail', '')}".strip(": ")
    except (ValueError, AttributeError):
        said = body[:200].decode("utf-8", errors="replace")
    message = f"HTTP {status}: {said}" if said else f"HTTP {status}"
    if status >= 500 or status == 429:
        return ServiceUnavailableError(message)
    return RefusedError(status, message)
