"""The envelope: an event's data as stored, with its place in the game and in the hash chain.

An envelope holds the data exactly as written, at the schema it was written with, so its hash
never changes; :mod:`events.upcasting` turns that data into the current event type on read.
:class:`RecordedEvent` pairs the two.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, ClassVar, TypeAlias

from events.errors import CorruptStreamError
from events.types import Event, Seat, positional_constructor

Actor: TypeAlias = Seat | str
"""Who caused an event: a seat number, or :data:`SERVER`."""

SERVER = "server"
"""The actor of events the service decides itself (shuffles, timeouts, seed reveals)."""
DIRECTOR = "director"
"""The actor of a drive's events its director decided (pause, resume, stop), with the
director's token."""

BODY_FIELDS = (
    "game_id",
    "version",
    "type",
    "schema",
    "data",
    "actor",
    "command_id",
    "occurred_at",
    "prev_hash",
)
"""The envelope fields covered by its hash: every field but ``hash``."""
_BODY_KEYS = frozenset(BODY_FIELDS)


@dataclasses.dataclass(frozen=True, slots=True)
class Envelope:
    """One stored event: its data at the schema it was written with, and its chain links.

    Build new envelopes with :func:`events.chain.seal`, which computes the hash.
    """

    STREAM: ClassVar[str] = "game"
    """What its stream is, for messages (a :class:`DriveEnvelope`'s is ``drive``)."""

    game_id: str
    version: int
    """1-based and gapless within the game; the stream entry id is ``0-<version>``."""
    type: str
    """The event type's wire name (:attr:`events.types.Event.TYPE`)."""
    schema: int
    """The schema of :attr:`data` when it was written."""
    data: Mapping[str, Any]
    """The event data as written (JSON values); never mutate it."""
    actor: Actor
    command_id: str | None
    """The command that produced the event, if the writer gave one."""
    occurred_at: str
    """When the event was appended: ISO-8601 UTC ending in ``Z``."""
    prev_hash: str
    """The hash of the previous envelope (64 zeros for version 1)."""
    hash: str
    """Hex SHA-256 of the canonical JSON of every other field."""

    @property
    def stream_id(self) -> str:
        """The id of its stream: its game's."""
        return self.game_id

    def body(self) -> dict[str, Any]:
        """Returns the fields covered by the hash, as a JSON-ready dict."""
        return {name: getattr(self, name) for name in BODY_FIELDS}

    def to_dict(self) -> dict[str, Any]:
        """Returns every field, ``hash`` included, as a JSON-ready dict."""
        return {**self.body(), "hash": self.hash}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Envelope:
        """Returns the envelope held by *raw* (as made by :meth:`to_dict`).

        The hash is not checked here; :func:`events.chain.verify` does that.

        :raises CorruptStreamError: if a field is missing, unexpected or of the wrong type.
        """
        names = (*BODY_FIELDS, "hash")
        missing = [name for name in names if name not in raw]
        extra = sorted(set(raw) - set(names))
        if missing or extra:
            raise CorruptStreamError(
                f"invalid envelope: missing fields {missing}, unexpected fields {extra}"
            )
        envelope = cls(**{name: raw[name] for name in names})
        _check_types(envelope)
        return envelope

    @classmethod
    def from_body(cls, body: Mapping[str, Any], hash: str) -> Envelope:
        """Returns the envelope of a stored *body* (the fields covered by the hash, as JSON
        decodes them) and its *hash*: :meth:`from_dict` of both, with the same checks.

        The usual case (exactly the body fields, each of its JSON type) is checked field by
        field on exact types, which is what JSON decoding gives; anything else goes through
        :meth:`from_dict` for its error.

        :raises CorruptStreamError: if a field is missing, unexpected or of the wrong type.
        """
        if type(body) is dict and body.keys() == _BODY_KEYS:
            version, schema, actor = body["version"], body["schema"], body["actor"]
            command_id = body["command_id"]
            if (
                type(version) is int and version >= 1 and type(schema) is int and schema >= 1
                and ((type(actor) is int and actor >= 0) or actor == SERVER)
                and (command_id is None or type(command_id) is str)
                and type(body["data"]) is dict and type(hash) is str
                and type(body["game_id"]) is str and type(body["type"]) is str
                and type(body["occurred_at"]) is str and type(body["prev_hash"]) is str
            ):
                return cls(body["game_id"], version, body["type"], schema, body["data"], actor,
                           command_id, body["occurred_at"], body["prev_hash"], hash)
        return cls.from_dict({**body, "hash": hash})


DRIVE_BODY_FIELDS = ("drive_id", *BODY_FIELDS[1:])
"""The fields of a drive's envelope covered by its hash: a game's, named for the drive."""
UNTYPED_DRIVE_FIELDS = tuple(name for name in DRIVE_BODY_FIELDS if name not in ("schema", "actor"))
"""The fields of a drive envelope written before drive events were typed: no ``schema`` (its
data is schema 1 of its type) and no ``actor`` (the server wrote every such event)."""


