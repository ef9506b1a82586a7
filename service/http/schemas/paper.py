"""The marshmallow schemas of a paper table's score card (service/http/routes/paper.py)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from engine.profiles import MOST_PLAYERS
from service.http.schemas.fields import StrictInteger

MAX_CARD_DEALS = 60
"""Deals on one score card, at most: far more than any game to a target needs."""


class ScoreCardDealSchema(ma.Schema):
    """One deal of a score card."""

    dealer = StrictInteger(required=True,
                           validate=validate.Range(min=0, max=MOST_PLAYERS - 1),
                           metadata={"description": "The seat that dealt (from 0, as the "
                                                    "API numbers seats)"})
    points = fields.List(StrictInteger(validate=validate.Range(min=0, max=60)),
                         required=True, validate=validate.Length(min=2, max=3),
                         metadata={"description": "Points each side made in the deal, side "
                                                  "A first"})


class ScoreCardEntrySchema(ma.Schema):
    """A paper table's score card, as its players wrote it."""

    deals = fields.List(fields.Nested(ScoreCardDealSchema), required=True,
                        validate=validate.Length(min=1, max=MAX_CARD_DEALS))
    winner = StrictInteger(load_default=None, validate=validate.Range(min=0),
                           metadata={"description": "The winning side, needed only when two "
                                                    "sides pass the target in the last deal "
                                                    "of a game that ends trick by trick"})
    record = fields.String(
        load_default=None, validate=validate.Regexp(r"^h-[0-9a-f]{32}$"),
        metadata={"description": "The table's record of its deals for a dispute: the id of "
                                 "its hand history kept with POST /v1/histories?mode=keep"})


class ScoreCardConfirmSchema(ma.Schema):
    """A confirmation: an empty object (every POST carries a JSON body); who confirms is the
    token's."""


class ScoreCardDisputeSchema(ma.Schema):
    """A player's dispute of the card entered last."""

    reason = fields.String(required=True, validate=validate.Length(min=1, max=200),
                           metadata={"description": "What is wrong, for the director"})


class ScoreCardPlayerSchema(ma.Schema):
    name = fields.String()
    player = fields.Integer()
    seat = fields.Integer(metadata={"description": "From 0, as the API numbers seats"})


class ScoreCardSideSchema(ma.Schema):
    side = fields.Integer()
    players = fields.List(fields.Nested(ScoreCardPlayerSchema))


class ScoreCardDealViewSchema(ma.Schema):
    deal = fields.Integer()
    dealer = fields.Integer()
    points = fields.List(fields.Integer())


class ScoreCardBodySchema(ma.Schema):
    deals = fields.List(fields.Nested(ScoreCardDealViewSchema))
    scores = fields.List(fields.Integer())
    winner = fields.Integer(allow_none=True)
    entered_by = fields.Raw(metadata={"description": '"director" or {"side": n}'})
    confirmed = fields.Boolean()
    confirmed_by = fields.Raw(allow_none=True,
                              metadata={"description": '"director", {"side": n} or null'})
    dispute = fields.String(allow_none=True)
    record = fields.String(allow_none=True, metadata={
        "description": "The kept history recording the table's deals, if given"})


class ScoreCardViewSchema(ma.Schema):
    """A paper table's score card in the round in play."""

    round = fields.Integer()
    table = fields.Integer()
    paper = fields.Boolean()
    target = fields.Integer()
    sides = fields.List(fields.Nested(ScoreCardSideSchema))
    status = fields.String(metadata={
        "description": "empty, entered, disputed, confirmed or abandoned"})
    card = fields.Nested(ScoreCardBodySchema, allow_none=True)
