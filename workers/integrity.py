"""The chain sweep: re-verify every stored game and record those that fail.

Reading a game already checks each event's hash against its body and its link to the one
before (:meth:`events.redis_store.RedisEventStore.read`); the sweep also recomputes each hash
from the decoded envelope (:func:`events.chain.verify`). A chain rewritten from some event on
with every hash recomputed would still verify, so each sweep also keeps an *anchor* per game
(the version and hash of its head) and the next sweep checks the event at that version still
has that hash: a rewrite of anything at or before a known head is caught.

Failures go to a hash (game id -> JSON reason) that the next sweep clears for a game that
verifies again; the summary of the last sweep is kept beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from events.chain import verify
from events.errors import CorruptStreamError, SchemaError
from events.keys import GAME_PATTERN
from events.redis_store import RedisEventStore
from workers import keys


def game_ids(store: RedisEventStore) -> Iterator[str]:
    """Yields the id of every game in *store* (a SCAN, so games appended meanwhile may or
    may not appear)."""
    for key in store.client.scan_iter(match=GAME_PATTERN, count=1000, _type="stream"):
        text = key.decode("utf-8") if isinstance(key, bytes) else str(key)
        yield text.split(":game:", 1)[1]


def check_game(store: RedisEventStore, game_id: str, anchor: str | None) -> tuple[str, str | None]:
    """Verifies *game_id* and returns its new anchor and the reason it fails (``None`` if it
    verifies).

    *anchor* is the one recorded by the previous sweep, if any. The new anchor is the old one
    when the game fails, so a failure stays visible until the history is repaired.

    :raises events.store.StoreUnavailableError: if the store cannot be reached (nothing is
        then concluded about the game).
    """
    try:
        events = store.read(game_id)
        head = verify((recorded.envelope for recorded in events), game_id=game_id)
    except (CorruptStreamError, SchemaError) as error:
        return anchor or "", str(error)
    version = len(events)
    if anchor:
        known_version, _, known_hash = anchor.partition(":")
        at = int(known_version)
        if at > version:
            return anchor, f"game {game_id!r} lost events: {version} left of {at} verified before"
        if at > 0 and events[at - 1].envelope.hash != known_hash:
            return anchor, (
                f"game {game_id!r} was rewritten: event {at} no longer has the hash "
                f"{known_hash[:12]}... it had when last verified"
            )
    return f"{version}:{head}", None


def sweep(store: RedisEventStore, *, now: datetime | None = None) -> dict[str, Any]:
    """Verifies every game of *store*, records failures and anchors, and returns a summary
    (``checked``, ``failed``: the ids that failed, ``started_at``)."""
    client = store.client
    stamp = (now or datetime.now(UTC)).isoformat()
    checked = 0
    failed: list[str] = []
    for game_id in game_ids(store):
        checked += 1
        anchor = client.hget(keys.CHAIN_ANCHORS_KEY, game_id)
        new_anchor, reason = check_game(store, game_id, anchor)
        if reason is None:
            client.hset(keys.CHAIN_ANCHORS_KEY, game_id, new_anchor)
            client.hdel(keys.CHAIN_FAILURES_KEY, game_id)
            continue
        failed.append(game_id)
        record = {"reason": reason, "detected_at": stamp}
        client.hset(keys.CHAIN_FAILURES_KEY, game_id, json.dumps(record, sort_keys=True))
    result = {"checked": checked, "failed": sorted(failed), "started_at": stamp}
    client.set(keys.LAST_SWEEP_KEY, json.dumps(result, sort_keys=True))
    return result


def failures(store: RedisEventStore) -> dict[str, dict[str, Any]]:
    """Returns the games that failed the last sweeps, with why and when."""
    raw = store.client.hgetall(keys.CHAIN_FAILURES_KEY)
    return {game_id: json.loads(body) for game_id, body in raw.items()}
