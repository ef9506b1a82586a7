"""Fixtures shared by the whole suite.

- A private redis-server for the session (never a server the suite did not start), and
  ``redis_url`` / ``redis_client`` / ``store`` on it. Tests use fresh game ids (``game_id``)
  instead of flushing, so they can share the server.
- Every test fails if something logs at ERROR (python-chess ``RaiseLogHandler``); a test
  that expects such a log reads and clears ``error_logs``.
- SIGTERM and SIGINT keep their handlers from test to test, so a run stopped by a signal
  stops (``default_signal_handlers``).
- A strong bot's budget is 5 ms of CPU per decision (``BOT_BUDGET_MS``), unless set.
- Under CI (``CI`` set), Hypothesis runs derandomized and without its example database, so a
  CI run is reproducible: property tests explore afresh on developers' machines instead.
  Everywhere, it has no deadline and no "too slow" health check: a loaded machine is slow,
  not wrong.
"""

from __future__ import annotations

import logging
import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from hypothesis import HealthCheck, settings

import engine.actions  # noqa: F401  (the move path, compiled or not: the header says which)
from engine.compiled import compiled_modules, stale_modules
from events.redis_store import RedisEventStore
from service.processes.embedded_cluster import EmbeddedCluster
from service.processes.embedded_redis import EmbeddedRedis

# Nothing may depend on timing (benchmarks measure speed): no deadline, and no health check
# that fails because generating examples was slow on a loaded machine.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", parent=settings.get_profile("suite"), derandomize=True, database=None, print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "suite")

# A strong bot spends BOT_BUDGET_MS of CPU on each decision (100 by default): the suite's games
# with strong bots (every bot seat of a game with a person, unless the test names basic) get a
# small budget, so that the suite stays fast on two cores. The processes it starts inherit it.
os.environ.setdefault("BOT_BUDGET_MS", "5")


def pytest_report_header() -> str:
    compiled = compiled_modules()
    if compiled:
        return f"engine: {len(compiled)} modules compiled by mypyc (setup.py)"
    return "engine: plain Python (not compiled)"


def pytest_configure(config: pytest.Config) -> None:
    stale = stale_modules()
    if stale:
        pytest.exit(f"the source of {', '.join(stale)} changed after it was compiled, so the "
                    "tests would run the old code: ./dev test compiles it again (or "
                    "pip install -e . in this environment)", returncode=4)


class ErrorLogRecorder(logging.Handler):
    """Collects the records logged at ERROR or above during one test."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def error_logs() -> Iterator[ErrorLogRecorder]:
    """Fails the test if anything logs at ERROR; clear ``records`` to accept expected ones."""
    recorder = ErrorLogRecorder()
    root = logging.getLogger()
    root.addHandler(recorder)
    try:
        yield recorder
    finally:
        root.removeHandler(recorder)
    if recorder.records:
        lines = "\n".join(f"{r.name}: {r.getMessage()}" for r in recorder.records)
        pytest.fail(f"ERROR logged during the test:\n{lines}", pytrace=False)


@pytest.fixture(autouse=True)
def default_signal_handlers() -> Iterator[None]:
    """Gives SIGTERM and SIGINT back their handlers after each test. An RQ worker run in this
    process (``work(burst=True)``) installs its own, for a warm shutdown, and leaves them: a
    SIGTERM to the run (``timeout``) would then be taken for a request to stop a worker that is
    long gone, and the suite would go on."""
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for signum, handler in saved.items():
            if handler is not None:  # None: set outside Python, and not ours to change.
                signal.signal(signum, handler)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """A private redis-server (AOF, fsync always) on a free port, for the whole session."""
    server = EmbeddedRedis(Path(tmp_path_factory.mktemp("redis")))
    with server:
        yield server


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedCluster]:
    """A private Redis Cluster for the session: three masters with a replica each, six
    redis-servers on free loopback ports, a node timeout of a second (fast failovers).
    A test that kills a node brings it back (:meth:`EmbeddedCluster.revive`) before it ends."""
    data_dir = Path(tmp_path_factory.mktemp("cluster6"))
    with EmbeddedCluster(data_dir, node_timeout_ms=1000) as cluster:
        yield cluster


@pytest.fixture
def redis_url(redis_server: EmbeddedRedis) -> str:
    """The URL of the session's private redis-server."""
    return redis_server.url


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client of the session's redis-server that decodes replies to str."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def store(redis_url: str) -> Iterator[RedisEventStore]:
    """An event store on the session's redis-server, with an empty head cache."""
    with RedisEventStore.from_url(redis_url) as event_store:
        yield event_store


@pytest.fixture
def game_id() -> str:
    """A game id no other test uses."""
    return f"g-{uuid.uuid4().hex}"
