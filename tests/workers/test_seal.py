"""Sealed deals: the auditor's hand history of each finished deal, stored once, that verifies."""

from __future__ import annotations

from collections.abc import Callable

import redis
from rq import Queue
from worker_helpers import drive, state_of

from events import checkpoints
from events.redis_store import RedisEventStore
from replay.formats.jsonformat import read_json
from replay.verification.verify import verify
from service.application import signing
from workers import jobs, keys
from workers.dispatcher import Dispatcher
from workers.plan import finished_deals


def test_every_finished_deal_is_sealed_with_a_history_that_verifies(
    dispatcher: Dispatcher,
    queue: Queue,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    drive(dispatcher, queue)
    deals = finished_deals(state_of(game_id))
    assert len(deals) >= 2
    for number in deals:
        text = redis_client.get(keys.sealed_key(game_id, number))
        assert text is not None, f"deal {number} is sealed"
        history, problems = read_json(text)
        assert history is not None and not problems
        assert (history.game_id, history.view.viewer, history.view.deal) == (
            game_id, "auditor", number
        )
        published = checkpoints.read_keys(
            {"keys": signing.published_keys(redis_client)})
        report = verify(history, keys=published)
        assert report.ok, report.problems
        assert history.checkpoint is not None
        assert history.checkpoint["version"] == history.events[-1].version
        assert any("signature verified" in note for note in report.notes)
        kept = signing.latest_deal_end(redis_client, game_id, upto=history.events[-1].version)
        assert kept == history.checkpoint


def test_sealing_twice_keeps_the_first_history(
    configured: None,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "bot"])
    jobs.play_bots(game_id, store.version(game_id))
    version = store.version(game_id)
    assert jobs.seal_deal(game_id, 1, version)
    first = redis_client.get(keys.sealed_key(game_id, 1))
    assert not jobs.seal_deal(game_id, 1, version)
    assert redis_client.get(keys.sealed_key(game_id, 1)) == first


def test_a_deal_still_in_play_is_not_sealed(
    configured: None,
    store: RedisEventStore,
    redis_client: redis.Redis,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game("classic", ["bot", "human"])
    version = store.version(game_id)
    assert not jobs.seal_deal(game_id, 1, version)
    assert redis_client.get(keys.sealed_key(game_id, 1)) is None
