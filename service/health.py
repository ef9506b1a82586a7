"""Liveness and readiness probes.

``/healthz`` answers while the process serves requests; ``/readyz`` also pings the event
store and answers 503 (``store_unavailable``; the address and the cause go to the log, not to
the client) when it cannot be reached, so a load balancer stops sending games to a process
that cannot play them.
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.repository import services
from service.schemas import StatusSchema

blp = Blueprint("health", __name__, description="Liveness and readiness")


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
    @blp.response(200, StatusSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def get(self) -> Any:
        """The process is up and the event store answers."""
        latency = services().store.ping()
        return {"status": "ready", "latency_ms": round(latency * 1000, 3)}
