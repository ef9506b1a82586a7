"""What a client sends: the API's request bodies and query strings as marshmallow schemas.

Each is loaded and validated before its handler runs, so a field the API does not know, or a
value of the wrong shape, is a 422 (the shared fields and patterns are in
:mod:`service.http.schemas.fields`; whether a card or an option fits a game is the engine's call).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from engine.levels import LEVELS
from engine.profiles import PROFILES
from service.application.names import MAX_NAME_LENGTH
from service.http.schemas.action_body import (
    ACTION_BODY,
    ACTION_TYPES,
    MAX_CARDS,
    MAX_NUMBER,
    BodyField,
)
from service.http.schemas.fields import (
    MAX_VERSION,
    SUIT_PATTERN,
    StrictBoolean,
    StrictInteger,
    card_field,
)
from service.http.sse import MIN_WAIT_SECONDS


def action_field(field: BodyField) -> fields.Field[Any]:
    """Returns the marshmallow field of *field* of an action body, by its kind (the limits are
    :mod:`service.http.schemas.action_body`'s)."""
    metadata = dict(field.metadata)
    kind = field.kind
    if kind == "type":
        return fields.String(required=True, validate=validate.OneOf(ACTION_TYPES),
                             metadata=metadata)
    if kind == "card":
        assert not metadata, "a card field says what card_field says"
        return card_field()
    if kind == "cards":
        return fields.List(card_field(), validate=validate.Length(max=MAX_CARDS),
                           metadata=metadata)
    if kind == "number":
        return StrictInteger(validate=validate.Range(min=0, max=MAX_NUMBER), metadata=metadata)
    if kind == "suit":
        return fields.String(validate=validate.Regexp(SUIT_PATTERN), metadata=metadata)
    assert kind == "text", f"no marshmallow field for the kind {kind!r}"
    return fields.String(metadata=metadata)


ActionSchema: type[ma.Schema] = type("ActionSchema", (ma.Schema,), {
    "__module__": __name__,
    "__doc__": """An action a seat posts, e.g. ``{"type": "play", "card": "5S"}``.

    Which fields an action needs depends on its type: cut (position), bury (card), rob
    (discard), bid (amount), pass, hold, name_trump (suit), discard (cards), jink, play
    (card), contribute (nonce; any seat, while the deal waits for its cut). Every entry of a
    view's ``legal_actions`` can be posted back as it is; a cut may add a ``nonce``.
    Its fields are :data:`service.http.schemas.action_body.ACTION_BODY`.
    """,
    **{field.name: action_field(field) for field in ACTION_BODY},
})


DEFAULT_BOT_PACE_MS = 700
"""The bots' pace where a person plays with them: 0.7 s before each action."""
MAX_BOT_PACE_MS = 5000
"""The slowest pace a game may ask for."""


def name_field(description: str) -> fields.String:
    """Returns a field of a player's name, optional: the document says the longest name
    (:data:`service.application.names.MAX_NAME_LENGTH`), while the field takes a few times
    more, so that a name a little too long is told so by the names rule (422
    ``invalid_name``) and not as a malformed request."""
    return fields.String(allow_none=True, load_default=None,
                         validate=validate.Length(max=5 * MAX_NAME_LENGTH),
                         metadata={"description": description, "maxLength": MAX_NAME_LENGTH})


class SeatRequestSchema(ma.Schema):
    """One seat of a new game."""

    type = fields.String(required=True, validate=validate.OneOf(("human", "bot")))
    level = fields.String(allow_none=True, load_default=None, validate=validate.Length(max=40),
                          metadata={"enum": list(LEVELS), "description": (
        "A bot seat only: how the bot decides (docs/bots.md). Default: strong in a game where "
        "a person sits, basic in a game of bots alone. Any other name: 422 unknown_bot_level")})
    claimable = StrictBoolean(load_default=False, metadata={"description": (
        "A human seat only: instead of its token, the creator gets a one-time claim code and "
        "invite link; the token is minted for whoever claims the seat "
        "(POST /v1/games/{id}/seats/{seat}/claim)")})
    name = name_field(
        "What the table, the histories and the pictures call the seat's player (up to "
        f"{MAX_NAME_LENGTH} characters; not blank, no control, format or line break character, "
        "and not another seat's name, case and Unicode form aside)")

    @ma.validates_schema
    def _human_if_claimable(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("claimable") and data.get("type") != "human":
            raise ma.ValidationError("only a human seat can be claimable", "claimable")

    @ma.validates_schema
    def _bot_if_level(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("level") is not None and data.get("type") != "bot":
            raise ma.ValidationError("only a bot seat has a level", "level")


class GameCreateSchema(ma.Schema):
    """A new game: its profile, options over the profile's defaults, and its seats."""

    profile = fields.String(required=True, validate=validate.OneOf(PROFILES))
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(max=40)),
        values=fields.Raw(allow_none=True),
        load_default=dict,
        metadata={"description": "Options of the profile (GET /v1/profiles lists them)"},
    )
    seats = fields.List(
        fields.Nested(SeatRequestSchema),
        validate=validate.Length(min=1, max=10),
        metadata={"description": "Default: the profile's smallest table, all human"},
    )
    auditor = StrictBoolean(load_default=False, metadata={"description": (
        "Issue an auditor token (it reads every hand of a live game, and each such read is "
        "logged for the seats); every view shows whether the game has one"
    )})
    bot_pace_ms = StrictInteger(
        load_default=DEFAULT_BOT_PACE_MS, validate=validate.Range(min=0, max=MAX_BOT_PACE_MS),
        metadata={"description": (
            "Milliseconds each bot waits before it acts, so that a person can follow the play "
            "(0: at once). Applies only to a game with a human seat and a bot seat; recorded in "
            "game_created")})


class ViewQuerySchema(ma.Schema):
    """Which view to read: the caller's own (default), the spectator's, or the auditor's."""

    view = fields.String(
        validate=validate.OneOf(("own", "spectator", "auditor")),
        metadata={
            "description": "auditor: needs the auditor token while the game is in progress"
        },
    )


class EventsQuerySchema(ViewQuerySchema):
    """A page of the event log."""

    after = fields.Integer(
        load_default=0, validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Version"},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class AccessLogQuerySchema(ma.Schema):
    """A page of a game's access log."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION),
                           metadata={"description": "The n of the last entry read"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class StreamQuerySchema(ViewQuerySchema):
    """Where a live stream starts, and how long it may stay idle."""

    after = fields.Integer(
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Start after this version (Last-Event-ID takes precedence)"},
    )
    wait = fields.Float(
        validate=validate.Range(min=MIN_WAIT_SECONDS, max=60),
        metadata={"description": "Seconds without events before the stream ends (default 25, "
                                 f"at least {MIN_WAIT_SECONDS:g}: one keep-alive period)"},
    )


class RulesRequestSchema(ma.Schema):
    """The rules a stateless ruling applies: a profile, its options, the table size."""

    profile = fields.String(required=True, validate=validate.OneOf(PROFILES))
    options = fields.Dict(keys=fields.String(validate=validate.Length(max=40)),
                          values=fields.Raw(allow_none=True), load_default=dict)
    players = StrictInteger(
        validate=validate.Range(min=2, max=10),
        metadata={"description": "Default: the profile's smallest table"},
    )
    trump = fields.String(required=True, validate=validate.Regexp(SUIT_PATTERN))


class LegalRequestSchema(RulesRequestSchema):
    """Which cards of a hand may be played to a trick."""

    trick = fields.List(card_field(), load_default=list, validate=validate.Length(max=19),
                        metadata={"description": "Cards played so far, in order"})
    hand = fields.List(card_field(), required=True, validate=validate.Length(min=1, max=5))


class WinnerRequestSchema(RulesRequestSchema):
    """Which card of a trick wins it."""

    trick = fields.List(card_field(), required=True, validate=validate.Length(min=1, max=20),
                        metadata={"description": "Cards in play order"})


class SeatClaimSchema(ma.Schema):
    """A claim of a seat: the code from its invite, and the name its player gives."""

    code = fields.String(required=True, validate=validate.Length(min=1, max=200))
    name = name_field(
        f"The name the table calls you by (optional; at most {MAX_NAME_LENGTH} characters; not "
        "blank, no control, format or line break character, and not another seat's name at the "
        "table, case and Unicode form aside). Recorded in the game's history as a seat_named "
        "event")


class RematchRequestSchema(ma.Schema):
    """A request to play a finished game again: an empty object (the new game copies the old
    one's profile, options, seats and bot pace)."""


class GameListQuerySchema(ma.Schema):
    """A page of the games created with the caller's API key, newest first."""

    mine = fields.Boolean(required=True, validate=validate.Equal(
        True, error="only mine=true is offered: the games your API key created"),
        metadata={"description": "Must be true: the games the caller's API key created"})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    before = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "The next_before of the previous page"})


_HISTORY_VIEW = fields.String(
    validate=validate.OneOf(("own", "spectator", "auditor")),
    metadata={"description": "auditor: needs the auditor token while the game is in progress"},
)


class HistoryQuerySchema(ma.Schema):
    """Which history: the encoding, one deal or all, up to which event, whose view."""

    format = fields.String(load_default="json", validate=validate.OneOf(("json", "text")))
    deal = fields.Integer(validate=validate.Range(min=1, max=MAX_VERSION),
                          metadata={"description": "Only this deal (and the game's creation)"})
    at = fields.Integer(validate=validate.Range(min=1, max=MAX_VERSION),
                        metadata={"description": "Only up to this event (version)"})
    view = _HISTORY_VIEW


class KeptQuerySchema(ma.Schema):
    """The encoding of a kept history."""

    format = fields.String(load_default="json", validate=validate.OneOf(("json", "text")))


class ReplayQuerySchema(ma.Schema):
    """The event after which to show the game, and whose view."""

    at = fields.Integer(required=True, validate=validate.Range(min=1, max=MAX_VERSION),
                        metadata={"description": "Version of the event"})
    view = _HISTORY_VIEW


class SubmitQuerySchema(ma.Schema):
    """Verify only, or verify and keep."""

    mode = fields.String(load_default="dry_run", validate=validate.OneOf(("dry_run", "keep")))


class HistorySubmissionSchema(ma.Schema):
    """A history to verify: its JSON encoding as an object, or its text notation."""

    history = fields.Dict(metadata={"description": "The history in its JSON encoding"})
    text = fields.String(metadata={"description": "The history in the text notation (a "
                                                  "hand-written table record included)"})

    @ma.validates_schema
    def _one_of(self, data: dict[str, Any], **kwargs: Any) -> None:
        del kwargs  # Unused.
        if ("history" in data) == ("text" in data):
            raise ma.ValidationError("send exactly one of history (JSON) and text (notation)")
