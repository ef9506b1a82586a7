"""The dispatcher: turns the partition feeds into RQ jobs.

Jobs are derived from the log, never enqueued by the writer after its append: a crash between
the two would lose the job, while a feed entry is written by the same script as the event.
The dispatcher reads the feeds from its last position (``XREAD BLOCK``, one call for every
partition on a single Redis), folds each game it sees, asks :func:`workers.plan.plan` what is
due and enqueues it under deterministic job ids. Only then does it store its position per
partition in Redis, beside the feed: after a crash it reads some entries again, and the queue
refuses the jobs it already has (``unique``), while jobs that ran meanwhile find the game moved
on. Positions only move forward, so two dispatchers sharing a name cannot move one back.

The projections (:mod:`workers.projections`) are no job: the dispatcher writes them itself for
every game it read, at the state it folded, once per game per pass and before it stores its
positions, so a crash repeats them (they are idempotent and only move forward) and loses none.
An RQ job costs Redis about 60 commands of bookkeeping (its hash, registries, expiries,
transactions), many times the projection's one script, and a projection job for every version
it saw was most of what the worker cost Redis per action. For the same reason it remembers
which deals it has seen sealed (a sealed history never changes) rather than asking Redis about
every finished deal of a game at every pass.

Several dispatchers (one per ``fortyfive worker``) share the partitions: given *peers* (the
names of the dispatchers alive now, from their heartbeats), each takes the partitions that
rendezvous hashing gives its own name (:func:`owner`), and looks again every
:data:`REASSIGN_SECONDS`. When one dies its heartbeat goes stale and the others take its
partitions from the positions it stored (they share the positions' name); when one joins it
takes its share. While they disagree for a moment two may read the same partition: that
only enqueues jobs the queue refuses (their ids are taken) and moves no position back.

On a Redis Cluster one ``XREAD`` cannot span partitions (they live in different slots), so
the dispatcher reads them in one pipeline without blocking (``XRANGE`` after each cursor, a
round trip per node), and
sleeps :data:`CLUSTER_IDLE_MS` when all are idle. An idle pass costs one ``INFO commandstats``
per master rather than an ``XREAD`` per partition: every feed entry is written by an ``XADD``
(inside the append script), which the master counts, so while no master holding its
partitions counted a new ``XADD`` since a pass that found nothing, no feed has news. It reads
every feed all the same at least every :data:`FULL_PASS_SECONDS`.
"""

from __future__ import annotations

import collections
import logging
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from typing import Any, Literal

import redis
import redis.cluster
from rq import Queue
from rq.exceptions import DuplicateJobError

from engine.errors import FortyFiveError
from events.drive_store import is_drive_id
from events.errors import CorruptStreamError, SchemaError, StoreUnavailableError
from events.redis_store import RedisEventStore, feed_key
from events.store import PARTITIONS, FeedEntry
from service.application import commands
from service.application.commands import GameCache
from workers import context, jobs, keys, pacing, projections
from workers.plan import PlannedJob, finished_deals, plan

log = logging.getLogger(__name__)

UNAVAILABLE = (
    StoreUnavailableError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    # A Redis Cluster failing over: a slot without a master, or in transit.
    redis.exceptions.ClusterDownError,
    redis.exceptions.SlotNotCoveredError,
    redis.exceptions.TryAgainError,
    redis.exceptions.MasterDownError,
    redis.exceptions.ReadOnlyError,
)
"""Errors of a store or queue that is down for now: wait and try again."""

_ADVANCE = """
local moved = 0
for i, key in ipairs(KEYS) do
  local old = redis.call('GET', key)
  if not old or tonumber(string.match(old, '%-(%d+)$'))
      < tonumber(string.match(ARGV[i], '%-(%d+)$')) then
    redis.call('SET', key, ARGV[i])
    moved = moved + 1
  end
end
return moved
"""
"""Sets each cursor of KEYS to the feed entry id of ARGV at the same place, unless it already
holds a later one; returns how many moved. On a single Redis one call stores every position
of a pass (one write, so one fsync of the append-only file, rather than one per partition);
on a Redis Cluster, where each cursor lives in its partition's slot, one call per cursor."""

