"""Games: create one, read the caller's view, act, read the log, follow it live.

The game's version is its ETag (``"<n>"``). An action must send ``If-Match`` with the version
it was decided on (stale: 412 with the current version; missing: 428), and may send an
``Idempotency-Key``: a retry with the same key (per game and seat) appends nothing and gets
the first response again, rebuilt from the events that first attempt appended.
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import orjson
from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from engine.profiles import profile_players
from engine.state import GameState
from replay.views import game_view
from service.application import claims, commands
from service.application.names import SeatNameError
from service.http import sse
from service.http.apikeys import API_KEY_AUTH, OPTIONAL_API_KEY_AUTH
from service.http.auth import OPTIONAL_AUTH, SEAT_AUTH, caller_of, require_seat
from service.http.errors import problems
from service.http.repository import (
    Services,
    checked_key,
    key_first,
    request_game,
    request_seating,
    request_viewer,
    services,
    view_checkpoint,
)
from service.http.schemas.headers import (
    ETAG_HEADER,
    GAME_SEATING_HEADERS,
    IDEMPOTENT_REPLAYED_HEADERS,
    LOCATION_HEADERS,
)
from service.http.schemas.requests import (
    ActionSchema,
    EventsQuerySchema,
    GameCreateSchema,
    GameListQuerySchema,
    StreamQuerySchema,
    ViewQuerySchema,
)
from service.http.schemas.responses import GameCreatedSchema, GameListSchema
from service.http.schemas.views import EventPageSchema, GameViewSchema
from service.http.stream_hub import StreamsFullError

blp = Blueprint(
    "games", __name__, url_prefix="/v1/games", description="Create, watch and play games"
)

_VERSION_TAG = re.compile(r'^\s*(?:"(\d{1,12})"|(\d{1,12}))\s*$', re.ASCII)
_VERSION = re.compile(r"^\s*(\d{1,12})\s*$", re.ASCII)
_KEY = re.compile(r"^[\x21-\x7e]{1,128}$")
_ACTION_HEADERS = [
    {
        "in": "header",
        "name": "If-Match",
        "required": True,
        "description": 'The version the action was decided on, e.g. "12" (412 if stale, 428 if '
        "missing)",
        "schema": {"type": "string", "pattern": r'^(?:"\d{1,12}"|\d{1,12})$'},
    },
    {
        "in": "header",
        "name": "Idempotency-Key",
        "required": False,
        "description": "Any 1-128 visible ASCII characters; a retry with the same key gets "
        "the first response and appends nothing",
        "schema": {"type": "string", "pattern": r"^[\x21-\x7e]{1,128}$"},
    },
]
_LAST_EVENT_ID = [
    {
        "in": "header",
        "name": "Last-Event-ID",
        "required": False,
        "description": "Resume after this version (sent by EventSource on reconnecting)",
        "schema": {"type": "string", "pattern": r"^\d{1,12}$"},
    }
]


_VIEW_JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE
"""How views are encoded: keys sorted, seat numbers as keys written as strings, a newline."""


def etag(version: int) -> str:
    """Returns the ETag of a game at *version*."""
    return f'"{version}"'


def _private(version: int) -> dict[str, str]:
    return {"ETag": etag(version), "Cache-Control": "private, no-store"}


@blp.route("")
class Games(MethodView):
    """The collection of games."""

    @blp.doc(security=API_KEY_AUTH)
    @key_first("listing your games", always=True)
    @blp.arguments(GameListQuerySchema(), location="query")
    @blp.response(200, GameListSchema)
    @problems(blp, 401, 429, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """The games created with the caller's API key, newest first, with their status.

        Pages go back in time: pass the answer's ``next_before`` as ``before``.
        """
        svc = services()
        key = checked_key()
        assert key is not None, "key_first refuses a request without one"
        limit = query["limit"]
        rows = svc.keys.games(key.id, before=query.get("before"), limit=limit)
        games = []
        for game_id, created in rows:
            try:
                folded = commands.load(svc.cache, game_id)
            except commands.GameNotFoundError:
                continue  # Its creation failed after it was recorded (or it is being made).
            games.append(_summary(game_id, created, folded.state))
        next_before = rows[-1][1] if len(rows) == limit else None
        return {"games": games, "next_before": next_before}, 200, {
            "Cache-Control": "private, no-store"}

    @blp.doc(security=OPTIONAL_API_KEY_AUTH)
    @key_first("creating a game")
    @blp.arguments(GameCreateSchema())
    @blp.response(201, GameCreatedSchema, headers=LOCATION_HEADERS)
    @problems(blp, 400, 401, 413, 415, 422, 429, 503)
    def post(self, body: dict[str, Any]) -> Any:
        """Create a game.

        Returns its id, its version and one token per seat (``null`` for a bot), or for a
        seat marked ``claimable`` its one-time ``claim`` (code, API path, invite link)
        instead; and an auditor token only if ``auditor`` is true. Tokens and codes are shown
        only here. A server open to the network needs an API key (``Authorization: Bearer
        <api key>`` or ``X-API-Key``); the game is then listed under ``GET
        /v1/games?mine=true``.
        """
        svc = services()
        key = checked_key()
        seats = body.get("seats")
        if seats is None:
            low, _ = profile_players(body["profile"])
            seat_types = ["human"] * low
            claimable: set[int] = set()
            names: list[str | None] = []
            levels: list[str | None] = []
        else:
            seat_types = [seat["type"] for seat in seats]
            names = [seat["name"] for seat in seats]
            levels = [seat["level"] for seat in seats]
            claimable = {number for number, seat in enumerate(seats) if seat["claimable"]}
        issued: dict[str, Any] = {}

        def register(game_id: str) -> None:
            issued["tokens"] = svc.tokens.issue(game_id, seat_types, claimable=claimable,
                                                auditor=body["auditor"])
            if key is not None:
                svc.keys.record_game(key.id, game_id)

        try:
            created = commands.create_game(
                svc.store, body["profile"], body["options"], seat_types,
                entropy=svc.entropy, before_append=register, bot_pace_ms=body["bot_pace_ms"],
                names=names, bot_levels=levels,
            )
        except SeatNameError as error:
            abort(422, message=str(error), code="invalid_name")
        tokens = issued["tokens"]
        return (
            {
                "id": created.game_id,
                "version": created.version,
                "seats": [
                    {"seat": seat, "type": kind, "level": created.state.seat_levels[seat],
                     "claimable": seat in tokens.claims, "token": token,
                     "claim": _claim(created.game_id, seat, tokens.claims)}
                    for seat, (kind, token) in enumerate(zip(seat_types, tokens.seats, strict=True))
                ],
                "auditor": tokens.auditor is not None,
                "auditor_token": tokens.auditor,
            },
            201,
            {"Location": f"/v1/games/{created.game_id}", "Cache-Control": "no-store",
             "ETag": etag(created.version)},
        )


def _claim(game_id: str, seat: int, codes: dict[int, str]) -> dict[str, str] | None:
    """Returns how *seat* is claimed, if it is claimable."""
    code = codes.get(seat)
    if code is None:
        return None
    return {"code": code, "url": claims.claim_path(game_id, seat),
            "invite": claims.invite_path(game_id, seat, code)}


def _summary(game_id: str, created_micros: int, state: GameState) -> dict[str, Any]:
    """Returns the listing entry of *game_id* in *state*."""
    return {
        "id": game_id,
        "created_at": datetime.fromtimestamp(created_micros / 1e6, UTC).strftime(
            "%Y-%m-%dT%H:%M:%S.%fZ"),
        "profile": state.rules.profile,
        "players": state.rules.players,
        "version": state.version,
        "phase": state.phase,
        "status": game_status(state),
        "winner": state.winner,
        "scores": list(state.scores),
    }


def game_status(state: GameState) -> str:
    """Returns ``in_progress``, ``over`` or ``abandoned`` for *state*."""
    if state.phase != "over":
        return "in_progress"
    return "abandoned" if state.abandoned else "over"


@blp.route("/<game_id>")
class Game(MethodView):
    """One game, as the caller may see it."""

    @blp.doc(security=OPTIONAL_AUTH)
    @blp.arguments(ViewQuerySchema(), location="query")
    @blp.response(200, GameViewSchema, headers=ETAG_HEADER)
    @problems(blp, 401, 403, 404, 429, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The caller's view of the game now.

        A seat token gives the seat's view (own hand, own legal actions), the auditor token
        the auditor's (recorded in the access log while the game is in progress); without a
        token, the spectator's. Every view says whether the game has an auditor and which
        claimable seats are still unclaimed, and carries ``checkpoint``: the latest signed
        checkpoint this viewer may have (docs/verification.md section 8).
        """
        folded = commands.load(services().cache, game_id)
        state, version = folded.state, folded.version
        viewer = request_viewer(game_id, state, query.get("view"), version=version)
        view = game_view(state, viewer) | request_seating(game_id)
        view["checkpoint"] = view_checkpoint(game_id, state, version, folded.head_hash, viewer)
        return _view_response(view, 200, _private(version))


