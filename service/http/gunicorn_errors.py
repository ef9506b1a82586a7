"""gunicorn's own error answers as problems, and the limits that let the app answer first.

gunicorn refuses some requests before the app sees them: a request line, a header count or a
header field beyond its limits, a request line or a header that is not HTTP (a NUL in a
value, say). Its ``Worker.handle_error`` answers those with an HTML page.
:class:`ProblemErrors`, a mixin for any gunicorn worker class, answers them with the same
status as ``application/problem+json`` with a stable code, as the app answers everything
else. :func:`gunicorn_limits` sets gunicorn's limits above the app's own
(:mod:`service.http.request_limits`), so the app decides every request gunicorn can parse, and
gunicorn refuses only what is beyond its hard maxima or not HTTP at all.

To use it with a worker class, name the class (or pass it) to :func:`problem_worker_class`
and give the result to gunicorn's ``worker_class`` setting::

    options["worker_class"] = problem_worker_class("gevent")

or subclass it yourself, the mixin first::

    class ProblemGeventWorker(ProblemErrors, GeventWorker): ...

The class :func:`problem_worker_class` makes also quits once (:class:`QuitOnce`): on Ctrl+C
a worker gets the terminal's SIGINT and then its master's SIGQUIT, and gunicorn's gevent
worker runs each quit in a greenlet of its own that calls ``sys.exit(0)``; the second one
runs while the interpreter is exiting and prints a ``SystemExit: 0`` traceback (gunicorn
considers this not a bug: benoitc/gunicorn#3239).
"""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util

from service.http import statuses
from service.http.errors import PROBLEM_JSON, is_server_failure, problem_document, server_error_code
from service.http.request_limits import (
    HEADER_FIELDS_TOO_LARGE,
    MAX_HEADER_FIELD_BYTES,
    MAX_HEADER_FIELDS,
    TARGET_TOO_LONG,
)

GUNICORN_MAX_REQUEST_LINE = 8190
"""gunicorn's largest ``limit_request_line``: a longer setting counts as this one."""

def gunicorn_limits() -> dict[str, int]:
    """Returns gunicorn's request limits: above the app's, so that the app answers first."""
    return {
        "limit_request_line": GUNICORN_MAX_REQUEST_LINE,
        "limit_request_fields": 2 * MAX_HEADER_FIELDS,
        "limit_request_field_size": 2 * MAX_HEADER_FIELD_BYTES,
    }


class ProblemErrors:
    """Mixin for a gunicorn worker class: its error answers are problems, not HTML pages.

    gunicorn's own ``handle_error`` still decides the status, logs and writes the access log
    line; only the page it writes is replaced.
    """

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """Answers *exc* (raised reading or serving *req* on *client*) with a problem."""
        page = _CapturedSocket(client)
        super().handle_error(req, page, addr, exc)  # type: ignore[misc]
        if page.status is None:
            return  # gunicorn wrote nothing (or could not).
        try:
            util.write_nonblock(client, problem_answer(page.status, exc))
        except Exception:  # noqa: BLE001  # The client went away: nothing to answer.
            self.log.debug("Failed to send error message.")  # type: ignore[attr-defined]


class QuitOnce:
    """Mixin for a gunicorn worker class: a quit signal after the first is ignored, since
    the worker is already quitting."""

    _quitting = False

    def handle_quit(self, sig: Any, frame: Any) -> None:
        """Quits as gunicorn does, the first time only."""
        if self._quitting:
            return
        self._quitting = True
        super().handle_quit(sig, frame)  # type: ignore[misc]


def problem_worker_class(base: str | type) -> type:
    """Returns a worker class that is *base* (a gunicorn worker class, or its name as the
    ``worker_class`` setting takes it: ``"gthread"``, ``"gevent"``...) with
    :class:`ProblemErrors` and :class:`QuitOnce`; the same class for the same *base*."""
    worker: type = util.load_class(base)
    if issubclass(worker, ProblemErrors):
        return worker
    if worker not in _WITH_PROBLEMS:
        _WITH_PROBLEMS[worker] = type(
            f"Problem{worker.__name__}", (ProblemErrors, QuitOnce, worker),
            {"__module__": __name__},
        )
    return _WITH_PROBLEMS[worker]


_WITH_PROBLEMS: dict[type, type] = {}


def problem_answer(status: int, exc: BaseException) -> bytes:
    """Returns the whole HTTP response (head and problem body) for gunicorn's refusal
    *exc* with *status* (and the status's own phrase: gunicorn keeps "Bad Request" for a
    501)."""
    document = problem_document(status, server_error_code(exc, status), _detail(status, exc))
    body = json.dumps(document, sort_keys=True)
    data = body.encode() + b"\n"
    head = (
        f"HTTP/1.1 {status} {statuses.phrase(status)}\r\n"
        "Connection: close\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\n"
        f"Content-Length: {len(data)}\r\n"
        "Cache-Control: no-store\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "\r\n"
    )
    return head.encode("latin-1") + data


def _detail(status: int, exc: BaseException) -> str:
    if status == 414:
        return TARGET_TOO_LONG
    if status == 431:
        return HEADER_FIELDS_TOO_LARGE
    if is_server_failure(status):
        return "the server failed; the error was logged"
    said = str(exc)
    said = said if len(said) <= 200 else said[:197] + "..."
    if status == 501:
        return (f"this server does not implement that transfer coding ({said}): send the body "
                "with Content-Length, or chunked")
    return f"the request is not valid HTTP/1.1: {said}" if said else "the request is not valid HTTP"


class _CapturedSocket:
    """Stands in for the client's socket while gunicorn writes its page: keeps the status
    line of what is written, sends nothing; anything else goes to the real socket."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self.status: int | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def gettimeout(self) -> float:
        """Returns 0: gunicorn then writes without touching the socket's blocking mode."""
        return 0.0

    def sendall(self, data: bytes) -> None:
        """Keeps the status of the response in *data*."""
        line = bytes(data).split(b"\r\n", 1)[0].decode("latin-1")
        status = (line.split(" ", 2) + [""])[1]
        if self.status is None and status.isdigit():
            self.status = int(status)

    def send(self, data: bytes) -> int:
        """As :meth:`sendall`, for a writer that sends piecemeal."""
        self.sendall(data)
        return len(data)

