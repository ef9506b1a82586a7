"""The transparency log in the session's Redis (and on the Redis Cluster): appends, the subject
that keeps a checkpoint signed twice to one leaf, proofs answered from the stored subtrees, the
errors of a range or size the log does not have, and writers racing each other."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import pytest

from events import merkle
from events.redis_store import RedisEventStore
from events.transparency_log import MAX_ENTRIES, LogRangeError, TransparencyLog
from service.processes.embedded_cluster import EmbeddedCluster


@pytest.fixture
def log(store: RedisEventStore) -> TransparencyLog:
    """A log of its own on the session's Redis."""
    return TransparencyLog.of(store, name=f"t-{uuid.uuid4().hex}")


def leaf(i: int) -> bytes:
    return f'{{"n":{i}}}'.encode()


def subject(i: int) -> bytes:
    return f"subject {i}".encode()


def fill(log: TransparencyLog, count: int) -> list[bytes]:
    for i in range(count):
        appended = log.append(leaf(i), subject(i))
        assert (appended.index, appended.new) == (i, True)
    return [merkle.leaf_hash(leaf(i)) for i in range(count)]


def test_the_log_answers_roots_and_proofs_of_every_size(log: TransparencyLog) -> None:
    hashes = fill(log, 21)
    assert log.size() == 21
    for size in range(0, 22):
        assert log.root(size) == merkle.root(hashes[:size])
    for size in (1, 6, 16, 21):
        for index in range(size):
            merkle.verify_inclusion(hashes[index], index, size, log.inclusion(index, size),
                                    merkle.root(hashes[:size]))
        for first in range(0, size + 1):
            merkle.verify_consistency(first, size, log.consistency(first, size),
                                      merkle.root(hashes[:first]), merkle.root(hashes[:size]))
    assert log.index_of(hashes[7]) == 7
    assert log.index_of(merkle.leaf_hash(b"never")) is None
    assert log.entries(3, 6) == [leaf(3), leaf(4), leaf(5)]


def test_a_subject_logged_already_is_not_appended_again(log: TransparencyLog) -> None:
    fill(log, 3)
    again = log.append(b'{"n":"signed later"}', subject(1))
    assert (again.index, again.leaf, again.new) == (1, leaf(1), False)
    assert log.size() == 3


def test_the_log_appends_after_redis_forgot_its_scripts(log: TransparencyLog) -> None:
    # Appends run the scripts by their digests; a flushed script cache (a restart) falls back
    # to their text, one leaf each time, batches included.
    fill(log, 2)
    log.client.script_flush()
    assert log.append(leaf(2), subject(2)).index == 2
    log.client.script_flush()
    assert log.append_batch([(leaf(3), subject(3)), (leaf(4), subject(4))]) == 3
    assert log.size() == 5
    assert [log.append(leaf(i), subject(i)).new for i in range(5)] == [False] * 5


def test_ranges_and_sizes_the_log_does_not_have_are_refused(log: TransparencyLog) -> None:
    fill(log, 4)
    for call, message in (
        (lambda: log.root(5), "no tree of 5 leaves in a log of 4"),
        (lambda: log.inclusion(4, 4), "leaf 4 is not in a tree of 4 leaves"),
        (lambda: log.inclusion(0, 5), "no tree of 5 leaves"),
        (lambda: log.consistency(3, 2), "no consistency proof from a tree of 3 leaves to one "
                                        "of 2"),
        (lambda: log.consistency(1, 9), "no tree of 9 leaves"),
        (lambda: log.entries(2, 2), r"no leaves \[2, 2\) in a log of 4"),
        (lambda: log.entries(3, 5), r"no leaves \[3, 5\)"),
    ):
        with pytest.raises(LogRangeError, match=message):
            call()


def test_entries_come_a_thousand_at_most(log: TransparencyLog) -> None:
    fill(log, MAX_ENTRIES + 2)
    assert len(log.entries(0, MAX_ENTRIES + 2)) == MAX_ENTRIES
    assert log.entries(MAX_ENTRIES, MAX_ENTRIES + 2) == [leaf(MAX_ENTRIES), leaf(MAX_ENTRIES + 1)]


def test_writers_racing_each_other_lose_no_leaf_and_break_no_hash(
    store: RedisEventStore,
) -> None:
    name = f"t-{uuid.uuid4().hex}"
    writers, each = 4, 40
    start = threading.Barrier(writers)

    def write(writer: int) -> None:
        own = TransparencyLog.of(store, name=name)  # Each with its own idea of the size.
        start.wait()
        for i in range(each):
            own.append(leaf(writer * 1000 + i), subject(writer * 1000 + i))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    log = TransparencyLog.of(store, name=name)
    assert log.size() == writers * each
    leaves = log.entries(0, writers * each)
    assert sorted(leaves) == sorted(leaf(w * 1000 + i) for w in range(writers) for i in range(each))
    assert log.root(log.size()) == merkle.root([merkle.leaf_hash(item) for item in leaves])


def test_the_latest_head_never_goes_back_to_a_smaller_tree(log: TransparencyLog) -> None:
    assert log.latest_head() is None
    big = {"tree_size": 5, "root_hash": "aa" * 32}
    assert log.keep_head(big) == big
    assert log.keep_head({"tree_size": 4, "root_hash": "bb" * 32}) == big
    newer = {"tree_size": 5, "root_hash": "cc" * 32}
    assert log.keep_head(newer) == newer == log.latest_head()


@pytest.fixture
def cluster_store(redis_cluster: EmbeddedCluster) -> Iterator[RedisEventStore]:
    with RedisEventStore.from_url(redis_cluster.url, cluster=True) as opened:
        yield opened


def test_the_log_works_on_a_redis_cluster(cluster_store: RedisEventStore) -> None:
    log = TransparencyLog.of(cluster_store, name=f"t-{uuid.uuid4().hex}")
    hashes = fill(log, 9)
    assert log.root(9) == merkle.root(hashes)
    merkle.verify_inclusion(hashes[4], 4, 9, log.inclusion(4, 9), merkle.root(hashes))
    merkle.verify_consistency(5, 9, log.consistency(5, 9), merkle.root(hashes[:5]),
                              merkle.root(hashes))
    assert log.entries(8, 9) == [leaf(8)]


def test_a_batch_is_stored_as_the_same_leaves_appended_one_by_one(
    log: TransparencyLog, store: RedisEventStore,
) -> None:
    fill(log, 5)
    assert log.append_batch([(leaf(i), subject(i)) for i in range(5, 40)]) == 5
    assert log.append_batch([(leaf(i), subject(i)) for i in range(40, 41)]) == 40
    one_by_one = TransparencyLog.of(store, name=f"t-{uuid.uuid4().hex}")
    hashes = fill(one_by_one, 41)
    for size in (1, 5, 6, 17, 32, 40, 41):
        assert log.root(size) == one_by_one.root(size) == merkle.root(hashes[:size])
    assert log.inclusion(7, 41) == one_by_one.inclusion(7, 41)
    assert log.entries(0, 41) == one_by_one.entries(0, 41)
    for key in ("nodes:0:0", "nodes:1:0", "nodes:5:0"):
        assert log.client.get(log.key(key)) == one_by_one.client.get(one_by_one.key(key))


def test_a_batch_with_a_subject_logged_already_logs_it_once(log: TransparencyLog) -> None:
    fill(log, 3)
    assert log.append_batch([(leaf(3), subject(3)), (b"again", subject(1)),
                             (leaf(4), subject(4))]) == 3
    assert log.size() == 5
    assert log.entries(3, 5) == [leaf(3), leaf(4)]
