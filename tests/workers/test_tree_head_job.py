"""The workers sign the transparency log's tree head once per period: the job is enqueued once
per period, and when it runs the latest head covers every checkpoint logged so far, signed
by the published key."""

from __future__ import annotations

from collections.abc import Callable

from rq import Queue
from worker_helpers import work

from events import checkpoints, merkle, tree_heads
from events.redis_store import RedisEventStore
from service.application import transparency
from service.application.signing import published_keys
from workers import context, keys
from workers.dispatcher import schedule_tree_head


def test_the_tree_head_job_is_enqueued_once_per_period(queue: Queue) -> None:
    assert schedule_tree_head(queue, 29_000_000)
    assert not schedule_tree_head(queue, 29_000_000)
    assert schedule_tree_head(queue, 29_000_001)
    assert sorted(queue.job_ids) == [keys.tree_head_job_id(29_000_000),
                                     keys.tree_head_job_id(29_000_001)]


def test_the_job_signs_a_head_of_every_checkpoint_logged(
    queue: Queue, store: RedisEventStore, configured: None, new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    last = store.read(game_id)[-1]
    signed = context.signing().checkpoint(game_id, last.version, last.envelope.hash)
    log = context.signing().log
    hashed = merkle.leaf_hash(transparency.leaf(signed))
    index = log.index_of(hashed)
    assert index is not None
    schedule_tree_head(queue, 29_000_002)
    assert work(queue)
    head = log.latest_head()
    assert head is not None and head["tree_size"] > index
    tree_heads.check(head, checkpoints.read_keys({"keys": published_keys(store.client)}))
    merkle.verify_inclusion(hashed, index, head["tree_size"],
                            log.inclusion(index, head["tree_size"]),
                            bytes.fromhex(head["root_hash"]))
