"""The drive endpoints: create a drive, read it, its standings and its history."""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from engine.drive_state import DriveState
from engine.drives import player_level
from engine.errors import DriveError
from events.codec import canonical_json
from events.drive_store import DriveStore
from service.application import director, drive_history, drives, signing
from service.application.names import SeatNameError
from service.http.apikeys import OPTIONAL_API_KEY_AUTH
from service.http.auth import SEAT_AUTH, bearer_token_of, refuse_token
from service.http.errors import problems
from service.http.limits import charge_creations
from service.http.repository import key_first, services
from service.http.schemas.drives import (
    DirectedSchema,
    DirectorActionSchema,
    DriveCreatedSchema,
    DriveCreateSchema,
    DriveViewSchema,
    StandingsSchema,
)
from service.http.schemas.headers import DRIVE_LOCATION_HEADERS

blp = Blueprint("drives", __name__, url_prefix="/v1/drives",
                description="Drives: many tables, rounds of changing partners, or duplicate")


def _drives() -> DriveStore:
    return DriveStore(services().store)


def _load(drive_id: str) -> DriveState:
    return _load_head(drive_id)[0]


def _load_head(drive_id: str) -> tuple[DriveState, str]:
    try:
        loaded = drives.load(_drives(), drive_id)
    except drives.DriveNotFoundError:
        abort(404, message=f"no drive {drive_id!r}", code="drive_not_found")
    return loaded


@blp.route("")
class Drives(MethodView):
    """The collection of drives."""

    @blp.doc(security=OPTIONAL_API_KEY_AUTH)
    @key_first("creating a drive")
    @blp.arguments(DriveCreateSchema())
    @blp.response(201, DriveCreatedSchema, headers=DRIVE_LOCATION_HEADERS)
    @problems(blp, 400, 401, 413, 415, 422, 429, 503)
    def post(self, body: dict[str, Any]) -> Any:
        """Create a drive.

        Its schedule is fixed now and published with it; the workers start its first round.
        Each human player gets a token, shown only here, that opens their table in every round
        (send it as the seat token of that round's game). Tables seat four (classic, auction)
        or six (bruff); players that do not fill them are refused (422 ``invalid_drive``)
        unless ``fill_with_bots`` is true.
        """
        try:
            drive_id, tokens, director = drives.create_drive(
                _drives(), profile=body["profile"], options=body["options"],
                players=body["players"], format=body["format"], rounds=body["rounds"],
                fill_with_bots=body["fill_with_bots"], boards=body["boards"],
                admit=charge_creations, rank_by=body["rank_by"], movement=body["movement"],
                odd_players=body["odd_players"], round_minutes=body["round_minutes"],
                paper_tables=body["paper_tables"])
        except DriveError as error:
            abort(422, message=str(error), code="invalid_drive")
        except SeatNameError as error:
            abort(422, message=str(error), code="invalid_name")
        drive = _load(drive_id)
        players = [{"player": i, "name": p["name"], "type": p["type"],
                    "level": player_level(p), "token": tokens.get(i),
                    "page": f"/drive/{drive_id}#token={tokens[i]}&player={i}" if i in tokens
                    else None}
                   for i, p in enumerate(drive.players)]
        return {"id": drive_id, "players": players, "director_token": director}, 201, {
            "Location": f"/v1/drives/{drive_id}", "Cache-Control": "no-store"}


@blp.route("/<drive_id>")
class Drive(MethodView):
    """One drive."""

    @blp.response(200, DriveViewSchema)
    @problems(blp, 404, 429, 503)
    def get(self, drive_id: str) -> Any:
        """The drive: status (running, finished), players, schedule, each round started
        with its tables (game id, players in seat order, status, scores) and the checkpoint
        signed when it ended, and ``head``: the drive's version, the hash of its last event,
        and that head signed (docs/verification.md section 8)."""
        return _view(*_load_head(drive_id))


