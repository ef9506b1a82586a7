"""Several dispatchers sharing the partitions: each takes its share among those alive, a
partition has one owner, and a dispatcher that leaves hands its share to the others from the
positions it stored."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from rq import Queue

from events.redis_store import RedisEventStore
from events.store import PARTITIONS
from workers import dispatcher as dispatching
from workers.dispatcher import Dispatcher, owner


def test_each_partition_has_one_owner_and_a_leaver_moves_only_its_own() -> None:
    three = ["a", "b", "c"]
    shares = {member: {p for p in range(PARTITIONS) if owner(p, three) == member}
              for member in three}
    assert set().union(*shares.values()) == set(range(PARTITIONS))
    assert sum(len(share) for share in shares.values()) == PARTITIONS
    assert all(40 < len(share) < 130 for share in shares.values()), shares
    # "c" leaves: its partitions move, nobody else's does.
    for partition in shares["a"] | shares["b"]:
        assert owner(partition, ["a", "b"]) == owner(partition, three)


def test_two_dispatchers_share_the_feeds_and_one_takes_over_when_the_other_leaves(
    store: RedisEventStore, queue: Queue, configured: None,
    new_game: Callable[..., str], monkeypatch: object,
) -> None:
    name = f"test-{uuid.uuid4().hex[:12]}"
    alive = {"one", "two"}
    monkeypatch.setattr(dispatching, "REASSIGN_SECONDS", 0.0)  # type: ignore[attr-defined]
    first, second = (
        Dispatcher(store, queue, name=name, start="end", member=member, peers=lambda: alive)
        for member in ("one", "two"))
    assert set(first.partitions).isdisjoint(second.partitions)
    assert len(first.partitions) + len(second.partitions) == PARTITIONS
    games = [new_game("classic", ["bot", "bot"]) for _ in range(12)]
    handled = first.poll() + second.poll()
    assert handled >= len(games)  # Every new game's entries, each read by its owner only.
    assert first.enqueued and second.enqueued
    assert first.refused == second.refused == 0

    alive.discard("two")  # Its heartbeat went stale.
    more = [new_game("classic", ["bot", "bot"]) for _ in range(12)]
    before = first.enqueued
    first.poll()
    assert first.partitions == tuple(range(PARTITIONS))
    # It resumed from the positions "two" stored: the old games' entries are not read again,
    # the new games all get their jobs.
    assert first.refused == 0
    assert first.enqueued - before >= len(more)
