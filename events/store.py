"""The event store port: what every adapter promises, its result types and its errors.

A game is one append-only log of events, versioned 1, 2, 3... without gaps. Writers append with
the version they decided on (optimistic concurrency) and, for commands that may be retried, a
command id: a repeated id returns the first result and writes nothing. Readers page through a
game, tail it live, or follow a partition feed that lists every appended event of the games in
that partition.

This module imports no adapter: :mod:`events.redis_store` implements :class:`EventStore` on
Redis Streams. The errors live in :mod:`events.errors` (and are re-exported here).
"""

from __future__ import annotations

import dataclasses
import re
import zlib
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol, TypeAlias

from events.envelope import Actor, RecordedEvent
from events.errors import CommitmentReusedError as CommitmentReusedError
from events.errors import ConcurrencyError as ConcurrencyError
from events.errors import CorruptStreamError as CorruptStreamError
from events.errors import SchemaError as SchemaError
from events.errors import StoreError as StoreError
from events.errors import StoreUnavailableError as StoreUnavailableError
from events.types import Event

PARTITIONS = 256
"""Number of feed partitions. Fixed forever: changing it would move every game's keys."""

GameId: TypeAlias = str
"""A game id: 1 to 128 characters of ``A-Z a-z 0-9 . _ -``, starting with a letter or digit."""

_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_MAX_COMMAND_ID = 200


@dataclasses.dataclass(frozen=True, slots=True)
class AppendResult:
    """What an append wrote or, for a repeated command id, what its first attempt wrote."""

    recorded: tuple[RecordedEvent, ...]
    """The appended events with their envelopes, in version order."""
    version: int
    """The game's version right after this append (on a duplicate: after the first one)."""
    duplicate: bool
    """True when the command id had been seen and nothing was written."""


@dataclasses.dataclass(frozen=True, slots=True)
class FeedEntry:
    """One line of a partition feed: an event was appended to a game of this partition."""

    id: str
    """The feed entry id (``0-<position>``); pass it back as ``after_id`` to read on."""
    game_id: str
    version: int
    type: str


class EventStore(Protocol):
    """The event store port: an append-only, versioned log per game, plus partition feeds."""

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[Event],
        *,
        actor: Actor,
        command_id: str | None = None,
        occurred_at: datetime | None = None,
    ) -> AppendResult:
        """Appends *events* at versions ``expected_version + 1...`` in one atomic step,
        stamped *occurred_at* (by default, :meth:`now`: a caller that checked a rule on the
        events' times against a time passes that time, so the record holds what it checked).

        The command id is checked first: if it was seen, the first result is returned
        (``duplicate=True``) and nothing is written, whatever the version is now. Then the
        version: it must equal *expected_version*. Zero events make a version check that
        writes nothing (a command id is looked up but never recorded).

        :raises ConcurrencyError: if the game's version is not *expected_version*.
        :raises CommitmentReusedError: for a seed commitment used before elsewhere.
        :raises ValueError: for an invalid game id, version, actor, command id or event.
        :raises StoreUnavailableError: if the store cannot be reached.
        """
        ...

    def read(
        self,
        game_id: str,
        after: int = 0,
        limit: int | None = None,
        *,
        prev_hash: str | None = None,
    ) -> list[RecordedEvent]:
        """Returns the events of *game_id* with versions above *after*, oldest first.

        Every event's hash is checked and each must link to the one before it; the first links
        to the genesis hash when *after* is 0, or to *prev_hash* when given.

        :raises CorruptStreamError: if the stored history fails verification.
        :raises SchemaError: if an event's schema cannot be upcast to the current one.
        :raises StoreUnavailableError: if the store cannot be reached.
        """
        ...

    def now(self) -> datetime:
        """Returns the time by the clock that stamps ``occurred_at`` on appends."""
        ...

    def version(self, game_id: str) -> int:
        """Returns the current version of *game_id* (0 for a game never appended to).

        :raises StoreUnavailableError: if the store cannot be reached.
        """
        ...

    def tail(self, game_id: str, after: int, block_ms: int) -> list[RecordedEvent]:
        """Returns the events after version *after*, waiting up to *block_ms* for the first.

        An empty list means nothing arrived in time; call again with the same *after*.

        :raises StoreUnavailableError: if the store cannot be reached.
        """
        ...

    def read_feed(
        self, partition: int, after_id: str = "0-0", count: int = 100, block_ms: int | None = None
    ) -> list[FeedEntry]:
        """Returns up to *count* feed entries of *partition* after *after_id*, oldest first,
        waiting up to *block_ms* when there are none (no wait when ``None``).

        :raises StoreUnavailableError: if the store cannot be reached.
        """
        ...

    def partition_of(self, game_id: str) -> int:
        """Returns the feed partition of *game_id* (see :func:`partition_of`)."""
        ...

    def ping(self) -> float:
        """Returns the round trip to the store in seconds, for a readiness check.

        :raises StoreUnavailableError: if the store cannot be reached.
        """
        ...


def partition_of(game_id: str) -> int:
    """Returns the feed partition of *game_id*: CRC-32 of its UTF-8 bytes, modulo 256.

    Fixed forever (unlike :func:`hash`, which is salted per process).

    >>> partition_of("g1")
    165
    """
    return zlib.crc32(game_id.encode("utf-8")) % PARTITIONS


def check_game_id(game_id: object) -> str:
    """Returns *game_id* if it is a valid game id.

    :raises ValueError: if it is not a string of 1 to 128 characters of ``A-Z a-z 0-9 . _ -``
        starting with a letter or digit.
    """
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        raise ValueError(
            f"invalid game id {game_id!r}: expected 1 to 128 characters of A-Z a-z 0-9 . _ - "
            "starting with a letter or digit"
        )
    return game_id


def check_version(name: str, value: object) -> int:
    """Returns *value* if it is a version (an int, 0 or more); *name* labels the error.

    :raises ValueError: if it is not.
    """
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"invalid {name} {value!r}: expected an integer >= 0")
    return value


def check_command_id(command_id: object) -> str | None:
    """Returns *command_id* if it is ``None`` or a non-empty string of at most 200 characters.

    :raises ValueError: if it is not.
    """
    if command_id is None:
        return None
    if not isinstance(command_id, str) or not 0 < len(command_id) <= _MAX_COMMAND_ID:
        raise ValueError(
            f"invalid command id {command_id!r}: expected None or 1 to "
            f"{_MAX_COMMAND_ID} characters"
        )
    return command_id
