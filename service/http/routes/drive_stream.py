"""A drive's live stream: a server-sent event for each event of the drive, so the hall's
pages (the projector, the drive page, the director's page) follow it instead of polling.

Each message is ``id: <version>``, ``event: drive``, ``data: {"version", "type", "actor",
"occurred_at", "round", "status", "paused"}``: the drive's version after the event, what it
was (``round_started``, ``score_card_confirmed``...), who decided it and when, the round it
names (``null`` for none), and the drive's status then. A page refetches
what it shows (``GET /v1/drives/{id}``, ``.../standings``) on each. The stream waits on the
drive's own Redis stream (``XREAD BLOCK`` from the last version sent, so nothing is missed
between two waits), ends after ``wait`` idle seconds (the client reconnects with
``Last-Event-ID``), and once the drive is finished and everything was sent (``204`` on
reconnecting, which tells an ``EventSource`` to stop).
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint, abort
from marshmallow import Schema, fields, validate

from engine.drive_state import DriveState
from engine.drives import apply_drive_event, fold_drive
from events.drive_store import DriveStore
from events.envelope import DriveEnvelope
from events.upcasting import decode_drive
from service.application import drives
from service.http.errors import problems
from service.http.repository import services
from service.http.sse import KEEPALIVE_SECONDS, MIN_WAIT_SECONDS

blp = Blueprint("drive_stream", __name__, url_prefix="/v1/drives",
                description="A drive's events, live")

WAIT_STEP_SECONDS = 4.0
"""The longest single XREAD BLOCK of a drive stream: below the store's socket timeout, and
one keep-alive period at most."""


class DriveStreamQuerySchema(Schema):
    """Where a drive's stream starts, and how long it may stay idle."""

    after = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "Start after this version of the drive (Last-Event-ID takes precedence)"})
    wait = fields.Float(validate=validate.Range(min=MIN_WAIT_SECONDS, max=60), metadata={
        "description": "Seconds without events before the stream ends (default 25)"})


def _message(drive: DriveState, envelope: Any) -> bytes:
    data = {"version": drive.version, "type": envelope.type, "actor": envelope.actor,
            "occurred_at": envelope.occurred_at, "round": envelope.data.get("round"),
            "status": drive.status, "paused": drive.paused}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return f"id: {drive.version}\nevent: drive\ndata: {text}\n\n".encode()


def _messages(drive_id: str, envelopes: Sequence[DriveEnvelope],
              after: int) -> Iterator[bytes]:
    """Yields the message of each envelope after version *after*, with the drive as it
    stood after that event."""
    state: DriveState | None = None
    for envelope in envelopes:
        event = decode_drive(envelope)
        state = (fold_drive(drive_id, [event]) if state is None
                 else apply_drive_event(state, event))
        if envelope.version > after:
            yield _message(state, envelope)


def _follow(store: DriveStore, drive_id: str, after: int, wait: float) -> Iterator[bytes]:
    """Yields the stream's chunks: a message per drive event after *after*, a keep-alive
    while idle, until *wait* idle seconds or the drive's finish."""
    yield b"retry: 1000\n\n"
    deadline = time.monotonic() + wait
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        step = min(remaining, WAIT_STEP_SECONDS, KEEPALIVE_SECONDS)
        version = store.wait(drive_id, after, max(int(step * 1000), 1))
        if version <= after:
            yield b": keep-alive\n\n"
            continue
        drive, envelopes = drives.load_envelopes(store, drive_id)
        yield b"".join(_messages(drive_id, envelopes, after))
        after = drive.version
        if drive.finished:
            return
        deadline = time.monotonic() + wait


@blp.route("/<drive_id>/stream")
class DriveStream(MethodView):
    """A drive's events, live."""

    @blp.arguments(DriveStreamQuerySchema(), location="query")
    @blp.response(200, {"type": "string"}, content_type="text/event-stream",
                  description='id: version, event: drive, data: {"version", "type", "actor", '
                              '"occurred_at", "round", "status", "paused"}')
    @blp.alt_response(204, description="The drive is finished and every event was sent")
    @problems(blp, 400, 404, 429, 503)
    def get(self, query: dict[str, Any], drive_id: str) -> Any:
        """Server-sent events: one for each new event of the drive (a round started or ended,
        a board revealed, a score card entered or confirmed, the director's actions, the
        finish), so a page refetches the drive and its standings only when they changed.
        Starts after ``Last-Event-ID``, else ``after``, else the drive's current version;
        ends after ``wait`` idle seconds (default 25) so clients reconnect."""
        store = DriveStore(services().store)
        try:
            drive, _head = drives.load(store, drive_id)
        except drives.DriveNotFoundError:
            abort(404, message=f"no drive {drive_id!r}", code="drive_not_found")
        header = request.headers.get("Last-Event-ID")
        after = query.get("after", drive.version)
        if header is not None:
            if not header.isdigit():
                abort(400, message="Last-Event-ID is a drive version", code="bad_last_event_id")
            after = int(header)
        if after > drive.version:
            abort(400, message=f"there is no version {after} yet: the drive is at version "
                  f"{drive.version}", code="after_beyond_head", current_version=drive.version)
        if drive.finished and after >= drive.version:
            return Response(status=204)
        config = current_app.config
        wait = min(query.get("wait", config["STREAM_WAIT"]), config["STREAM_WAIT_MAX"])
        response = Response(_follow(store, drive_id, after, wait),
                            mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Accel-Buffering"] = "no"
        return response
