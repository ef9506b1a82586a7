"""The marshmallow schemas of the drive endpoints (service/http/routes/drives.py)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from engine.drive_state import ADJUSTED, FORMATS, RANKINGS
from engine.levels import LEVELS
from engine.seating import MOVEMENTS, ODD_PLAYERS, TABLE_SIZES
from service.application.director import DIRECTOR_ACTIONS
from service.application.drives import (
    DEFAULT_BOARDS,
    MAX_BOARDS,
    MAX_PLAYERS,
    MAX_ROUND_MINUTES,
    MAX_ROUNDS,
)
from service.application.names import MAX_NAME_LENGTH
from service.http.schemas.fields import StrictBoolean
from service.http.schemas.views import SignedCheckpointSchema


class PaperTablesField(fields.Raw):
    """``"all"``, or a list of table numbers (each 1 or more)."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"oneOf": [{"type": "string", "enum": ["all"]},
                              {"type": "array", "items": {"type": "integer", "minimum": 1}}],
                    **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, allow_none=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value == "all":
            return "all"
        if isinstance(value, list) and all(type(t) is int and t >= 1 for t in value):
            return value
        raise ma.ValidationError('"all", or a list of table numbers from 1')


class DrivePlayerSchema(ma.Schema):
    """A player of a drive: a name of their own, human or bot."""

    name = fields.String(required=True, validate=validate.Length(max=MAX_NAME_LENGTH), metadata={
        "description": "A blank name (empty, or spaces only): 422 invalid_name"})
    type = fields.String(required=True, validate=validate.OneOf(("human", "bot")))
    level = fields.String(allow_none=True, load_default=None, validate=validate.Length(max=40),
                          metadata={"enum": list(LEVELS), "description": (
        "A bot only: how it decides at every table (docs/bots.md). Default, and the level of "
        "the bots fill_with_bots adds: strong if any player of the drive is a person, else "
        "basic. Any other name: 422 unknown_bot_level")})

    @ma.validates_schema
    def _bot_if_level(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("level") is not None and data.get("type") != "bot":
            raise ma.ValidationError("only a bot has a level", "level")


class DriveCreateSchema(ma.Schema):
    """A new drive: profile and options of every game, players, format and rounds."""

    profile = fields.String(required=True, validate=validate.OneOf(tuple(TABLE_SIZES)))
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(max=40)),
        values=fields.Raw(allow_none=True), load_default=dict,
        metadata={"description": "Options of every game (GET /v1/profiles lists them)"},
    )
    players = fields.List(fields.Nested(DrivePlayerSchema), required=True,
                          validate=validate.Length(min=1, max=MAX_PLAYERS))
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    rounds = fields.Integer(required=True, strict=True,
                            validate=validate.Range(min=1, max=MAX_ROUNDS))
    boards = fields.Integer(
        strict=True, load_default=None, validate=validate.Range(min=1, max=MAX_BOARDS),
        metadata={"description": "Duplicate only: boards (deals) per round, the same at every "
                                 f"table (default {DEFAULT_BOARDS})"})
    movement = fields.String(
        load_default="round_robin", validate=validate.OneOf(MOVEMENTS),
        metadata={"description": "round_robin (partners change every round), "
                                 "fixed_partners (set partnerships move as in a Mitchell) or "
                                 "winners_move (the winning side moves on a table and its "
                                 "partners split; the losers stay)"})
    odd_players = fields.String(
        load_default="bots", validate=validate.OneOf(ODD_PLAYERS),
        metadata={"description": "When arrivals and withdrawals leave players that do not "
                                 "fill the tables: bots (house bots fill the last table) or "
                                 "sit_out (the players over sit the round out, scoring its "
                                 "average)"})
    rank_by = fields.String(
        load_default="points", validate=validate.OneOf(RANKINGS),
        metadata={"description": "What the standings rank by for the prizes: points "
                                 "(matchpoints in duplicate) or games_won; the other breaks "
                                 "ties"})
    round_minutes = fields.Integer(
        strict=True, load_default=None, allow_none=True,
        validate=validate.Range(min=1, max=MAX_ROUND_MINUTES),
        metadata={"description": "Minutes a round may last: when they are up the drive's "
                                 "clock ends every table still playing as it stands (as the "
                                 "director's end_round does); null or left out: no clock"})
    paper_tables = PaperTablesField(
        load_default=None,
        metadata={"description": "Progressive only: the tables (from 1, in every round) played "
                                 "with real cards, whose score cards are entered "
                                 "(/v1/drives/{id}/tables/{table}/score_card), or \"all\""})
    fill_with_bots = StrictBoolean(
        load_default=False,
        metadata={"description": "Fill the last table with bots when the players do not"})


