"""The API's request and response bodies as marshmallow schemas (and so the OpenAPI document).

Every schema refuses unknown fields (marshmallow's ``RAISE``), which the document states as
``additionalProperties: false``: a request with a field the API does not know is a 422, and a
response cannot carry a field that is not documented here, since it is dumped through its
schema (views fail closed). Card codes are validated for shape here; whether a card or an
option fits a game is the engine's call.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from engine.actions import ACTION_FIELDS
from engine.profiles import PROFILES
from service.schema_fields import (
    CARD_METADATA,
    MAX_VERSION,
    SUIT_PATTERN,
    ViewerField,
    card_field,
    seat_field,
)
from service.sse import MIN_WAIT_SECONDS

# Requests.


class ActionSchema(ma.Schema):
    """An action a seat posts, e.g. ``{"type": "play", "card": "5S"}``.

    Which fields an action needs depends on its type: cut (position), bury (card), rob
    (discard), bid (amount), pass, hold, name_trump (suit), discard (cards), jink, play
    (card), contribute (nonce; any seat, while the deal waits for its cut). Every entry of a
    view's ``legal_actions`` can be posted back as it is; a cut may add a ``nonce``.
    """

    type = fields.String(required=True, validate=validate.OneOf(tuple(ACTION_FIELDS)))
    card = card_field()
    discard = card_field()
    cards = fields.List(card_field(), validate=validate.Length(max=5))
    amount = fields.Integer(strict=True, validate=validate.Range(min=0, max=1000))
    suit = fields.String(validate=validate.Regexp(SUIT_PATTERN), metadata={"example": "S"})
    position = fields.Integer(strict=True, validate=validate.Range(min=0, max=1000))
    nonce = fields.String(metadata={
        "description": "A seat's contribution to an hmac-sha256-fy/2 deck: 32 to 128 "
                       "lowercase hex digits from a strong random source (contribute, or cut)",
        "example": "9f2c4e1a7b3d5f60e8c2a4b6d8f01357"})


class SeatRequestSchema(ma.Schema):
    """One seat of a new game."""

    type = fields.String(required=True, validate=validate.OneOf(("human", "bot")))
    claimable = fields.Boolean(load_default=False, metadata={"description": (
        "A human seat only: instead of its token, the creator gets a one-time claim code and "
        "invite link; the token is minted for whoever claims the seat "
        "(POST /v1/games/{id}/seats/{seat}/claim)")})

    @ma.validates_schema
    def _human_if_claimable(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("claimable") and data.get("type") != "human":
            raise ma.ValidationError("only a human seat can be claimable", "claimable")


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
    auditor = fields.Boolean(load_default=False, metadata={"description": (
        "Issue an auditor token (it reads every hand of a live game, and each such read is "
        "logged for the seats); every view shows whether the game has one"
    )})


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
    players = fields.Integer(
        strict=True, validate=validate.Range(min=2, max=10),
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


# Responses.


class RulingSchema(ma.Schema):
    """Why something was decided: a stable rule id and one sentence."""

    rule = fields.String(required=True, metadata={"example": "play.trump_lead.withhold"})
    text = fields.String(required=True)


class LegalSchema(ma.Schema):
    """The legal cards (in hand order) and the ruling that decided (as the CLI's --json)."""

    legal = fields.List(fields.String(metadata=CARD_METADATA), required=True)
    ruling = fields.String(required=True, metadata={"description": "Why, in one sentence"})
    rule = fields.String(required=True, metadata={"example": "play.trump_lead.withhold"})
    trumps = fields.List(fields.String(metadata=CARD_METADATA), required=True,
                         metadata={"description": "The hand's trumps, highest first"})
    top_trumps = fields.List(
        fields.String(metadata=CARD_METADATA), required=True,
        metadata={"description": "The hand's top trumps (5, J, AH, joker), highest first: "
                                 "those that may be withheld from a lower led trump"},
    )


class WinnerSchema(ma.Schema):
    """The winning card of a trick and why (as the CLI's --json)."""

    winner = fields.Integer(required=True, metadata={"description": "0-based in play order"})
    card = fields.String(required=True, metadata=CARD_METADATA)
    ruling = fields.String(required=True, metadata={"description": "Why, in one sentence"})
    rule = fields.String(required=True, metadata={"example": "trick.highest_trump"})


class OptionSpecSchema(ma.Schema):
    """One option of a profile."""

    description = fields.String(required=True)
    default = fields.Raw(required=True, allow_none=True)
    values = fields.List(fields.Raw(allow_none=True), required=True, allow_none=True,
                         metadata={"description": "Allowed values (null: see description)"})


class PlayersSchema(ma.Schema):
    """How many may play."""

    min = fields.Integer(required=True)
    max = fields.Integer(required=True)


class ProfileSchema(ma.Schema):
    """A built-in rules profile."""

    name = fields.String(required=True)
    players = fields.Nested(PlayersSchema, required=True)
    options = fields.Dict(keys=fields.String(), values=fields.Nested(OptionSpecSchema),
                          required=True)


class ProfileListSchema(ma.Schema):
    """Every built-in profile."""

    profiles = fields.List(fields.Nested(ProfileSchema), required=True)


class SeatClaimLinkSchema(ma.Schema):
    """How a claimable seat is claimed: its one-time code, the API path to POST it to, and
    the web client's invite link to share."""

    code = fields.String(required=True, dump_only=True)
    url = fields.String(required=True, dump_only=True, metadata={
        "description": "POST {\"code\": ...} here to get the seat's token, once"})
    invite = fields.String(required=True, dump_only=True, metadata={
        "description": "The web client's invite link (the code in its fragment)"})


class SeatTokenSchema(ma.Schema):
    """A seat of a new game and its token (shown once; ``null`` for a bot or a claimable
    seat, whose ``claim`` says how to get it)."""

    seat = fields.Integer(required=True, dump_only=True)
    type = fields.String(required=True, dump_only=True)
    claimable = fields.Boolean(required=True, dump_only=True)
    token = fields.String(required=True, allow_none=True, dump_only=True)
    claim = fields.Nested(SeatClaimLinkSchema, required=True, allow_none=True, dump_only=True)


class GameCreatedSchema(ma.Schema):
    """A new game: keep the tokens and claim codes, they are never shown again."""

    id = fields.String(required=True, dump_only=True)
    version = fields.Integer(required=True, dump_only=True)
    seats = fields.List(fields.Nested(SeatTokenSchema), required=True, dump_only=True)
    auditor = fields.Boolean(required=True, dump_only=True, metadata={
        "description": "Whether the game has an auditor token (only when asked for)"})
    auditor_token = fields.String(required=True, allow_none=True, dump_only=True, metadata={
        "description": "null unless the request set auditor: true"})


class SeatClaimSchema(ma.Schema):
    """A claim of a seat: the code from its invite."""

    code = fields.String(required=True, validate=validate.Length(min=1, max=200))


class SeatClaimedSchema(ma.Schema):
    """A claimed seat and its token (shown once)."""

    game_id = fields.String(required=True, dump_only=True)
    seat = fields.Integer(required=True, dump_only=True)
    token = fields.String(required=True, dump_only=True)


class AccessEntrySchema(ma.Schema):
    """One read of a live deal's hidden information with the auditor token."""

    at = fields.String(required=True, metadata={"description": "ISO-8601 UTC"})
    who = fields.String(required=True, metadata={"example": "auditor"})
    method = fields.String(required=True, metadata={"example": "GET"})
    route = fields.String(required=True, metadata={"example": "/v1/games/<game_id>/history"})
    path = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version then"})
    deal = fields.Integer(required=True, metadata={"description": "The deal in progress then"})


class AccessLogSchema(ma.Schema):
    """Every auditor read of a live deal of a game, oldest first."""

    game_id = fields.String(required=True)
    auditor = fields.Boolean(required=True)
    entries = fields.List(fields.Nested(AccessEntrySchema), required=True)


class GameListQuerySchema(ma.Schema):
    """A page of the games created with the caller's API key, newest first."""

    mine = fields.Boolean(required=True, validate=validate.Equal(
        True, error="only mine=true is offered: the games your API key created"),
        metadata={"description": "Must be true: the games the caller's API key created"})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    before = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "The next_before of the previous page"})