CLUSTER_IDLE_MS = 100
"""How long a dispatcher on a Redis Cluster sleeps when no feed has news (it cannot block
on several partitions at once)."""

FULL_PASS_SECONDS = 5.0
"""The longest a dispatcher on a Redis Cluster goes without reading every feed while the
masters' ``XADD`` counts stand still (a safety net for a counter reset by ``CONFIG
RESETSTAT``)."""

REASSIGN_SECONDS = 1.0
"""How often a dispatcher sharing the partitions looks at who is alive."""

SEALED_MEMORY = 4096
"""How many games' sealed deals a dispatcher remembers (the least recently dispatched are
forgotten first, and asked about again if they come back)."""


def owner(partition: int, members: Iterable[str]) -> str:
    """Returns which of *members* (at least one) handles *partition*: the one whose name
    hashes highest with it, so a member leaving or joining moves only its own share.

    >>> owner(7, ["a"]), owner(7, ["b", "a"]) == owner(7, ["a", "b"])
    ('a', True)
    """
    return max(members, key=lambda member: (zlib.crc32(f"{member}/{partition}".encode()), member))


def enqueue(queue: Queue, job: PlannedJob, *, now: float | None = None) -> bool:
    """Enqueues *job* (after its delay, if any) unless a job with its id exists; returns
    True if it was enqueued. A paced job is held until *now* (default: the time now) plus
    its pace (:mod:`workers.pacing`): True if it was not held already."""
    if job.pace is not None:
        due = (time.time() if now is None else now) + job.pace
        return pacing.hold(queue, job, due)
    func = getattr(jobs, job.name)
    options: dict[str, Any] = {
        "job_id": job.job_id,
        "unique": True,
        "retry": context.retry(),
        "result_ttl": context.result_ttl(job.name),
        "failure_ttl": context.FAILURE_TTL,
    }
    try:
        if job.delay is None:
            queue.enqueue(func, *job.args, **options)
        else:
            queue.enqueue_in(timedelta(seconds=job.delay), func, *job.args, **options)
    except DuplicateJobError:
        return False
    return True


