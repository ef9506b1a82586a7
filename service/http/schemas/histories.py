"""The answers of the hand-history endpoints (service/http/routes/histories.py) as marshmallow
schemas.

A hand history in its JSON encoding, the report of verifying one (:mod:`replay.verification.verify`:
its problems, what it left unchecked, irregularities and each deal's contributions), what a
submitted history was found to be, a replay at one event, and the full audit of a game.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.http.schemas.fields import seat_field
from service.http.schemas.responses import SigningKeySchema
from service.http.schemas.views import CheckpointSchema, EventSchema, GameViewSchema


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


class SignatureCheckSchema(ma.Schema):
    """How a checkpoint's signature was checked, and against which trust root."""

    checkpoint = fields.String(required=True, metadata={
        "description": "Which checkpoint: the one the history carries, or the kept one"})
    key_id = fields.String(required=True)
    trust = fields.String(required=True, validate=validate.OneOf(
        ("keys_given", "history_key", "none")), metadata={
        "description": "keys_given: verified with the keys the caller gave; history_key: "
                       "verified with the key the history carries (no trust root vouches "
                       "for it); none: not checked"})
    version = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The event the checkpoint vouches for: the history up to there, no "
                       "further"})


class PrefixSchema(ma.Schema):
    """Where a history that stops before the game's end stops, and how much a later checkpoint
    shows missing."""

    last = fields.Integer(required=True, metadata={"description": "The history's last event"})
    vouched = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The latest later event a checkpoint vouches for"})
    missing = fields.Integer(required=True, allow_none=True, metadata={
        "description": "At least this many events of the game are missing"})


class VerificationSchema(ma.Schema):
    """The verification report of a history."""

    ok = fields.Boolean(required=True, metadata={"description": "Nothing is contradicted"})
    complete = fields.Boolean(required=True, metadata={
        "description": "Nothing unchecked (in a finished game judged by signatures, a "
                       "checkpoint vouches for its last event) and no prefix"})
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
    signatures = fields.List(fields.Nested(SignatureCheckSchema), required=True)
    prefix = fields.Nested(PrefixSchema, required=True, allow_none=True, metadata={
        "description": "Set when the history stops before the game's end"})
    signed_through = fields.Integer(required=True, allow_none=True, metadata={
        "description": "For a finished game judged by signatures (a checkpoint carried or "
                       "given, or keys given): the latest event a checkpoint vouches for"})


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
    ``replay/formats/hand-history.schema.json`` and is described in docs/hand-history.md)."""

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
    checkpoint_key = fields.Nested(SigningKeySchema, metadata={
        "description": "The public key that signed the checkpoint, as GET /v1/keys lists it"})
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