class DriveTokenSchema(ma.Schema):
    """A player of a new drive and, for a human, the token that opens their table in every
    round (as a seat token of that round's game)."""

    player = fields.Integer()
    name = fields.String()
    type = fields.String()
    level = fields.String(allow_none=True, metadata={
        "description": "A bot's level at every table (basic or strong); null for a human"})
    token = fields.String(allow_none=True)
    page = fields.String(allow_none=True, metadata={
        "description": "The player's drive page, the token in its fragment (null for a bot)"})


class DriveCreatedSchema(ma.Schema):
    """A drive just created."""

    id = fields.String(dump_only=True)
    players = fields.List(fields.Nested(DriveTokenSchema))
    director_token = fields.String(metadata={
        "description": "The director's token, shown only here: Authorization: Bearer on "
                       "POST /v1/drives/{id}/director"})


class DirectorActionSchema(ma.Schema):
    """What the director does to the drive."""

    action = fields.String(required=True, validate=validate.OneOf(DIRECTOR_ACTIONS), metadata={
        "description": "pause (no round starts until resumed), resume, stop (between "
                       "rounds: the rounds not started are not played), abandon_table "
                       "(with table and adjusted), abandon_board (duplicate: with table, "
                       "board and adjusted; that table skips the board), end_round (the "
                       "bell: every table still playing ends as it stands; these three "
                       "may name the round), substitute "
                       "(player, name, type, a bot's level), add_player (name, type, "
                       "level; between rounds), withdraw_player (player; between rounds). "
                       "A field the action does not take: 422 field_not_taken"})
    player = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0),
                            metadata={"description": "substitute, withdraw_player: the "
                                                     "player's number (from 0, as the "
                                                     "standings' player)"})
    name = fields.String(load_default=None, validate=validate.Length(max=MAX_NAME_LENGTH),
                         metadata={"description": "substitute, add_player: the newcomer's "
                                                  "name (a blank one: 422 invalid_name)"})
    type = fields.String(load_default=None, validate=validate.OneOf(("human", "bot")),
                         metadata={"description": "substitute, add_player: human or bot"})
    level = fields.String(load_default=None, validate=validate.Length(max=40), metadata={
        "description": "substitute, add_player: a bot's level (basic or strong; default, and "
                       "the level of any house bot the change seats: strong while a person "
                       "plays in the drive, else basic). Any other name: 422 "
                       "unknown_bot_level; a level for a person: 422 invalid_request"})
    reason = fields.String(load_default="", validate=validate.Length(max=200),
                           metadata={"description": "What the director tells the hall"})
    table = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=1),
                           metadata={"description": "abandon_table, abandon_board: the table "
                                                    "(from 1) of the round in play"})
    board = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=1),
                           metadata={"description": "abandon_board: the board (its deal "
                                                    "number in the round, from 1) the table "
                                                    "is playing"})
    adjusted = fields.List(
        fields.String(validate=validate.OneOf(tuple(ADJUSTED))), load_default=None,
        metadata={"description": "abandon_table, abandon_board: each side's adjusted score, "
                                 "side 1 first"})
    round = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=1),
                           metadata={"description": "abandon_table, abandon_board, end_round: "
                                                    "the round meant, which must be the round "
                                                    "in play (else 409 round_not_in_play and "
                                                    "nothing is done); left out: the round in "
                                                    "play, whichever it is"})


