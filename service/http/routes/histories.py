"""Hand histories over HTTP: a game's history, its replay at any event, its audit, and
verifying (and keeping) an uploaded history.

- ``GET /v1/games/{id}/history``: the caller's view of the game as a hand history
  (``format=json`` canonical JSON, or ``format=text`` the notation), the whole game or one
  ``deal``, optionally only up to event ``at``.
- ``GET /v1/games/{id}/replay?at=N``: the caller's view of the game as it stood after event N,
  with that event as the caller may see it.
- ``GET /v1/games/{id}/audit``: the full, explained audit; for the auditor token, or for anyone
  once the game is over (403 ``auditor_only`` otherwise).
- ``POST /v1/histories?mode=dry_run|keep``: reads a history (``{"history": {...}}`` in its JSON
  encoding, or ``{"text": "..."}`` in the notation, hand-written records included) and verifies
  it. ``keep`` also stores it, once per content whatever its tags, compressed, for a time
  (see :mod:`service.http.uploads`); it needs an API key where ``REQUIRE_API_KEY`` is set.
  ``GET /v1/histories/{id}`` returns it.

Every history comes from :mod:`replay` (which hides through :mod:`replay.views` only). A file
that cannot be read is a 422 problem (``unreadable_history``) whose ``errors`` carry each
diagnostic with its line and column or JSON pointer. Bodies are limited to 64 KiB like every
request: send a long history in the notation (less than half the size) or one deal at a time.
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

import dataclasses
import json
from typing import Any

from flask import Response, current_app, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from engine.state import GameState
from events.codec import canonical_json
from replay.errors import HistoryRangeError
from replay.formats.build import build_history
from replay.formats.diagnostics import has_errors
from replay.formats.document import HandHistory
from replay.formats.export import export_text
from replay.formats.importing import ImportResult, read_history
from replay.presentation.audit import explain
from replay.presentation.diagram import render_svg
from replay.verification.verify import verify
from replay.views import game_view
from service.application import access_log
from service.application.signing import key_record, latest_deal_end
from service.http import uploads
from service.http.apikeys import OPTIONAL_API_KEY_AUTH
from service.http.errors import problems
from service.http.repository import (
    key_first,
    load_game,
    load_record,
    request_seating,
    request_viewer,
    services,
)
from service.http.schemas.headers import HISTORY_LOCATION_HEADERS
from service.http.schemas.histories import (
    AuditSchema,
    HandHistorySchema,
    ReplaySchema,
    SubmissionResultSchema,
)
from service.http.schemas.requests import (
    HistoryQuerySchema,
    HistorySubmissionSchema,
    KeptQuerySchema,
    ReplayQuerySchema,
    SubmitQuerySchema,
    ViewQuerySchema,
)
from service.http.sse import event_item

blp = Blueprint("histories", __name__, description="Hand histories, replays and audits")

TEXT_MIMETYPE = "text/plain"
_OPTIONAL_AUTH: list[dict[str, list[str]]] = [{}, {"seatToken": []}]
_TEXT_RESPONSE = {"200": {
    "description": "The history: canonical JSON, or the text notation with ``format=text``",
    "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/HandHistory"}},
        TEXT_MIMETYPE: {"schema": {"type": "string"}},
    },
}}
"""Both encodings of a history response (flask-smorest documents one content type)."""


# Endpoints -----------------------------------------------------------------------------------


@blp.route("/v1/games/<game_id>/history")
class GameHistory(MethodView):
    """A game's hand history."""

    @blp.doc(security=_OPTIONAL_AUTH, responses=_TEXT_RESPONSE)
    @blp.arguments(HistoryQuerySchema, location="query")
    @blp.response(200, HandHistorySchema)
    @problems(blp, 401, 403, 404, 429, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The caller's view of the game as a hand history (JSON or text).

        A seat token gives the seat's view, the auditor token (or, once the game is over,
        ``view=auditor``) the auditor's, no token the spectator's. ``deal`` keeps one deal,
        ``at`` stops after that event.
        """
        state, version = load_game(game_id)
        viewer = request_viewer(game_id, state, query.get("view"), version=version)
        record = load_record(game_id)
        at = query.get("at")
        if at is not None and at > record.version:
            abort(404, message=f"game {game_id!r} has no event {at} yet (it is at version "
                  f"{record.version})", code="event_not_found")
        try:
            history = build_history(game_id, record.events, viewer, deal=query.get("deal"),
                                    as_of=at, tags=_access_tags(game_id, state))
        except HistoryRangeError as error:
            abort(404, message=str(error), code="deal_not_found")
        history = _signed(history)
        return _history_response(history, query["format"], version, served=True)


@blp.route("/v1/games/<game_id>/deals/<int:n>/diagram.svg")
class DealDiagram(MethodView):
    """One deal drawn as a hand diagram."""

    @blp.doc(security=_OPTIONAL_AUTH, responses={"200": {
        "description": "The deal as an SVG picture",
        "content": {"image/svg+xml": {"schema": {"type": "string"}}}}})
    @blp.arguments(ViewQuerySchema, location="query")
    @problems(blp, 401, 403, 404, 429, 503)
    def get(self, query: dict[str, Any], game_id: str, n: int) -> Any:
        """Deal *n* as a hand diagram (SVG): the hands as dealt, trumps and the turn-up,
        the tricks with their winners, the bonus and the scores.

        Drawn from the caller's own hand history of the deal (as ``GET .../history?deal=N``
        with the same token), so it shows exactly the cards that view shows: a seat token its
        own hand, no token none; ``view=auditor`` every hand, with the auditor token or once the
        game is over.
        """
        state, version = load_game(game_id)
        viewer = request_viewer(game_id, state, query.get("view"), version=version)
        record = load_record(game_id)
        try:
            history = build_history(game_id, record.events, viewer, deal=n)
        except HistoryRangeError as error:
            abort(404, message=str(error), code="deal_not_found")
        svg = render_svg(history, n)
        response = Response(svg, mimetype="image/svg+xml")
        response.headers["Cache-Control"] = "private, no-store"
        response.headers["ETag"] = f'"{version}"'
        return response


@blp.route("/v1/games/<game_id>/replay")
class GameReplay(MethodView):
    """A game as it stood after one event."""

    @blp.doc(security=_OPTIONAL_AUTH)
    @blp.arguments(ReplayQuerySchema, location="query")
    @blp.response(200, ReplaySchema)
    @problems(blp, 401, 403, 404, 429, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The caller's view of the game as it stood after event ``at``, and that event."""
        state, version = load_game(game_id)
        viewer = request_viewer(game_id, state, query.get("view"), version=version)
        at = query["at"]
        if at > version:
            abort(404, message=f"game {game_id!r} has no event {at} yet (it is at version "
                  f"{version})", code="event_not_found")
        record = load_record(game_id, upto=at)
        body = {
            "at": at,
            "version": version,
            "event": event_item(record.events[-1], viewer),
            "game": game_view(record.state, viewer) | request_seating(game_id),
        }
        return body, 200, {"Cache-Control": "private, no-store"}


