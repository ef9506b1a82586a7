"""The workers' heartbeats in the store, and ``/readyz``'s verdict on them."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
import redis
from flask.testing import FlaskClient

from service.application import heartbeats
from service.http.app import create_app


@pytest.fixture
def beats(redis_client: redis.Redis) -> Iterator[redis.Redis]:
    """The session's store with no heartbeats in it (before and after the test)."""
    redis_client.delete(heartbeats.HEARTBEATS_KEY)
    yield redis_client
    redis_client.delete(heartbeats.HEARTBEATS_KEY)


def _record(client: redis.Redis, field: str, age: float, **facts: float) -> None:
    client.hset(heartbeats.HEARTBEATS_KEY, field,
                json.dumps({"at": time.time() - age, **facts}))


def _ready_client(redis_url: str, *, needs_workers: bool) -> FlaskClient:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True,
                      "READY_NEEDS_WORKERS": needs_workers, "READY_STALE_SECONDS": 10})
    return app.test_client()


def test_the_freshest_heartbeat_of_each_part_counts(beats: redis.Redis) -> None:
    _record(beats, "worker:old:1", age=500)
    _record(beats, "worker:new:2", age=1)
    _record(beats, "dispatcher:new:2", age=2, lag_s=0.5)
    beats.hset(heartbeats.HEARTBEATS_KEY, "worker:garbled:3", "not json")
    latest = heartbeats.latest(beats)
    assert latest["worker"] is not None and time.time() - latest["worker"]["at"] < 5
    assert latest["dispatcher"] is not None and latest["dispatcher"]["lag_s"] == 0.5


def test_a_runner_forgets_its_heartbeats_and_old_ones_are_pruned(beats: redis.Redis) -> None:
    heartbeats.beat(beats, "worker", "host:1")
    heartbeats.beat(beats, "dispatcher", "host:1", lag_s=0.0)
    _record(beats, "worker:dead:9", age=heartbeats.FORGET_SECONDS + 60)
    assert heartbeats.prune(beats) == 1
    assert set(beats.hkeys(heartbeats.HEARTBEATS_KEY)) == {"worker:host:1", "dispatcher:host:1"}
    heartbeats.forget(beats, "host:1")
    assert heartbeats.latest(beats) == {"worker": None, "dispatcher": None}


@pytest.mark.parametrize(
    ("worker_age", "dispatcher_age", "lag", "stale"),
    [
        (1.0, 1.0, 0.0, []),
        (11.0, 1.0, 0.0, ["worker"]),
        (1.0, 11.0, 0.0, ["dispatcher"]),
        (1.0, 1.0, 12.0, ["dispatcher"]),
        (None, None, None, ["worker", "dispatcher"]),
    ],
)
def test_a_part_is_stale_when_its_heartbeat_or_the_dispatchers_lag_is_too_old(
    worker_age: float | None, dispatcher_age: float | None, lag: float | None, stale: list[str]
) -> None:
    now = 1000.0
    beats: dict[heartbeats.Role, dict[str, float] | None] = {
        "worker": None if worker_age is None else {"at": now - worker_age},
        "dispatcher": None if dispatcher_age is None
        else {"at": now - dispatcher_age, "lag_s": lag or 0.0},
    }
    required = heartbeats.readiness(beats, now=now, stale_after=10, workers_required=True)
    assert required["stale"] == stale
    assert required["status"] == ("degraded" if stale else "ready")
    assert required["worker"]["heartbeat_age_s"] == worker_age
    assert required["dispatcher"]["lag_s"] == lag
    elsewhere = heartbeats.readiness(beats, now=now, stale_after=10, workers_required=False)
    assert elsewhere["stale"] == stale and elsewhere["status"] == "ready"


def test_readyz_reports_the_heartbeats_and_is_ready_while_they_are_fresh(
    beats: redis.Redis, redis_url: str
) -> None:
    _record(beats, "worker:h:1", age=2)
    _record(beats, "dispatcher:h:1", age=1, lag_s=0.25, lag_entries=7)
    response = _ready_client(redis_url, needs_workers=True).get("/readyz")
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ready" and body["stale"] == [] and body["workers_required"]
    assert 2 <= body["worker"]["heartbeat_age_s"] < 10
    assert body["dispatcher"]["lag_s"] == 0.25 and body["dispatcher"]["lag_entries"] == 7
    assert body["dispatcher"]["stale"] is False
    assert body["latency_ms"] >= 0


def test_readyz_is_degraded_with_503_when_its_own_worker_is_stale(
    beats: redis.Redis, redis_url: str
) -> None:
    _record(beats, "worker:h:1", age=60)
    _record(beats, "dispatcher:h:1", age=1, lag_s=0.0)
    response = _ready_client(redis_url, needs_workers=True).get("/readyz")
    assert response.status_code == 503
    assert response.headers["Retry-After"]
    body = response.get_json()
    assert body["status"] == "degraded" and body["stale"] == ["worker"]
    assert body["worker"] == {"heartbeat_age_s": pytest.approx(60, abs=5), "stale": True}


def test_readyz_of_a_process_whose_workers_run_elsewhere_reports_them_but_stays_ready(
    beats: redis.Redis, redis_url: str
) -> None:
    response = _ready_client(redis_url, needs_workers=False).get("/readyz")
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ready" and body["workers_required"] is False
    assert body["stale"] == ["worker", "dispatcher"]
    assert body["dispatcher"] == {
        "heartbeat_age_s": None, "lag_s": None, "lag_entries": None, "stale": True
    }


def test_a_stale_threshold_that_is_not_a_number_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("READY_STALE_SECONDS", "soon")
    with pytest.raises(ValueError, match="READY_STALE_SECONDS must be a number of seconds"):
        create_app({"TESTING": True})