def _view(drive: DriveState, head: str) -> dict[str, Any]:
    svc = services()
    deadline = None
    if drive.round_minutes is not None:
        deadline = drives.round_deadline(drive, drives.load_envelopes(_drives(),
                                                                      drive.drive_id)[1])
    return drives.drive_view(
        drive, drives.results_of(svc.cache, drive), head=head, round_ends_at=deadline,
        checkpoint=drives.head_checkpoint(_drives(), svc.signing, drive.drive_id,
                                          drive.version, head),
        kept=signing.drive_checkpoints(svc.store.client, drive.drive_id))


@blp.route("/<drive_id>/director")
class Director(MethodView):
    """The director's actions on a drive."""

    @blp.doc(security=SEAT_AUTH)
    @blp.arguments(DirectorActionSchema())
    @blp.response(200, DirectedSchema)
    @problems(blp, 400, 401, 404, 409, 413, 415, 422, 429, 503)
    def post(self, body: dict[str, Any], drive_id: str) -> Any:
        """A director's action, with the director's token (``Authorization: Bearer``, from
        the drive's creation): pause, resume, stop, abandon_table, abandon_board, end_round,
        substitute, add_player, withdraw_player (docs/api.md, "Running an evening: the
        director", says what each does and every refusal's code). Each is an event of the
        drive's history whose actor is ``director``. Answers the drive's view and
        ``issued``: the person it seated, with their token (shown only here), or null."""
        svc = services()
        try:
            done = director.direct(
                _drives(), drive_id, bearer_token_of(request.headers.get("Authorization"),
                                                     "the drive's director token"),
                body["action"], body["reason"],
                fields={k: v for k, v in body.items() if k not in ("action", "reason")},
                cache=svc.cache, tokens=svc.tokens)
        except drives.DriveNotFoundError:
            abort(404, message=f"no drive {drive_id!r}", code="drive_not_found")
        except drives.DirectorTokenError as error:
            refuse_token(error)
        except director.DirectorRefusal as error:
            abort(error.status, message=str(error), code=error.code)
        drives.abandon_tables(svc.store, svc.cache, done.drive)
        drives.skip_boards(svc.store, svc.cache, done.drive)
        issued = None
        if done.player is not None and done.token is not None:
            issued = {"player": done.player, "name": done.drive.players[done.player]["name"],
                      "token": done.token,
                      "page": f"/drive/{drive_id}#token={done.token}&player={done.player}"}
        return {**_view(*_load_head(drive_id)), "issued": issued}, 200, {
            "Cache-Control": "no-store"}


@blp.route("/<drive_id>/standings")
class Standings(MethodView):
    """A drive's standings, derived from its games."""

    @blp.response(200, StandingsSchema)
    @problems(blp, 404, 429, 503)
    def get(self, drive_id: str) -> Any:
        """The players ranked: by points (matchpoints in duplicate), then games won; equal
        players share a place."""
        drive = _load(drive_id)
        return drives.standings_view(drive, drives.results_of(services().cache, drive))


@blp.route("/<drive_id>/history")
class History(MethodView):
    """A drive's history: its events, every game's result and head, its standings, and a
    signed checkpoint of its head."""

    @blp.response(200, description="The drive history document (JSON)")
    @problems(blp, 404, 409, 429, 503)
    def get(self, drive_id: str) -> Any:
        """The drive's history, which ``fortyfive drive verify`` checks offline. A duplicate
        drive's is served once it is finished: before, a table that is over (or abandoned)
        would show the cards of a board other tables are still playing."""
        drive = _load(drive_id)
        if drive.format == "duplicate" and drive.status != "finished":
            abort(409, message=f"drive {drive_id!r} is duplicate and still running: its "
                  "history, which holds every table's cards, is served once it is finished",
                  code="drive_in_progress")
        svc = services()
        document = drive_history.build(svc.store, svc.cache, _drives(), drive_id, svc.signing)
        return Response(canonical_json(document), 200, mimetype="application/json")
