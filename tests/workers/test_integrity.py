"""The chain sweep flags a tampered stream, a rewritten one, and clears a repaired one."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import redis

from events.chain import seal
from events.envelope import Envelope
from events.redis_store import RedisEventStore, game_key
from workers import integrity, jobs, keys


@pytest.fixture
def played(configured: None, store: RedisEventStore, new_game: Callable[..., str]) -> str:
    """A finished all-bot game, verified once by a sweep."""
    game_id = new_game("classic", ["bot", "bot"])
    jobs.play_bots(game_id, store.version(game_id))
    summary = jobs.sweep_chains()
    assert game_id not in summary["failed"]
    assert summary["checked"] >= 1
    return game_id


def _entries(client: redis.Redis, game_id: str) -> list[tuple[str, dict[str, str]]]:
    return client.xrange(game_key(game_id))


def _rewrite(client: redis.Redis, game_id: str, entries: list[tuple[str, dict[str, str]]]) -> None:
    key = game_key(game_id)
    client.delete(key)
    for entry_id, fields in entries:
        client.xadd(key, fields, id=entry_id)


def test_an_edited_event_is_flagged_and_cleared_once_repaired(
    played: str, redis_client: redis.Redis, store: RedisEventStore
) -> None:
    original = _entries(redis_client, played)
    tampered = [(entry_id, dict(fields)) for entry_id, fields in original]
    body = json.loads(tampered[4][1]["body"])
    body["occurred_at"] = "2001-01-01T00:00:00Z"
    tampered[4][1]["body"] = json.dumps(body, separators=(",", ":"), sort_keys=True)
    _rewrite(redis_client, played, tampered)

    summary = jobs.sweep_chains()
    assert played in summary["failed"]
    assert "event 5" in integrity.failures(store)[played]["reason"]

    _rewrite(redis_client, played, original)
    assert played not in jobs.sweep_chains()["failed"]
    assert played not in integrity.failures(store)


def test_a_chain_rewritten_with_fresh_hashes_is_caught_by_its_anchor(
    played: str, redis_client: redis.Redis, store: RedisEventStore
) -> None:
    original = _entries(redis_client, played)
    rewritten: list[tuple[str, dict[str, str]]] = []
    prev_hash = None
    for index, (entry_id, fields) in enumerate(original):
        envelope = Envelope.from_dict({**json.loads(fields["body"]), "hash": fields["hash"]})
        if index < 4:
            rewritten.append((entry_id, fields))
            prev_hash = envelope.hash
            continue
        assert prev_hash is not None
        occurred_at = "2001-01-01T00:00:00Z" if index == 4 else envelope.occurred_at
        resealed, body_bytes = seal(
            game_id=envelope.game_id, version=envelope.version, event_type=envelope.type,
            schema=envelope.schema, data=envelope.data, actor=envelope.actor,
            command_id=envelope.command_id, occurred_at=occurred_at, prev_hash=prev_hash,
        )
        rewritten.append((entry_id, {"body": body_bytes.decode(), "hash": resealed.hash}))
        prev_hash = resealed.hash
    _rewrite(redis_client, played, rewritten)
    assert len(store.read(played)) == len(original), "the rewritten chain reads as valid"

    assert played in jobs.sweep_chains()["failed"]
    assert "rewritten" in integrity.failures(store)[played]["reason"]


def test_a_game_that_lost_events_is_flagged(
    played: str, redis_client: redis.Redis, store: RedisEventStore
) -> None:
    original = _entries(redis_client, played)
    _rewrite(redis_client, played, original[:-3])
    assert played in jobs.sweep_chains()["failed"]
    assert "lost events" in integrity.failures(store)[played]["reason"]


def test_the_last_sweep_is_recorded(played: str, redis_client: redis.Redis) -> None:
    last = json.loads(redis_client.get(keys.LAST_SWEEP_KEY) or "{}")
    assert last["checked"] >= 1
    assert set(last) == {"checked", "failed", "started_at"}
