"""The API's other answers as marshmallow schemas: those of a game's seats, of the rules, of
the signing keys and of health.

A new game's seats and tokens, a claimed seat and the auditor's access log; a page of games;
the stateless rulings (legal cards, a trick's winner) and the rules profiles; the keys that
sign checkpoints; liveness and readiness with the workers' heartbeats. A game's view is in
:mod:`service.http.schemas.views`, its histories in :mod:`service.http.schemas.histories`.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.application import access_log
from service.http.schemas.fields import CARD_METADATA


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
    refusals = fields.Dict(
        keys=fields.String(metadata=CARD_METADATA), values=fields.String(), required=True,
        metadata={"description": "For each card of the hand that may not be played, why, in a "
                                 "player's words with suit symbols (the ruling and rule above "
                                 "stay the authority)",
                  "example": {"7S": "7\u2660 may not be played: 9\u2665 was led and you hold a "
                                    "\u2665 heart, so you must follow with a heart or play a "
                                    "trump. You may play K\u2665 or 5\u2660."}},
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
    default = fields.Raw(required=True, allow_none=True, metadata={
        "description": "The default at the profile's smallest table (see default_by_players)"})
    default_by_players = fields.Dict(
        keys=fields.String(), values=fields.Raw(allow_none=True), required=True, allow_none=True,
        metadata={"description": "The default at each table size where it differs from "
                  "`default` (classic's layout: pairs at 4 and 8, triples at 6); null where "
                  "it never varies", "example": {"4": "pairs", "6": "triples", "8": "pairs"}})
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
    level = fields.String(required=True, allow_none=True, dump_only=True, metadata={
        "description": "The bot's level as recorded in game_created (basic or strong); null "
        "for a human seat"})
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


class SeatClaimedSchema(ma.Schema):
    """A claimed seat and its token (shown once)."""

    game_id = fields.String(required=True, dump_only=True)
    seat = fields.Integer(required=True, dump_only=True)
    token = fields.String(required=True, dump_only=True)


class RematchSchema(ma.Schema):
    """A game and its rematch."""

    game_id = fields.String(required=True, dump_only=True)
    rematch = fields.String(required=True, allow_none=True, dump_only=True, metadata={
        "description": "The id of the new game, which takes this game's tokens; null while "
        "no seat has asked for one"})


class AccessEntrySchema(ma.Schema):
    """One read of a live deal's hidden information with the auditor token."""

    n = fields.Integer(required=True, metadata={
        "description": "The read's number: 1 for the first, one more for each"})
    at = fields.String(required=True, metadata={"description": "ISO-8601 UTC"})
    who = fields.String(required=True, metadata={"example": "auditor"})
    method = fields.String(required=True, metadata={"example": "GET"})
    route = fields.String(required=True, metadata={"example": "/v1/games/<game_id>/history"})
    path = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version then"})
    deal = fields.Integer(required=True, metadata={"description": "The deal in progress then"})


class AccessLogSchema(ma.Schema):
    """A page of the auditor's reads of a game's live deals, oldest first (docs/api.md)."""

    game_id = fields.String(required=True)
    auditor = fields.Boolean(required=True)
    reads = fields.Integer(required=True, metadata={
        "description": "Every read recorded (the last n), the dropped ones included"})
    kept = fields.Integer(required=True, metadata={
        "description": f"Entries the log holds: the newest, at most {access_log.KEPT}; older "
        "reads are counted but dropped"})
    entries = fields.List(fields.Nested(AccessEntrySchema), required=True)
    next_after = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Pass as ?after= for the next page; null at the end"})


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


class ExitSchema(ma.Schema):
    """How the embedded redis-server last ended."""

    pid = fields.Integer(required=True, allow_none=True)
    how = fields.String(required=True, metadata={
        "description": "e.g. was killed by SIGKILL, exited with status 1"})
    at = fields.String(required=True, metadata={"description": "ISO-8601 UTC"})
    ran_s = fields.Float(required=True, metadata={"description": "Seconds it had run"})
    restart_in_s = fields.Float(required=True, metadata={
        "description": "The delay before the keeper started it again"})


class EmbeddedRedisSchema(ma.Schema):
    """The redis-server that fortyfive serve runs and keeps running (docs/workers.md)."""

    state = fields.String(required=True, metadata={
        "enum": ["starting", "up", "down"],
        "description": "down: it died or failed to start, and is started again"})
    pid = fields.Integer(required=True, allow_none=True)
    since = fields.String(required=True, metadata={
        "description": "ISO-8601 UTC: when it entered this state"})
    restarts = fields.Integer(required=True, metadata={
        "description": "How many times it was started again after it died"})
    last_exit = fields.Nested(ExitSchema, required=True, allow_none=True)
    error = fields.String(required=True, allow_none=True, metadata={
        "description": "Why its last start failed, while it is down"})


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
    embedded_redis = fields.Nested(EmbeddedRedisSchema, metadata={
        "description": "Only under fortyfive serve's own redis-server: what its keeper "
        "recorded (also in the 503 problem while the store is down)"})
