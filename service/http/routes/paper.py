"""A paper table's score card: read it, enter it, confirm or dispute it."""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from engine.drive_state import DriveState
from engine.drives import ScoreCardRefused
from engine.errors import DriveError
from events.drive_store import DriveStore
from service.application import drives, paper_tables
from service.http import uploads
from service.http.auth import SEAT_AUTH, bearer_token_of, refuse_token
from service.http.errors import problems
from service.http.repository import services
from service.http.schemas.paper import (
    ScoreCardConfirmSchema,
    ScoreCardDisputeSchema,
    ScoreCardEntrySchema,
    ScoreCardViewSchema,
)

blp = Blueprint("paper", __name__, url_prefix="/v1/drives",
                description="Paper tables: a drive's table played with real cards enters its "
                            "score card")


def _drives() -> DriveStore:
    return DriveStore(services().store)


def _load(drive_id: str) -> DriveState:
    try:
        return drives.load(_drives(), drive_id)[0]
    except drives.DriveNotFoundError:
        abort(404, message=f"no drive {drive_id!r}", code="drive_not_found")
        raise AssertionError("abort raises") from None


def _act(drive_id: str, table: int, act: Callable[[str | None], DriveState]) -> Any:
    """Runs *act* with the caller's bearer token; answers the card after it, or the problem."""
    try:
        drive = act(bearer_token_of(request.headers.get("Authorization"),
                                    "a player's drive token or the director's"))
    except drives.DriveNotFoundError:
        abort(404, message=f"no drive {drive_id!r}", code="drive_not_found")
    except paper_tables.ScoreCardTokenError as error:
        refuse_token(error)
    except paper_tables.NotAtTableError as error:
        abort(403, message=str(error), code="not_at_table")
    except ScoreCardRefused as error:
        abort(422, message=str(error), code="invalid_score_card")
    except paper_tables.RecordNotFoundError as error:
        abort(422, message=str(error), code="record_not_found")
    except DriveError as error:
        abort(409, message=str(error), code="score_card_conflict")
    assert drive.current is not None, "a card was just entered in the round in play"
    return paper_tables.card_view(drive, drive.current.number, table)


@blp.route("/<drive_id>/tables/<int:table>/score_card")
class ScoreCard(MethodView):
    """The score card of a table in the round in play."""

    @blp.response(200, ScoreCardViewSchema)
    @problems(blp, 404, 429, 503)
    def get(self, drive_id: str, table: int) -> Any:
        """The table's players by side, and its score card as entered last: deals (dealer,
        points per side), totals, winner, who entered and confirmed it, any dispute. Of the
        round in play, or of the last round once the drive is between rounds."""
        drive = _load(drive_id)
        current = drive.current
        if current is None or not 1 <= table <= len(current.games):
            abort(404, message=f"drive {drive_id!r} has no table {table} in play",
                  code="not_found")
        assert current is not None, "aborted above"
        return paper_tables.card_view(drive, current.number, table)

    @blp.doc(security=SEAT_AUTH)
    @blp.arguments(ScoreCardEntrySchema())
    @blp.response(200, ScoreCardViewSchema)
    @problems(blp, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503)
    def post(self, body: dict[str, Any], drive_id: str, table: int) -> Any:
        """Enter (or correct) the table's score card, with a drive token of a player of the
        table or the director's (``Authorization: Bearer``). The card is held to the game's
        rules (422 ``invalid_score_card`` says which deal breaks which). It stands once
        another side, or the director, confirms it; a confirmed card only the director
        corrects (409 ``score_card_conflict``)."""
        client = services().store.client
        return _act(drive_id, table, lambda token: paper_tables.enter(
            _drives(), drive_id, token, table, body["deals"], body["winner"], body["record"],
            is_kept=lambda record: uploads.load(client, record) is not None))


@blp.route("/<drive_id>/tables/<int:table>/score_card/confirm")
class Confirm(MethodView):
    """Confirm a score card."""

    @blp.doc(security=SEAT_AUTH)
    @blp.arguments(ScoreCardConfirmSchema())
    @blp.response(200, ScoreCardViewSchema)
    @problems(blp, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503)
    def post(self, body: dict[str, Any], drive_id: str, table: int) -> Any:
        """Confirm the card entered last: a player of another side than its writer's, or the
        director (the only one who confirms a disputed card). The table's result is then
        the card's, and the round ends once every table is settled."""
        return _act(drive_id, table, lambda token: paper_tables.confirm(
            _drives(), drive_id, token, table))


@blp.route("/<drive_id>/tables/<int:table>/score_card/dispute")
class Dispute(MethodView):
    """Dispute a score card."""

    @blp.doc(security=SEAT_AUTH)
    @blp.arguments(ScoreCardDisputeSchema())
    @blp.response(200, ScoreCardViewSchema)
    @problems(blp, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503)
    def post(self, body: dict[str, Any], drive_id: str, table: int) -> Any:
        """Dispute the card entered last (a player of another side than its writer's): it
        then stands only when entered again, or when the director confirms it."""
        return _act(drive_id, table, lambda token: paper_tables.dispute(
            _drives(), drive_id, token, table, body["reason"]))
