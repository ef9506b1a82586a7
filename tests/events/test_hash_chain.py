"""Envelopes and the SHA-256 hash chain."""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import UTC, datetime, timedelta, timezone

import pytest
import rfc8785

from events.chain import GENESIS_HASH, envelope_hash, seal, seal_events, verify
from events.envelope import Envelope, check_actor, format_timestamp
from events.errors import CorruptStreamError
from events.types import BidMade, BidPassed, CardPlayed, GameCreated


def _history() -> list[Envelope]:
    events = [
        GameCreated("auction", {"target": 120}, ("human", "bot", "bot", "human"), "ab12"),
        BidMade(1, 20),
        BidPassed(2),
        CardPlayed(1, "5H"),
    ]
    sealed = seal_events(
        "g1", 0, GENESIS_HASH, events, actor=1, command_id="c1",
        occurred_at="2025-01-02T03:04:05.000000Z",
    )  # fmt: skip
    return [envelope for envelope, _ in sealed]


def test_hash_is_sha256_of_canonical_json_without_the_hash() -> None:
    envelope, body = seal(
        game_id="g1", version=1, event_type="bid_made", schema=1,
        data={"seat": 0, "amount": 20}, actor=0, command_id=None,
        occurred_at="2025-01-02T03:04:05.000000Z", prev_hash=GENESIS_HASH,
    )  # fmt: skip
    expected_body = {
        "game_id": "g1", "version": 1, "type": "bid_made", "schema": 1,
        "data": {"seat": 0, "amount": 20}, "actor": 0, "command_id": None,
        "occurred_at": "2025-01-02T03:04:05.000000Z", "prev_hash": "0" * 64,
    }  # fmt: skip
    assert body == rfc8785.dumps(expected_body)
    assert envelope.hash == hashlib.sha256(rfc8785.dumps(expected_body)).hexdigest()
    assert envelope.hash == envelope_hash(envelope)


def test_first_event_links_to_64_zeros_and_each_next_to_the_one_before() -> None:
    history = _history()
    assert history[0].prev_hash == "0" * 64 == GENESIS_HASH
    for before, after in zip(history, history[1:], strict=False):
        assert after.prev_hash == before.hash
    assert [e.version for e in history] == [1, 2, 3, 4]
    assert verify(history) == history[-1].hash


def test_verify_detects_an_edited_event() -> None:
    history = _history()
    history[2] = dataclasses.replace(history[2], data={"seat": 3})
    with pytest.raises(CorruptStreamError, match="at version 3: stored hash"):
        verify(history)


def test_verify_detects_a_reordered_history() -> None:
    history = _history()
    history[1], history[2] = history[2], history[1]
    with pytest.raises(CorruptStreamError, match="at version 2"):
        verify(history)


def test_verify_detects_a_dropped_event() -> None:
    history = _history()
    del history[1]
    with pytest.raises(CorruptStreamError, match="at version 2"):
        verify(history)


def test_verify_detects_a_rehashed_edit_by_its_successor() -> None:
    history = _history()
    edited = dataclasses.replace(history[1], data={"seat": 1, "amount": 25})
    history[1] = dataclasses.replace(edited, hash=envelope_hash(edited))
    with pytest.raises(CorruptStreamError, match="at version 3: prev_hash"):
        verify(history)


def test_verify_detects_an_event_of_another_game() -> None:
    history = _history()
    history[3] = dataclasses.replace(history[3], game_id="other")
    with pytest.raises(CorruptStreamError, match="of game 'other'"):
        verify(history)


def test_verify_continues_a_chain_from_a_known_hash() -> None:
    history = _history()
    assert verify(history[2:], prev_hash=history[1].hash, after=2) == history[-1].hash
    with pytest.raises(CorruptStreamError):
        verify(history[2:], prev_hash=history[0].hash, after=2)


def test_envelope_round_trips_through_its_dict() -> None:
    for envelope in _history():
        assert Envelope.from_dict(envelope.to_dict()) == envelope


@pytest.mark.parametrize(
    "change",
    [{"version": "1"}, {"actor": True}, {"actor": "robot"}, {"data": []}, {"schema": 0}],
)
def test_envelope_from_dict_refuses_wrong_types(change: dict[str, object]) -> None:
    raw = {**_history()[0].to_dict(), **change}
    with pytest.raises(CorruptStreamError, match="invalid envelope"):
        Envelope.from_dict(raw)


def test_envelope_from_dict_names_missing_and_unexpected_fields() -> None:
    raw = _history()[0].to_dict()
    del raw["prev_hash"]
    raw["extra"] = 1
    with pytest.raises(CorruptStreamError, match=r"missing fields \['prev_hash'\].*'extra'"):
        Envelope.from_dict(raw)


@pytest.mark.parametrize("actor", [0, 5, "server"])
def test_actor_is_a_seat_or_the_server(actor: int | str) -> None:
    assert check_actor(actor) == actor


@pytest.mark.parametrize("actor", [-1, True, "seat1", None, 1.0])
def test_other_actors_are_refused(actor: object) -> None:
    with pytest.raises(ValueError, match="invalid actor"):
        check_actor(actor)


def test_timestamps_are_utc_with_z() -> None:
    paris = timezone(timedelta(hours=2))
    assert format_timestamp(datetime(2025, 6, 1, 14, 0, tzinfo=paris)) == (
        "2025-06-01T12:00:00.000000Z"
    )
    assert format_timestamp(datetime(2025, 6, 1, 12, 0, 0, 1500, tzinfo=UTC)).endswith(
        ".001500Z"
    )
    with pytest.raises(ValueError, match="naive datetime"):
        format_timestamp(datetime(2025, 6, 1))


def _body() -> dict[str, object]:
    return {"game_id": "g1", "version": 3, "type": "bid_made", "schema": 1,
            "data": {"seat": 0, "amount": 20}, "actor": 0, "command_id": None,
            "occurred_at": "2025-01-02T03:04:05.000000Z", "prev_hash": "0" * 64}


def test_an_envelope_from_its_body_equals_the_one_from_its_dict() -> None:
    from events.envelope import Envelope

    for changes in ({}, {"actor": "server"}, {"command_id": "c1"}):
        body = {**_body(), **changes}
        expected = Envelope.from_dict({**body, "hash": "ab" * 32})
        assert Envelope.from_body(body, "ab" * 32) == expected


@pytest.mark.parametrize("changes", [
    {"version": True}, {"version": 0}, {"schema": 1.0}, {"actor": -1}, {"actor": "someone"},
    {"actor": False}, {"command_id": 5}, {"data": [1]}, {"prev_hash": None}, {"extra": 1},
])
def test_an_envelope_body_of_the_wrong_shape_is_refused_as_from_dict_refuses_it(
    changes: dict[str, object],
) -> None:
    from events.envelope import Envelope
    from events.errors import CorruptStreamError

    body = {**_body(), **changes}
    with pytest.raises(CorruptStreamError) as expected:
        Envelope.from_dict({**body, "hash": "ab" * 32})
    with pytest.raises(CorruptStreamError) as found:
        Envelope.from_body(body, "ab" * 32)
    assert str(found.value) == str(expected.value)
    missing = dict(_body())
    del missing["actor"]
    with pytest.raises(CorruptStreamError, match="missing fields"):
        Envelope.from_body(missing, "ab" * 32)
