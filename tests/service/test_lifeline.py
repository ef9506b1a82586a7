"""However a test run ends, the servers it started end with it (issue 29: two runs stopped by
``timeout`` had left 15 redis-servers holding their ports).

A pytest of its own runs tests/web/lifeline_probe.py, which starts a server of every kind the
suite starts (redis-servers single and cluster nodes, ``fortyfive serve`` with its embedded
redis-server and worker, chromedriver and chromium); the run is killed with SIGTERM (what
``timeout`` sends: no teardown runs) or SIGKILL (as a crash), and every process it had
started must end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from serve_helpers import DEADLINE, alive, children, cmdline, wait_until

from service.processes.lifeline import parent_death_signal

TESTS = Path(__file__).resolve().parents[1]
PROBE = TESTS / "web" / "lifeline_probe.py"

sys.path.insert(0, str(PROBE.parent))
from lifeline_probe import READY_ENV  # noqa: E402
from web_helpers import chromium_installed  # noqa: E402

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="parent-death signals are Linux's")


def descendants(pid: int) -> list[int]:
    """Every living process below *pid*, children first."""
    found, queue = [], [pid]
    while queue:
        below = children(queue.pop(0))
        found += below
        queue += below
    return found


def programs(pids: list[int]) -> list[str]:
    """The program name of each process in *pids* (``/proc``'s ``comm``), with
    ``fortyfive serve`` for a serve process."""
    named = []
    for pid in pids:
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            name = "(gone)"
        named.append("fortyfive serve" if b"\0serve\0" in cmdline(pid) else name)
    return named


def start_run(folder: Path) -> subprocess.Popen[bytes]:
    """Starts the probe in a pytest of its own, its output in *folder*/run.log."""
    folder.mkdir()
    with (folder / "run.log").open("wb") as sink:
        return subprocess.Popen(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             "--basetemp", str(folder / "tmp"), str(PROBE)],
            cwd=TESTS.parent, env={**os.environ, READY_ENV: str(folder / "ready")},
            stdout=sink, stderr=subprocess.STDOUT, preexec_fn=parent_death_signal(),
        )


def test_a_test_run_killed_by_sigterm_or_sigkill_leaves_no_server_behind(tmp_path: Path) -> None:
    # Two runs side by side (the slow part is starting them): one for each signal.
    runs = {signum: start_run(tmp_path / signum.name)
            for signum in (signal.SIGTERM, signal.SIGKILL)}
    started: dict[int, str] = {}
    try:
        for signum, run in runs.items():
            folder = tmp_path / signum.name
            wait_until(lambda f=folder, r=run: (f / "ready").exists() or r.poll() is not None,
                       f"the probe to be killed by {signum.name} starting its servers",
                       3 * DEADLINE)
            assert run.poll() is None, (folder / "run.log").read_text("utf-8", "replace")
            pids = descendants(run.pid)
            names = programs(pids)
            # The session's server, two cluster nodes and serve's own.
            assert names.count("redis-server") == 4, names
            assert "fortyfive serve" in names, names
            if chromium_installed():
                assert "chromedriver" in names and "chromium" in names, names
            started.update(zip(pids, names, strict=True))
        for signum, run in runs.items():
            os.kill(run.pid, signum)
        for signum, run in runs.items():
            assert run.wait(DEADLINE) == -signum
        wait_until(lambda: not [pid for pid in started if alive(pid)],
                   "every process the runs started ending")
    finally:
        for run in runs.values():
            if run.poll() is None:
                run.kill()
                run.wait()
        left = [f"{pid} {name}" for pid, name in started.items() if alive(pid)]
    assert not left


def test_no_parent_death_signal_is_armed_from_a_thread_that_is_not_the_main_one() -> None:
    # The kernel would send it when that thread ends, stopping the child too early.
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(parent_death_signal()))
    thread.start()
    thread.join()
    assert found == [None]
    assert parent_death_signal() is not None