def seat_view_answer(
    svc: Services, game_id: str, authorization: str | None
) -> tuple[dict[str, str], bytes] | None:
    """Returns the headers and body of the 200 that ``GET /v1/games/<id>`` (no query) answers
    the seat whose bearer token is in *authorization*, without Flask (for the WSGI dispatch of
    :mod:`service.http.lean_actions`); ``None`` for any caller but a seat (no token, an API key, the
    auditor): the endpoint answers those itself. Loading the game is all it may have done
    then.

    :raises werkzeug.exceptions.HTTPException: 401 for a token not of this game.
    :raises Exception: as the endpoint raises it (the app's error handlers answer it).
    """
    folded = commands.load(svc.cache, game_id)
    state, version = folded.state, folded.version
    seat = caller_of(svc.tokens, game_id, authorization).seat
    if seat is None:
        return None
    view = game_view(state, seat)
    seating = svc.tokens.seating(game_id)  # What request_seating() gives, from svc.
    view["auditor"] = seating.auditor
    view["unclaimed_seats"] = list(seating.unclaimed)
    view["checkpoint"] = view_checkpoint(game_id, state, version, folded.head_hash, seat, svc)
    return _private(version), orjson.dumps(view, option=_VIEW_JSON)


@blp.route("/<game_id>/actions")
class Actions(MethodView):
    """A seat's actions."""

    @blp.doc(security=SEAT_AUTH, parameters=_ACTION_HEADERS)
    @blp.arguments(ActionSchema())
    @blp.response(201, GameViewSchema, headers={**ETAG_HEADER, **IDEMPOTENT_REPLAYED_HEADERS})
    @problems(blp, 400, 401, 403, 404, 409, 412, 413, 415, 428, 429, 503)
    def post(self, action: dict[str, Any], game_id: str) -> Any:
        """Take an action for the token's seat.

        Returns the seat's new view. A refused action is a 409 with the seat's
        ``legal_actions`` and the ``ruling``; nothing is appended.
        """
        return take_action(action, game_id)


