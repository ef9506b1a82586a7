"""The event store contract, run against a standalone server and a single-node cluster."""

from __future__ import annotations

import threading
import time
import uuid
from datetime import UTC, datetime

import pytest
import redis
from freezegun import freeze_time
from redis.cluster import RedisCluster

from events.chain import GENESIS_HASH, verify
from events.errors import ConcurrencyError, CorruptStreamError
from events.redis_store import APPEND_SCRIPT, RedisEventStore, command_key, feed_key, game_key
from events.store import partition_of
from events.types import BidMade, BidPassed, CardPlayed, Event, GameCreated


def _bids(count: int, start: int = 0) -> list[Event]:
    return [BidMade(seat=i % 4, amount=20 + i) for i in range(start, start + count)]


def _new_game() -> str:
    return f"g-{uuid.uuid4().hex}"


def _feed_of(store: RedisEventStore, game_id: str) -> list[int]:
    """Returns the versions the partition feed lists for *game_id*, in feed order."""
    entries = store.read_feed(partition_of(game_id), "0-0", count=100_000)
    return [entry.version for entry in entries if entry.game_id == game_id]


# The expected-version matrix: (events already stored, expected version, events appended).
MATRIX = [
    (existing, expected, size)
    for existing, expecteds in ((0, (0, 1)), (3, (3, 2, 0, 4, 9)))
    for expected in expecteds
    for size in (0, 1, 4)
]


@pytest.mark.parametrize(("existing", "expected", "size"), MATRIX)
def test_expected_version_matrix(
    contract_store: RedisEventStore, existing: int, expected: int, size: int
) -> None:
    game_id = _new_game()
    if existing:
        contract_store.append(game_id, 0, _bids(existing), actor=0)
    before = contract_store.read(game_id)
    events = _bids(size, start=existing)
    if expected == existing:
        result = contract_store.append(game_id, expected, events, actor=1, command_id="c")
        assert result.version == existing + size
        assert not result.duplicate
        assert [r.event for r in result.recorded] == events
        versions = list(range(existing + 1, existing + size + 1))
        assert [r.version for r in result.recorded] == versions
    else:
        with pytest.raises(ConcurrencyError) as raised:
            contract_store.append(game_id, expected, events, actor=1, command_id="c")
        assert (raised.value.expected, raised.value.actual) == (expected, existing)
        assert f"expected version {expected}, current version is {existing}" in str(raised.value)
    after = contract_store.read(game_id)
    written = size if expected == existing else 0
    assert after[:existing] == before
    assert len(after) == existing + written
    assert contract_store.version(game_id) == existing + written
    assert _feed_of(contract_store, game_id) == list(range(1, existing + written + 1))


def test_a_new_game_has_version_zero_and_no_events(contract_store: RedisEventStore) -> None:
    game_id = _new_game()
    assert contract_store.version(game_id) == 0
    assert contract_store.read(game_id) == []


def test_read_returns_what_append_wrote_chained_from_genesis(
    contract_store: RedisEventStore,
) -> None:
    game_id = _new_game()
    created = GameCreated("auction", {"target": 120}, ("human", "bot", "bot", "bot"), "ab")
    first = contract_store.append(game_id, 0, [created], actor="server", command_id="create")
    second = contract_store.append(game_id, 1, [BidMade(1, 20), BidPassed(2)], actor=1)
    recorded = contract_store.read(game_id)
    assert recorded == [*first.recorded, *second.recorded]
    envelopes = [r.envelope for r in recorded]
    assert envelopes[0].prev_hash == GENESIS_HASH
    assert verify(envelopes) == envelopes[-1].hash
    assert [e.actor for e in envelopes] == ["server", 1, 1]
    assert [e.command_id for e in envelopes] == ["create", None, None]
    assert recorded[0].event == created


