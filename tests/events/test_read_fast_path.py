"""The read path's fast passes give exactly what reading entry by entry gives.

:func:`events.entries.verified_entries` checks and decodes entries in the usual form in
two passes (:func:`checked_entries`, :func:`decoded_entries`) and anything else entry by
entry. Each test here compares it with the reference: every entry through
:func:`checked_entry`, :func:`decoded_entry` and :func:`check_link` in turn (how the store
read before). Same events, or the same error with the same message, for every corruption.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from events.chain import GENESIS_HASH, check_link, seal_events
from events.entries import (
    checked_entries,
    checked_entry,
    decoded_entries,
    decoded_entry,
    verified_entries,
)
from events.envelope import Envelope, RecordedEvent, envelope_of, recorded_of
from events.errors import StoreError
from events.redis_store import RedisEventStore, game_key
from events.types import (
    EVENT_TYPES,
    BidMade,
    BidPassed,
    CardPlayed,
    CardsDiscarded,
    DealRecorded,
    DeckCut,
    DeckShuffled,
    Event,
    GameCreated,
    event_builder,
    event_from_data,
    event_to_data,
    positional_constructor,
)
from events.upcasting import UPCASTERS

GAME = "fast-path-1"

EVENTS: list[Event] = [
    GameCreated("bruff", {"target": 25, "names": ["a", "b"]}, ("bot", "human"), "ab" * 8,
                "cd" * 32, "ef" * 32),
    DeckShuffled(1, "hmac-sha256-fy/1", "01" * 32, "02" * 32),
    DeckCut(1, 17),
    DeckCut(0, 5, "aa" * 16),
    BidMade(0, 20),
    BidPassed(1),
    DealRecorded(2, (("5S", "JH"), ("AH", "KD")), None, ("2C", "3C")),
    CardsDiscarded(1, ("5S", "TD")),
    CardPlayed(0, "5S"),
    CardPlayed(1, "JK"),
]


def _bodies() -> list[tuple[str, str]]:
    sealed = seal_events(GAME, 0, GENESIS_HASH, EVENTS, actor="server", command_id="c-1",
                         occurred_at="2026-01-02T03:04:05.000000Z")
    return [(body.decode(), envelope.hash) for envelope, body in sealed]


def _entries(form: str = "dict") -> list[Any]:
    entries: list[Any] = []
    for version, (body, digest) in enumerate(_bodies(), start=1):
        if form == "dict":
            entries.append((f"0-{version}", {"body": body, "hash": digest}))
        else:
            entries.append([f"0-{version}", ["body", body, "hash", digest]])
    return entries


def _reference(
    game_id: str, entries: list[Any], after: int, prev_hash: str | None
) -> list[RecordedEvent]:
    """Reads *entries* one by one, as the store did before the fast passes."""
    recorded: list[RecordedEvent] = []
    for offset, entry in enumerate(entries, start=1):
        event = decoded_entry(game_id, *checked_entry(game_id, entry), UPCASTERS)
        if prev_hash is None:
            prev_hash = event.envelope.prev_hash
        check_link(event.envelope, game_id=game_id, version=after + offset, prev_hash=prev_hash)
        prev_hash = event.envelope.hash
        recorded.append(event)
    return recorded


def _outcome(read: Callable[[], list[RecordedEvent]]) -> Any:
    try:
        recorded = read()
    except Exception as error:  # noqa: BLE001 - the outcome compared is any error
        return ("error", type(error), str(error))
    return ("events", [(item, type(item.event), _types(item)) for item in recorded])


def _types(item: RecordedEvent) -> tuple[Any, ...]:
    """Returns the types of every field of the envelope and of the event (== is not enough:
    1 == 1.0 == True)."""
    envelope = tuple(type(getattr(item.envelope, field.name))
                     for field in dataclasses.fields(item.envelope))
    event = tuple(type(getattr(item.event, field.name))
                  for field in dataclasses.fields(item.event))
    return envelope, event


def _assert_same(
    entries: list[Any], *, game_id: str = GAME, after: int = 0,
    prev_hash: str | None = GENESIS_HASH,
) -> Any:
    expected = _outcome(lambda: _reference(game_id, entries, after, prev_hash))
    found = _outcome(lambda: verified_entries(game_id, entries, after, prev_hash))
    assert found == expected
    return found


def _rehashed(body: dict[str, Any], *, canonical: bool = True) -> tuple[str, str]:
    """Returns *body* as text, and a hash matching it (so only the decode can refuse it)."""
    if canonical:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    else:
        text = json.dumps(body)
    return text, hashlib.sha256(text.encode()).hexdigest()


def _with_body(entries: list[Any], index: int, text: str, digest: str) -> list[Any]:
    changed = list(entries)
    changed[index] = (changed[index][0], {"body": text, "hash": digest})
    return changed


def _edited(
    index: int, edit: Callable[[dict[str, Any]], object], entries: list[Any] | None = None,
    **kwargs: Any,
) -> list[Any]:
    """Returns *entries* (default: the sound ones) with the body of entry *index* edited and
    rehashed, and those after it linked to it again (each rehashed)."""
    entries = _entries() if entries is None else entries
    body = json.loads(entries[index][1]["body"])
    edit(body)
    changed = _with_body(entries, index, *_rehashed(body, **kwargs))
    for later in range(index + 1, len(changed)):
        following = json.loads(changed[later][1]["body"])
        following["prev_hash"] = changed[later - 1][1]["hash"]
        changed = _with_body(changed, later, *_rehashed(following))
    return changed


@pytest.mark.parametrize("form", ["dict", "list"])
def test_a_sound_stream_reads_the_same_and_every_event_is_as_written(form: str) -> None:
    found = _assert_same(_entries(form))
    assert [item.event for item, _, _ in found[1]] == EVENTS
    assert [item.version for item, _, _ in found[1]] == list(range(1, len(EVENTS) + 1))


def test_the_fast_passes_alone_read_a_sound_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("read entry by entry")

    monkeypatch.setattr("events.entries.checked_entry", refuse)
    monkeypatch.setattr("events.entries.decoded_entry", refuse)
    for form in ("dict", "list"):
        assert [item.event for item in verified_entries(GAME, _entries(form), 0, None)] == EVENTS


def test_a_page_after_a_known_hash_and_one_linked_to_whatever_it_follows() -> None:
    entries = _entries()
    head = json.loads(entries[3][1]["body"])["prev_hash"]
    assert _assert_same(entries[3:], after=3, prev_hash=head)[0] == "events"
    assert _assert_same(entries[3:], after=3, prev_hash=None)[0] == "events"
    assert _assert_same(entries[3:], after=3, prev_hash="0" * 64)[0] == "error"
    assert _assert_same(entries[3:], after=2, prev_hash=head)[0] == "error"


def test_a_body_that_does_not_match_its_hash_is_refused_as_before() -> None:
    entries = _entries()
    entry_id, fields = entries[4]
    entries[4] = (entry_id, {"body": fields["body"].replace("20", "25"), "hash": fields["hash"]})
    found = _assert_same(entries)
    assert found[0] == "error"
    assert "event 5 of game 'fast-path-1': stored hash does not match its body" in found[2]


@pytest.mark.parametrize("entry", [
    ("0-9", None), ("1-5", "same"), ("0-05", "same"), (b"0-5", "same"), ("0-5",),
    ("0-5", {"body": "x"}), ("0-5", {"hash": "x"}), ("0-5", ["body", "x", "hash"]),
    ("0-5", ["hash", "h", "body", "b"]), ("0-5", {"body": "b", "hash": "h", "more": 1}),
    ("0-5", "bytes"), ("0-5", "extra-field"), ("0-5", "list-of-bytes"), "0-5",
])
def test_an_unusual_entry_reads_or_fails_as_before(entry: Any) -> None:
    entries = _entries()
    body, digest = entries[4][1]["body"], entries[4][1]["hash"]
    if entry == "0-5":
        changed: Any = entry
    elif len(entry) == 1:
        changed = entry
    elif entry[1] == "same":
        changed = (entry[0], {"body": body, "hash": digest})
    elif entry[1] == "bytes":
        changed = (entry[0], {b"body": body.encode(), b"hash": digest.encode()})
    elif entry[1] == "extra-field":
        changed = (entry[0], {"body": body, "hash": digest, "more": "1"})
    elif entry[1] == "list-of-bytes":
        changed = [entry[0].encode(), [b"body", body.encode(), b"hash", digest.encode()]]
    else:
        changed = entry
    entries[4] = changed
    _assert_same(entries)


@pytest.mark.parametrize("edit", [
    lambda body: body.update(version=6),
    lambda body: body.update(version=True),
    lambda body: body.update(version=5.0),
    lambda body: body.update(version="5"),
    lambda body: body.update(game_id="other"),
    lambda body: body.update(game_id=5),
    lambda body: body.update(prev_hash="0" * 64),
    lambda body: body.update(prev_hash=None),
    lambda body: body.update(type="no_such_type"),
    lambda body: body.update(type=["bid_made"]),
    lambda body: body.update(type="bid_passed"),
    lambda body: body.update(schema=2),
    lambda body: body.update(schema=0),
    lambda body: body.update(schema=True),
    lambda body: body.update(actor=True),
    lambda body: body.update(actor=-1),
    lambda body: body.update(actor="bot"),
    lambda body: body.update(actor=2),
    lambda body: body.update(actor=2**70),
    lambda body: body.update(command_id=5),
    lambda body: body.update(command_id=None),
    lambda body: body.update(occurred_at=5),
    lambda body: body.update(data=[1]),
    lambda body: body.update(data={"seat": 0}),
    lambda body: body.update(data={"seat": 0, "amount": 20, "more": 1}),
    lambda body: body.update(data={"seat": 0.0, "amount": 20}),
    lambda body: body.update(data={"seat": 0, "amount": 20.5}),
    lambda body: body.update(data={"seat": 0, "amount": 2**70}),
    lambda body: body.update(data={"seat": 0, "amount": -2**63 - 1}),
    lambda body: body.update(data={"seat": 0, "amount": [20, 1.5]}),
    lambda body: body.update(data={"seat": None, "amount": {"x": [1]}}),
    lambda body: body.update(extra=1),
    lambda body: body.pop("command_id"),
    lambda body: body.pop("data"),
])
def test_a_rehashed_envelope_reads_or_fails_as_before(
    edit: Callable[[dict[str, Any]], object],
) -> None:
    _assert_same(_edited(4, edit))


def test_an_envelope_with_its_keys_out_of_order_reads_as_before() -> None:
    found = _assert_same(_edited(8, lambda body: None, canonical=False))
    assert found[0] == "events"


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '"text"', "{}", "NaN", '{"a": 1}',
                                  '{"actor": "server", "actor": 1}'])
def test_a_rehashed_body_that_is_no_envelope_fails_as_before(text: str) -> None:
    entries = _entries()
    _assert_same(_with_body(entries, 2, text, hashlib.sha256(text.encode()).hexdigest()))


def test_a_duplicate_key_reads_as_before() -> None:
    entries = _entries()
    text = entries[-1][1]["body"].replace('"actor":"server"', '"actor":3,"actor":"server"')
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert _assert_same(_with_body(entries, len(entries) - 1, text, digest))[0] == "events"


@pytest.mark.parametrize("index", range(len(EVENTS)))
def test_data_without_an_optional_field_or_with_a_float_reads_as_before(index: int) -> None:
    def edit(body: dict[str, Any]) -> None:
        data = body["data"]
        optional = EVENT_TYPES[body["type"]].OPTIONAL
        for name in list(data):
            if name in optional:
                del data[name]
        data[next(iter(data))] = 1.5

    _assert_same(_edited(index, lambda body: None))
    _assert_same(_edited(index, edit))


def test_the_first_entry_that_fails_gives_the_error_whatever_fails_after_it() -> None:
    entries = _edited(3, lambda body: body.update(prev_hash="1" * 64))
    entries = _edited(5, lambda body: body.update(actor=True), entries)
    entry_id, fields = entries[6]
    entries[6] = (entry_id, {"body": fields["body"] + " ", "hash": fields["hash"]})
    entries[8] = ("0-99", entries[8][1])
    found = _assert_same(entries)
    assert found[0] == "error" and "at version 4: prev_hash" in found[2]
    entries[1] = ("0-2", {"body": "{}", "hash": hashlib.sha256(b"{}").hexdigest()})
    assert "invalid envelope: missing fields" in _assert_same(entries)[2]


def test_an_unusual_entry_in_the_middle_is_read_alone_and_the_rest_goes_on() -> None:
    entries = _entries()
    entries[2] = (entries[2][0], {"body": entries[2][1]["body"], "hash": entries[2][1]["hash"],
                                  "more": "1"})
    entries = _edited(5, lambda body: None, entries, canonical=False)
    assert [item.event for item, _, _ in _assert_same(entries)[1]] == EVENTS
    assert len(checked_entries(GAME, entries, 0)) == 2
    assert len(checked_entries(GAME, entries, 0, 3)) == len(EVENTS) - 3


def test_an_older_schema_is_upcast_as_before() -> None:
    def to_schema_1(body: dict[str, Any]) -> None:
        data = body["data"]
        data["players"] = len(data.pop("seats"))
        for name in ("contribution_commitment", "contribution_secret"):
            data.pop(name)
        body["schema"] = 1

    found = _assert_same(_edited(0, to_schema_1))
    assert found[1][0][0].event.seats == ("human", "human")


def test_the_passes_stop_before_what_they_do_not_check() -> None:
    entries = _entries()
    assert [version for version, _, _ in checked_entries(GAME, entries, 0)] == list(
        range(1, len(EVENTS) + 1))
    assert checked_entries(GAME, entries, -1) == []
    assert checked_entries(GAME, entries, 1) == []  # Ids 0-1... are not versions 2...
    entries[3] = (entries[3][0], {"body": entries[3][1]["body"] + " ", "hash": "x"})
    assert len(checked_entries(GAME, entries, 0)) == 3
    checked = [(version, body, digest) for version, (body, digest) in
               enumerate(_bodies(), start=1)]
    assert [item.event for item in decoded_entries(GAME, checked, GENESIS_HASH)] == EVENTS


def test_a_store_refuses_a_tampered_body_on_its_read_path(
    store: RedisEventStore, game_id: str
) -> None:
    store.append(game_id, 0, [BidMade(0, 20), BidPassed(1), CardPlayed(2, "5S")], actor=0)
    good = store.read(game_id)
    client = store.client
    key = game_key(game_id)
    client.delete(key)
    for version, item in enumerate(good, start=1):
        body = json.dumps(item.envelope.body(), sort_keys=True, separators=(",", ":"))
        if version == 2:
            body = body.replace('"seat":1', '"seat":4')
        client.xadd(key, {"body": body, "hash": item.envelope.hash}, id=f"0-{version}")
    with pytest.raises(StoreError, match="event 2 of game .*: stored hash does not match"):
        store.read(game_id)
    with pytest.raises(StoreError, match="event 2 of game .*: stored hash does not match"):
        store.tail(game_id, 1, 0, prev_hash=good[0].envelope.hash)
    assert store.read(game_id, limit=1) == good[:1]


@pytest.mark.parametrize("cls", list(EVENT_TYPES.values()))
def test_each_builder_builds_what_event_from_data_builds(cls: type[Event]) -> None:
    sample = next((event for event in EVENTS if type(event) is cls), None)
    build = event_builder(cls)
    if sample is not None:
        data = event_to_data(sample)
        assert build(data) == event_from_data(cls.TYPE, data) == sample
        assert type(build(data)) is cls
        assert build({**data, "extra": 1}) is None
        assert build({name: value for name, value in list(data.items())[1:]}) is None
    names = [field.name for field in dataclasses.fields(cls)]
    data = {name: 1 for name in names}
    assert build(data) == event_from_data(cls.TYPE, data)
    assert build({**data, names[0]: 1.0}) is None
    assert build({**data, names[0]: [1, [2.5]]}) is None
    assert build({**data, names[0]: {"a": {"b": [0.5]}}}) is None
    assert build({**data, names[0]: (1, 2)}) is None  # Not what JSON decoding gives.
    listed = {**data, names[0]: [1, ["a", None, True]], names[-1]: {"k": [1]}}
    assert build(listed) == event_from_data(cls.TYPE, listed)


def test_a_positional_constructor_builds_what_the_class_builds() -> None:
    values = (GAME, 1, "bid_made", 1, {"seat": 0}, 0, None, "t", "p", "h")
    assert envelope_of(*values) == Envelope(*values)
    assert type(envelope_of(*values)) is Envelope
    event = BidPassed(1)
    assert recorded_of(Envelope(*values), event) == RecordedEvent(Envelope(*values), event)
    with pytest.raises(dataclasses.FrozenInstanceError):
        envelope_of(*values).version = 2  # type: ignore[misc]

    @dataclasses.dataclass(frozen=True)
    class Plain:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            raise ValueError("checked")

    assert positional_constructor(Plain) is Plain
    assert positional_constructor(Checked) is Checked


def test_reads_across_the_first_page_and_the_next_ones_give_every_event_once(
    contract_store: RedisEventStore,
) -> None:
    game_id = f"g-{uuid.uuid4().hex}"
    bids = [BidMade(seat=i % 4, amount=20 + i) for i in range(1230)]
    for start in range(0, len(bids), 410):
        contract_store.append(game_id, start, bids[start:start + 410], actor=0)
    every = contract_store.read(game_id)
    assert [item.event for item in every] == bids
    assert [item.version for item in every] == list(range(1, 1231))
    for after, limit in [(0, 100), (0, 101), (99, 2), (100, 1000), (5, 1100), (1229, 5)]:
        assert contract_store.read(game_id, after=after, limit=limit) == every[after:after + limit]
    assert contract_store.read(game_id, after=150) == every[150:]
    assert contract_store.read(game_id, after=1230) == []
    assert contract_store.archive(game_id, 1230) is True
    assert contract_store.read(game_id) == every
    assert contract_store.read(game_id, after=99, limit=1001) == every[99:1100]
