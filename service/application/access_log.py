"""The access log: every read of a live deal's hidden information with the auditor token.

A game's auditor token reads every hand, the stock and the seeds while the game is in
progress. Each such read (a game view, the events, the stream, a history, a replay, the audit)
is numbered (1, 2, ...) and appended to a Redis stream beside the game's events
(``f45:{p<NNN>}:access:<id>``, entry id ``0-<n>``): who, which route, when, and the game's
version and deal then. The log keeps the newest :data:`KEPT` entries and always the count of
every read, so an auditor polling a live game for days costs a bounded record while the seats
still learn how many reads there were. The seats may read it once the game is over, a page at
a time (``GET /v1/games/{id}/access-log?after=<n>``). When the game is archived its log moves
into the game's tombstone (field ``access_log``, :func:`archive`) and is read from there.

It is not an event of the game: recording a read must not move the game's version, or the
players' ``If-Match`` would go stale.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from typing import Any

from engine.state import GameState
from events.codec import canonical_json
from events.keys import access_key, archive_key
from service.application.tokens import TokenRegistry

KEPT = 1000
"""The most entries a game's access log keeps: the newest; older ones are dropped but counted."""

PAGE_MAX = 1000
"""The largest page of :func:`page`."""

ARCHIVE_FIELD = "access_log"
"""The tombstone's field that holds the access log of an archived game."""

_UPGRADE = """
-- A log written before logs were bounded is a list of entries: it becomes the stream.
if redis.call('TYPE', KEYS[1])['ok'] == 'list' then
  local old = redis.call('LRANGE', KEYS[1], 0, -1)
  redis.call('DEL', KEYS[1])
  for i, item in ipairs(old) do
    redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[3], '0-' .. i, 'entry', item)
  end
end
"""

_RECORD_SCRIPT = """
-- KEYS[1] access log  ARGV[1] entry  ARGV[2] unused  ARGV[3] entries kept.
-- Appends the entry as read number n (one more than the last); returns n.
""" + _UPGRADE + """
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local n = 1
if #top > 0 then n = tonumber(string.match(top[1][1], '%-(%d+)$')) + 1 end
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[3], '0-' .. n, 'entry', ARGV[1])
return n
"""

_READ_SCRIPT = """
-- KEYS[1] access log  KEYS[2] tombstone  ARGV[1] after  ARGV[2] limit  ARGV[3] entries kept.
-- Returns {'LIVE', reads, kept, page} or {'ARCHIVED', packed log} or {'NONE'}.
""" + _UPGRADE + """
if redis.call('EXISTS', KEYS[1]) == 1 then
  local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
  local reads = tonumber(string.match(top[1][1], '%-(%d+)$'))
  local page = {}
  if tonumber(ARGV[2]) > 0 then
    page = redis.call('XRANGE', KEYS[1], '0-' .. (tonumber(ARGV[1]) + 1), '+',
                      'COUNT', ARGV[2])
  end
  return {'LIVE', reads, redis.call('XLEN', KEYS[1]), page}
end
local packed = redis.call('HGET', KEYS[2], ARGV[4])
if packed then return {'ARCHIVED', packed} end
return {'NONE'}
"""

_ARCHIVE_SCRIPT = """
-- KEYS[1] access log  KEYS[2] tombstone  ARGV[1] packed log  ARGV[2] its last entry id
-- ARGV[3] the tombstone's field.  Moves the log into the tombstone if it is unchanged.
if redis.call('EXISTS', KEYS[2]) == 0 then return 'NOT_ARCHIVED' end
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #top == 0 then return 'NONE' end
if top[1][1] ~= ARGV[2] then return 'MOVED' end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('DEL', KEYS[1])
return 'OK'
"""


@dataclasses.dataclass(frozen=True, slots=True)
class Page:
    """A page of a game's access log: *entries* (each with its number ``n``), oldest first,
    after the number asked for; *reads*, the reads ever recorded (the last ``n``); *kept*,
    how many entries the log still holds (the newest, at most :data:`KEPT`)."""

    reads: int
    kept: int
    entries: list[dict[str, Any]]

    @property
    def next_after(self) -> int | None:
        """The number to read the next page after, ``None`` once this page reaches the end."""
        last = self.entries[-1]["n"] if self.entries else None
        return last if last is not None and last < self.reads else None


def record(
    registry: TokenRegistry,
    game_id: str,
    state: GameState,
    version: int,
    *,
    method: str,
    route: str,
    path: str,
) -> int:
    """Appends one auditor read of *game_id* (at *version*, in *state*) to its access log, the
    oldest entry beyond :data:`KEPT` dropped; returns the read's number.

    :raises StoreUnavailableError: if Redis cannot be reached (the read is then refused: an
        unrecorded read of a live deal must not happen).
    """
    entry = {
        "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "who": "auditor",
        "method": method,
        "route": route,
        "path": path,
        "version": version,
        "deal": state.deal.number if state.deal is not None else 0,
    }
    with registry.translate():
        return int(registry.client.eval(
            _RECORD_SCRIPT, 1, access_key(game_id), json.dumps(entry, separators=(",", ":")),
            "", KEPT))


def page(registry: TokenRegistry, game_id: str, *, after: int = 0,
         limit: int = PAGE_MAX) -> Page:
    """Returns up to *limit* entries of *game_id*'s access log numbered above *after*, from
    the log or, once the game is archived, from its tombstone.

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    with registry.translate():
        reply = registry.client.eval(_READ_SCRIPT, 2, access_key(game_id),
                                     archive_key(game_id), after, limit, KEPT, ARCHIVE_FIELD)
    kind = _text(reply[0])
    if kind == "LIVE":
        entries = [{"n": int(_text(entry_id).rsplit("-", 1)[1]),
                    **json.loads(_text(_field(fields, "entry")))}
                   for entry_id, fields in reply[3]]
        return Page(int(reply[1]), int(reply[2]), entries)
    if kind == "ARCHIVED":
        archived = json.loads(_text(reply[1]))
        kept = archived["entries"]
        chosen = [entry for entry in kept if entry["n"] > after][:limit]
        return Page(int(archived["reads"]), len(kept), chosen)
    return Page(0, 0, [])


def count(registry: TokenRegistry, game_id: str) -> int:
    """Returns how many auditor reads of live deals *game_id*'s access log recorded (every
    one, the dropped included).

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    return page(registry, game_id, limit=0).reads


def archive(registry: TokenRegistry, game_id: str) -> bool:
    """Moves *game_id*'s access log into its tombstone (field :data:`ARCHIVE_FIELD`: the
    canonical JSON ``{"reads", "entries"}``) once the game is archived; returns whether it
    moved one. A game not archived, or without a log, is left as it is, so this may run again.

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    log = page(registry, game_id, limit=KEPT)
    if not log.entries or log.reads == 0:
        return False
    packed = canonical_json({"reads": log.reads, "entries": log.entries})
    with registry.translate():
        reply = registry.client.eval(_ARCHIVE_SCRIPT, 2, access_key(game_id),
                                     archive_key(game_id), packed,
                                     f"0-{log.entries[-1]['n']}", ARCHIVE_FIELD)
    return _text(reply) == "OK"


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _field(fields: Any, name: str) -> Any:
    """Returns field *name* of a stream entry's fields (a flat list, or a mapping)."""
    if isinstance(fields, dict):
        return fields.get(name, fields.get(name.encode()))
    pairs = dict(zip(fields[::2], fields[1::2], strict=True))
    return pairs.get(name, pairs.get(name.encode()))