class GameSummarySchema(ma.Schema):
    """One game of a listing, as it stands now."""

    id = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"description": "ISO-8601 UTC"})
    profile = fields.String(required=True)
    players = fields.Integer(required=True)
    version = fields.Integer(required=True)
    phase = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(
        ("in_progress", "over", "abandoned")))
    winner = fields.Integer(required=True, allow_none=True)
    scores = fields.List(fields.Integer(), required=True)


class GameListSchema(ma.Schema):
    """A page of games, newest first."""

    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    next_before = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Pass as before for the next (older) page; null on the last page"})


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


class CheckpointSchema(ma.Schema):
    """A signed checkpoint: the service vouches that *game_id* had *head* at *version*
    (docs/verification.md section 8)."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    head = fields.String(required=True, metadata={"description": "Hex SHA-256 of the event at "
                                                  "version"})
    signed_at = fields.String(required=True, metadata={"example": "2026-01-02T03:04:05Z"})
    key_id = fields.String(required=True, metadata={"description": "A key of GET /v1/keys"})
    signature = fields.String(required=True, metadata={
        "description": "Hex Ed25519 signature (64 bytes) over b'fortyfive/checkpoint/1' and "
                       "the canonical JSON of the other five fields"})


class SigningKeySchema(ma.Schema):
    """A public key that signs (or signed) checkpoints."""

    key_id = fields.String(required=True)
    algorithm = fields.String(required=True, metadata={"enum": ["ed25519"]})
    public_key = fields.String(required=True, metadata={"description": "Hex of the raw 32 "
                                                        "bytes"})
    created_at = fields.String(required=True)
    retired_at = fields.String(required=True, allow_none=True, metadata={
        "description": "When a newer key took over; null for the key signing now"})


class SigningKeysSchema(ma.Schema):
    """Every key that signed checkpoints, oldest first."""

    keys = fields.List(fields.Nested(SigningKeySchema), required=True)


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
    data = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), required=True)
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


class StatusSchema(ma.Schema):
    """Liveness or readiness."""

    status = fields.String(required=True)
    store = fields.String()
    latency_ms = fields.Float()


class WorkerBeatSchema(ma.Schema):
    """The freshest RQ worker heartbeat recorded in the store."""

    heartbeat_age_s = fields.Float(
        required=True, allow_none=True,
        metadata={"description": "Seconds since a worker last beat; null if none ever did"},
    )
    stale = fields.Boolean(
        required=True, metadata={"description": "Older than READY_STALE_SECONDS, or missing"}
    )


class DispatcherBeatSchema(WorkerBeatSchema):
    """The freshest dispatcher heartbeat recorded in the store, with its lag."""

    lag_s = fields.Float(
        required=True, allow_none=True,
        metadata={"description": "Seconds since it last read up to the head of every feed "
                  "(0: it keeps up)"},
    )
    lag_entries = fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "Feed entries beyond its last pass (0: it keeps up)"},
    )


class ReadySchema(ma.Schema):
    """Readiness: the store answers, and the workers' heartbeats are fresh (see docs/api.md)."""

    status = fields.String(
        required=True, metadata={"description": "ready, or degraded (then the answer is 503)"}
    )
    latency_ms = fields.Float(required=True, metadata={"description": "The store's PING"})
    workers_required = fields.Boolean(
        required=True,
        metadata={"description": "Whether a stale worker or dispatcher makes this process "
                  "degraded: true when it runs its own (fortyfive serve without --no-worker)"},
    )
    stale = fields.List(
        fields.String(), required=True,
        metadata={"description": "The stale components: worker, dispatcher"},
    )
    worker = fields.Nested(WorkerBeatSchema, required=True)
    dispatcher = fields.Nested(DispatcherBeatSchema, required=True)


