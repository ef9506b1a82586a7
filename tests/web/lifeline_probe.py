"""Not a test of the suite (its name has no ``test_`` prefix, so pytest does not collect it):
tests/service/test_lifeline.py runs it in a pytest of its own and kills that pytest once it
has started one server of every kind the suite starts, to see that none outlives the run.

It starts the session's redis-server (the suite's own fixture), a Redis Cluster of two nodes
(the session's has six of the same :class:`EmbeddedCluster` nodes: two are cheaper to start),
a ``fortyfive serve`` (its embedded redis-server, worker supervisor, worker and gunicorn
worker) and, where chromium is installed, the browser fixture's chromedriver and chromium;
then it writes the file named by :data:`READY_ENV` and waits to be killed. Before, an RQ
worker runs in the process as tests/web/test_drive_page.py's does, which installs handlers of
SIGTERM and SIGINT of its own (the suite's ``default_signal_handlers`` takes them back).
"""

from __future__ import annotations

import os
import sys
import threading
import uuid
from pathlib import Path

import pytest
import redis
from rq import Queue, SimpleWorker
from web_helpers import chromium_installed

from service.processes.embedded_cluster import EmbeddedCluster
from service.processes.embedded_redis import EmbeddedRedis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "service"))
from serve_helpers import serving  # noqa: E402

READY_ENV = "FORTYFIVE_LIFELINE_READY"
"""The file the probe writes once everything runs (only the run of test_lifeline sets it)."""

pytestmark = pytest.mark.skipif(
    READY_ENV not in os.environ, reason="run by tests/service/test_lifeline.py only")


def test_an_rq_worker_runs_in_the_process(redis_server: EmbeddedRedis) -> None:
    connection = redis.Redis.from_url(redis_server.url)
    try:
        SimpleWorker([Queue(f"probe-{uuid.uuid4().hex}", connection=connection)],
                     connection=connection).work(burst=True)
    finally:
        connection.close()


def test_start_every_kind_of_server_then_wait_to_be_killed(
    request: pytest.FixtureRequest, tmp_path: Path, redis_server: EmbeddedRedis,
) -> None:
    with EmbeddedCluster(tmp_path / "cluster", masters=1, replicas=1), serving(tmp_path):
        if chromium_installed():
            request.getfixturevalue("chrome").get("about:blank")
        Path(os.environ[READY_ENV]).write_text("ready", "utf-8")
        threading.Event().wait()  # Until the run is killed.