def test_a_batch_that_conflicts_writes_nothing(contract_store: RedisEventStore) -> None:
    game_id = _new_game()
    contract_store.append(game_id, 0, _bids(3), actor=0)
    with pytest.raises(ConcurrencyError):
        contract_store.append(game_id, 2, _bids(5, start=3), actor=0, command_id="late")
    assert contract_store.version(game_id) == 3
    assert len(contract_store.read(game_id)) == 3
    assert _feed_of(contract_store, game_id) == [1, 2, 3]
    # The refused command id was not recorded: it appends once the version is right.
    result = contract_store.append(game_id, 3, _bids(1, start=3), actor=0, command_id="late")
    assert (result.version, result.duplicate) == (4, False)


def test_a_repeated_command_id_returns_the_first_result_and_writes_nothing(
    contract_store: RedisEventStore,
) -> None:
    game_id = _new_game()
    first = contract_store.append(game_id, 0, _bids(2), actor=0, command_id="cmd-1")
    contract_store.append(game_id, 2, _bids(1, start=2), actor=0, command_id="cmd-2")
    # Checked before the version: a stale, an exact and an ahead version all get the first.
    for expected in (0, 3, 7):
        again = contract_store.append(
            game_id, expected, [CardPlayed(0, "5S")], actor=0, command_id="cmd-1"
        )
        assert again.duplicate
        assert again.version == 2
        assert again.recorded == first.recorded
    assert contract_store.version(game_id) == 3
    assert _feed_of(contract_store, game_id) == [1, 2, 3]


def test_zero_events_check_the_version_and_record_no_command_id(
    contract_store: RedisEventStore,
) -> None:
    game_id = _new_game()
    contract_store.append(game_id, 0, _bids(2), actor=0, command_id="cmd-1")
    check = contract_store.append(game_id, 2, [], actor=0, command_id="noop")
    assert (check.version, check.recorded, check.duplicate) == (2, (), False)
    assert contract_store.append(game_id, 2, _bids(1), actor=0, command_id="noop").version == 3
    seen = contract_store.append(game_id, 3, [], actor=0, command_id="cmd-1")
    assert (seen.version, seen.duplicate, len(seen.recorded)) == (2, True, 2)
    with pytest.raises(ConcurrencyError):
        contract_store.append(game_id, 1, [], actor=0)


def test_paged_reads_verify_links_from_a_given_hash(contract_store: RedisEventStore) -> None:
    game_id = _new_game()
    contract_store.append(game_id, 0, _bids(25), actor=0)
    everything = contract_store.read(game_id)
    page = contract_store.read(game_id, after=10, limit=5)
    assert page == everything[10:15]
    assert contract_store.read(game_id, after=10) == everything[10:]
    assert contract_store.read(game_id, after=20, limit=100) == everything[20:]
    assert contract_store.read(game_id, after=25) == []
    linked = contract_store.read(game_id, after=10, prev_hash=everything[9].envelope.hash)
    assert linked == everything[10:]
    with pytest.raises(CorruptStreamError, match="at version 11: prev_hash"):
        contract_store.read(game_id, after=10, prev_hash=everything[3].envelope.hash)


def test_tail_returns_the_backlog_at_once_and_waits_for_new_events(
    contract_store: RedisEventStore,
) -> None:
    game_id = _new_game()
    contract_store.append(game_id, 0, _bids(3), actor=0)
    assert [r.version for r in contract_store.tail(game_id, 1, block_ms=1000)] == [2, 3]
    start = time.monotonic()
    assert contract_store.tail(game_id, 3, block_ms=100) == []
    assert time.monotonic() - start >= 0.09

    def later() -> None:
        time.sleep(0.2)
        contract_store.append(game_id, 3, _bids(1, start=3), actor=0)

    writer = threading.Thread(target=later)
    writer.start()
    arrived = contract_store.tail(game_id, 3, block_ms=5000)
    writer.join()
    assert [r.version for r in arrived] == [4]
    assert arrived[0].envelope.prev_hash == contract_store.read(game_id)[2].envelope.hash


