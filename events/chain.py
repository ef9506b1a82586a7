"""The hash chain: each envelope's hash covers its content and the hash before it.

``hash = SHA-256(canonical JSON of the envelope without hash)``, and ``prev_hash`` is the hash
of the previous envelope (64 zeros for the first). Editing, dropping or reordering any event
changes every hash after it, so a history is pinned by its head hash.

Games and drives are chained alike: a drive's envelope (:class:`events.envelope.DriveEnvelope`)
names its drive where a game's names its game, and both are sealed and verified here.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from events.codec import canonical_json
from events.envelope import SERVER, Actor, DriveEnvelope, Envelope
from events.errors import CorruptStreamError
from events.types import Event, event_to_data

GENESIS_HASH = "0" * 64
"""The ``prev_hash`` of a game's (or a drive's) first event."""
HASH_FORM = re.compile(r"[0-9a-f]{64}")
"""The form of every hash of the chain (head hashes included): 64 lowercase hex digits."""


def hash_bytes(body: bytes) -> str:
    """Returns the hex SHA-256 of *body*, the canonical JSON of an envelope without its hash."""
    return hashlib.sha256(body).hexdigest()


def envelope_hash(envelope: Envelope | DriveEnvelope) -> str:
    """Returns the hash *envelope* (a game's or a drive's) should carry, recomputed from its
    other fields.

    :raises events.codec.CodecError: if its data has no canonical JSON form.
    """
    return hash_bytes(canonical_json(envelope.body()))


def seal(
    *,
    game_id: str,
    version: int,
    event_type: str,
    schema: int,
    data: Mapping[str, Any],
    actor: Actor,
    command_id: str | None,
    occurred_at: str,
    prev_hash: str,
) -> tuple[Envelope, bytes]:
    """Returns a new envelope with its hash, and the canonical body bytes that hash covers.

    :raises events.codec.CodecError: if *data* has no canonical JSON form.
    """
    fields: dict[str, Any] = {
        "game_id": game_id,
        "version": version,
        "type": event_type,
        "schema": schema,
        "data": data,
        "actor": actor,
        "command_id": command_id,
        "occurred_at": occurred_at,
        "prev_hash": prev_hash,
    }
    body = canonical_json(fields)
    return Envelope(**fields, hash=hash_bytes(body)), body


def seal_events(
    game_id: str,
    after: int,
    prev_hash: str,
    events: Sequence[Event],
    *,
    actor: Actor,
    command_id: str | None,
    occurred_at: str,
) -> list[tuple[Envelope, bytes]]:
    """Returns *events* sealed as versions ``after + 1...``, each linked to the one before.

    :raises events.codec.CodecError: if an event's data has no canonical JSON form.
    """
    sealed: list[tuple[Envelope, bytes]] = []
    for offset, event in enumerate(events, start=1):
        envelope, body = seal(
            game_id=game_id,
            version=after + offset,
            event_type=event.TYPE,
            schema=event.SCHEMA,
            data=event_to_data(event),
            actor=actor,
            command_id=command_id,
            occurred_at=occurred_at,
            prev_hash=prev_hash,
        )
        sealed.append((envelope, body))
        prev_hash = envelope.hash
    return sealed


def seal_drive_events(
    drive_id: str,
    after: int,
    prev_hash: str,
    events: Sequence[Event],
    *,
    command_id: str | None,
    occurred_at: str,
    actor: str = SERVER,
) -> list[tuple[DriveEnvelope, bytes]]:
    """Returns a drive's *events* sealed as versions ``after + 1...``, each linked to the one
    before, and the canonical body bytes each hash covers (as :func:`seal_events` for a game).

    :raises events.codec.CodecError: if an event's data has no canonical JSON form.
    """
    sealed: list[tuple[DriveEnvelope, bytes]] = []
    for offset, event in enumerate(events, start=1):
        fields: dict[str, Any] = {
            "drive_id": drive_id, "version": after + offset, "type": event.TYPE,
            "schema": event.SCHEMA, "data": event_to_data(event), "actor": actor,
            "command_id": command_id, "occurred_at": occurred_at, "prev_hash": prev_hash,
        }
        body = canonical_json(fields)
        envelope = DriveEnvelope(**fields, hash=hash_bytes(body))
        sealed.append((envelope, body))
        prev_hash = envelope.hash
    return sealed


def check_link(envelope: Envelope | DriveEnvelope, *, game_id: str, version: int,
               prev_hash: str) -> None:
    """Checks *envelope* is event *version* of stream *game_id* (a game's, or a drive's for a
    drive's envelope) and follows *prev_hash*.

    Its own hash is not recomputed here (see :func:`verify`).

    :raises CorruptStreamError: if the stream, the version or the link differ.
    """
    stream = envelope.STREAM
    if envelope.stream_id != game_id or envelope.version != version:
        raise CorruptStreamError(
            f"chain broken in {stream} {game_id!r} at version {version}: found event "
            f"{envelope.version} of {stream} {envelope.stream_id!r}"
        )
    if envelope.prev_hash != prev_hash:
        raise CorruptStreamError(
            f"chain broken in {stream} {game_id!r} at version {version}: prev_hash "
            f"{envelope.prev_hash[:12]}... does not match {prev_hash[:12]}..."
        )


def verify(
    envelopes: Iterable[Envelope] | Iterable[DriveEnvelope],
    *,
    prev_hash: str = GENESIS_HASH,
    after: int = 0,
    game_id: str | None = None,
) -> str:
    """Verifies *envelopes* form an unbroken chain and returns the head hash.

    They must be versions ``after + 1...`` of one stream (*game_id*, or the first envelope's;
    a drive's envelopes are checked the same way, see :func:`verify_drive`), each hash must
    match its content and each must link to the one before, the first to *prev_hash*. With no
    envelopes the head is *prev_hash*.

    :raises CorruptStreamError: at the first envelope that breaks the chain.
    """
    version = after
    for envelope in envelopes:
        version += 1
        if game_id is None:
            game_id = envelope.stream_id
        check_link(envelope, game_id=game_id, version=version, prev_hash=prev_hash)
        recomputed = envelope_hash(envelope)
        if envelope.hash != recomputed:
            raise CorruptStreamError(
                f"chain broken in {envelope.STREAM} {game_id!r} at version {version}: stored "
                f"hash {envelope.hash[:12]}... does not match its content "
                f"({recomputed[:12]}...)"
            )
        prev_hash = envelope.hash
    return prev_hash


def verify_drive(envelopes: Iterable[DriveEnvelope], drive_id: str) -> str:
    """Verifies a drive's *envelopes* are its versions 1... in an unbroken chain (as
    :func:`verify` does a game's) and returns the head hash.

    :raises CorruptStreamError: at the first envelope that breaks the chain.
    """
    return verify(envelopes, game_id=drive_id)
