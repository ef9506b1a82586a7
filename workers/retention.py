"""Retention: games nobody plays any more end as abandoned, finished games are archived.

One pass (:func:`run`), scheduled hourly as the ``retain`` job and run by hand with
``fortyfive archive``:

1. **Abandon.** Every game in progress whose last event is older than ``ABANDON_AFTER``
   seconds (default 3 days; 0: never) gets a ``game_abandoned`` event from the server,
   through the command path (:func:`service.application.commands.abandon`), so it is over, without a
   winner, and says why; but a drive's game is never abandoned here (a stalled table is its
   director's to resolve); one that waits for its drive has its drive advanced instead
   (:func:`abandon_idle`).
2. **Archive.** Every game over for longer than ``ARCHIVE_AFTER`` seconds (default 7 days;
   0: never) has its stream replaced by its tombstone and compressed events
   (:meth:`events.redis_store.RedisEventStore.archive`); its access log moves into the
   tombstone (:func:`service.application.access_log.archive`); its command ids and sealed deal
   histories (derived, and rebuilt from the events on request) are deleted. Its seat tokens
   stay, so a seat's token still reads its view.
3. **Trim the feeds** below the oldest position any dispatcher stored (:func:`trim_feeds`).

The candidates come from the projections' retention indexes (:data:`workers.keys.LIVE_KEY`,
:data:`workers.keys.OVER_KEY`), which the ``project`` job keeps from the feed; each is checked
against the events before anything is written, so a pass may run twice, or late, and changes
nothing more. With *measure*, the pass reports the memory of each archived game's keys
(``MEMORY USAGE``) before and after.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from engine.drives import drive_of
from engine.state import GameState
from events.archive import Signer
from events.drive_store import DriveStore
from events.fold_cache import Folded
from events.keys import access_key, seats_key
from events.redis_store import RedisEventStore, archive_key, command_key, feed_key, game_key
from service.application import access_log, commands, drives
from service.application.environment import env_seconds
from service.application.tokens import TokenRegistry
from workers import keys
from workers.plan import finished_deals

ABANDON_AFTER = 3 * 24 * 3600
"""Seconds without an event after which a game in progress is abandoned (default)."""
ARCHIVE_AFTER = 7 * 24 * 3600
"""Seconds after its end that a finished game is archived (default)."""
BATCH = 500
"""The most games one pass abandons, and archives: the next pass takes the rest."""


@dataclasses.dataclass(frozen=True, slots=True)
class Policy:
    """How long games are kept as they are, in seconds (``None``: for ever)."""

    abandon_after: int | None = ABANDON_AFTER
    archive_after: int | None = ARCHIVE_AFTER

    @classmethod
    def from_env(cls) -> Policy:
        """Returns the policy of ``ABANDON_AFTER`` and ``ARCHIVE_AFTER`` from the environment
        (the defaults where unset; 0 means never).

        :raises ValueError: for a value that is not a whole number of seconds.
        """
        return cls(env_seconds("ABANDON_AFTER", ABANDON_AFTER),
                   env_seconds("ARCHIVE_AFTER", ARCHIVE_AFTER))


@dataclasses.dataclass(frozen=True, slots=True)
class Archived:
    """A game archived by a pass, with the memory of its keys before and after (bytes, when
    measured)."""

    game_id: str
    version: int
    before: int | None = None
    after: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Pass:
    """What one pass did."""

    abandoned: tuple[str, ...]
    archived: tuple[Archived, ...]
    feed_entries_trimmed: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON summary, with the memory totals when measured."""
        body: dict[str, Any] = {
            "abandoned": list(self.abandoned),
            "archived": [dataclasses.asdict(item) for item in self.archived],
            "feed_entries_trimmed": self.feed_entries_trimmed,
        }
        measured = [item for item in self.archived if item.before is not None]
        if measured:
            before = sum(item.before or 0 for item in measured)
            after = sum(item.after or 0 for item in measured)
            body["memory"] = {
                "games": len(measured), "before_bytes": before, "after_bytes": after,
                "per_game_before": round(before / len(measured)),
                "per_game_after": round(after / len(measured)),
            }
        return body


def run(
    store: RedisEventStore,
    games: commands.GameCache,
    policy: Policy,
    *,
    now: float,
    measure: bool = False,
    sign: Signer | None = None,
) -> Pass:
    """Runs one retention pass at time *now* (epoch seconds); returns what it did. *sign* signs each
    archived game's final checkpoint (:meth:`service.application.signing.Publisher.checkpoint`).

    :raises events.store.StoreError: from the store.
    """
    # The pass uses the store's client directly too: its errors are the store's.
    with store.translate_errors():
        abandoned = abandon_idle(store, games, policy.abandon_after, now=now)
        archived = archive_finished(store, games, policy.archive_after, now=now,
                                    measure=measure, sign=sign)
        return Pass(tuple(abandoned), tuple(archived), trim_feeds(store.client))