def test_the_feed_lists_every_event_of_its_partition_in_order(
    contract_store: RedisEventStore,
) -> None:
    game_id = _new_game()
    partition = partition_of(game_id)
    start = contract_store.read_feed(partition, "0-0", count=100_000)
    last = start[-1].id if start else "0-0"
    contract_store.append(game_id, 0, [GameCreated("bruff", {}, ("human",) * 6, "ab")],
                          actor="server")  # fmt: skip
    contract_store.append(game_id, 1, [BidMade(0, 20), BidPassed(1)], actor=0)
    entries = contract_store.read_feed(partition, last, count=2)
    assert [(e.game_id, e.version, e.type) for e in entries] == [
        (game_id, 1, "game_created"), (game_id, 2, "bid_made"),
    ]  # fmt: skip
    rest = contract_store.read_feed(partition, entries[-1].id, count=10, block_ms=1000)
    assert [(e.version, e.type) for e in rest] == [(3, "bid_passed")]
    positions = [int(e.id.split("-")[1]) for e in [*entries, *rest]]
    assert positions == list(range(positions[0], positions[0] + 3))
    assert contract_store.read_feed(partition, rest[-1].id, block_ms=50) == []


def test_occurred_at_comes_from_the_clock(contract_store: RedisEventStore) -> None:
    game_id = _new_game()
    with freeze_time("2025-03-04 05:06:07.890123"):
        frozen = contract_store.append(game_id, 0, _bids(1), actor=0)
    assert frozen.recorded[0].envelope.occurred_at == "2025-03-04T05:06:07.890123Z"
    injected = RedisEventStore(
        contract_store.client, clock=lambda: datetime(2024, 1, 1, tzinfo=UTC)
    )
    result = injected.append(game_id, 1, _bids(1, start=1), actor=0)
    assert contract_store.read(game_id)[1].envelope.occurred_at == "2024-01-01T00:00:00.000000Z"
    assert result.recorded[0].envelope.occurred_at == "2024-01-01T00:00:00.000000Z"


def test_a_stale_head_cache_is_corrected_by_the_script(contract_store: RedisEventStore) -> None:
    # The game is deleted and written again by another process, so this store's cached head
    # hash at version 1 is wrong; the script must refuse it, not break the chain.
    game_id = _new_game()
    contract_store.append(game_id, 0, _bids(1), actor=0)
    contract_store.client.delete(game_key(game_id))
    other = RedisEventStore(contract_store.client)
    other.append(game_id, 0, [BidPassed(3)], actor=3)
    contract_store.append(game_id, 1, _bids(1, start=1), actor=0)
    envelopes = [r.envelope for r in contract_store.read(game_id)]
    assert verify(envelopes) == envelopes[-1].hash
    assert [r.event for r in contract_store.read(game_id)][0] == BidPassed(3)