def take_action(action: dict[str, Any], game_id: str) -> Response:
    """Takes *action* (as :class:`ActionSchema` loads it) for the request's seat and returns
    the seat's new view: the body of ``POST /v1/games/<id>/actions`` once its JSON is loaded
    (also the one :mod:`service.http.lean_actions` runs).
    """
    headers = request.headers
    answer_headers, body = action_answer(
        services(), action, game_id, headers.get("Authorization"), headers.get("If-Match"),
        headers.get("Idempotency-Key"),
    )
    return current_app.response_class(body, 201, answer_headers, mimetype="application/json")


def action_answer(
    svc: Services,
    action: dict[str, Any],
    game_id: str,
    authorization: str | None,
    if_match: str | None,
    idempotency_key: str | None,
) -> tuple[dict[str, str], bytes]:
    """Takes *action* for the seat of the bearer token in *authorization*, at the version in
    *if_match*, and returns the headers of the 201 and the seat's new view as JSON: what
    :func:`take_action` answers, from the request's header values, without Flask (the WSGI
    dispatch of :mod:`service.http.lean_actions` calls it directly).

    :raises werkzeug.exceptions.HTTPException: 401, 403, 428 or 400, as the endpoint answers.
    :raises Exception: whatever :func:`service.application.commands.act` raises (the app's error
        handlers answer it).
    """
    # The game as this process holds it: told apart from a missing game before the token is
    # judged, and the state the action is decided on when it is at If-Match's version.
    held = commands.known(svc.cache, game_id)
    seat = require_seat(caller_of(svc.tokens, game_id, authorization))
    expected = if_match_version(if_match)
    key = checked_idempotency_key(idempotency_key)
    result = commands.act(
        svc.store, svc.cache, game_id, seat, action,
        expected_version=expected,
        command_id=f"seat:{seat}:{key}" if key is not None else None,
        entropy=svc.entropy,
        loaded=held,
    )
    headers = _private(result.version)
    if result.duplicate:
        headers["Idempotent-Replayed"] = "true"
    view = game_view(result.state, seat)
    seating = svc.tokens.seating(game_id)  # What request_seating() gives, from svc.
    view["auditor"] = seating.auditor
    view["unclaimed_seats"] = list(seating.unclaimed)
    return headers, orjson.dumps(view, option=_VIEW_JSON)


def _view_response(view: dict[str, Any], status: int, headers: dict[str, str]) -> Response:
    """Returns a game view as JSON, exactly as :func:`replay.views.game_view` built it.

    The view is not dumped through :class:`GameViewSchema` (which documents it): the view
    function builds it field by field for its viewer and is the one place that decides what
    is hidden, and a schema dump of this nested object cost more than the rest of an action
    together. The contract tests hold every view to the schema, unknown fields included.
    It is encoded with orjson (keys sorted, as Flask's encoder sorts them): a view is plain
    JSON that nothing hashes, and the stdlib encoder took a tenth of an action's time.
    """
    body = orjson.dumps(view, option=_VIEW_JSON)
    return current_app.response_class(body, status, headers, mimetype="application/json")