def trim_feeds(client: Any) -> int:
    """Trims each partition feed below the oldest position any dispatcher has stored there;
    returns how many entries it removed.

    A feed entry is only a pointer to a game's event (the event itself stays in the game's
    stream or archive), and every dispatcher that stored a position has planned the jobs of
    the entries before it. A partition where no dispatcher stored a position is left whole,
    and a dispatcher that stopped for good holds trimming back (delete its position keys,
    ``f45:{p<NNN>}:dispatch:<name>``, once it is retired).
    """
    oldest: dict[int, int] = {}
    for name in client.scan_iter(match=keys.CURSOR_PATTERN, count=1000):
        position = client.get(name)
        if not position or "-" not in str(position):
            continue
        partition = keys.partition_of_cursor(str(name))
        sequence = int(str(position).rsplit("-", 1)[1])
        oldest[partition] = min(sequence, oldest.get(partition, sequence))
    removed = 0
    for partition, sequence in sorted(oldest.items()):
        removed += int(client.xtrim(feed_key(partition), minid=f"0-{sequence}",
                                    approximate=False))
    return removed


def abandon_idle(
    store: RedisEventStore, games: commands.GameCache, after: int | None, *, now: float
) -> list[str]:
    """Abandons the games in progress whose last event is more than *after* seconds before
    *now* (none when *after* is ``None``); returns their ids.

    A game of a drive is never abandoned here: its turn clock acts for an absent seat, and a
    table that still stalls is its director's to resolve (docs/operating.md). One that waits
    for its drive (a duplicate table for the board other tables are still playing) has its
    drive advanced here, should the job that was to do so have been lost; either is looked at
    again *after* seconds on."""
    if after is None:
        return []
    client = store.client
    done: list[str] = []
    waiting: list[str] = []
    for game_id, folded in _candidates(client, games, keys.LIVE_KEY, now - after):
        last = _last_event_time(store, game_id, folded.version)
        if folded.state.phase == "over":
            _mark_over(client, game_id, last)
            continue
        idle = int(now - last)
        if idle <= after:
            client.zadd(keys.LIVE_KEY, {game_id: last})  # The index was behind the game.
            continue
        drive_id = drive_of(game_id)
        if drive_id is not None:
            # A drive's table is its turn clock's and its director's to resolve, never the
            # store-wide policy's: abandoning it here would end one table of an evening, or
            # all of them, without the director knowing.
            client.zadd(keys.LIVE_KEY, {game_id: now}, xx=True)
            if folded.state.turn is None:
                waiting.append(drive_id)
            continue
        if commands.abandon(store, games, game_id, expected_version=folded.version,
                            idle_seconds=idle, after_seconds=after):
            done.append(game_id)
            _mark_over(client, game_id, now)
    for drive_id in dict.fromkeys(waiting):  # After the abandons, which may free a board.
        drives.advance(store, games, DriveStore(store), TokenRegistry(client), drive_id)
    return done


def archive_finished(
    store: RedisEventStore,
    games: commands.GameCache,
    after: int | None,
    *,
    now: float,
    measure: bool = False,
    sign: Signer | None = None,
) -> list[Archived]:
    """Archives the games over for at least *after* seconds at *now* (none when *after* is
    ``None``), their final checkpoints signed by *sign*; returns them."""
    if after is None:
        return []
    client = store.client
    done: list[Archived] = []
    for game_id, folded in _candidates(client, games, keys.OVER_KEY, now - after):
        if folded.state.phase != "over":
            client.zrem(keys.OVER_KEY, game_id)  # Not over after all: the live index has it.
            continue
        sealed = [keys.sealed_key(game_id, number) for number in finished_deals(folded.state)]
        before = memory(client, _game_keys(game_id, sealed)) if measure else None
        archived = store.archive(game_id, folded.version, sign)
        # Also after an earlier pass that archived the game and stopped before this.
        access_log.archive(TokenRegistry(client), game_id)
        if archived:
            if sealed:
                client.delete(*sealed)
            after_bytes = memory(client, _game_keys(game_id, sealed)) if measure else None
            done.append(Archived(game_id, folded.version, before, after_bytes))
        client.zrem(keys.OVER_KEY, game_id)
    return done


def _candidates(
    client: Any, games: commands.GameCache, index: str, cutoff: float
) -> Iterator[tuple[str, Folded[GameState]]]:
    """Yields the games of the retention *index* scored up to *cutoff*, folded (up to
    :data:`BATCH`); drops from the index those that do not exist."""
    for game_id in client.zrangebyscore(index, "-inf", cutoff, start=0, num=BATCH):
        try:
            yield game_id, commands.load(games, game_id)
        except commands.GameNotFoundError:
            client.zrem(index, game_id)


def _game_keys(game_id: str, sealed: Sequence[str]) -> list[str]:
    """Returns every key the store and the workers hold for *game_id* alone."""
    return [game_key(game_id), command_key(game_id), seats_key(game_id), archive_key(game_id),
            access_key(game_id), *sealed]


def memory(client: Any, names: Sequence[str]) -> int:
    """Returns the bytes Redis uses for the keys *names* (``MEMORY USAGE``, every element
    sampled), 0 for those that do not exist."""
    total = 0
    for name in names:
        used = client.memory_usage(name, samples=0)
        total += int(used or 0)
    return total


def _last_event_time(store: RedisEventStore, game_id: str, version: int) -> float:
    last = store.read(game_id, after=version - 1, limit=1)
    stamp = last[0].envelope.occurred_at
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def _mark_over(client: Any, game_id: str, ended: float) -> None:
    client.zrem(keys.LIVE_KEY, game_id)
    client.zadd(keys.OVER_KEY, {game_id: ended}, nx=True)