class DriveViewPlayerSchema(ma.Schema):
    """A player of a drive as its view lists them."""

    player = fields.Integer(metadata={"description": "Their number, from 0"})
    name = fields.String()
    type = fields.String()
    level = fields.String(allow_none=True, metadata={
        "description": "A bot's level (basic or strong); null for a human"})
    withdrawn = fields.Boolean(metadata={"description": "Withdrawn by the director"})


class DriveSeatSchema(ma.Schema):
    name = fields.String()
    type = fields.String()
    level = fields.String(allow_none=True, metadata={
        "description": "A bot's level (basic or strong); null for a human"})
    seat = fields.Integer()
    side = fields.Integer()


class DriveTableSchema(ma.Schema):
    table = fields.Integer()
    game = fields.String()
    players = fields.List(fields.Nested(DriveSeatSchema), metadata={"description": "Seat order"})
    status = fields.String(metadata={"description": "in_progress or over"})
    scores = fields.List(fields.Integer())
    winner = fields.Integer(allow_none=True)
    paper = fields.Boolean(metadata={"description": "Played with real cards: its result is "
                                                    "its confirmed score card"})


class DriveBoardSchema(ma.Schema):
    board = fields.String()
    deal = fields.Integer()
    commitment = fields.String()
    cut = fields.Integer()
    seed = fields.String(allow_none=True, metadata={"description": "Once every table has "
                                                                    "finished the deal"})


class DriveCheckpointSchema(SignedCheckpointSchema):
    """A drive's signed checkpoint: the service vouches that *drive_id* had *head* at
    *version* (docs/verification.md section 8: a game's checkpoint naming a drive)."""

    drive_id = fields.String(required=True)
    head = fields.String(required=True, metadata={"description": "Hex SHA-256 of the drive's "
                                                  "event at version"})


class DriveHeadSchema(ma.Schema):
    """Where the drive's chain stands, signed."""

    version = fields.Integer(required=True, metadata={"description": "Its last event's"})
    hash = fields.String(required=True, metadata={"description": "The hash of its last event"})
    checkpoint = fields.Nested(DriveCheckpointSchema, required=True, metadata={
        "description": "That head, signed (the checkpoint kept at a round's or the drive's "
                       "end, when the head is one): keep it to check the drive's history "
                       "later (fortyfive drive verify --checkpoint)"})


class DriveRoundSchema(ma.Schema):
    number = fields.Integer()
    status = fields.String(metadata={"description": "running or finished"})
    checkpoint = fields.Nested(DriveCheckpointSchema, allow_none=True, metadata={
        "description": "Signed when the round ended (it pins each table's game); null "
                       "while it runs"})
    tables = fields.List(fields.Nested(DriveTableSchema))
    boards = fields.List(fields.Nested(DriveBoardSchema))


class DriveViewSchema(ma.Schema):
    """A drive: its status, players, the schedule fixed at creation, and the rounds started."""

    id = fields.String()
    status = fields.String(metadata={"description": "running or finished"})
    profile = fields.String()
    options = fields.Dict()
    format = fields.String()
    round_count = fields.Integer()
    boards_per_round = fields.Integer()
    movement = fields.String(metadata={"description": "round_robin or fixed_partners"})
    rank_by = fields.String(metadata={"description": "points or games_won"})
    version = fields.Integer()
    players = fields.List(fields.Nested(DriveViewPlayerSchema))
    odd_players = fields.String(metadata={"description": "bots or sit_out"})
    round_minutes = fields.Integer(allow_none=True)
    round_ends_at = fields.String(allow_none=True, metadata={
        "description": "When the drive's clock calls the round in play (null: no clock, or "
                       "no round in play, or called already)"})
    schedule = fields.List(fields.List(fields.List(fields.String())), metadata={
        "description": "Per round, per table, the players' names in seat order"})
    current_round = fields.Integer(allow_none=True)
    paused = fields.Boolean(metadata={"description": "Paused by its director: no round starts"})
    paper_tables = fields.List(fields.Integer(), metadata={
        "description": "The tables (from 1) played with real cards"})
    stopped = fields.Boolean(metadata={
        "description": "Stopped by its director between rounds (status finished)"})
    rounds = fields.List(fields.Nested(DriveRoundSchema))
    head = fields.Nested(DriveHeadSchema)


