"""The supervisor: its backoff policy (no processes), and restarting and stopping real ones."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading

import pytest
from serve_helpers import alive, wait_until

from service.application.backoff import Backoff
from service.processes.supervisor import ChildSpec, Supervisor, describe_exit

SLEEPER = ChildSpec("sleeper", (sys.executable, "-c", "import time; time.sleep(600)"))


def test_backoff_doubles_up_to_its_cap() -> None:
    backoff = Backoff(initial=0.5, factor=2, cap=4, reset_after=60)
    assert [backoff.next_delay() for _ in range(6)] == [0.5, 1, 2, 4, 4, 4]


def test_backoff_starts_over_after_a_healthy_run_but_not_after_a_short_one() -> None:
    backoff = Backoff(initial=1, factor=2, cap=30, reset_after=60)
    assert [backoff.next_delay(healthy_for=5) for _ in range(3)] == [1, 2, 4]
    assert backoff.next_delay(healthy_for=59.9) == 8
    assert backoff.next_delay(healthy_for=60) == 1
    assert backoff.next_delay() == 2
    backoff.reset()
    assert backoff.next_delay() == 1


def test_backoff_stays_at_its_cap_however_long_the_failures_last() -> None:
    backoff = Backoff(initial=0.1, cap=2)
    delays = [backoff.next_delay() for _ in range(5000)]
    assert delays[-1] == 2 and max(delays) == 2


def test_a_death_is_described_by_its_signal_or_status() -> None:
    assert describe_exit(-signal.SIGKILL) == "was killed by SIGKILL"
    assert describe_exit(-signal.SIGSEGV) == "was killed by SIGSEGV"
    assert describe_exit(3) == "exited with status 3"


@pytest.fixture
def supervisor() -> Supervisor:
    return Supervisor([SLEEPER], backoff=lambda: Backoff(initial=0.05, cap=0.2), grace=5)


def test_a_killed_child_is_restarted_and_logged_and_all_stop_with_the_supervisor(
    supervisor: Supervisor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="service.processes.supervisor")
    loop = threading.Thread(target=supervisor.run)
    loop.start()
    try:
        first = wait_until(lambda: supervisor.pids()["sleeper"], "the child's start")
        os.kill(first, signal.SIGKILL)
        second = wait_until(lambda: (pid := supervisor.pids()["sleeper"]) != first and pid,
                            "the child's restart")
    finally:
        supervisor.stop()
        loop.join(30)
    assert not loop.is_alive()
    assert not alive(second), "the child stops with the supervisor"
    lines = [record.getMessage() for record in caplog.records]
    assert f"started sleeper (pid {first})" in lines
    assert any(line.startswith(f"sleeper (pid {first}) was killed by SIGKILL after ")
               and line.endswith("restarting it in 0.1 s") for line in lines), lines
    assert f"restarted sleeper (pid {second}, restart 1)" in lines


def test_the_supervisor_process_stops_its_children_when_its_parent_dies() -> None:
    # A parent that starts a supervisor, waits for its child, prints both pids and exits.
    code = f"""
import pathlib, time
from service.processes.supervisor import ChildSpec, start
supervisor = start([ChildSpec("sleeper", {SLEEPER.argv!r})]).pid
task = pathlib.Path(f"/proc/{{supervisor}}/task/{{supervisor}}/children")
while not task.read_text().split():
    time.sleep(0.05)
print(supervisor, task.read_text().split()[0], flush=True)
"""
    parent = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True,
                            timeout=60)
    supervisor, child = (int(pid) for pid in parent.stdout.split())
    wait_until(lambda: not alive(child) and not alive(supervisor),
               "the orphaned supervisor stopping its child, then itself")