@blp.route("/v1/games/<game_id>/audit")
class GameAudit(MethodView):
    """The full, explained audit of a game."""

    @blp.doc(security=_OPTIONAL_AUTH)
    @blp.response(200, AuditSchema)
    @problems(blp, 401, 403, 404, 429, 503)
    def get(self, game_id: str) -> Any:
        """The audit: the auditor's history, its verification, and per deal the shuffle proof
        and every ruling explained. Needs the auditor token until the game is over."""
        state, version = load_game(game_id)
        request_viewer(game_id, state, "auditor", version=version)
        record = load_record(game_id)
        history = build_history(game_id, record.events, "auditor")
        history = _signed(history)
        audit = explain(history)
        tokens = services().tokens
        audit["access"] = {"auditor": tokens.seating(game_id).auditor,
                           "live_reads": access_log.count(tokens, game_id),
                           "log": f"/v1/games/{game_id}/access-log"}
        body = canonical_json(audit).decode()
        return _raw(body, "application/json", version)


@blp.route("/v1/histories")
class Histories(MethodView):
    """Uploaded histories: verify, and keep."""

    @blp.doc(security=OPTIONAL_API_KEY_AUTH)
    @key_first("keeping a history", when=lambda: request.args.get("mode") == "keep")
    @blp.arguments(SubmitQuerySchema, location="query")
    @blp.arguments(HistorySubmissionSchema)
    @blp.response(200, SubmissionResultSchema, description="Verified (dry run)")
    @blp.alt_response(201, schema=SubmissionResultSchema, description="Verified and kept",
                      headers=HISTORY_LOCATION_HEADERS)
    @problems(blp, 400, 401, 413, 415, 422, 429, 503)
    def post(self, query: dict[str, Any], body: dict[str, Any]) -> Any:
        """Reads and verifies a history; with ``mode=keep`` also keeps it.

        The answer says whether it verified (``ok``), the diagnostics of reading it and the
        full verification report. A history that cannot be read at all is a 422 whose
        ``errors`` list each problem with its position.
        """
        result = _read(body)
        history = result.history
        if history is None or has_errors(result.diagnostics) or not history.sealed:
            abort(422, message="the history cannot be read: "
                  + "; ".join(str(d) for d in result.diagnostics[:5]),
                  code="unreadable_history",
                  errors={"history": [d.to_dict() for d in result.diagnostics]})
            raise AssertionError("abort raises")  # pragma: no cover
        report = verify(history)
        answer: dict[str, Any] = {
            "ok": report.ok, "id": None, "url": None,
            "diagnostics": [d.to_dict() for d in result.diagnostics],
            "verification": report.to_dict(),
        }
        if query["mode"] == "dry_run":
            return answer
        config = current_app.config
        try:
            kept = uploads.keep(services().store.client, history,
                                ttl=config["KEPT_HISTORY_TTL"],
                                max_bytes=config["KEPT_HISTORY_MAX_BYTES"])
        except uploads.HistoryTooLargeError as error:
            abort(413, message=str(error), code="history_too_large")
            raise AssertionError("abort raises") from None  # pragma: no cover
        url = url_for("histories.KeptHistory", history_id=kept.history_id)
        answer.update(id=kept.history_id, url=url, expires_in=kept.ttl)
        return answer, 201, {"Location": url}


