"""A game as its viewer sees it, and its events, as marshmallow schemas.

The view of ``GET /v1/games/{id}`` (its deal, tricks, auction and facts with their rulings,
the legal actions and the latest signed checkpoint) and the event log's pages are dumped
through these schemas, so a view cannot carry a field that is not documented (views fail
closed). What hides a hand from a viewer is :mod:`replay.views`, not this module.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.http.schemas.fields import CARD_METADATA, ViewerField, seat_field
from service.http.schemas.requests import ActionSchema


class RulingSchema(ma.Schema):
    """Why something was decided: a stable rule id and one sentence."""

    rule = fields.String(required=True, metadata={"example": "play.trump_lead.withhold"})
    text = fields.String(required=True)


class PlaySchema(ma.Schema):
    """A card played to a trick."""

    seat = seat_field(required=True)
    card = fields.String(required=True, metadata=CARD_METADATA)


class TrickSchema(ma.Schema):
    """A trick: leader, cards in play order, winner once complete."""

    leader = seat_field(required=True)
    cards = fields.List(fields.Nested(PlaySchema), required=True)
    winner = seat_field(required=True, allow_none=True)


class FactSchema(ma.Schema):
    """A derived fact (trick won, bonus proven, target reached...) and its ruling."""

    kind = fields.String(required=True)
    version = fields.Integer(required=True)
    trick = fields.Integer()
    seat = seat_field()
    side = fields.Integer()
    points = fields.Integer()
    credited_trick = fields.Integer()
    ruling = fields.Nested(RulingSchema, required=True)


class CallSchema(ma.Schema):
    """A call in the auction."""

    seat = seat_field(required=True)
    call = fields.String(required=True, validate=validate.OneOf(("bid", "pass", "hold")))
    amount = fields.Integer(required=True, allow_none=True)


class AuctionSchema(ma.Schema):
    """The auction of a deal."""

    calls = fields.List(fields.Nested(CallSchema), required=True)
    high = fields.Integer(required=True, allow_none=True)
    high_seat = seat_field(required=True, allow_none=True)
    passed = fields.List(seat_field(), required=True)


class DealResultSchema(ma.Schema):
    """How a deal ended."""

    points = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True)
    tricks_won = fields.List(fields.Integer(), required=True)
    ended_at_trick = fields.Integer(required=True)
    winner = fields.Integer(required=True, allow_none=True)


class DealViewSchema(ma.Schema):
    """What the viewer may see of the current deal (``hands``, ``stock`` and
    ``face_down`` appear in the auditor view only)."""

    number = fields.Integer(required=True)
    dealer = seat_field(required=True)
    phase = fields.String(required=True)
    commitment = fields.String(required=True, allow_none=True)
    algorithm = fields.String(required=True, allow_none=True)
    seed = fields.String(required=True, allow_none=True)
    recorded = fields.Boolean(required=True)
    cut = fields.Integer(required=True, allow_none=True)
    context = fields.String(required=True, allow_none=True, metadata={
        "description": "What an hmac-sha256-fy/2 deck depends on besides the seed (the game "
                       "id); null for hmac-sha256-fy/1"})
    contributed = fields.List(seat_field(), required=True, metadata={
        "description": "The seats that contributed a nonce to this deal, in order (a seat's "
                       "client sends one with action contribute while the deal waits for its "
                       "cut, or with its cut)"})
    trump = fields.String(required=True, allow_none=True)
    turn_up = fields.String(required=True, allow_none=True)
    robbed_by = seat_field(required=True, allow_none=True)
    hand_sizes = fields.List(fields.Integer(), required=True)
    stock_size = fields.Integer(required=True)
    face_down_count = fields.Integer(required=True)
    auction = fields.Nested(AuctionSchema, required=True, allow_none=True)
    bidder = seat_field(required=True, allow_none=True)
    bid = fields.Integer(required=True, allow_none=True)
    discarded = fields.List(seat_field(), required=True)
    jink = seat_field(required=True, allow_none=True)
    tricks = fields.List(fields.Nested(TrickSchema), required=True)
    current_trick = fields.Nested(TrickSchema, required=True, allow_none=True)
    bonus_proven = fields.Boolean(required=True)
    facts = fields.List(fields.Nested(FactSchema), required=True)
    result = fields.Nested(DealResultSchema, required=True, allow_none=True)
    hands = fields.List(fields.List(fields.String()))
    face_down = fields.List(fields.String())
    stock = fields.List(fields.String())


class SignedCheckpointSchema(ma.Schema):
    """What every signed checkpoint holds beside its subject (a game's or a drive's id) and
    head (docs/verification.md section 8): one description for both."""

    version = fields.Integer(required=True)
    signed_at = fields.String(required=True, metadata={"example": "2026-01-02T03:04:05Z"})
    key_id = fields.String(required=True, metadata={"description": "A key of GET /v1/keys"})
    signature = fields.String(required=True, metadata={
        "description": "Hex Ed25519 signature (64 bytes) over b'fortyfive/checkpoint/1' and "
                       "the canonical JSON of the other five fields"})


class CheckpointSchema(SignedCheckpointSchema):
    """A signed checkpoint: the service vouches that *game_id* had *head* at *version*
    (docs/verification.md section 8)."""

    game_id = fields.String(required=True)
    head = fields.String(required=True, metadata={"description": "Hex SHA-256 of the event at "
                                                  "version"})


class GameViewSchema(ma.Schema):
    """The caller's view of a game: the seat's own hand and legal actions, public play."""

    version = fields.Integer(required=True, metadata={"description": "Also the ETag"})
    viewer = ViewerField(required=True)
    profile = fields.String(required=True)
    options = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True),
                          required=True)
    rules_digest = fields.String(required=True)
    players = fields.Integer(required=True)
    seat_types = fields.List(fields.String(), required=True)
    seat_levels = fields.List(fields.String(allow_none=True), required=True, metadata={
        "description": "Each seat's bot level as game_created records it (basic, strong; "
                       "docs/bots.md), null for a human seat"})
    names = fields.List(fields.String(allow_none=True), required=True, metadata={
        "description": "Each seat's player's name as given, or null"})
    sides = fields.List(fields.List(seat_field()), required=True)
    phase = fields.String(required=True)
    turn = seat_field(required=True, allow_none=True)
    dealer = seat_field(required=True)
    deal_number = fields.Integer(required=True)
    game_number = fields.Integer(required=True)
    hand = fields.List(fields.String(metadata=CARD_METADATA), required=True, allow_none=True)
    trump = fields.String(required=True, allow_none=True)
    tricks = fields.List(fields.Nested(TrickSchema), required=True)
    scores = fields.List(fields.Integer(), required=True)
    games_won = fields.List(fields.Integer(), required=True)
    winner = fields.Integer(required=True, allow_none=True, metadata={"description": "Side"})
    deal = fields.Nested(DealViewSchema, required=True, allow_none=True)
    legal_actions = fields.List(fields.Nested(ActionSchema), required=True)
    auditor = fields.Boolean(required=True, metadata={
        "description": "Whether the game has an auditor token, for every viewer"})
    unclaimed_seats = fields.List(seat_field(), required=True, metadata={
        "description": "Claimable seats nobody has claimed yet"})
    checkpoint = fields.Nested(CheckpointSchema, allow_none=True, metadata={
        "description": "GET only: the latest signed checkpoint this viewer may have (null "
                       "before there is one)"})


class EventSchema(ma.Schema):
    """One event of the log as the viewer may see it (hidden fields are ``null`` and named
    in ``data.redacted``; the chain fields are the auditor's)."""

    version = fields.Integer(required=True)
    type = fields.String(required=True)
    actor = fields.Raw(
        required=True,
        metadata={"oneOf": [{"type": "integer", "minimum": 0},
                            {"type": "string", "enum": ["server"]}]},
    )
    occurred_at = fields.String(required=True)
    data = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), required=True,
                       metadata={"description": (
                           "The event's fields; those hidden from this viewer are null and "
                           "named in a list data.redacted (e.g. deck_shuffled: "
                           "{\"seed\": null, \"redacted\": [\"seed\"]}), where a hand "
                           "history puts redacted on the event itself")})
    schema = fields.Integer()
    command_id = fields.String(allow_none=True)
    prev_hash = fields.String()
    hash = fields.String()


class EventPageSchema(ma.Schema):
    """A page of the event log."""

    events = fields.List(fields.Nested(EventSchema), required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version"})
    next_after = fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "Pass as ?after= for the next page; null at the end"},
    )
    auditor = fields.Boolean(required=True, metadata={
        "description": "Whether the game has an auditor token"})
    unclaimed_seats = fields.List(seat_field(), required=True, metadata={
        "description": "Claimable seats nobody has claimed yet"})