@dataclasses.dataclass(frozen=True, slots=True)
class DriveEnvelope:
    """One stored event of a drive: as :class:`Envelope`, with ``drive_id`` for ``game_id``.

    The hash covers the fields as they were stored: an envelope written before drive events
    were typed (:attr:`untyped`) has neither ``schema`` nor ``actor``, and keeps its hash.
    Build new ones with :func:`events.chain.seal_drive_events`.
    """

    STREAM: ClassVar[str] = "drive"

    drive_id: str
    version: int
    type: str
    schema: int
    data: Mapping[str, Any]
    actor: str
    command_id: str | None
    occurred_at: str
    prev_hash: str
    hash: str
    untyped: bool = False
    """Stored without ``schema`` and ``actor`` (schema 1, the server): read, never written."""

    @property
    def stream_id(self) -> str:
        """The id of its stream: its drive's."""
        return self.drive_id

    def body(self) -> dict[str, Any]:
        """Returns the fields covered by the hash (as stored), as a JSON-ready dict."""
        names = UNTYPED_DRIVE_FIELDS if self.untyped else DRIVE_BODY_FIELDS
        return {name: getattr(self, name) for name in names}

    def to_dict(self) -> dict[str, Any]:
        """Returns the envelope as stored, ``hash`` included, as a JSON-ready dict."""
        return {**self.body(), "hash": self.hash}

    @classmethod
    def from_dict(cls, raw: Any) -> DriveEnvelope:
        """Returns the drive envelope held by *raw* (as made by :meth:`to_dict`), in either
        form; the hash is not checked here (:func:`events.chain.verify_drive` does that).

        :raises CorruptStreamError: if a field is missing, unexpected or of the wrong type.
        """
        if not isinstance(raw, Mapping):
            raise CorruptStreamError(f"invalid drive envelope: {type(raw).__name__}, not an "
                                     "object")
        untyped = "schema" not in raw and "actor" not in raw
        names = (*(UNTYPED_DRIVE_FIELDS if untyped else DRIVE_BODY_FIELDS), "hash")
        missing = [name for name in names if name not in raw]
        extra = sorted(set(raw) - set(names))
        if missing or extra:
            raise CorruptStreamError(
                f"invalid drive envelope: missing fields {missing}, unexpected fields {extra}")
        values = {name: raw[name] for name in names}
        if untyped:
            values.update(schema=1, actor=SERVER)
        envelope = cls(**values, untyped=untyped)
        _check_drive_types(envelope)
        return envelope


@dataclasses.dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event read back from the store: its envelope and the event at the current schema."""

    envelope: Envelope
    event: Event

    @property
    def version(self) -> int:
        """The event's version in its game."""
        return self.envelope.version


envelope_of: Callable[..., Envelope] = positional_constructor(Envelope)
"""Builds an :class:`Envelope` from its ten field values in order, as ``Envelope(*values)``
does (checking nothing): for a reader that has checked each value already."""

recorded_of: Callable[[Envelope, Event], RecordedEvent] = positional_constructor(RecordedEvent)
"""Builds a :class:`RecordedEvent`, as ``RecordedEvent(envelope, event)`` does."""


def check_actor(actor: object) -> Actor:
    """Returns *actor* if it is a seat number (an int, 0 or more) or :data:`SERVER`.

    :raises ValueError: if it is neither.
    """
    if isinstance(actor, bool) or not (
        (isinstance(actor, int) and actor >= 0) or actor == SERVER
    ):
        raise ValueError(f"invalid actor {actor!r}: expected a seat number or {SERVER!r}")
    assert isinstance(actor, int | str), "checked above"
    return actor


def format_timestamp(moment: datetime) -> str:
    """Returns *moment* as ISO-8601 UTC with microseconds and a ``Z``.

    >>> format_timestamp(datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC))
    '2025-01-02T03:04:05.000000Z'

    :raises ValueError: if *moment* is naive (without a time zone).
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: the clock must return an aware datetime")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_timestamp(text: str) -> datetime:
    """Returns the aware datetime of an ``occurred_at`` written by :func:`format_timestamp`.

    >>> parse_timestamp('2025-01-02T03:04:05.250000Z').timestamp()
    1735787045.25

    :raises ValueError: if *text* is not such a time.
    """
    if not isinstance(text, str) or not text.endswith("Z"):
        raise ValueError(f"not a UTC time ending in Z: {text!r}")
    moment = datetime.fromisoformat(text[:-1] + "+00:00")
    if moment.utcoffset() is None:
        raise ValueError(f"not a UTC time: {text!r}")
    return moment


def _check_types(envelope: Envelope) -> None:
    """Checks each field of *envelope* has its JSON type.

    :raises CorruptStreamError: naming the first field that does not.
    """
    expected: dict[str, type | tuple[type, ...]] = {
        "game_id": str,
        "version": int,
        "type": str,
        "schema": int,
        "data": dict,
        "actor": (int, str),
        "command_id": (str, type(None)),
        "occurred_at": str,
        "prev_hash": str,
        "hash": str,
    }
    for name, kind in expected.items():
        value = getattr(envelope, name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CorruptStreamError(
                f"invalid envelope field {name}={value!r} in game {envelope.game_id!r}"
            )
    try:
        check_actor(envelope.actor)
    except ValueError as error:
        raise CorruptStreamError(
            f"invalid envelope in game {envelope.game_id!r}: {error}"
        ) from None
    if envelope.version < 1 or envelope.schema < 1:
        raise CorruptStreamError(
            f"invalid envelope in game {envelope.game_id!r}: version {envelope.version}, "
            f"schema {envelope.schema}"
        )


def _check_drive_types(envelope: DriveEnvelope) -> None:
    """Checks each field of a drive *envelope* has its JSON type.

    :raises CorruptStreamError: naming the first field that does not.
    """
    expected: dict[str, type | tuple[type, ...]] = {
        "drive_id": str, "version": int, "type": str, "schema": int, "data": dict,
        "actor": str, "command_id": (str, type(None)), "occurred_at": str, "prev_hash": str,
        "hash": str,
    }
    for name, kind in expected.items():
        value = getattr(envelope, name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CorruptStreamError(
                f"invalid envelope field {name}={value!r} in drive {envelope.drive_id!r}")
    if envelope.version < 1 or envelope.schema < 1:
        raise CorruptStreamError(
            f"invalid envelope in drive {envelope.drive_id!r}: version {envelope.version}, "
            f"schema {envelope.schema}")
