"""The transparency log in Redis: an append-only Merkle tree (:mod:`events.merkle`) of leaves.

The log keeps, under one hash tag (:func:`events.keys.log_key`, so that it works on a Redis
Cluster), each leaf by index, each leaf's index by its hash, and the hash of every complete
subtree: level 0 holds the leaf hashes, level *l* the roots of the aligned subtrees of ``2**l``
leaves, each as 64 hex digits (the service's clients decode every reply as text), packed in
strings of :data:`CHUNK` hashes. About two hashes per leaf,
and any root, audit path or consistency proof needs at most ``2 * log2(n)`` of them, read in
one round trip: a proof costs the same at a thousand leaves as at a million, give or take the
depth.

An append reads the subtrees the new leaf completes (:func:`events.merkle.siblings`), hashes
the new nodes in Python, and hands everything to one script that writes it all only if the
log still has the size the hashes were computed for (else the append starts again): no leaf is
ever half-written, and two writers never interleave. Each leaf carries a *subject* (what it
attests, without when it was signed): a leaf whose subject is logged already is not appended,
and the append answers with the leaf logged first. With *replicas*, an append is acknowledged
once that many replicas have it (``WAIT``, :mod:`events.replication`), as an event append is.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from redis.exceptions import NoScriptError, RedisClusterException, RedisError

from events import merkle
from events.entries import as_text
from events.errors import StoreError, StoreUnavailableError
from events.keys import LOG_NAME, log_key
from events.redis_clients import error_message, is_unavailable
from events.replication import NotReplicatedError, ReplicaWait

CHUNK = 1 << 14
"""Hashes per string of one level of nodes (1 MiB): far below Redis's 512 MB per string."""

HEX_SIZE = 2 * merkle.HASH_SIZE
"""Characters of a node's hash as stored."""

MAX_ENTRIES = 1000
"""The most leaves :meth:`TransparencyLog.entries` returns at once."""

APPEND_SCRIPT = """
-- KEYS: size, entries, leaves, subjects, mark, then the key of each node written.
-- ARGV: the size the nodes were computed for, subject digest, leaf hash, leaf, then
--       (offset, hash) of each node written, in the order of their keys.
local known = redis.call('HGET', KEYS[4], ARGV[2])
if known then
  redis.call('SET', KEYS[5], known)
  return {'DUPLICATE', known, redis.call('HGET', KEYS[2], known)}
end
local size = tonumber(redis.call('GET', KEYS[1]) or '0')
if size ~= tonumber(ARGV[1]) then return {'STALE', tostring(size)} end
for i = 6, #KEYS do
  redis.call('SETRANGE', KEYS[i], tonumber(ARGV[2 * i - 7]), ARGV[2 * i - 6])
end
redis.call('HSET', KEYS[2], size, ARGV[4])
redis.call('HSET', KEYS[3], ARGV[3], size)
redis.call('HSET', KEYS[4], ARGV[2], size)
redis.call('SET', KEYS[1], size + 1)
redis.call('SET', KEYS[5], size)
return {'OK', tostring(size)}
"""

BATCH_SCRIPT = """
-- KEYS: size, entries, leaves, subjects, mark, then the key of each run of nodes written.
-- ARGV: the size the nodes were computed for, the number n of leaves, n times (subject
--       digest, leaf hash, leaf), then (offset, hashes) of each run, in the order of the keys.
local size = tonumber(redis.call('GET', KEYS[1]) or '0')
if size ~= tonumber(ARGV[1]) then return {'STALE', tostring(size)} end
local n = tonumber(ARGV[2])
for i = 0, n - 1 do
  if redis.call('HEXISTS', KEYS[4], ARGV[3 + 3 * i]) == 1 then return {'DUPLICATE'} end
end
for i = 0, n - 1 do
  redis.call('HSET', KEYS[2], size + i, ARGV[5 + 3 * i])
  redis.call('HSET', KEYS[3], ARGV[4 + 3 * i], size + i)
  redis.call('HSET', KEYS[4], ARGV[3 + 3 * i], size + i)
end
local base = 3 + 3 * n
for k = 6, #KEYS do
  redis.call('SETRANGE', KEYS[k], tonumber(ARGV[base + 2 * (k - 6)]), ARGV[base + 2 * (k - 6) + 1])
end
redis.call('SET', KEYS[1], size + n)
redis.call('SET', KEYS[5], size + n - 1)
return {'OK', tostring(size)}
"""

