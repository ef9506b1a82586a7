"""Stored events of older schemas read as current events; newer ones fail clearly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import redis

from events.chain import verify
from events.envelope import Envelope
from events.errors import CorruptStreamError, SchemaError
from events.redis_store import RedisEventStore, game_key
from events.types import EVENT_TYPES, BidMade, CardPlayed, DeckCut, GameCreated
from events.upcasting import UPCASTERS, Upcasters, decode, upcast

GOLDEN = Path(__file__).parent / "golden"
PROTOTYPE_HEAD = "fc982db56f22e20cfc2d5502d1d5506b0228c90cc495bbfe4db0bf7b6cb0fc8a"


def _golden(name: str) -> list[Envelope]:
    lines = (GOLDEN / name).read_text("utf-8").splitlines()
    return [Envelope.from_dict(json.loads(line)) for line in lines]


def test_prototype_golden_log_reads_as_current_events() -> None:
    envelopes = _golden("schema1-prototype.jsonl")
    assert envelopes[0].schema == 1 and "players" in envelopes[0].data
    events = [decode(envelope) for envelope in envelopes]
    assert events[0] == GameCreated(
        profile="auction",
        options={"min_bid": 20, "target": 120},
        seats=("human", "human", "human", "human"),
        seed="a1b2c3d4",
    )
    assert events[2] == DeckCut(seat=3, position=17)
    assert events[3] == BidMade(seat=1, amount=20)
    assert events[-1] == CardPlayed(seat=1, card="5H")


def test_prototype_golden_log_chain_verifies_to_its_pinned_head() -> None:
    envelopes = _golden("schema1-prototype.jsonl")
    assert verify(envelopes) == PROTOTYPE_HEAD


def test_every_golden_log_reads_and_verifies() -> None:
    logs = sorted(GOLDEN.glob("*.jsonl"))
    assert logs, "no golden logs found"
    for log in logs:
        envelopes = _golden(log.name)
        verify(envelopes)
        for envelope in envelopes:
            event = decode(envelope)
            assert type(event) is EVENT_TYPES[envelope.type]


def test_golden_log_reads_through_the_store(
    store: RedisEventStore, redis_client: redis.Redis, game_id: str
) -> None:
    # Store the prototype's envelopes under a fresh id, as that release would have, then
    # read them back through the store: upcast, hashes and links checked.
    from events.chain import GENESIS_HASH, seal

    prev = GENESIS_HASH
    for envelope in _golden("schema1-prototype.jsonl"):
        moved, body = seal(
            game_id=game_id, version=envelope.version, event_type=envelope.type,
            schema=envelope.schema, data=envelope.data, actor=envelope.actor,
            command_id=envelope.command_id, occurred_at=envelope.occurred_at, prev_hash=prev,
        )  # fmt: skip
        fields = {"body": body, "hash": moved.hash}
        redis_client.xadd(game_key(game_id), fields, id=f"0-{moved.version}")
        prev = moved.hash
    recorded = store.read(game_id)
    assert recorded[0].envelope.schema == 1
    assert recorded[0].event == decode(_golden("schema1-prototype.jsonl")[0])
    assert [r.version for r in recorded] == [1, 2, 3, 4, 5, 6]


def test_game_created_v1_becomes_v2_with_human_seats() -> None:
    data = {"profile": "classic", "options": {}, "players": 3, "seed": "00"}
    assert upcast("game_created", 1, data) == {
        "profile": "classic", "options": {}, "seed": "00", "seats": ["human"] * 3,
    }  # fmt: skip
    assert data["players"] == 3, "the stored data must not be modified"


def test_current_schema_data_passes_unchanged() -> None:
    data = {"seat": 1, "amount": 25}
    assert upcast("bid_made", 1, data) == data


def test_a_newer_schema_than_this_code_fails_clearly() -> None:
    with pytest.raises(SchemaError, match="game_created event has schema 3 but this code knows "
                       "schema 2 at most; upgrade fortyfive"):  # fmt: skip
        upcast("game_created", 3, {})


def test_an_unknown_type_fails_clearly() -> None:
    with pytest.raises(SchemaError, match="unknown event type 'trick_won'"):
        upcast("trick_won", 1, {})


def test_a_broken_step_input_fails_with_the_schema_named() -> None:
    with pytest.raises(SchemaError, match="cannot upcast game_created from schema 1 to 2"):
        upcast("game_created", 1, {"profile": "p", "options": {}, "players": "four", "seed": ""})


def test_steps_run_in_a_loop_until_the_current_schema() -> None:
    class Three(GameCreated):
        SCHEMA = 3

    registry = Upcasters({"game_created": Three})
    calls: list[int] = []

    @registry.register("game_created", 1)
    def one(data: dict[str, Any]) -> dict[str, Any]:
        calls.append(1)
        return {**data, "one": True}

    @registry.register("game_created", 2)
    def two(data: dict[str, Any]) -> dict[str, Any]:
        calls.append(2)
        return {**data, "two": True}

    assert registry.upcast("game_created", 1, {}) == {"one": True, "two": True}
    assert registry.upcast("game_created", 2, {}) == {"two": True}
    assert calls == [1, 2, 2]


def test_a_missing_step_is_named() -> None:
    registry = Upcasters()
    with pytest.raises(SchemaError, match="no upcaster for game_created from schema 1 to 2"):
        registry.upcast("game_created", 1, {})


def test_registering_a_step_for_the_current_schema_or_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="must be below its current one"):
        Upcasters().register("bid_made", 1)
    with pytest.raises(ValueError, match="exists"):
        UPCASTERS.register("game_created", 1)


def test_data_that_does_not_fit_after_upcasting_is_corrupt() -> None:
    envelope = _golden("schema1-prototype.jsonl")[3]
    broken = Envelope.from_dict({**envelope.to_dict(), "data": {"seat": 1}})
    with pytest.raises(CorruptStreamError, match="event 4 of game 'golden-proto-1'"):
        decode(broken)