@blp.route("/v1/histories/<history_id>")
class KeptHistory(MethodView):
    """A kept history."""

    @blp.doc(security=[{}], responses=_TEXT_RESPONSE)
    @blp.arguments(KeptQuerySchema, location="query")
    @blp.response(200, HandHistorySchema)
    @problems(blp, 404, 429, 503)
    def get(self, query: dict[str, Any], history_id: str) -> Any:
        """A history kept by ``POST /v1/histories?mode=keep``, in either encoding."""
        stored = uploads.load(services().store.client, history_id)
        if stored is None:
            abort(404, message=f"there is no kept history {history_id!r}",
                  code="history_not_found")
            raise AssertionError("abort raises")  # pragma: no cover
        result = read_history(stored, format="json")
        if result.history is None:
            abort(404, message=f"the kept history {history_id!r} cannot be read",
                  code="history_not_found")
        assert result.history is not None
        return _history_response(result.history, query["format"], None)


def _signed(history: HandHistory) -> HandHistory:
    """Returns *history* carrying the latest checkpoint its viewer may have, and the public
    key that signed it (so that the signature can be checked offline)."""
    checkpoint = _checkpoint_of(history)
    key = None if checkpoint is None else key_record(services().store.client,
                                                      checkpoint["key_id"])
    return dataclasses.replace(history, checkpoint=checkpoint, checkpoint_key=key)


def _checkpoint_of(history: HandHistory) -> dict[str, Any] | None:
    """Returns the latest checkpoint *history*'s viewer may have: its head, signed, when the
    view shows it, else the one signed at the end of the last deal before."""
    assert history.game_id is not None
    last = history.events[-1]
    if history.head is not None:
        return services().signing.checkpoint(history.game_id, last.version, history.head)
    found = latest_deal_end(services().store.client, history.game_id, upto=last.version)
    held = {event.version: event.hash for event in history.events}
    if history.start is not None:
        held[history.start.version] = history.start.hash
    if found is None or held.get(found["version"]) != found["head"]:
        return None  # Not one this history can be checked against.
    return found


def _read(body: dict[str, Any]) -> ImportResult:
    """Reads the submitted history in whichever encoding it was sent."""
    if "text" in body:
        return read_history(body["text"], format="text")
    return read_history(json.dumps(body["history"]), format="json")


def _access_tags(game_id: str, state: GameState) -> dict[str, str]:
    """Returns the tags every history of *game_id* carries: whether it has an auditor, the
    seats still unclaimed, and, once the game is over, how many live reads the auditor made
    (the seats read each in ``GET /v1/games/{id}/access-log``)."""
    tokens = services().tokens
    seating = tokens.seating(game_id)
    tags = {"Auditor": "yes" if seating.auditor else "no"}
    if seating.unclaimed:
        tags["UnclaimedSeats"] = " ".join(map(str, seating.unclaimed))
    if seating.auditor and state.phase == "over":
        tags["AuditorLiveReads"] = str(access_log.count(tokens, game_id))
    return tags


def _history_response(history: HandHistory, encoding: str, version: int | None, *,
                      served: bool = False) -> Response:
    """Returns *history* in *encoding*; a history the service cut (*served*) always has
    ``checkpoint`` in JSON, null where none exists (a kept upload is returned as it came)."""
    if encoding == "text":
        return _raw(export_text(history), f"{TEXT_MIMETYPE}; charset=utf-8", version,
                    history.head)
    body = history.to_dict()
    if served:
        body["checkpoint"] = history.checkpoint
    return _raw(canonical_json(body).decode(), "application/json", version, history.head)


def _raw(body: str, mimetype: str, version: int | None, head: str | None = None) -> Response:
    response = current_app.response_class(body, status=200, content_type=mimetype)
    response.headers["Cache-Control"] = "private, no-store"
    if head is not None:
        response.headers["ETag"] = f'"{head}"'
    elif version is not None:
        response.headers["ETag"] = f'"{version}"'
    return response
