"""The drive store: one append-only, hash-chained stream per drive, on Redis Streams.

A drive's events are typed events (:data:`events.drive_types.DRIVE_EVENT_TYPES`; their fold is
:func:`engine.drives.fold_drive`), sealed by :mod:`events.chain` in envelopes that chain like a
game's (:class:`events.envelope.DriveEnvelope`) and read back through the drive upcasters
(:func:`events.upcasting.decode_drive`). The append reuses the game store's compare-and-append
script (``events/append.lua``) on the drive's own keys, so an append writes the drive's event
and an entry in its partition's feed in one atomic step: the workers advance a drive from the
feed, as they do every game. The game store runs that script
(:meth:`RedisEventStore.append_script`), so a drive's append waits for the replicas exactly as
a game's does. The drive's secrets (digests of the players' tokens, the seeds of boards not yet
revealed) live in a hash beside the stream, never in the stream itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from events.chain import seal_drive_events, verify_drive
from events.codec import canonical_json, parse_json
from events.envelope import SERVER, DriveEnvelope, format_timestamp
from events.errors import ConcurrencyError, CorruptStreamError, StoreError
from events.keys import drive_command_key, drive_key, drive_secrets_key, feed_key
from events.redis_store import RedisEventStore
from events.store import partition_of
from events.types import Event

DRIVE_ID = re.compile(r"dr-[0-9a-f]{20}")
"""A drive id: ``dr-`` and 20 hex digits (never a game id: those are made by the store's
callers without the prefix, see :func:`is_drive_id`)."""


def is_drive_id(value: str) -> bool:
    """True for a drive id.

    >>> is_drive_id("dr-" + "0" * 20), is_drive_id("0" * 24)
    (True, False)
    """
    return DRIVE_ID.fullmatch(value) is not None


class DriveStore:
    """Drive streams and secrets beside the games of *store*, appended through it."""

    def __init__(
        self, store: RedisEventStore, *, clock: Callable[[], datetime] | None = None
    ) -> None:
        self._store = store
        self._redis: Any = store.client
        self._clock = clock or (lambda: datetime.now(UTC))

    @property
    def client(self) -> Any:
        """The Redis client of the store (for what is kept beside a drive: its checkpoints)."""
        return self._redis

    def read(self, drive_id: str) -> list[DriveEnvelope]:
        """Returns the envelopes of *drive_id*, oldest first, with their chain verified (an
        empty list for an unknown drive).

        :raises CorruptStreamError: if the stored chain is broken.
        """
        entries = self._redis.xrange(drive_key(drive_id), "-", "+")
        envelopes = [DriveEnvelope.from_dict(parse_json(_field(fields, "body")))
                     for _, fields in entries]
        verify_drive(envelopes, drive_id)
        return envelopes

    def wait(self, drive_id: str, after: int, block_ms: int) -> int:
        """Returns the version of *drive_id* once it is beyond *after*, waiting up to
        *block_ms* (``XREAD BLOCK`` from ``0-<after>``, so nothing appended between two calls
        is missed); *after* when nothing came. *block_ms* must stay below the store's socket
        timeout (the drive stream waits 4 s at a time)."""
        reply = self._redis.xread({drive_key(drive_id): f"0-{after}"}, count=1,
                                  block=block_ms or None)
        if not reply:
            return after
        return int(self._redis.xlen(drive_key(drive_id)))

    def append(
        self,
        drive_id: str,
        expected_version: int,
        events: Sequence[Event],
        *,
        head: str,
        command_id: str | None = None,
        actor: str = SERVER,
    ) -> int:
        """Appends *events* at versions ``expected_version + 1...`` after the envelope whose
        hash is *head* (the genesis hash for a new drive); returns the drive's version after.
        A command id seen before appends nothing and returns that first append's version.

        :raises ConcurrencyError: if the drive is not at *expected_version*.
        :raises NotReplicatedError: (a :class:`StoreUnavailableError`, 503) if it was written
            but too few replicas confirmed it in time; retry with the same command id.
        :raises StoreUnavailableError: if the store cannot be reached.
        :raises StoreError: for any other refusal of the store.
        """
        sealed = seal_drive_events(drive_id, expected_version, head, events,
                                   command_id=command_id, actor=actor,
                                   occurred_at=format_timestamp(self._clock()))
        args: list[str | int] = [drive_id, expected_version, head, command_id or ""]
        for envelope, _body in sealed:
            args += [canonical_json(envelope.to_dict()).decode("utf-8"), envelope.hash,
                     envelope.type]
        keys = [drive_key(drive_id), drive_command_key(drive_id),
                feed_key(partition_of(drive_id))]
        reply = self._store.append_script("drive", drive_id, keys, args)
        kind = _text(reply[0])
        if kind == "OK":
            return int(reply[1])
        if kind == "DUPLICATE":
            return len(self._redis.xrange(drive_key(drive_id), "-", "+"))
        if kind == "CONFLICT":
            raise ConcurrencyError(drive_id, expected_version, int(reply[1]))
        raise StoreError(f"drive {drive_id!r}: append refused: {reply!r}")

    def secrets(self, drive_id: str) -> dict[str, str]:
        """Returns the drive's secrets (field -> value)."""
        raw = self._redis.hgetall(drive_secrets_key(drive_id))
        return {_text(k): _text(v) for k, v in raw.items()}

    def keep_secrets(self, drive_id: str, values: Mapping[str, str]) -> dict[str, str]:
        """Stores each of *values* unless the field is set already (a retry keeps the first
        values); returns the drive's secrets after."""
        pipe = self._redis.pipeline(transaction=False)
        for field, value in values.items():
            pipe.hsetnx(drive_secrets_key(drive_id), field, value)
        pipe.execute()
        return self.secrets(drive_id)

    def replace_secrets(self, drive_id: str, values: Mapping[str, str]) -> None:
        """Stores each of *values*, replacing what the field held (a director's substitute
        takes a player's token field)."""
        self._redis.hset(drive_secrets_key(drive_id), mapping=dict(values))


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _field(fields: Any, name: str) -> str:
    value = fields.get(name, fields.get(name.encode()))
    if value is None:
        raise CorruptStreamError(f"drive entry without {name!r}")
    return _text(value)