class Dispatcher:
    """Reads the partition feeds of a store and enqueues the jobs they call for."""

    def __init__(
        self,
        store: RedisEventStore,
        queue: Queue,
        *,
        name: str = "main",
        partitions: Iterable[int] = range(PARTITIONS),
        games: GameCache | None = None,
        count: int = 500,
        start: Literal["beginning", "end"] = "beginning",
        member: str | None = None,
        peers: Callable[[], Iterable[str]] | None = None,
    ) -> None:
        """Reads *partitions* of *store*'s feeds (*count* entries per partition and call) and
        enqueues on *queue*, keeping its positions under *name*.

        A partition with no stored position is read from its *start*: the beginning (every
        game gets its due jobs, the safe default), or its end now (only what follows).

        With *peers* (returning the *member* names of the dispatchers alive now), it
        handles only its share of *partitions*: those :func:`owner` gives *member*.

        :raises redis.exceptions.ConnectionError: if the positions cannot be loaded.
        """
        self._store = store
        self._client: Any = store.client
        self._queue = queue
        self.name = name
        """The name its positions are stored under."""
        self._all = tuple(partitions)
        self._partitions = self._all
        self.member = member or name
        """Its own name among the dispatchers sharing the partitions."""
        self._peers = peers
        self._assigned_at = -REASSIGN_SECONDS
        self._games = games if games is not None else commands.new_cache(store)
        self._count = count
        self._start = start
        self._advance = self._client.register_script(_ADVANCE)
        self._projector = projections.Projector(self._client)
        self._sealed_seen: collections.OrderedDict[str, set[int]] = collections.OrderedDict()
        self.projected = 0
        """Projections written so far (games read in the feed at a newer version than the
        projections had)."""
        self.enqueued = 0
        """Jobs enqueued so far."""
        self.refused = 0
        """Jobs the queue already had (entries read again, or states planned twice)."""
        self.cursors: dict[int, str] = {}
        self._assign()
        """The last feed entry id handled in each partition."""
        self.lag_entries = 0
        """Feed entries that were waiting beyond the last :meth:`poll`'s batches (0 when
        that poll read up to the head of every feed)."""
        self._caught_up_at = time.monotonic()
        self._quiet: dict[str, int] | None = None
        """Each master's ``XADD`` count before the last full read, if it found nothing."""
        self._full_at = time.monotonic()
        self._busy = False
        """Whether the last full read found entries."""

    def poll(self, block_ms: int | None = None) -> int:
        """Handles the feed entries that arrived since the last call, waiting up to
        *block_ms* for one when there are none; returns how many entries it handled.

        :raises events.store.StoreUnavailableError: (or a Redis connection error) if the
            store or the queue cannot be reached; no position moves, so the entries are read
            again next time.
        """
        if self._peers is not None and time.monotonic() - self._assigned_at >= REASSIGN_SECONDS:
            self._assign()
        entries = self._read(block_ms)
        drives = {entry.game_id: entry.version for _, entry in entries
                  if is_drive_id(entry.game_id)}
        for drive_id, version in drives.items():
            self._enqueue_all([PlannedJob("advance_drive", (drive_id,),
                                          keys.drive_job_id(drive_id, f"v{version}"))])
        for game_id in dict.fromkeys(entry.game_id for _, entry in entries):
            if game_id not in drives:
                self._dispatch(game_id)
        last: dict[int, str] = {}
        for partition, entry in entries:
            last[partition] = entry.id
        self._store_positions(last)
        read = collections.Counter(partition for partition, _ in entries)
        self.lag_entries = self._behind([p for p, n in read.items() if n >= self._count])
        if not self.lag_entries:
            self._caught_up_at = time.monotonic()
        return len(entries)

    def _store_positions(self, last: dict[int, str]) -> None:
        """Stores *last* (a feed entry id per partition) as its positions, forward only."""
        if not last:
            return
        names = [keys.cursor_key(partition, self.name) for partition in last]
        if isinstance(self._client, redis.cluster.RedisCluster):
            for name, entry_id in zip(names, last.values(), strict=True):
                self._advance(keys=[name], args=[entry_id])
        else:
            self._advance(keys=names, args=list(last.values()))
        self.cursors.update(last)

    @property
    def partitions(self) -> tuple[int, ...]:
        """The partitions it handles now."""
        return self._partitions

    def _assign(self) -> None:
        """Takes its share of the partitions among the peers alive now, loading the
        stored position of each it gains (another dispatcher may have moved it)."""
        if self._peers is None:
            mine = self._all
        else:
            members = {self.member, *self._peers()}
            mine = tuple(p for p in self._all if owner(p, members) == self.member)
        gained = [p for p in mine if p not in self.cursors or p not in self._partitions]
        if gained:
            self.cursors.update(self._load_cursors(gained))
            self._quiet = None  # Their feeds may have news the counts do not tell.
        if mine != self._partitions and self._peers is not None:
            log.info("dispatcher %s: handles %d of %d partitions", self.member, len(mine),
                     len(self._all))
        self._partitions = mine
        self._assigned_at = time.monotonic()

    @property
    def lag_s(self) -> float:
        """Seconds since a :meth:`poll` last read up to the head of every feed (0 if the last
        one did)."""
        return 0.0 if not self.lag_entries else time.monotonic() - self._caught_up_at

    def _behind(self, partitions: Sequence[int]) -> int:
        """Returns how many entries of *partitions* lie beyond their cursors (feed ids are
        ``0-<position>``)."""
        if not partitions:
            return 0
        pipe = self._client.pipeline(transaction=False)
        for partition in partitions:
            pipe.xrevrange(feed_key(partition), "+", "-", count=1)
        tops = pipe.execute()
        return sum(
            _position(top[0][0]) - _position(self.cursors[partition])
            for partition, top in zip(partitions, tops, strict=True)
            if top
        )

    def _dispatch(self, game_id: str) -> None:
        """Enqueues the jobs due for *game_id* in its current state, and projects that state."""
        try:
            folded, last = commands.load_reading(self._games, game_id)
            state = folded.state
        except (CorruptStreamError, SchemaError, FortyFiveError, commands.GameNotFoundError):
            # FortyFiveError: the engine refuses what the stream holds (EventSequenceError, a
            # seed that is not one), so the game cannot be folded: one bad game stops no other.
            log.error("game %s cannot be loaded; no jobs for it", game_id, exc_info=True)
            return
        self._enqueue_all(plan(game_id, state, sealed=self._sealed(game_id,
                                                                    finished_deals(state))))
        try:
            # The fold's own read brought the last event, mostly: then its time costs no read.
            self.projected += self._projector.project(self._store, game_id, state, last)
        except UNAVAILABLE:
            raise  # Nothing moves: the entries are read again.
        except Exception:
            # One game that cannot be projected stops no other; its next event tries again.
            log.exception("game %s could not be projected at version %d", game_id,
                          state.version)

    def _enqueue_all(self, due: Sequence[PlannedJob]) -> None:
        """Enqueues *due*, counting what the queue took and what it had already."""
        for job in due:
            if enqueue(self._queue, job):
                self.enqueued += 1
            else:
                self.refused += 1

    def _sealed(self, game_id: str, deals: Sequence[int]) -> set[int]:
        """Returns which of *deals* of *game_id* have a sealed history stored, asking Redis
        only about those it has not seen sealed already."""
        seen = self._sealed_seen.get(game_id, set())
        unknown = [number for number in deals if number not in seen]
        if unknown:
            pipe = self._client.pipeline(transaction=False)
            for number in unknown:
                pipe.exists(keys.sealed_key(game_id, number))
            seen = seen | {number for number, found in zip(unknown, pipe.execute(), strict=True)
                           if found}
        if seen:
            self._sealed_seen[game_id] = seen
            self._sealed_seen.move_to_end(game_id)
            if len(self._sealed_seen) > SEALED_MEMORY:
                self._sealed_seen.popitem(last=False)
        return seen & set(deals)

    def _read(self, block_ms: int | None) -> list[tuple[int, FeedEntry]]:
        """Returns the new entries of every partition, oldest first within each."""
        if isinstance(self._client, redis.cluster.RedisCluster):
            # A busy dispatcher does not ask: it reads on anyway.
            writes = None if self._busy else self._writes()
            if (writes is not None and writes == self._quiet
                    and time.monotonic() - self._full_at < FULL_PASS_SECONDS):
                if block_ms:
                    time.sleep(min(block_ms, CLUSTER_IDLE_MS) / 1000)
                return []
            self._full_at = time.monotonic()
            # One pipeline: a round trip per node, not per partition. XRANGE after the cursor
            # reads what XREAD would; its key is where the client finds it, while for XREAD
            # the cluster client asks a node (COMMAND GETKEYS, twice, one at a time).
            pipe = self._client.pipeline(transaction=False)
            for partition in self._partitions:
                pipe.xrange(feed_key(partition), f"({self.cursors[partition]}", "+",
                            count=self._count)
            found = [
                (partition, _feed_entry(entry_id, fields))
                for partition, stream in zip(self._partitions, pipe.execute(), strict=True)
                for entry_id, fields in stream
            ]
            self._quiet = None if found else writes
            self._busy = bool(found)
            if not found and block_ms:
                time.sleep(min(block_ms, CLUSTER_IDLE_MS) / 1000)
            return found
        streams = {feed_key(p): self.cursors[p] for p in self._partitions}
        block = block_ms or None
        reply = self._client.xread(streams, count=self._count, block=block)
        return [
            (_partition_of_key(key), _feed_entry(entry_id, fields))
            for key, stream in _streams(reply)
            for entry_id, fields in stream
        ]

    def _writes(self) -> dict[str, int] | None:
        """Returns how many ``XADD`` each master holding its partitions has run (by node
        name), or None if one cannot tell (then the feeds are read, which also refreshes the
        client's slot map after a failover)."""
        nodes = {}
        for partition in self._partitions:
            node = self._client.get_node_from_key(feed_key(partition))
            nodes[node.name] = node
        counts: dict[str, int] = {}
        for name, node in nodes.items():
            try:
                stats = self._client.get_redis_connection(node).info("commandstats")
            except (redis.exceptions.RedisError, redis.exceptions.RedisClusterException):
                return None
            counts[name] = int(stats.get("cmdstat_xadd", {}).get("calls", 0))
        return counts

    def _load_cursors(self, partitions: Sequence[int]) -> dict[int, str]:
        """Returns the stored position of each of *partitions*. A partition without one
        starts at the beginning, or at its end now, which is then stored (so a restart
        resumes there rather than at the beginning)."""
        pipe = self._client.pipeline(transaction=False)
        for partition in partitions:
            pipe.get(keys.cursor_key(partition, self.name))
        stored = pipe.execute()
        cursors: dict[int, str] = {}
        for partition, cursor in zip(partitions, stored, strict=True):
            if cursor is None and self._start == "end":
                top = self._client.xrevrange(feed_key(partition), "+", "-", count=1)
                cursor = top[0][0] if top else "0-0"
                self._advance(keys=[keys.cursor_key(partition, self.name)], args=[cursor])
            cursors[partition] = cursor or "0-0"
        return cursors