# Hand histories, replays, audits and kept uploads (service/histories.py).

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


class DiagnosticSchema(ma.Schema):
    """A problem found reading a file, with where it is."""

    code = fields.String(required=True)
    severity = fields.String(required=True, validate=validate.OneOf(("error", "warning")))
    message = fields.String(required=True)
    line = fields.Integer()
    column = fields.Integer()
    pointer = fields.String()


class VerificationProblemSchema(ma.Schema):
    """Something in a history that does not hold."""

    code = fields.String(required=True)
    message = fields.String(required=True)
    version = fields.Integer(required=True, allow_none=True)
    pointer = fields.String(required=True, allow_none=True)


class UncheckedSchema(ma.Schema):
    """Events a view cannot check, and why."""

    first = fields.Integer(required=True)
    last = fields.Integer(required=True)
    what = fields.String(required=True)
    why = fields.String(required=True)


class IrregularitySchema(ma.Schema):
    """An action that broke a rule (a record of a real table)."""

    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    card = fields.String(required=True, allow_none=True)
    rule = fields.String(required=True)
    text = fields.String(required=True)


class DealContributionsSchema(ma.Schema):
    """What one deal's deck depends on besides the server's seed (docs/verification.md 6)."""

    deal = fields.Integer(required=True)
    version = fields.Integer(required=True)
    algorithm = fields.String(required=True, allow_none=True)
    context = fields.String(required=True, allow_none=True)
    nonce_seats = fields.List(seat_field(), required=True, metadata={
        "description": "Human seats that sent a nonce themselves"})
    cut_seat = seat_field(required=True, allow_none=True)
    cut_by = fields.String(required=True, allow_none=True,
                           validate=validate.OneOf(("person", "bot", "clock")))
    committed_cut = fields.String(required=True, validate=validate.OneOf(
        ("checked", "unchecked", "none")), metadata={
        "description": "A bot's or the clock's cut against the game's revealed contribution "
                       "secret"})
    fairness = fields.String(required=True, validate=validate.OneOf(
        ("person_nonce", "person_cut", "server_only", "recorded", "pending")), metadata={
        "description": "person_nonce: nobody could compute the deck while it could change; "
                       "server_only: only as fair as the server; pending: not cut yet"})