def if_match_version(header: str | None) -> int:
    """Returns the version in an ``If-Match`` header's value *header*.

    :raises werkzeug.exceptions.HTTPException: 428 without one, 400 for anything but one
        version.
    """
    if header is None:
        abort(
            428,
            message='an action needs If-Match: "<version>", the ETag of the view it was '
            "decided on (GET /v1/games/<id>)",
            code="if_match_required",
        )
    match = _VERSION_TAG.match(header or "")
    if match is None:
        abort(
            400,
            message=f'If-Match must be one version such as "12", got {header!r}',
            code="bad_if_match",
        )
    assert match is not None, "checked above"
    return int(match.group(1) or match.group(2))


def checked_idempotency_key(key: str | None) -> str | None:
    """Returns the ``Idempotency-Key`` header's value *key*, if any.

    :raises werkzeug.exceptions.HTTPException: 400 for a key that is not 1-128 visible
        ASCII characters.
    """
    if key is not None and not _KEY.match(key):
        abort(
            400,
            message="Idempotency-Key must be 1 to 128 visible ASCII characters",
            code="bad_idempotency_key",
        )
    return key


@blp.route("/<game_id>/events")
class Events(MethodView):
    """The event log."""

    @blp.doc(security=OPTIONAL_AUTH)
    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.response(200, EventPageSchema, headers=ETAG_HEADER)
    @problems(blp, 401, 403, 404, 429, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The caller's view of the event log, a page at a time (``after`` a version)."""
        _, version, viewer = request_game(game_id, query.get("view"))
        after = query["after"]
        recorded = services().store.read(game_id, after=after, limit=query["limit"])
        last = recorded[-1].version if recorded else min(after, version)
        version = max(version, last)
        page = {
            "events": [sse.event_item(event, viewer) for event in recorded],
            "version": version,
            "next_after": last if last < version else None,
            **request_seating(game_id),
        }
        return page, 200, _private(version)


@blp.route("/<game_id>/stream")
class Stream(MethodView):
    """The event log, live."""

    @blp.doc(security=OPTIONAL_AUTH, parameters=_LAST_EVENT_ID)
    @blp.arguments(StreamQuerySchema(), location="query")
    @blp.response(
        200,
        {"type": "string"},
        content_type="text/event-stream",
        description="id: version, event: type, data: the event as in /events",
        headers=GAME_SEATING_HEADERS,
    )
    @blp.alt_response(204, description="The game is over and every event was sent")
    @problems(blp, 400, 401, 403, 404, 429, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """Server-sent events of the caller's view of each new event.

        Starts after ``Last-Event-ID``, else ``after``, else the current version (beyond
        the current version: 400); ends after ``wait`` idle seconds (default 25, at least
        5, at most 60) so clients reconnect. A server holding its maximum of live streams
        answers 503 with ``Retry-After``.
        """
        state, version, viewer = request_game(game_id, query.get("view"))
        after = _last_event_id()
        if after is None:
            after = query.get("after", version)
        if after > version:
            abort(400, message=f"there is no event {after} yet: the game is at version "
                  f"{version}; resume from a version you received", code="after_beyond_head",
                  current_version=version)
        if state.phase == "over" and after >= version:
            return Response(status=204)
        config = current_app.config
        wait = min(query.get("wait", config["STREAM_WAIT"]), config["STREAM_WAIT_MAX"])
        try:
            subscription = services().streams.subscribe(
                game_id, after, version, over=state.phase == "over"
            )
        except StreamsFullError as error:
            abort(503, message=str(error), code="streams_full",
                  headers={"Retry-After": str(error.retry_after)})
        body = sse.EventStream(subscription, viewer, wait=wait)
        response = Response(body, mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Accel-Buffering"] = "no"
        seating = request_seating(game_id)
        response.headers["Game-Auditor"] = "true" if seating["auditor"] else "false"
        response.headers["Game-Unclaimed-Seats"] = ",".join(map(str, seating["unclaimed_seats"]))
        return response


def _last_event_id() -> int | None:
    """Returns the version in ``Last-Event-ID``, if any.

    :raises werkzeug.exceptions.HTTPException: 400 for one that is not a version.
    """
    header = request.headers.get("Last-Event-ID")
    if header is None:
        return None
    match = _VERSION.match(header)
    if match is None:
        abort(400, message=f"Last-Event-ID must be a version, got {header!r}",
              code="bad_last_event_id")
    assert match is not None, "checked above"
    return int(match.group(1))
