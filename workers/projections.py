"""Read models rebuilt from the log: recent games, and finished games per profile.

Per-player statistics would need accounts, which the service does not have (a seat token is
bound to one game), so these are kept instead:

- recent games: a sorted set of game ids by the time of their last event, with a summary of
  each (version, profile, phase, winner), trimmed to the :data:`RECENT_LIMIT` latest;
- finished games per profile: a set of game ids, so the count (``SCARD``) is right however
  often a game is projected;
- for retention (:mod:`workers.retention`): the games in progress by the time of their last
  event, and the finished games not yet archived by the time they ended.

Every write is idempotent and only moves forward: one script compares the version it brings
with the one stored and writes nothing when it is not newer, so a projection may run twice
and in any order. The dispatcher projects every game it reads in the feed itself
(:meth:`workers.dispatcher.Dispatcher.poll`), once per game per pass and before it stores its
position, rather than through an RQ job for each version it saw: a job's bookkeeping cost
Redis many times the projection itself.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engine.state import GameState
from events.envelope import RecordedEvent
from events.store import EventStore
from workers import keys

RECENT_LIMIT = 1000
"""How many games the recent-games projection keeps."""

_UPDATE_RECENT = """
-- KEYS[1] recent zset  KEYS[2] info hash  KEYS[3] live zset  KEYS[4] over zset
-- KEYS[5] finished set of the profile (only when over)
-- ARGV[1] game id  ARGV[2] version  ARGV[3] score  ARGV[4] summary JSON  ARGV[5] limit
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old and tonumber(cjson.decode(old)['version']) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
if #KEYS == 5 then
  redis.call('SADD', KEYS[5], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZADD', KEYS[4], 'NX', ARGV[3], ARGV[1])
else
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
end
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
if extra > 0 then
  local dropped = redis.call('ZRANGE', KEYS[1], 0, extra - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1)
  redis.call('HDEL', KEYS[2], unpack(dropped))
end
return 1
"""


def summary(game_id: str, state: GameState, last_event_at: str) -> dict[str, Any]:
    """Returns the recent-games summary of *game_id* in *state*, whose last event happened at
    *last_event_at* (ISO-8601 UTC)."""
    return {
        "game_id": game_id,
        "version": state.version,
        "profile": state.rules.profile,
        "players": state.rules.players,
        "phase": state.phase,
        "winner": state.winner,
        "scores": list(state.scores),
        "last_event_at": last_event_at,
    }


class Projector:
    """Writes the projections through one client, by the script's digest (``EVALSHA``: the
    script's text crosses the wire, and is hashed by Redis, only when Redis lacks it)."""

    def __init__(self, client: Any) -> None:
        """*client* is a client of the store's Redis that decodes replies."""
        self._update = client.register_script(_UPDATE_RECENT)

    def record(self, game_id: str, state: GameState, last_event_at: str) -> bool:
        """Projects *game_id* at ``state.version``; returns False when a version at least as
        new was projected already (and nothing was written)."""
        body = summary(game_id, state, last_event_at)
        score = datetime.fromisoformat(last_event_at.replace("Z", "+00:00")).timestamp()
        names = [keys.RECENT_KEY, keys.RECENT_INFO_KEY, keys.LIVE_KEY, keys.OVER_KEY]
        if state.phase == "over":
            names.append(keys.finished_key(state.rules.profile))
        args = [game_id, state.version, score, json.dumps(body, sort_keys=True), RECENT_LIMIT]
        return bool(self._update(keys=names, args=args))


    def project(self, store: EventStore, game_id: str, state: GameState,
                last: RecordedEvent | None = None) -> bool:
        """Projects *game_id* at *state* (folded from *store*, at ``state.version``), whose
        last event is *last* (read from *store* when not given, for its time); returns False
        when a version at least as new was projected already.

        :raises ValueError: if *last* is not the event at ``state.version``.
        :raises events.store.StoreError: from the store.
        """
        if last is None:
            last = store.read(game_id, after=state.version - 1, limit=1)[0]
        elif last.version != state.version:
            raise ValueError(f"event {last.version} is not the last of game {game_id} at "
                             f"version {state.version}")
        return self.record(game_id, state, last.envelope.occurred_at)


def record(client: Any, game_id: str, state: GameState, last_event_at: str) -> bool:
    """Projects *game_id* at ``state.version`` through *client* (see :meth:`Projector.record`);
    returns False when a version at least as new was projected already."""
    return Projector(client).record(game_id, state, last_event_at)


def recent_games(client: Any, limit: int = 50) -> list[dict[str, Any]]:
    """Returns the summaries of the *limit* games with the latest activity, latest first."""
    ids = client.zrevrange(keys.RECENT_KEY, 0, limit - 1)
    if not ids:
        return []
    bodies = client.hmget(keys.RECENT_INFO_KEY, ids)
    return [json.loads(body) for body in bodies if body is not None]


def finished_count(client: Any, profile: str) -> int:
    """Returns how many games of *profile* have finished."""
    return int(client.scard(keys.finished_key(profile)))
