"""Liveness and readiness probes.

``/healthz`` answers while the process serves requests; ``/readyz`` also pings the event store and
answers 503 (``store_unavailable``; the address and the cause go to the log, not to the client) when
it cannot be reached, so a load balancer stops sending games to a process that cannot play them. It
also reports the workers' heartbeats (:mod:`service.application.heartbeats`): the RQ worker's age
and the dispatcher's age and lag. A process that runs its own worker (``READY_NEEDS_WORKERS``)
answers 503 with ``status: degraded`` and the stale components in ``stale`` while either is stale.
Under ``fortyfive serve``'s own redis-server (``EMBEDDED_REDIS_DIR``) both answers, and the 503
while the store is down, carry ``embedded_redis``: what its keeper recorded
(:mod:`service.application.keeper_status`).
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

import time
from typing import Any

import redis
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from events.store import StoreUnavailableError
from service.application import heartbeats, keeper_status
from service.http.errors import PROBLEM_JSON, ProblemSchema, unavailable
from service.http.repository import services
from service.http.schemas.responses import ReadySchema, StatusSchema

blp = Blueprint("health", __name__, description="Liveness and readiness")

_UNREADY = (
    "Degraded (application/json): this process runs a worker whose heartbeat, or its "
    "dispatcher's lag, is stale; `stale` lists which. Or the store is down "
    "(application/problem+json, code `store_unavailable`)."
)


@blp.route("/healthz")
class Health(MethodView):
    """Liveness."""

    @blp.doc(security=[{}])
    @blp.response(200, StatusSchema)
    def get(self) -> Any:
        """The process is up."""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    """Readiness."""

    @blp.doc(security=[{}])
    @blp.response(200, ReadySchema)
    @blp.alt_response(503, schema=ReadySchema, content_type="application/json",
                      description=_UNREADY)
    @blp.alt_response(503, schema=ProblemSchema, content_type=PROBLEM_JSON,
                      description=_UNREADY)
    def get(self) -> Any:
        """The process is up, the event store answers and the workers beat."""
        store = services().store
        embedded_dir = current_app.config["EMBEDDED_REDIS_DIR"]
        embedded = keeper_status.shown(embedded_dir) if embedded_dir else None
        try:
            latency = store.ping()
            try:
                beats = heartbeats.latest(store.client)
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
                raise StoreUnavailableError(f"store unavailable: {error}") from error
        except StoreUnavailableError as error:
            return unavailable(error, embedded_redis=embedded)
        ready = heartbeats.readiness(
            beats,
            now=time.time(),
            stale_after=current_app.config["READY_STALE_SECONDS"],
            workers_required=current_app.config["READY_NEEDS_WORKERS"],
        )
        body = {**ready, "latency_ms": round(latency * 1000, 3)}
        if embedded is not None:
            body["embedded_redis"] = embedded
        if ready["status"] == "degraded":
            return body, 503, {"Retry-After": "5"}
        return body