KEEP_HEAD_SCRIPT = """
-- KEYS[1] latest head  ARGV[1] head JSON  ARGV[2] its tree size.
-- Keeps the head unless the one kept is of a larger tree; returns the one kept after.
local old = redis.call('GET', KEYS[1])
if old and cjson.decode(old)['tree_size'] > tonumber(ARGV[2]) then return old end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
"""


_DIGESTS = {script: hashlib.sha1(script.encode()).hexdigest()
            for script in (APPEND_SCRIPT, BATCH_SCRIPT)}
"""The digest of each script run by :meth:`TransparencyLog._eval` (Redis's SHA1 of its text)."""


class LogRangeError(ValueError):
    """A request for leaves, a tree size or a leaf the log does not have."""


@dataclass(frozen=True, slots=True)
class Appended:
    """Where a leaf is in the log: its *index*, and the *leaf* logged there (an earlier leaf
    of the same subject when *new* is False)."""

    index: int
    leaf: bytes
    new: bool


class TransparencyLog:
    """The transparency log *name* in the Redis at *client* (standalone or Cluster)."""

    def __init__(self, client: Any, *, name: str = LOG_NAME, replicas: int = 0,
                 replica_timeout_ms: int = 1000, where: str = "the store") -> None:
        self.client = client
        self.name = name
        self.replicas = replicas
        self._wait = ReplicaWait(replicas, replica_timeout_ms) if replicas else None
        self._where = where
        self._size_hint = 0

    @classmethod
    def of(cls, store: Any, name: str = LOG_NAME) -> TransparencyLog:
        """Returns the log *name* kept in the event store *store*
        (:class:`events.redis_store.RedisEventStore`), as durable as its events."""
        return cls(store.client, name=name, replicas=store.replicas,
                   replica_timeout_ms=store.replica_timeout_ms, where=store._where)

    def key(self, part: str) -> str:
        """Returns the Redis key of *part* of this log (:func:`events.keys.log_key`)."""
        return log_key(part, self.name)

    def size(self) -> int:
        """Returns how many leaves the log holds."""
        with self.translate_errors():
            raw = self.client.get(self.key("size"))
        return int(raw) if raw is not None else 0

    def append(self, leaf: bytes, subject: bytes) -> Appended:
        """Appends *leaf* unless a leaf of *subject* is logged already; returns where it is.

        :raises StoreUnavailableError: if the store cannot be reached, or (with replicas) too
            few replicas confirmed the append in time (appending again is safe).
        """
        hashed = merkle.leaf_hash(leaf)
        size = self._size_hint
        while True:
            wanted = merkle.siblings(size)
            nodes = merkle.appended_nodes(size, hashed, dict(zip(wanted, self._nodes(wanted),
                                                                  strict=True)))
            keys = [self.key(part) for part in ("size", "entries", "leaves", "subjects", "mark")]
            args: list[Any] = [size, subject, hashed, leaf]
            for (level, index), value in nodes.items():
                keys.append(self._node_key(level, index))
                args += [(index % CHUNK) * HEX_SIZE, value.hex()]
            reply = self._run(keys, args)
            outcome = as_text(reply[0])
            if outcome == "STALE":
                size = int(as_text(reply[1]))
                continue
            index = int(as_text(reply[1]))
            self._size_hint = index + 1 if outcome == "OK" else self._size_hint
            stored = reply[2] if outcome == "DUPLICATE" else leaf
            return Appended(index, stored if isinstance(stored, bytes) else stored.encode(),
                            outcome == "OK")

    def append_batch(self, items: Sequence[tuple[bytes, bytes]]) -> int:
        """Appends the leaves of *items* (``(leaf, subject)`` pairs), in order, in one script;
        returns the index of the first. When a subject is logged already (or twice in
        *items*), appends them one by one instead (:meth:`append`), so none is logged twice.

        :raises StoreUnavailableError: as :meth:`append`.
        """
        if not items:
            return self.size()
        if len({subject for _, subject in items}) < len(items):
            return self._one_by_one(items)
        hashed = [merkle.leaf_hash(leaf) for leaf, _ in items]
        size = self._size_hint
        while True:
            known = merkle.subtrees(0, size) if size else []
            nodes = dict(zip(known, self._nodes(known), strict=True))
            made: dict[merkle.Node, bytes] = {}
            for offset, value in enumerate(hashed):
                grown = merkle.appended_nodes(size + offset, value, nodes)
                nodes.update(grown)
                made.update(grown)
            keys = [self.key(part) for part in ("size", "entries", "leaves", "subjects", "mark")]
            args: list[Any] = [size, len(items)]
            for (leaf, subject), value in zip(items, hashed, strict=True):
                args += [subject, value, leaf]
            for key, offset, run in self._runs(made):
                keys.append(key)
                args += [offset, run]
            with self.translate_errors():
                reply = self._eval(BATCH_SCRIPT, keys, args)
            outcome = as_text(reply[0])
            if outcome == "STALE":
                size = int(as_text(reply[1]))
                continue
            if outcome == "DUPLICATE":
                return self._one_by_one(items)
            self._size_hint = size + len(items)
            return size

    def _one_by_one(self, items: Sequence[tuple[bytes, bytes]]) -> int:
        first = [self.append(leaf, subject).index for leaf, subject in items]
        return first[0]

    def _runs(self, nodes: dict[merkle.Node, bytes]) -> list[tuple[str, int, str]]:
        """Returns *nodes* as runs ``(key, offset, hashes)``: consecutive nodes of one level
        and chunk, written by one ``SETRANGE``."""
        runs: list[tuple[str, int, str]] = []
        for level, index in sorted(nodes):
            key, offset = self._node_key(level, index), (index % CHUNK) * HEX_SIZE
            text = nodes[(level, index)].hex()
            if runs and runs[-1][0] == key and runs[-1][1] + len(runs[-1][2]) == offset:
                runs[-1] = (key, runs[-1][1], runs[-1][2] + text)
            else:
                runs.append((key, offset, text))
        return runs

    def entries(self, start: int, end: int, size: int | None = None) -> list[bytes]:
        """Returns leaves ``[start, end)`` (at most :data:`MAX_ENTRIES`) of the tree of *size*
        leaves (default: the whole log).

        :raises LogRangeError: for a range outside the tree.
        """
        size = self.size() if size is None else size
        if not 0 <= start < end <= size:
            raise LogRangeError(f"no leaves [{start}, {end}) in a log of {size}")
        end = min(end, start + MAX_ENTRIES)
        with self.translate_errors():
            found = self.client.hmget(self.key("entries"), list(range(start, end)))
        if any(value is None for value in found):
            raise StoreError(f"store error at {self._where}: the log lacks a leaf in "
                             f"[{start}, {end})")
        return [value if isinstance(value, bytes) else value.encode() for value in found]

    def index_of(self, leaf_hash: bytes) -> int | None:
        """Returns the index of the leaf hashed *leaf_hash*, or ``None`` if none is logged."""
        with self.translate_errors():
            raw = self.client.hget(self.key("leaves"), leaf_hash)
        return int(raw) if raw is not None else None

    def root(self, size: int) -> bytes:
        """Returns the root hash of the tree of the first *size* leaves.

        :raises LogRangeError: if the log has fewer leaves.
        """
        self._check_size(size)
        if size == 0:
            return merkle.root([])
        return self._hashes([(0, size)])[0]

    def inclusion(self, index: int, size: int) -> list[bytes]:
        """Returns the audit path of leaf *index* in the tree of *size* leaves.

        :raises LogRangeError: if the leaf is not in that tree, or the log is smaller.
        """
        self._check_size(size)
        try:
            return self._hashes(merkle.inclusion_ranges(index, size))
        except merkle.ProofError as error:
            raise LogRangeError(str(error)) from None

    def consistency(self, first: int, second: int) -> list[bytes]:
        """Returns the consistency proof from the tree of *first* leaves to that of *second*.

        :raises LogRangeError: unless ``0 <= first <= second <= size``.
        """
        self._check_size(second)
        try:
            return self._hashes(merkle.consistency_ranges(first, second))
        except merkle.ProofError as error:
            raise LogRangeError(str(error)) from None

    def latest_head(self) -> dict[str, Any] | None:
        """Returns the latest signed tree head kept, or ``None``."""
        with self.translate_errors():
            raw = self.client.get(self.key("head"))
        return None if raw is None else dict(json.loads(raw))

    def keep_head(self, head: dict[str, Any]) -> dict[str, Any]:
        """Keeps *head* as the latest signed tree head unless one of a larger tree is kept;
        returns the one kept after."""
        with self.translate_errors():
            kept = self.client.eval(KEEP_HEAD_SCRIPT, 1, self.key("head"),
                                    json.dumps(head, sort_keys=True), head["tree_size"])
        return dict(json.loads(kept))

    @contextlib.contextmanager
    def translate_errors(self) -> Iterator[None]:
        """Turns the client's errors into the store's (as the event store does)."""
        try:
            yield
        except (RedisError, RedisClusterException) as error:
            if is_unavailable(error):
                raise StoreUnavailableError(
                    f"store unavailable at {self._where}: {error_message(error)}") from error
            raise StoreError(f"store error at {self._where}: {error_message(error)}") from error

    def _check_size(self, size: int) -> None:
        current = self.size()
        if not 0 <= size <= current:
            raise LogRangeError(f"no tree of {size} leaves in a log of {current}")

    def _node_key(self, level: int, index: int) -> str:
        return self.key(f"nodes:{level}:{index // CHUNK}")

    def _nodes(self, nodes: Sequence[merkle.Node]) -> list[bytes]:
        """Returns the hashes of *nodes*, read in one round trip."""
        if not nodes:
            return []
        with self.translate_errors():
            pipe = self.client.pipeline(transaction=False)
            for level, index in nodes:
                offset = (index % CHUNK) * HEX_SIZE
                pipe.getrange(self._node_key(level, index), offset, offset + HEX_SIZE - 1)
            found = pipe.execute()
        hashes = []
        for (level, index), value in zip(nodes, found, strict=True):
            text = as_text(value)
            if len(text) != HEX_SIZE or "\0" in text:
                raise StoreError(f"store error at {self._where}: the log lacks the hash of "
                                 f"node {level}:{index}")
            hashes.append(bytes.fromhex(text))
        return hashes

    def _hashes(self, ranges: Sequence[merkle.Range]) -> list[bytes]:
        """Returns the root hash of each of *ranges*, from their subtrees read at once."""
        wanted = sorted({node for start, end in ranges for node in merkle.subtrees(start, end)})
        nodes = dict(zip(wanted, self._nodes(wanted), strict=True))
        return [merkle.range_hash(start, end, nodes) for start, end in ranges]

    def _eval(self, script: str, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """Runs *script* by its digest (``EVALSHA``: the text is neither sent nor hashed again
        on every append), and by its text (``EVAL``) where Redis does not have it yet."""
        try:
            return self.client.evalsha(_DIGESTS[script], len(keys), *keys, *args)
        except NoScriptError:
            return self.client.eval(script, len(keys), *keys, *args)

    def _run(self, keys: list[str], args: list[Any]) -> list[Any]:
        """Runs the append script, waiting for the replicas when the log has some."""
        with self.translate_errors():
            if self._wait is None:
                reply: list[Any] = self._eval(APPEND_SCRIPT, keys, args)
                return reply
            replies, acknowledged, needed = self._wait.run(
                self.client, keys[0], [("EVAL", APPEND_SCRIPT, len(keys), *keys, *args)])
        if isinstance(replies[0], Exception):
            raise StoreError(f"store error at {self._where}: {error_message(replies[0])}")
        if as_text(replies[0][0]) != "STALE" and acknowledged < needed:
            raise NotReplicatedError(
                f"store unavailable at {self._where}: a log append was written but "
                f"{acknowledged} of {needed} replicas confirmed it in time; append again")
        result: list[Any] = replies[0]
        return result
