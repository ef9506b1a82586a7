"""Keeping ``fortyfive serve``'s embedded redis-server running: a keeper process and its status.

``serve`` does not run the embedded server itself: gunicorn's master reaps every child with
``waitpid(-1)`` and would take the server's exit status. It starts a keeper (:func:`main`, in
a session of its own, as the worker's supervisor is), which starts the redis-server
(:class:`~service.processes.embedded_redis.EmbeddedRedis`) and, whenever it dies, logs one
line (how it ended, how long it ran), waits the delay :func:`backoff` gives and starts it
again on the same port, data directory and append-only file: with ``appendfsync always``
every acknowledged append is in that file, so nothing acknowledged is lost, and the clients
reconnect to the same address. A server that fails to start again is retried the same way.

The keeper writes what happened to a status file in the data directory
(:mod:`service.application.keeper_status`), which ``/readyz`` reports: the server's state and
pid, since when, how many times it was started again, and how it last ended.

SIGTERM or SIGINT stops the server (SIGTERM, SIGKILL after a grace period) and then the keeper;
so does the end of ``serve``. The server gets SIGTERM when the keeper dies, so a keeper that
``serve`` starts again (:class:`KeptRedis`) finds the data directory free.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from service.application.backoff import Backoff
from service.application.keeper_status import STATUS_FILE, read_status, write_status
from service.processes.embedded_redis import EmbeddedRedis, EmbeddedRedisError
from service.processes.supervisor import POLL_SECONDS, KeptProcess, describe_exit, stop_process

log = logging.getLogger(__name__)

STARTUP_SECONDS = 60.0
"""The longest ``serve`` waits for the keeper to report its first start, a margin over the
keeper's own limit (:class:`EmbeddedRedis` gives up when the server has not answered within
10 s; a server still loading its AOF answers, and the store is unavailable until it is done)."""


def backoff() -> Backoff:
    """The delays before the server is started again: a quarter of a second, doubling up to
    5 s, from the start again once it has run for a minute. Shorter than the worker's: while
    Redis is down the whole service answers 503."""
    return Backoff(initial=0.25, factor=2.0, cap=5.0, reset_after=60.0)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class RedisKeeper:
    """Starts a redis-server on *data_dir* (on *port*, else a free one) and keeps it running
    until :meth:`stop`, or until the process *parent_pid* is gone; records what happened in
    :data:`STATUS_FILE`.

    A keeper given a *port* replaces one that died: it carries on the count of restarts of
    the status file, and retries a start that fails. Without one it is the first: a first
    start that fails ends it, and ``serve`` with it, saying why.
    """

    def __init__(self, data_dir: Path, port: int | None = None, *,
                 parent_pid: int | None = None,
                 make_backoff: Callable[[], Backoff] = backoff) -> None:
        self.data_dir = data_dir
        self._port = port
        self._parent_pid = parent_pid
        self._backoff = make_backoff()
        self._stopping = False
        self._server: EmbeddedRedis | None = None
        self._started = 0.0
        self._due = 0.0
        """When to start the server again, on the monotonic clock, while it is down."""
        previous = (read_status(data_dir) if port is not None else None) or {}
        self.status: dict[str, Any] = {
            "keeper_pid": os.getpid(), "port": port, "state": "starting", "pid": None,
            "since": _now(), "restarts": int(previous.get("restarts", 0)),
            "last_exit": _stopped_with_keeper(previous) or previous.get("last_exit"),
            "error": None,
        }

    def stop(self, *_: Any) -> None:
        """Asks :meth:`run` to stop the server and return (a signal handler)."""
        self._stopping = True

    def run(self) -> int:
        """Keeps the server running until :meth:`stop`; returns 0, or 1 when a first start
        failed (the error is in the status file, where :class:`KeptRedis` reads it)."""
        try:
            if not self._start() and self._port is None:
                return 1
            while not self._stopping:
                self.check()
                if self._parent_pid is not None and os.getppid() != self._parent_pid:
                    log.warning("the process that started the keeper is gone; stopping "
                                "redis-server")
                    break
                time.sleep(POLL_SECONDS)
        finally:
            if self._server is not None:
                self._server.stop()
        return 0

    def check(self) -> None:
        """Notes a server that ended and starts it again once due (one pass of :meth:`run`)."""
        server = self._server
        if server is not None and not server.running:
            returncode = server.returncode
            ran = time.monotonic() - self._started
            server.stop()  # Reaped already: only closes its log.
            self._server = None
            delay = self._backoff.next_delay(healthy_for=ran)
            how = describe_exit(returncode) if returncode is not None else "is gone"
            log.warning("redis-server (pid %d) %s after %.1f s; restarting it in %.1f s",
                        self.status["pid"], how, ran, delay)
            self._record(state="down", pid=None, error=None, last_exit={
                "pid": self.status["pid"], "how": how, "at": _now(),
                "ran_s": round(ran, 1), "restart_in_s": delay})
            self._due = time.monotonic() + delay
        if self._server is None and time.monotonic() >= self._due and not self._stopping:
            self._start()

    def _start(self) -> bool:
        """Starts the server; returns whether it answers. A failure is recorded and, after a
        first start, retried after the backoff's delay."""
        restart = self.status["state"] == "down" or self._port is not None
        server = EmbeddedRedis(self.data_dir, self._port)
        try:
            server.start()
        except EmbeddedRedisError as error:
            self._record(state="down", pid=None, error=str(error))
            if restart:
                delay = self._backoff.next_delay()
                self._due = time.monotonic() + delay
                log.error("cannot start redis-server: %s; retrying in %.1f s", error, delay)
            return False
        self._server, self._port, self._started = server, server.port, time.monotonic()
        restarts = self.status["restarts"] + (1 if restart else 0)
        self._record(state="up", pid=server.pid, port=server.port, error=None,
                     restarts=restarts)
        if restart:
            log.warning("restarted redis-server (pid %s, restart %d) on port %d", server.pid,
                        restarts, server.port)
        else:
            log.info("started redis-server (pid %s) on port %d", server.pid, server.port)
        return True

    def _record(self, **changes: Any) -> None:
        """Updates the status (its ``since`` when the state changes) and writes it."""
        if changes.get("state", self.status["state"]) != self.status["state"]:
            changes["since"] = _now()
        self.status.update(changes)
        write_status(self.data_dir, self.status)