def schedule_sweep(queue: Queue, period: int) -> bool:
    """Enqueues the periodic jobs of *period* (a number of the periods since the epoch), the
    chain sweep and the retention pass, unless that period has them already; returns True
    if it enqueued the sweep."""
    enqueue(queue, PlannedJob("retain", (), keys.retain_job_id(period)))
    return enqueue(queue, PlannedJob("sweep_chains", (), keys.sweep_job_id(period)))


def schedule_tree_head(queue: Queue, period: int) -> bool:
    """Enqueues the signing of the transparency log's head for *period* (a number of
    :data:`service.application.transparency.TREE_HEAD_SECONDS` since the epoch) unless that
    period has it already; returns True if it enqueued it."""
    return enqueue(queue, PlannedJob("sign_tree_head", (), keys.tree_head_job_id(period)))


def _streams(reply: Any) -> list[tuple[str, list[Any]]]:
    """Returns ``(key, entries)`` of each stream in an XREAD reply (RESP2 list or RESP3
    dict)."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return [(str(key), list(value[0])) for key, value in reply.items()]
    return [(str(key), list(entries)) for key, entries in reply]


def _position(entry_id: str) -> int:
    """Returns the position of a feed entry id ``0-<position>``.

    >>> _position("0-42")
    42
    """
    return int(entry_id.rsplit("-", 1)[1])


def _partition_of_key(key: str) -> int:
    """Returns the partition of a feed key ``f45:{p<NNN>}:feed``."""
    return int(key.split("{p", 1)[1].split("}", 1)[0])


def _feed_entry(entry_id: str, fields: dict[str, str]) -> FeedEntry:
    """Returns the feed entry in one XREAD entry.

    :raises CorruptStreamError: if a field is missing.
    """
    try:
        return FeedEntry(entry_id, fields["game"], int(fields["version"]), fields["type"])
    except (KeyError, ValueError):
        raise CorruptStreamError(f"invalid feed entry {entry_id}: {fields!r}") from None
