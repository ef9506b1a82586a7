"""The cluster switch: ``REDIS_CLUSTER`` and its companions, and ``serve``/``worker`` refusing
a cluster without what it needs before they start anything."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from service.application.store_settings import StoreSettings, rq_url, store_settings


def test_the_default_is_one_redis_whose_appends_wait_for_nobody() -> None:
    assert store_settings({}) == StoreSettings(cluster=False, replicas=0)
    assert rq_url("redis://store:1", store_settings({})) == "redis://store:1"


def test_a_cluster_waits_for_one_replica_unless_told_otherwise() -> None:
    assert store_settings({"REDIS_CLUSTER": "true"}) == StoreSettings(True, 1, 1000)
    assert store_settings({"REDIS_CLUSTER": "yes", "REDIS_WAIT_REPLICAS": "0",
                           "REDIS_WAIT_TIMEOUT_MS": "250"}) == StoreSettings(True, 0, 250)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("REDIS_CLUSTER", "maybe", "REDIS_CLUSTER must be true or false, got 'maybe'"),
    ("REDIS_WAIT_REPLICAS", "-1", "REDIS_WAIT_REPLICAS must be a whole number of 0 or more"),
    ("REDIS_WAIT_TIMEOUT_MS", "0", "REDIS_WAIT_TIMEOUT_MS must be a whole number of 1 or more"),
])
def test_a_bad_setting_is_named(name: str, value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        store_settings({name: value})


def test_a_cluster_needs_a_queue_of_its_own() -> None:
    cluster = store_settings({"REDIS_CLUSTER": "true"})
    with pytest.raises(ValueError, match="set RQ_REDIS_URL .* to a single Redis"):
        rq_url("redis://seed:1", cluster, environ={})
    assert rq_url("redis://seed:1", cluster, environ={"RQ_REDIS_URL": "redis://q:2"}) == (
        "redis://q:2")
    assert rq_url("redis://seed:1", cluster, "redis://given:3", environ={}) == "redis://given:3"


def _fortyfive(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {name: value for name, value in os.environ.items()
               if name not in ("REDIS_URL", "RQ_REDIS_URL", "REDIS_CLUSTER")}
    return subprocess.run(
        [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
         *args], env={**environ, **env}, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("args", "env", "message"), [
    (("worker", "--redis-cluster"), {"REDIS_URL": "redis://127.0.0.1:1"},
     "fortyfive worker: REDIS_CLUSTER is set, so the queue needs a Redis of its own"),
    (("serve", "--redis-cluster"), {"REDIS_URL": "redis://127.0.0.1:1"},
     "fortyfive serve: REDIS_CLUSTER is set, so the queue needs a Redis of its own"),
    (("serve", "--redis-cluster", "--no-worker"), {},
     "fortyfive serve: REDIS_CLUSTER is set but REDIS_URL is not"),
    (("worker",), {"REDIS_URL": "redis://127.0.0.1:1", "REDIS_CLUSTER": "sometimes"},
     "fortyfive worker: REDIS_CLUSTER must be true or false"),
])
def test_serve_and_worker_refuse_a_cluster_without_what_it_needs(
    args: tuple[str, ...], env: dict[str, str], message: str
) -> None:
    done = _fortyfive(*args, **env)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert done.stderr.count("\n") == 1
