"""Archiving a game in the store, on a standalone server and a single-node cluster: the
tombstone answers every read as the stream did, and nothing is written when the game moved."""

from __future__ import annotations

import uuid
import zlib

import pytest

from events.redis_store import RedisEventStore, archive_key, command_key, game_key
from events.store import CorruptStreamError
from events.types import BidMade, Event


def _bids(count: int, start: int = 0) -> list[Event]:
    return [BidMade(seat=i % 4, amount=20 + i) for i in range(start, start + count)]


def _stored(store: RedisEventStore, count: int = 7) -> str:
    game_id = f"g-{uuid.uuid4().hex}"
    store.append(game_id, 0, _bids(count), actor=0, command_id="first")
    return game_id


def test_an_archived_game_reads_versions_and_tails_as_before(
    contract_store: RedisEventStore,
) -> None:
    game_id = _stored(contract_store)
    before = contract_store.read(game_id)
    assert contract_store.archive(game_id, 7) is True
    client = contract_store.client
    assert not client.exists(game_key(game_id)) and not client.exists(command_key(game_id))
    fresh = RedisEventStore(client)
    assert fresh.read(game_id) == before
    assert fresh.read(game_id, after=2, limit=3) == before[2:5]
    assert fresh.read(game_id, after=7) == []
    assert fresh.version(game_id) == 7
    assert fresh.tail(game_id, 4, 0) == before[4:]
    tombstone = fresh.tombstone(game_id)
    assert tombstone is not None
    assert (tombstone["version"], tombstone["head"]) == (7, before[-1].envelope.hash)
    assert tombstone["checkpoint"]["signature"] is None


def test_archiving_twice_or_a_moved_game_writes_nothing(
    contract_store: RedisEventStore,
) -> None:
    game_id = _stored(contract_store, 3)
    assert contract_store.archive(game_id, 2) is False
    assert contract_store.client.exists(game_key(game_id))
    assert not contract_store.client.exists(archive_key(game_id))
    assert contract_store.archive(game_id, 3) is True
    assert contract_store.archive(game_id, 3) is False
    assert contract_store.tombstone(f"g-{uuid.uuid4().hex}") is None


def test_a_tampered_archive_fails_verification(contract_store: RedisEventStore) -> None:
    game_id = _stored(contract_store, 4)
    contract_store.archive(game_id, 4)
    client = contract_store.client
    packed = client.execute_command("HGET", archive_key(game_id), "events", NEVER_DECODE=True)
    tampered = zlib.decompress(packed).replace(b'"amount":21', b'"amount":99')
    client.hset(archive_key(game_id), "events", zlib.compress(tampered))
    with pytest.raises(CorruptStreamError, match="stored hash does not match"):
        RedisEventStore(client).read(game_id)
    client.hset(archive_key(game_id), "events", b"not zlib")
    with pytest.raises(CorruptStreamError, match="archive"):
        RedisEventStore(client).read(game_id)
