"""Children that end with the process that started them, however it ends (Linux).

A redis-server the service or a test starts runs in a session of its own (a terminal's Ctrl+C
must not stop the store before the processes that use it), so nothing stopped it when its
parent was killed: it outlived a ``kill -9`` of ``fortyfive serve`` or a test run stopped by
``timeout``, holding its port and its data directory. :func:`parent_death_signal` gives such a
child a parent-death signal (``prctl(PR_SET_PDEATHSIG)``): the kernel sends it SIGTERM (a
redis-server's clean shutdown) the moment its parent dies, even by SIGKILL.

The kernel ties the signal to the *thread* that started the child, not to the process: a
child started from a thread that ends before the process would be stopped with that thread.
So the signal is armed only for children the main thread starts; elsewhere, and on systems
without ``prctl``, :func:`parent_death_signal` returns ``None`` and the child outlives its
parent as before.

A program that another program starts (a browser started by chromedriver) cannot be given a
``preexec_fn``; ``python -m service.processes.lifeline PROGRAM [ARGS...]`` runs it with the
signal armed against whoever started it.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable

PR_SET_PDEATHSIG = 1
"""``prctl``'s option that sets the signal sent to the calling process when its parent dies."""


def parent_death_signal(signum: signal.Signals = signal.SIGTERM) -> Callable[[], None] | None:
    """Returns a ``preexec_fn`` for :class:`subprocess.Popen` that makes the child receive
    *signum* when this process dies, or ``None`` where that cannot be armed (not Linux, no
    ``prctl`` in the C library, or not the main thread: see the module's docstring)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    prctl = _prctl()
    if prctl is None:
        return None
    return functools.partial(_arm, prctl, signum, os.getpid())


def _prctl() -> Callable[..., int] | None:
    """The C library's ``prctl``, or ``None`` off Linux or without it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return function


def _arm(prctl: Callable[..., int], signum: signal.Signals, parent: int) -> None:
    """Asks for *signum* at the parent's death; if the parent, *parent*, died already (the
    signal would never come), sends it now. Runs in the child, between fork and exec."""
    prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(int(signum)))
    if os.getppid() != parent:
        os.kill(os.getpid(), signum)


def main(argv: list[str]) -> int:
    """Runs ``PROGRAM [ARGS...]`` in this process with SIGTERM armed for the death of this
    process' parent; without ``prctl``, runs it plainly."""
    if not argv:
        print("usage: python -m service.processes.lifeline PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    parent = os.getppid()
    prctl = _prctl()
    if prctl is not None:
        _arm(prctl, signal.SIGTERM, parent)
    try:
        os.execvp(argv[0], argv)
    except OSError as error:
        print(f"service.processes.lifeline: cannot run {argv[0]}: {error}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