class VerificationSchema(ma.Schema):
    """The verification report of a history."""

    ok = fields.Boolean(required=True, metadata={"description": "Nothing is contradicted"})
    complete = fields.Boolean(required=True, metadata={"description": "Nothing unchecked"})
    game_id = fields.String(required=True, allow_none=True)
    viewer = fields.Raw(required=True, metadata={"oneOf": [
        {"type": "integer", "minimum": 0}, {"type": "string", "enum": ["spectator", "auditor"]}]})
    events = fields.Integer(required=True)
    head = fields.String(required=True, allow_none=True)
    checked = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    problems = fields.List(fields.Nested(VerificationProblemSchema), required=True)
    unchecked = fields.List(fields.Nested(UncheckedSchema), required=True)
    notes = fields.List(fields.String(), required=True)
    irregularities = fields.List(fields.Nested(IrregularitySchema), required=True)
    contributions = fields.List(fields.Nested(DealContributionsSchema), required=True)


class SubmissionResultSchema(ma.Schema):
    """What verifying a history found, and where it was kept."""

    ok = fields.Boolean(required=True,
                        metadata={"description": "Read without errors and verified"})
    id = fields.String(required=True, allow_none=True, metadata={"description": "When kept"})
    url = fields.String(required=True, allow_none=True)
    expires_in = fields.Integer(allow_none=True, metadata={
        "description": "When kept: seconds until it expires (null: kept until deleted)"})
    diagnostics = fields.List(fields.Nested(DiagnosticSchema), required=True)
    verification = fields.Nested(VerificationSchema, required=True)


class ReplaySchema(ma.Schema):
    """The caller's view of a game as it stood after one event."""

    at = fields.Integer(required=True, metadata={"description": "The event shown"})
    version = fields.Integer(required=True, metadata={"description": "The game's version now"})
    event = fields.Nested(EventSchema, required=True)
    game = fields.Nested(GameViewSchema, required=True)


class HistoryEventSchema(ma.Schema):
    """One event of a history, with its chain links (null where the view withholds them)."""

    version = fields.Integer(required=True)
    type = fields.String(required=True)
    schema = fields.Integer(required=True)
    actor = fields.Raw(required=True)
    command_id = fields.String(required=True, allow_none=True)
    occurred_at = fields.String(required=True)
    data = fields.Dict(required=True)
    prev_hash = fields.String(required=True, allow_none=True)
    hash = fields.String(required=True, allow_none=True)
    redacted = fields.List(fields.String())


class HandHistorySchema(ma.Schema):
    """A hand history in its JSON encoding (canonical JSON; the full JSON Schema ships as
    ``replay/hand-history.schema.json`` and is described in docs/hand-history.md)."""

    format = fields.String(required=True, metadata={"example": "fortyfive-hand-history"})
    format_version = fields.String(required=True, metadata={"example": "1.1"})
    ruling_texts = fields.Integer(metadata={
        "description": "The version of the ruling texts the sentences are in (from format "
                       "1.1; docs/rules.md)", "example": 2})
    game_id = fields.String(required=True)
    rules = fields.Dict(required=True)
    seats = fields.List(fields.Dict(), required=True)
    view = fields.Dict(required=True)
    start = fields.Dict()
    events = fields.List(fields.Nested(HistoryEventSchema), required=True)
    head = fields.String(required=True, allow_none=True)
    results = fields.Dict(required=True)
    checkpoint = fields.Nested(CheckpointSchema, allow_none=True, metadata={
        "description": "The latest signed checkpoint this view may have"})
    tags = fields.Dict(keys=fields.String(), values=fields.String())


class AuditAccessSchema(ma.Schema):
    """What an audit says of the game's auditor and its reads of live deals."""

    auditor = fields.Boolean(required=True, metadata={
        "description": "Whether the game has an auditor token"})
    live_reads = fields.Integer(required=True, metadata={
        "description": "Reads of a live deal with the auditor token, each in the access log"})
    log = fields.String(required=True, metadata={
        "description": "Where the seats read the access log once the game is over"})


class AuditSchema(ma.Schema):
    """The full, explained audit of a game."""

    format = fields.String(required=True, metadata={"example": "fortyfive-audit"})
    format_version = fields.String(required=True)
    game_id = fields.String(required=True)
    verification = fields.Nested(VerificationSchema, required=True)
    deals = fields.List(fields.Dict(), required=True, metadata={
        "description": "Per deal: the shuffle proof (commitment, seed, deck order re-derived) "
                       "and every ruling with the rule it applies"})
    rules = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    history = fields.Nested(HandHistorySchema, required=True)
    access = fields.Nested(AuditAccessSchema, required=True)
