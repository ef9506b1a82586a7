"""Keeping ``fortyfive serve``'s worker running: a supervisor process and its restart policy.

``serve`` runs :func:`main` in a process of its own (:func:`start`): gunicorn's master reaps
every child it has with ``waitpid(-1)``, so it could not watch a child itself without losing
the child's exit status. The supervisor starts each child, and when one ends it logs one line
(its exit status or the signal that killed it, how long it ran, when it starts again) and
starts it again after the delay :class:`Backoff` gives: doubling from half a second up to 30
s, and starting over once a child has run for a minute. SIGTERM or SIGINT stops the children
(SIGTERM, then SIGKILL after a grace period) and then the supervisor; so does the end of the
process that started it, so even a ``kill -9`` of ``serve`` leaves no orphan behind.

The supervisor itself is kept running by :class:`KeptSupervisor`, a thread in the process
that started it: when the supervisor dies it logs one line and starts a new one (the old
supervisor's children stop on their own once they see their parent gone, see
:func:`workers.runner.run_worker`).

:class:`Backoff` is also how the workers pace their retries while Redis is down.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from service.application.backoff import Backoff

log = logging.getLogger(__name__)

GRACE_SECONDS = 10.0
"""How long a child may take to stop after SIGTERM before it is killed."""

SUPERVISOR_PID_ENV = "FORTYFIVE_SUPERVISOR_PID"
"""The environment variable that tells each child the pid of its supervisor, so that it
can stop once the supervisor is gone (even one that died while the child was starting)."""

POLL_SECONDS = 0.1
"""How often the supervisor looks at its children and its parent."""


@dataclasses.dataclass(frozen=True)
class ChildSpec:
    """A child to keep running: a *name* for the log and its command line *argv*."""

    name: str
    argv: tuple[str, ...]


def describe_exit(returncode: int) -> str:
    """Returns how a child ended, from its :attr:`subprocess.Popen.returncode`.

    >>> describe_exit(-9), describe_exit(1)
    ('was killed by SIGKILL', 'exited with status 1')
    """
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"exited with status {returncode}"


class _Child:
    """One supervised child: its process while it runs, and when to start it again."""

    def __init__(self, spec: ChildSpec, backoff: Backoff) -> None:
        self.spec = spec
        self.backoff = backoff
        self.process: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0
        self.due = 0.0
        """When to start it (again), on the monotonic clock, while it is not running."""
        self.restarts = 0


class Supervisor:
    """Starts *children*, restarts each one that ends (after its :class:`Backoff`) and stops
    them all on :meth:`stop`, or when the process *parent_pid* is gone."""

    def __init__(
        self,
        children: Sequence[ChildSpec],
        *,
        backoff: Callable[[], Backoff] = Backoff,
        grace: float = GRACE_SECONDS,
        parent_pid: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._children = [_Child(spec, backoff()) for spec in children]
        self._grace = grace
        self._parent_pid = parent_pid
        self._clock = clock
        self._stopping = False

    def stop(self, *_: Any) -> None:
        """Asks :meth:`run` to stop the children and return (a signal handler)."""
        self._stopping = True

    def pids(self) -> dict[str, int | None]:
        """Returns the pid of each child by name (``None`` while it is down)."""
        return {
            child.spec.name: child.process.pid if child.process is not None else None
            for child in self._children
        }

    def run(self) -> int:
        """Supervises until :meth:`stop`; then stops every child and returns 0."""
        try:
            while not self._stopping:
                self.check()
                if self._parent_pid is not None and os.getppid() != self._parent_pid:
                    log.warning("the process that started the supervisor is gone; stopping")
                    break
                time.sleep(POLL_SECONDS)
        finally:
            self._stop_children()
        return 0

    def check(self) -> None:
        """Notes the children that ended and starts those that are due (one pass of
        :meth:`run`)."""
        now = self._clock()
        for child in self._children:
            process = child.process
            if process is not None:
                returncode = process.poll()
                if returncode is None:
                    continue
                ran = now - child.started_at
                delay = child.backoff.next_delay(healthy_for=ran)
                child.process, child.due = None, now + delay
                log.warning(
                    "%s (pid %d) %s after %.1f s; restarting it in %.1f s",
                    child.spec.name, process.pid, describe_exit(returncode), ran, delay,
                )
            if now >= child.due and not self._stopping:
                self._start(child, now)

    def _start(self, child: _Child, now: float) -> None:
        """Starts *child*; a failure to start counts as a death."""
        try:
            child.process = subprocess.Popen(
                child.spec.argv, env={**os.environ, SUPERVISOR_PID_ENV: str(os.getpid())})
        except OSError as error:
            delay = child.backoff.next_delay()
            child.due = now + delay
            log.error("cannot start %s: %s; retrying in %.1f s", child.spec.name, error, delay)
            return
        child.started_at = now
        if child.restarts:
            log.warning("restarted %s (pid %d, restart %d)", child.spec.name,
                        child.process.pid, child.restarts)
        else:
            log.info("started %s (pid %d)", child.spec.name, child.process.pid)
        child.restarts += 1

    def _stop_children(self) -> None:
        """Sends SIGTERM to every running child, then SIGKILL to those still running after
        the grace period; waits for them all."""
        running = [child.process for child in self._children if child.process is not None]
        for process in running:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + self._grace
        for process in running:
            try:
                process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("pid %d did not stop within %.0f s; killing it", process.pid,
                            self._grace)
                process.kill()
                process.wait()
        for child in self._children:
            child.process = None


def start(children: Sequence[ChildSpec]) -> subprocess.Popen[bytes]:
    """Starts a supervisor process for *children*, in a session of its own (a terminal's
    Ctrl-C reaches the caller, which stops the supervisor itself); it stops when this process
    ends."""
    spec = json.dumps({
        "parent": os.getpid(),
        "children": [{"name": child.name, "argv": list(child.argv)} for child in children],
    })
    code = "import sys; from service.processes.supervisor import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.Popen([sys.executable, "-c", code, spec], start_new_session=True)


def stop_process(process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """Stops a child with SIGTERM, killing it after *timeout* seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class KeptProcess:
    """A process (*first*, made by *launch*) started again by *launch*, after a
    :class:`Backoff` delay and with one line on stderr, whenever it dies, until :meth:`stop`.
    *gone* names it in the line that says it died, *started* in the line that says what
    replaced it.

    A thread of this process watches it with :meth:`subprocess.Popen.poll`, which also sees
    a death when another part of the process reaped the child: gunicorn's master reaps every
    child with ``waitpid(-1)``, and so takes its exit status (hence "is gone", not how).
    """

    def __init__(self, first: subprocess.Popen[bytes],
                 launch: Callable[[], subprocess.Popen[bytes]], *, gone: str,
                 started: str) -> None:
        self._launch = launch
        self._gone, self._new = gone, started
        self._backoff = Backoff()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self.process = first
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._watch, daemon=True,
                                        name="fortyfive-keep-watch")
        self._thread.start()

    def _watch(self) -> None:
        while not self._stopping.wait(POLL_SECONDS):
            with self._lock:
                if self.process.poll() is None:
                    continue
                gone = self.process.pid
                delay = self._backoff.next_delay(time.monotonic() - self._started)
            print(f"fortyfive: {self._gone} (pid {gone}) is gone; starting a new one in "
                  f"{delay:.1f} s", file=sys.stderr, flush=True)
            if self._stopping.wait(delay):
                return
            with self._lock:
                if self._stopping.is_set():
                    return
                self.process = self._launch()
                self._started = time.monotonic()
            print(f"fortyfive: started {self._new} (pid {self.process.pid})",
                  file=sys.stderr, flush=True)

    def stop(self, timeout: float = GRACE_SECONDS + 5) -> None:
        """Stops watching, then stops the process (SIGTERM, SIGKILL after *timeout*)."""
        self._stopping.set()
        self._thread.join()
        stop_process(self.process, timeout)


class KeptSupervisor(KeptProcess):
    """A supervisor process for *children* (:func:`start`), kept running (:class:`KeptProcess`)."""

    def __init__(self, children: Sequence[ChildSpec]) -> None:
        kept = tuple(children)
        super().__init__(start(kept), lambda: start(kept), gone="the worker's supervisor",
                         started="a new supervisor of the worker")


def main(argv: Sequence[str]) -> int:
    """Runs a supervisor from the JSON spec that :func:`start` passes as the only argument."""
    spec = json.loads(argv[0])
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s fortyfive supervisor: %(message)s"
    )
    supervisor = Supervisor(
        [ChildSpec(child["name"], tuple(child["argv"])) for child in spec["children"]],
        parent_pid=spec["parent"],
    )
    signal.signal(signal.SIGTERM, supervisor.stop)
    signal.signal(signal.SIGINT, supervisor.stop)
    return supervisor.run()
