"""A minimal HTTP/1.1 keep-alive client: the load generator of the HTTP benchmark.

Why it exists: ``bench/http.py``'s clients run in the benchmark's own process, on the same
cores as the servers and Redis they measure, so every CPU cycle a client spends is taken
from the servers. ``http.client`` parses each response's head in Python through the
``email`` package, and the API's answers carry more headers (``ETag``, ``Location``,
``Link``, ``X-Content-Type-Options``...) than the bare endpoint's: the client cost more per
API request than per bare request, and so lowered the API side's throughput more. This
client does as little as a keep-alive exchange needs, the same for both sides:

- a request goes out in one ``sendall`` (request line, headers and body in one buffer);
- the status line and the header lines are read through one buffered reader, and only the
  status, ``Content-Length``, ``Connection`` and ``Transfer-Encoding`` are looked at (names
  case-insensitively);
- exactly ``Content-Length`` bytes of body are read; the connection is kept for the next
  request unless the server says ``Connection: close`` (or answers in HTTP/1.0 without
  ``keep-alive``), in which case it is closed and the next request opens a new one;
- a reused connection the server closed while idle (no byte of the answer came) is opened
  again and the request sent once more (as browsers do: a server that closes an idle
  connection has not read the request; the API's actions carry an ``Idempotency-Key``
  anyway), a new connection never;
- anything else it does not handle is refused with :class:`ProtocolError`, never guessed
  at: a chunked (or otherwise encoded) body, a body without ``Content-Length``, a malformed
  status line or header, a body cut short.

Not thread-safe: one request at a time per :class:`Connection` (the benchmark's pool hands
each connection to one client at a time).
"""

from __future__ import annotations

import io
import socket
from collections.abc import Mapping

_MAX_LINE = 65536
_MAX_HEADERS = 100
_NO_BODY = (204, 304)


class ProtocolError(Exception):
    """An answer this client does not read (or that is not valid HTTP/1.1)."""


class Connection:
    """One keep-alive connection to ``host:port``, opened on the first request."""

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self._host_header = f"Host: {host}:{port}\r\n"
        self._socket: socket.socket | None = None
        self._reader: io.BufferedReader | None = None
        self.connects = 0
        """How many times a socket was opened (for tests of reuse and reconnection)."""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: Mapping[str, str] | None = None) -> tuple[int, bytes]:
        """Sends one request and returns the answer's status and body.

        A *body* (even empty) is sent with its ``Content-Length``. On any error the
        connection is closed (the next request opens a new one) and the error raised.

        :raises ProtocolError: for an answer this client refuses (see the module).
        :raises OSError: when the connection fails.
        """
        lines = [f"{method} {path} HTTP/1.1\r\n", self._host_header]
        lines.extend(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        if body is not None:
            lines.append(f"Content-Length: {len(body)}\r\n")
        lines.append("\r\n")
        message = "".join(lines).encode("latin-1") + (body or b"")
        try:
            return self._exchange(message, retry=self._socket is not None)
        except BaseException:
            self.close()
            raise

    def _exchange(self, message: bytes, retry: bool) -> tuple[int, bytes]:
        if self._socket is None:
            self._connect()
        assert self._socket is not None and self._reader is not None
        try:
            self._socket.sendall(message)
            line = self._reader.readline(_MAX_LINE + 1)
        except ConnectionError:
            if not retry:
                raise
            line = b""
        if not line:  # Closed before answering: a reused one may have timed out idle.
            self.close()
            if not retry:
                raise ConnectionError("the server closed the connection without answering")
            return self._exchange(message, retry=False)
        status, version = _status_line(line)
        length, close = self._head(status, version)
        body = self._reader.read(length) if length else b""
        if len(body) != length:
            raise ProtocolError(f"body cut short: {len(body)} of {length} bytes")
        if close:
            self.close()
        return status, body

    def _head(self, status: int, version: str) -> tuple[int, bool]:
        """Reads the header lines; returns the body's length and whether to close after."""
        assert self._reader is not None
        length: int | None = None
        connection = ""
        for _ in range(_MAX_HEADERS):
            line = self._reader.readline(_MAX_LINE + 1)
            if line in (b"\r\n", b"\n"):
                break
            if not line.endswith(b"\n"):
                raise ProtocolError(f"header line cut short or too long: {line[:80]!r}")
            name, colon, value = line.decode("latin-1").partition(":")
            if not colon or not name or name != name.strip():
                raise ProtocolError(f"malformed header line: {line[:80]!r}")
            name, value = name.lower(), value.strip()
            if name == "content-length":
                if not (value.isascii() and value.isdigit()):
                    raise ProtocolError(f"bad Content-Length: {value!r}")
                if length is not None and length != int(value):
                    raise ProtocolError("two different Content-Length headers")
                length = int(value)
            elif name == "transfer-encoding" and value.lower() != "identity":
                raise ProtocolError(f"Transfer-Encoding {value!r} (chunked answers are not "
                                    "supported: this client needs a Content-Length)")
            elif name == "connection":
                connection = value.lower()
        else:
            raise ProtocolError(f"more than {_MAX_HEADERS} header lines")
        tokens = {token.strip() for token in connection.split(",")}
        close = "close" in tokens or (version == "HTTP/1.0" and "keep-alive" not in tokens)
        if length is None:
            if status in _NO_BODY:
                return 0, close
            raise ProtocolError(f"answer {status} without Content-Length (not supported)")
        return length, close

    def _connect(self) -> None:
        sock = socket.create_connection((self.host, self.port), self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._socket, self._reader = sock, sock.makefile("rb")
        self.connects += 1

    def close(self) -> None:
        """Closes the socket, if open; the next request opens a new one."""
        if self._reader is not None:
            self._reader.close()
        if self._socket is not None:
            self._socket.close()
        self._socket = self._reader = None


def _status_line(line: bytes) -> tuple[int, str]:
    """Returns the status and the HTTP version of a status line such as
    ``HTTP/1.1 201 CREATED``.

    >>> _status_line(b"HTTP/1.1 201 CREATED\\r\\n"), _status_line(b"HTTP/1.0 204\\r\\n")
    ((201, 'HTTP/1.1'), (204, 'HTTP/1.0'))
    """
    version, _, rest = line.decode("latin-1").rstrip("\r\n").partition(" ")
    code = rest[:3]
    if (version not in ("HTTP/1.1", "HTTP/1.0") or not (code.isascii() and code.isdigit())
            or rest[3:4] not in ("", " ") or line[-1:] != b"\n"):
        raise ProtocolError(f"malformed status line: {line[:80]!r}")
    return int(code), version
