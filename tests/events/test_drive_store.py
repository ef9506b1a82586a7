"""A drive stored before drive events were typed reads as it was written, and goes on: the
drive store verifies its chain with events/chain.py in either envelope form, and typed events
appended after it chain onto it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.drives import fold_drive
from events.codec import canonical_json
from events.drive_store import DriveStore
from events.drive_types import DriveFinished, RoundEnded, RoundStarted
from events.errors import CorruptStreamError
from events.keys import drive_command_key, drive_key, feed_key
from events.redis_store import RedisEventStore
from events.store import partition_of
from events.upcasting import decode_drive

GOLDEN = Path(__file__).resolve().parents[1] / "replay" / "golden" / "drives"


def _store_as_before(store: RedisEventStore, envelopes: list[dict[str, object]]) -> str:
    """Appends *envelopes* (as a drive history lists them) as the drive store wrote them
    before drive events were typed: each its canonical JSON, hash included; returns the
    drive id."""
    drive_id = str(envelopes[0]["drive_id"])
    store.client.delete(drive_key(drive_id), drive_command_key(drive_id))  # A golden drive's.
    for index, envelope in enumerate(envelopes):
        store.append_script("drive", drive_id, [
            drive_key(drive_id), drive_command_key(drive_id), feed_key(partition_of(drive_id))],
            [drive_id, index, str(envelope["prev_hash"]), str(envelope["command_id"]),
             canonical_json(envelope).decode(), str(envelope["hash"]), str(envelope["type"])])
    return drive_id


def test_a_drive_stored_before_typing_reads_verifies_and_goes_on_typed(
    store: RedisEventStore,
) -> None:
    history = json.loads((GOLDEN / "untyped-progressive.json").read_bytes())
    stored = history["events"][:3]  # Created, round 1 started and ended.
    drive_id = _store_as_before(store, stored)
    drives = DriveStore(store)
    envelopes = drives.read(drive_id)
    assert [e.to_dict() for e in envelopes] == stored and all(e.untyped for e in envelopes)
    drive = fold_drive(drive_id, (decode_drive(e) for e in envelopes))
    assert drive.played[0].ended and drive.played[0].heads is None
    # The drive goes on: its next events are typed, chained onto the old ones.
    games = tuple(history["events"][3]["data"]["games"])
    heads = tuple({"game": g["game"], "version": g["version"], "head": g["head"]}
                  for g in history["games"][2:])
    version = drives.append(drive_id, 3, [RoundStarted(2, games, ()), RoundEnded(2, heads),
                                          DriveFinished()],
                            head=envelopes[-1].hash, command_id="after")
    assert version == 6
    after = drives.read(drive_id)
    assert [e.untyped for e in after] == [True] * 3 + [False] * 3
    assert after[3].prev_hash == envelopes[-1].hash and after[3].to_dict()["schema"] == 1
    drive = fold_drive(drive_id, (decode_drive(e) for e in after))
    assert drive.finished and drive.played[1].heads is not None


def test_a_stored_drive_event_changed_is_a_broken_chain(store: RedisEventStore) -> None:
    history = json.loads((GOLDEN / "untyped-duplicate.json").read_bytes())
    events = history["events"]
    changed = {**events[0], "data": {**events[0]["data"], "rounds": 2}}
    drive_id = _store_as_before(store, [changed, *events[1:]])
    with pytest.raises(CorruptStreamError, match=f"chain broken in drive '{drive_id}' at "
                                                 "version 1: stored hash"):
        DriveStore(store).read(drive_id)
