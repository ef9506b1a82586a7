"""Seats over HTTP: claiming a claimable seat, and the access log the seats read at the end.

- ``POST /v1/games/{id}/seats/{seat}/claim`` with ``{"code": ..., "name"?: ...}``: mints the seat's
  token for the holder of its invite, once (:mod:`service.application.claims`), recording the name
  given. A code that is not the seat's is a 404 (``claim_not_found``); a second claim is a 410
  (``seat_claimed``); a blank or long name a 422 (``invalid_name``), another seat's a 409
  (``name_taken``), and the seat stays unclaimed.
- ``GET /v1/games/{id}/access-log``: the reads of a live deal with the auditor token
  (:mod:`service.application.access_log`, the newest kept, every one counted), a page at a time
  like ``/events`` (``after``, ``limit``, ``next_after``), for a seat token, once the game is over
  (409 ``game_in_progress`` before; 403 ``seats_only`` for the auditor token; 401 without a token).
- ``POST /v1/games/{id}/rematch``: a seat of a finished game asks to play again; the new game
  (:mod:`service.application.rematch`) takes the same tokens. ``GET`` tells whether there is one.
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint, abort

from service.application import access_log, claims, commands
from service.application import rematch as rematches
from service.application.names import SeatNameError
from service.http.auth import OPTIONAL_AUTH, SEAT_AUTH, require_seat
from service.http.errors import problems
from service.http.repository import load_game, request_caller, services
from service.http.schemas.headers import LOCATION_HEADERS
from service.http.schemas.requests import (
    AccessLogQuerySchema,
    RematchRequestSchema,
    SeatClaimSchema,
)
from service.http.schemas.responses import AccessLogSchema, RematchSchema, SeatClaimedSchema

blp = Blueprint("seats", __name__, url_prefix="/v1/games",
                description="Claim a seat; read who read a live deal")


@blp.route("/<game_id>/seats/<int:seat>/claim")
class SeatClaim(MethodView):
    """A claimable seat's one-time claim."""

    @blp.arguments(SeatClaimSchema())
    @blp.response(201, SeatClaimedSchema)
    @problems(blp, 400, 404, 409, 410, 413, 415, 422, 429, 503)
    def post(self, body: dict[str, Any], game_id: str, seat: int) -> Any:
        """Claim a seat with the code of its invite, and get its token (shown only here).

        Works once per seat: whoever claims first holds the seat, and a later claim gets 410
        ``seat_claimed``. A code that is not this seat's gets 404 ``claim_not_found``. With a
        ``name``, the table calls the seat's player so from then on (a ``seat_named`` event in
        the game's history, recorded once the claim is won): a blank name, one longer
        than 40 characters, or one holding a control, format or line break character, gets 422
        ``invalid_name``, another seat's name at the table 409
        ``name_taken``; the seat then stays unclaimed and the invite still works.
        """
        svc = services()
        commands.known(svc.cache, game_id)
        try:
            token = claims.claim_named_seat(svc.store, svc.cache, svc.tokens, game_id, seat,
                                            body["code"], body["name"])
        except SeatNameError as error:
            if error.taken:
                abort(409, message=f"{error}: choose another name", code="name_taken")
            abort(422, message=str(error), code="invalid_name")
        except claims.ClaimNotFoundError:
            abort(404, message=f"seat {seat} of this game has no such claim code: use the "
                  "invite link the game's creator shared for this seat", code="claim_not_found")
        except claims.ClaimUsedError:
            abort(410, message=f"seat {seat} was claimed already: an invite works once; ask "
                  "the game's creator for a seat still free", code="seat_claimed")
        return {"game_id": game_id, "seat": seat, "token": token}, 201, {
            "Cache-Control": "no-store"}


@blp.route("/<game_id>/access-log")
class AccessLog(MethodView):
    """Who read a live deal's hidden information."""

    @blp.doc(security=SEAT_AUTH)
    @blp.arguments(AccessLogQuerySchema(), location="query")
    @blp.response(200, AccessLogSchema)
    @problems(blp, 401, 403, 404, 409, 422, 429, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The reads of a live deal with the auditor token (who, route, when, version, deal),
        numbered, a page at a time (``after`` a number), for the game's seats once the game
        is over. The log keeps the newest entries (``kept`` of them) and counts every read
        (``reads``)."""
        state, _ = load_game(game_id)
        caller = request_caller(game_id)
        if caller.role is not None and caller.seat is None:
            abort(403, message="the access log is for the game's seats, not for the auditor "
                  "whose reads it records", code="seats_only")
        require_seat(caller, "reading the access log")
        if state.phase != "over":
            abort(409, message="the access log opens to the seats once the game is over; "
                  "every view shows meanwhile whether the game has an auditor",
                  code="game_in_progress")
        tokens = services().tokens
        log = access_log.page(tokens, game_id, after=query["after"], limit=query["limit"])
        return {
            "game_id": game_id,
            "auditor": tokens.seating(game_id).auditor,
            "reads": log.reads,
            "kept": log.kept,
            "entries": log.entries,
            "next_after": log.next_after,
        }, 200, {"Cache-Control": "private, no-store"}


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    """A finished game played again by the same table."""

    @blp.doc(security=SEAT_AUTH)
    @blp.arguments(RematchRequestSchema())
    @blp.response(201, RematchSchema, headers=LOCATION_HEADERS)
    @blp.alt_response(200, schema=RematchSchema, description="The rematch existed already")
    @problems(blp, 400, 401, 403, 404, 409, 413, 415, 429, 503)
    def post(self, _body: dict[str, Any], game_id: str) -> Any:
        """Play again: a new game with the same profile, options, seats and bot pace, in which
        every token of this game (each seat's, the auditor's, an unused claim code) opens the
        same seat as here. For a seat token, once the game is over (409 ``game_in_progress``
        before). The first request creates it (201); every later one, from any seat, gets the
        same game (200)."""
        svc = services()
        load_game(game_id)
        caller = request_caller(game_id)
        if caller.role is not None and caller.seat is None:
            abort(403, message="a rematch is asked for by a seat of the game, not its auditor",
                  code="seats_only")
        require_seat(caller)
        try:
            new_id, created = rematches.rematch(svc.store, svc.cache, svc.tokens, game_id,
                                                entropy=svc.entropy)
        except rematches.RematchRefusedError as error:
            abort(409, message=str(error), code="game_in_progress")
        return {"game_id": game_id, "rematch": new_id}, 201 if created else 200, {
            "Location": f"/v1/games/{new_id}", "Cache-Control": "no-store"}

    @blp.doc(security=OPTIONAL_AUTH)
    @blp.response(200, RematchSchema)
    @problems(blp, 401, 404, 429, 503)
    def get(self, game_id: str) -> Any:
        """The game's rematch, if a seat has asked for one (``rematch``: its id, or null): the
        other seats' tables follow it with the tokens they hold. Anyone may ask; a token that
        is not the game's is refused, as on every read."""
        load_game(game_id)
        request_caller(game_id)
        found = rematches.rematch_of(services().tokens, game_id)
        return {"game_id": game_id, "rematch": found}, 200, {"Cache-Control": "no-store"}