def test_a_game_without_a_kept_head_appends_from_its_top_entry(
    contract_store: RedisEventStore,
) -> None:
    # A game written before the script kept its head beside the command ids (or whose head
    # was lost): the stream's top entry decides, and the append keeps the head again.
    game_id = _new_game()
    contract_store.append(game_id, 0, _bids(2), actor=0, command_id="first")
    client = contract_store.client
    head = client.hget(command_key(game_id), "")
    assert head == f"2 {contract_store.read(game_id)[-1].envelope.hash}"
    client.hdel(command_key(game_id), "")
    with pytest.raises(ConcurrencyError):
        RedisEventStore(client).append(game_id, 1, _bids(1, start=5), actor=0)
    result = RedisEventStore(client).append(game_id, 2, _bids(1, start=2), actor=0)
    assert result.version == 3
    envelopes = [r.envelope for r in contract_store.read(game_id)]
    assert verify(envelopes) == envelopes[-1].hash
    assert client.hget(command_key(game_id), "") == f"3 {envelopes[-1].hash}"
    assert contract_store.append(game_id, 0, _bids(2), actor=0, command_id="first").duplicate


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game_id": ""}, "invalid game id"),
        ({"game_id": "a b"}, "invalid game id"),
        ({"game_id": "x" * 129}, "invalid game id"),
        ({"expected_version": -1}, "invalid expected version"),
        ({"expected_version": True}, "invalid expected version"),
        ({"actor": -2}, "invalid actor"),
        ({"actor": "bot"}, "invalid actor"),
        ({"command_id": ""}, "invalid command id"),
        ({"events": ["bid"]}, "not an event type registered"),
        ({"events": [BidMade(0, 2**60)]}, "no canonical JSON form"),
    ],
)
def test_invalid_appends_are_refused_before_writing(
    contract_store: RedisEventStore, change: dict[str, object], message: str
) -> None:
    game_id = _new_game()
    call: dict[str, object] = {
        "game_id": game_id, "expected_version": 0, "events": _bids(1), "actor": 0,
        "command_id": "c",
    }  # fmt: skip
    call.update(change)
    with pytest.raises(ValueError, match=message):
        contract_store.append(**call)  # type: ignore[arg-type]
    assert contract_store.version(game_id) == 0


def test_an_event_subclass_not_registered_is_refused(contract_store: RedisEventStore) -> None:
    class Sneaky(BidMade):
        pass

    with pytest.raises(ValueError, match="not an event type registered"):
        contract_store.append(_new_game(), 0, [Sneaky(0, 20)], actor=0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.read("g", after=-1), "invalid after"),
        (lambda s: s.read("g", limit=0), "invalid limit"),
        (lambda s: s.tail("g", 0, block_ms=-5), "invalid block_ms"),
        (lambda s: s.tail("g", 0, block_ms=60_000), "below the socket timeout"),
        (lambda s: s.read_feed(256), "invalid partition"),
        (lambda s: s.read_feed(0, "$"), "invalid feed entry id"),
        (lambda s: s.read_feed(0, count=0), "invalid count"),
        (lambda s: s.version(""), "invalid game id"),
    ],
)
def test_invalid_reads_are_refused(contract_store: RedisEventStore, call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call(contract_store)


def test_keys_of_a_game_share_its_partition_hash_tag(contract_store: RedisEventStore) -> None:
    assert game_key("g1") == "f45:{p165}:game:g1"
    assert command_key("g1") == "f45:{p165}:cmd:g1"
    assert feed_key(partition_of("g1")) == "f45:{p165}:feed"
    assert contract_store.partition_of("g1") == 165
    client = contract_store.client
    if isinstance(client, RedisCluster):
        game_id = _new_game()
        slots = {client.keyslot(k) for k in (game_key(game_id), command_key(game_id),
                                             feed_key(partition_of(game_id)))}  # fmt: skip
        assert len(slots) == 1


def test_the_cluster_refuses_a_script_across_slots(cluster_server) -> None:  # type: ignore[no-untyped-def]
    # What the contract run on a cluster guards against: keys of two partitions in one call,
    # or a key the script did not declare, fail instead of silently working.
    client = RedisCluster(host="127.0.0.1", port=cluster_server.port, decode_responses=True)
    try:
        a, b = "g1", "g2"
        assert partition_of(a) != partition_of(b)
        with pytest.raises(redis.exceptions.RedisClusterException, match="same key slot"):
            client.eval(APPEND_SCRIPT, 3, game_key(a), command_key(b), feed_key(partition_of(a)))
        undeclared = f"#!lua\nreturn redis.call('XLEN', '{game_key(b)}')"
        with pytest.raises(redis.exceptions.ResponseError, match="same slot"):
            client.eval(undeclared, 1, game_key(a))
    finally:
        client.close()


def test_ping_measures_a_round_trip(contract_store: RedisEventStore) -> None:
    assert 0 < contract_store.ping() < 1