def _stopped_with_keeper(previous: dict[str, Any]) -> dict[str, Any] | None:
    """How the server of a keeper that died ended, from that keeper's last *previous* status:
    it had a server up, which got SIGTERM when the keeper died (``None`` if it had none)."""
    if previous.get("state") != "up" or not previous.get("pid"):
        return None
    try:
        since = datetime.fromisoformat(str(previous["since"]).replace("Z", "+00:00"))
        ran = max(0.0, (datetime.now(UTC) - since).total_seconds())
    except (KeyError, ValueError):
        ran = 0.0
    return {"pid": previous["pid"], "how": "was stopped when its keeper died", "at": _now(),
            "ran_s": round(ran, 1), "restart_in_s": 0.0}


def start(data_dir: Path, port: int | None = None) -> subprocess.Popen[bytes]:
    """Starts a keeper process for the server on *data_dir* (and *port*, once known), in a
    session of its own (a terminal's Ctrl-C must not stop the store before the processes
    that use it); it stops when this process ends."""
    spec = json.dumps({"parent": os.getpid(), "data_dir": str(data_dir), "port": port})
    code = ("import sys; from service.processes.redis_keeper import main; "
            "sys.exit(main(sys.argv[1:]))")
    return subprocess.Popen([sys.executable, "-c", code, spec], start_new_session=True)


class KeptRedis:
    """``serve``'s embedded redis-server: a keeper process (:func:`start`) started again
    whenever it dies, until :meth:`stop`. :meth:`start` returns once the server answers.

    >>> with KeptRedis(tmp_dir) as kept:  # doctest: +SKIP
    ...     store = RedisEventStore.from_url(kept.url)
    """

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port: int | None = None
        self._kept: KeptProcess | None = None

    @property
    def url(self) -> str:
        """The server's URL, ``redis://127.0.0.1:<port>``."""
        return f"redis://127.0.0.1:{self.port}"

    @property
    def status_path(self) -> Path:
        """The keeper's status file."""
        return self.data_dir / STATUS_FILE

    def start(self) -> KeptRedis:
        """Starts the keeper and waits until its server answers.

        :raises EmbeddedRedisError: if the server does not start (the keeper's reason).
        """
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.status_path.unlink()  # An earlier run's.
        first = start(self.data_dir)
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            status = read_status(self.data_dir) or {}
            if status.get("keeper_pid") == first.pid and status.get("state") == "up":
                break
            if first.poll() is not None or time.monotonic() > deadline:
                stop_process(first)
                raise EmbeddedRedisError(status.get("error") or (
                    f"the embedded redis-server did not start within {STARTUP_SECONDS:.0f} s"))
            time.sleep(0.02)
        self.port = int(status["port"])
        self._kept = KeptProcess(first, lambda: start(self.data_dir, self.port),
                                 gone="the embedded redis-server's keeper",
                                 started="a new keeper of the embedded redis-server")
        return self

    def stop(self) -> None:
        """Stops the keeper, which stops the server cleanly."""
        if self._kept is not None:
            self._kept.stop()
            self._kept = None

    def __enter__(self) -> KeptRedis:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def main(argv: Sequence[str]) -> int:
    """Runs a keeper from the JSON spec that :func:`start` passes as the only argument."""
    spec = json.loads(argv[0])
    logging.basicConfig(level=logging.INFO, format="%(asctime)s fortyfive keeper: %(message)s")
    keeper = RedisKeeper(Path(spec["data_dir"]), spec["port"], parent_pid=spec["parent"])
    signal.signal(signal.SIGTERM, keeper.stop)
    signal.signal(signal.SIGINT, keeper.stop)
    return keeper.run()  # A first start's failure is in the status file: serve says it.
