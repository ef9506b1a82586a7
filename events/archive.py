"""Archived games in the store: how a finished game's events are packed into its tombstone,
and the scripts that archive it and read around it.

A tombstone (``f45:{p<NNN>}:archive:<id>``, :func:`events.redis_store.archive_key`) is a hash:
``version``, ``head``, ``archived_at``, ``checkpoint`` (the canonical JSON of the signed
checkpoint of the game's last event, docs/verification.md section 8; a store archiving without
a signer writes ``{game_id, version, head, signature: null}``), ``format``
(:data:`ARCHIVE_FORMAT`) and ``events``: zlib of the canonical JSON array of the game's
envelopes, oldest first, each with its ``hash``. :func:`unpack` turns them back into stream
entries, which the store then verifies exactly as it verifies the stream's. Once the game is
archived, the service moves the game's access log into the tombstone too (field
``access_log``, :func:`service.application.access_log.archive`).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

from events.codec import CodecError, canonical_json, parse_json
from events.envelope import RecordedEvent
from events.store import CorruptStreamError

Signer: TypeAlias = Callable[[str, int, str], Mapping[str, Any]]
"""Signs ``(game_id, version, head)`` into a checkpoint
(:meth:`service.application.signing.Signer.checkpoint`)."""

ARCHIVE_FORMAT = "zlib+canonical-json/1"
"""How the ``events`` field of a tombstone is encoded: zlib of the canonical JSON array of the
game's envelopes, oldest first, each with its ``hash``."""

READ_SCRIPT = """
-- KEYS[1] game stream  KEYS[2] tombstone  ARGV[1] first entry id  ARGV[2] count.
-- Returns the page of entries, or 'ARCHIVED' when there is none and the game is archived.
local page = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
if #page == 0 and redis.call('EXISTS', KEYS[2]) == 1 then return 'ARCHIVED' end
return page
"""

ARCHIVE_SCRIPT = """
-- KEYS[1] game stream  KEYS[2] command ids  KEYS[3] tombstone
-- ARGV[1] version  ARGV[2] head  ARGV[3] archived_at  ARGV[4] checkpoint  ARGV[5] events
-- ARGV[6] format.  Checks first (scripts do not roll back), then writes.
if redis.call('EXISTS', KEYS[3]) == 1 then return {'ARCHIVED'} end
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #top == 0 then return {'MISSING'} end
if top[1][1] ~= '0-' .. ARGV[1] then return {'MOVED', top[1][1]} end
local fields = top[1][2]
local head = nil
for i = 1, #fields, 2 do if fields[i] == 'hash' then head = fields[i + 1] end end
if head ~= ARGV[2] then return {'MOVED', top[1][1]} end
redis.call('HSET', KEYS[3], 'version', ARGV[1], 'head', ARGV[2], 'archived_at', ARGV[3],
  'checkpoint', ARGV[4], 'events', ARGV[5], 'format', ARGV[6])
redis.call('DEL', KEYS[1], KEYS[2])
return {'OK'}
"""


def pack(events: Sequence[RecordedEvent]) -> bytes:
    """Returns the ``events`` field of the tombstone of a game with *events*."""
    return zlib.compress(canonical_json([event.envelope.to_dict() for event in events]), 9)


def checkpoint(game_id: str, version: int, head: str,
               sign: Signer | None = None) -> bytes:
    """Returns the final checkpoint of a game: signed by *sign* (:mod:`events.checkpoints`),
    or without one unsigned (its ``signature`` is null)."""
    if sign is not None:
        return canonical_json(sign(game_id, version, head))
    return canonical_json({"game_id": game_id, "version": version, "head": head,
                           "signature": None})


def unpack(game_id: str, packed: bytes) -> list[Any]:
    """Returns the entries packed in a tombstone as the stream held them (``(entry id,
    {"body", "hash"})``), for the store to verify.

    :raises CorruptStreamError: if they cannot be decoded.
    """
    try:
        envelopes = parse_json(zlib.decompress(packed))
    except (zlib.error, CodecError) as error:
        raise CorruptStreamError(f"the archive of game {game_id!r}: {error}") from None
    if not isinstance(envelopes, list):
        raise CorruptStreamError(f"the archive of game {game_id!r} is not a list")
    entries = []
    for raw in envelopes:
        if not isinstance(raw, dict) or not isinstance(raw.get("version"), int):
            raise CorruptStreamError(f"the archive of game {game_id!r} holds {raw!r}")
        body = {name: value for name, value in raw.items() if name != "hash"}
        entries.append((f"0-{raw['version']}", {
            "body": canonical_json(body).decode("utf-8"), "hash": raw.get("hash")}))
    return entries