class StandingSchema(ma.Schema):
    name = fields.String()
    type = fields.String()
    player = fields.Integer()
    games_won = fields.Integer()
    # Raw: whole points are integers, as in the drive's history; a half is 0.5.
    points = fields.Raw(metadata={"type": "number", "description": "Game points (progressive) "
                                  "or matchpoints (duplicate: 1 per table beaten, 1/2 per tie)"})
    place = fields.Integer()


class AdjustedSideSchema(ma.Schema):
    players = fields.List(fields.String())
    adjusted = fields.String(metadata={"description": "average, average_plus or average_minus"})


class AdjustmentSchema(ma.Schema):
    """A table, or one board of a table, its director abandoned, and each side's adjusted
    score."""

    round = fields.Integer()
    table = fields.Integer()
    board = fields.Integer(allow_none=True, metadata={
        "description": "The board abandoned at that table (its deal number in the round); "
                       "null: the whole table"})
    by = fields.String(metadata={"description": "Who decided it: director"})
    reason = fields.String()
    sides = fields.List(fields.Nested(AdjustedSideSchema))


class RosterChangeSchema(ma.Schema):
    """A change of the drive's players by its director."""

    action = fields.String(metadata={"description": "substitute, add_player or "
                                                    "withdraw_player"})
    round = fields.Integer(metadata={"description": "The first round it applies to"})
    by = fields.String(metadata={"description": "Who decided it: director"})
    reason = fields.String()
    player = fields.Integer()
    name = fields.String()
    replaced = fields.String(allow_none=True, metadata={
        "description": "substitute: the name of who was replaced"})


class SitOutSchema(ma.Schema):
    round = fields.Integer()
    players = fields.List(fields.String())


class StandingsSchema(ma.Schema):
    """The players ranked, with the rule that breaks ties."""

    id = fields.String()
    status = fields.String()
    format = fields.String()
    rank_by = fields.String(metadata={"description": "points or games_won"})
    tie_rule = fields.String()
    adjustment_rule = fields.String(metadata={
        "description": "How an abandoned table's or board's adjusted scores are computed"})
    adjustments = fields.List(fields.Nested(AdjustmentSchema), metadata={
        "description": "Every table and board the director abandoned, by round"})
    called_rule = fields.String(metadata={
        "description": "How a table still playing when its round is called is scored"})
    called = fields.List(fields.Integer(), metadata={
        "description": "The rounds the director called (ended at their time)"})
    roster = fields.List(fields.Nested(RosterChangeSchema), metadata={
        "description": "Every change of the players by the director, in order"})
    odd_players = fields.String(metadata={"description": "bots or sit_out"})
    sit_out_rule = fields.String()
    sit_outs = fields.List(fields.Nested(SitOutSchema), metadata={
        "description": "The players who sat each round out"})
    players = fields.List(fields.Nested(StandingSchema))


class IssuedSchema(ma.Schema):
    """A person the director seated, and their token (shown only here)."""

    player = fields.Integer()
    name = fields.String()
    token = fields.String()
    page = fields.String(metadata={"description": "Their drive page, the token in its fragment"})


class DirectedSchema(DriveViewSchema):
    """The drive after a director's action, and the person it seated, if any."""

    issued = fields.Nested(IssuedSchema, allow_none=True)
