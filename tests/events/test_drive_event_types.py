"""Every drive event type is a typed event like a game's: registered with a schema, folded by
the drive's fold, emitted by the command path, upcast from every released schema, and listed
in docs/api.md. A new drive event type fails here until each place has it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from engine import drive_state, drives
from engine.errors import DriveError
from engine.standings import paper_results
from events.chain import GENESIS_HASH, seal_drive_events, verify_drive
from events.drive_types import DRIVE_EVENT_TYPES, DriveCreated
from events.envelope import DriveEnvelope
from events.errors import CorruptStreamError, SchemaError
from events.types import EVENT_TYPES, event_from_data, event_to_data
from events.upcasting import DRIVE_UPCASTERS, decode, decode_drive

ROOT = Path(__file__).resolve().parents[2]

SAMPLES: dict[str, dict[str, Any]] = {
    "drive_created": {"profile": "classic", "options": {"target": 45},
                      "players": [{"name": f"P{n}", "type": "bot"} for n in range(8)],
                      "format": "duplicate", "rounds": 1, "table_size": 4,
                      "schedule": [[[0, 1, 2, 3], [4, 5, 6, 7]]], "boards": 1},
    "round_started": {"round": 1, "games": ["g1", "g2"],
                      "boards": [{"board": "d/r1/b1", "deal": 1, "commitment": "ab" * 32,
                                  "cut": 9}]},
    "board_abandoned": {"round": 1, "table": 1, "deal": 1,
                        "adjusted": ["average_plus", "average_minus"],
                        "reason": "a player was taken ill"},
    "board_revealed": {"round": 1, "board": "d/r1/b1", "deal": 1, "seed": "cd" * 32},
    "table_abandoned": {"round": 1, "table": 2, "adjusted": ["average_plus", "average_minus"],
                        "reason": "a player fell ill"},
    "round_called": {"round": 1, "reason": "the hall closes at ten"},
    "score_card_entered": {"round": 1, "table": 1, "side": 0,
                           "deals": [{"dealer": 0, "points": [20, 10]},
                                     {"dealer": 1, "points": [15, 15]},
                                     {"dealer": 2, "points": [15, 15]}], "winner": None},
    "score_card_disputed": {"round": 1, "table": 1, "side": 1, "reason": "deal 2 was 10-20"},
    "score_card_confirmed": {"round": 1, "table": 1, "side": None},
    "round_ended": {"round": 1, "heads": [{"game": "g1", "version": 40, "head": "01" * 32},
                                          {"game": "g2", "version": 38, "head": "02" * 32}]},
    "drive_paused": {"reason": "tea"},
    "drive_resumed": {},
    "player_substituted": {"player": 3, "name": "Sam", "type": "human", "reason": "P3 left"},
    "player_added": {"players": [{"name": "Nora", "type": "human"},
                                 {"name": "Bot 1", "type": "bot"},
                                 {"name": "Bot 2", "type": "bot"},
                                 {"name": "Bot 3", "type": "bot"}],
                     "withdrawn": [], "schedule": [], "reason": "late"},
    "player_withdrawn": {"players": [], "withdrawn": [2, 11], "schedule": [],
                         "reason": "not here"},
    "drive_finished": {},
    "drive_stopped": {"reason": "the hall closes"},
}
"""One event of each type, in a drive's order (a drive finishes, or is stopped: the last
one is the other end, :data:`STOPPED`)."""
STOPPED = "drive_stopped"
PAPER = ("score_card_entered", "score_card_disputed", "score_card_confirmed")
"""A paper table's events: a progressive drive's (:func:`test_a_paper_tables_card_folds`)."""

RELEASED: dict[tuple[str, int], dict[str, Any]] = {
    ("round_ended", 1): {"round": 1},
}
"""Data of each older released schema (the golden drive histories hold them as stored)."""

TYPES = sorted(DRIVE_EVENT_TYPES)


def test_every_drive_event_type_has_a_sample_and_no_name_is_also_a_games() -> None:
    assert list(SAMPLES) == list(DRIVE_EVENT_TYPES)
    assert not set(DRIVE_EVENT_TYPES) & set(EVENT_TYPES)


@pytest.mark.parametrize("name", TYPES)
def test_the_drive_fold_applies_every_type(name: str) -> None:
    cls = DRIVE_EVENT_TYPES[name]
    assert cls is DriveCreated or cls in drives.APPLIES, f"register an apply function for {name}"


def test_the_samples_fold_into_a_finished_drive() -> None:
    events = [event_from_data(name, data, DRIVE_EVENT_TYPES) for name, data in SAMPLES.items()
              if name != STOPPED and name not in PAPER]
    drive = drives.fold_drive("d", events)
    assert drive.finished and not drive.stopped and drive.version == len(SAMPLES) - 1 - len(
        PAPER)
    stopped = drives.fold_drive("d", [*events[:-1], event_from_data(
        STOPPED, SAMPLES[STOPPED], DRIVE_EVENT_TYPES)])
    assert stopped.finished and stopped.stopped and not stopped.paused
    assert drive.played[0].heads == (drive_state.GameHead("g1", 40, "01" * 32),
                                     drive_state.GameHead("g2", 38, "02" * 32))
    assert drive.adjustments == (drive_state.Adjustment(1, 2, ("average_plus", "average_minus"),
                                                   "a player fell ill"),)
    assert drive.board_adjustments == (drive_state.BoardAdjustment(
        1, 1, 1, ("average_plus", "average_minus"), "a player was taken ill"),)


def test_a_paper_tables_card_folds_and_stands_once_confirmed() -> None:
    created = {**SAMPLES["drive_created"], "format": "progressive", "boards": 0,
               "paper_tables": [1]}
    started = {"round": 1, "games": ["g1", "g2"], "boards": []}
    events = [event_from_data(name, data, DRIVE_EVENT_TYPES) for name, data in (
        ("drive_created", created), ("round_started", started),
        *((name, SAMPLES[name]) for name in PAPER))]
    drive = drives.fold_drive("d", events)
    card = drive.score_card(1, 1)
    assert card is not None and card.confirmed and card.confirmed_by is None
    assert card.result.scores == (50, 40) and card.result.winner == 0
    assert paper_results(drive)["g1"].deals == {1: (20, 10), 2: (15, 15), 3: (15, 15)}
    ended = event_from_data("round_ended", SAMPLES["round_ended"], DRIVE_EVENT_TYPES)
    unconfirmed = drives.fold_drive("d", events[:-1])
    with pytest.raises(DriveError, match="score card of paper table 1 is confirmed"):
        drives.apply_drive_event(unconfirmed, ended)
    illegal = event_from_data("score_card_entered", {
        **SAMPLES["score_card_entered"], "deals": [{"dealer": 0, "points": [30, 5]}]},
        DRIVE_EVENT_TYPES)
    with pytest.raises(DriveError, match="deal 1: A 30, B 5 is not a split"):
        drives.fold_drive("d", [*events[:2], illegal])


@pytest.mark.parametrize("name", TYPES)
def test_the_command_path_emits_every_type(name: str) -> None:
    source = "".join((ROOT / "service" / "application" / f"{module}.py").read_text()
                     for module in ("drives", "director", "paper_tables"))
    assert f"{DRIVE_EVENT_TYPES[name].__name__}(" in source, "service/application/drives.py"


@pytest.mark.parametrize("name", TYPES)
def test_every_type_is_sealed_by_the_chain_and_read_back_as_itself(name: str) -> None:
    event = event_from_data(name, SAMPLES[name], DRIVE_EVENT_TYPES)
    assert event_to_data(event) == SAMPLES[name]
    sealed = seal_drive_events("dr-" + "0" * 20, 0, GENESIS_HASH, [event], command_id=None,
                               occurred_at="2026-01-02T03:04:05.000000Z")
    envelope, _ = sealed[0]
    stored = DriveEnvelope.from_dict(envelope.to_dict())
    assert stored == envelope and stored.schema == event.SCHEMA and stored.actor == "server"
    assert verify_drive([stored], "dr-" + "0" * 20) == envelope.hash
    assert decode_drive(stored) == event


def test_every_older_schema_upcasts_to_the_current_type() -> None:
    for name, cls in DRIVE_EVENT_TYPES.items():
        for schema in range(1, cls.SCHEMA):
            assert (name, schema) in RELEASED, f"a sample of {name} schema {schema}"
    for (name, schema), data in RELEASED.items():
        current = DRIVE_UPCASTERS.upcast(name, schema, data)
        assert event_from_data(name, current, DRIVE_EVENT_TYPES) is not None
    assert DRIVE_UPCASTERS.upcast("round_ended", 1, {"round": 3}) == {"round": 3, "heads": None}


def test_a_drive_envelope_stored_before_typing_keeps_its_hash_and_reads_as_schema_1() -> None:
    import hashlib

    from events.codec import canonical_json

    body = {"drive_id": "dr-" + "0" * 20, "version": 1, "type": "round_ended",
            "data": {"round": 1}, "command_id": None, "occurred_at": "2026-01-02T03:04:05Z",
            "prev_hash": GENESIS_HASH}
    raw = {**body, "hash": hashlib.sha256(canonical_json(body)).hexdigest()}
    envelope = DriveEnvelope.from_dict(raw)
    assert envelope.untyped and (envelope.schema, envelope.actor) == (1, "server")
    assert envelope.to_dict() == raw
    assert verify_drive([envelope], body["drive_id"]) == raw["hash"]
    assert decode_drive(envelope) == event_from_data("round_ended", {"round": 1, "heads": None},
                                                     DRIVE_EVENT_TYPES)
    with pytest.raises(CorruptStreamError, match="does not match its content"):
        verify_drive([DriveEnvelope.from_dict({**raw, "data": {"round": 2}})], body["drive_id"])
    with pytest.raises(CorruptStreamError, match="missing fields \\['actor'\\]"):
        DriveEnvelope.from_dict({**raw, "schema": 1})


def test_a_game_event_in_a_drive_and_a_drive_event_in_a_game_are_refused() -> None:
    sealed, _ = seal_drive_events("dr-" + "0" * 20, 0, GENESIS_HASH,
                                  [event_from_data("drive_finished", {}, DRIVE_EVENT_TYPES)],
                                  command_id=None, occurred_at="t")[0]
    with pytest.raises(SchemaError, match="unknown event type 'drive_finished'"):
        decode(sealed)  # type: ignore[arg-type]
    game_type = dataclasses.replace(sealed, type="seed_revealed")
    with pytest.raises(SchemaError, match="unknown event type 'seed_revealed'"):
        decode_drive(game_type)


def _documented() -> dict[str, tuple[int, list[str]]]:
    """Returns docs/api.md's table of drive event types: per type its schema and its data
    fields in order."""
    text = (ROOT / "docs" / "api.md").read_text("utf-8")
    table = text.split("\n| type | schema | data |\n", 1)[1]
    rows = {}
    for line in table.split("\n\n", 1)[0].splitlines()[1:]:
        kind, schema, data = (cell.strip() for cell in line.strip("|").split("|"))
        fields = re.findall(r"`([a-z_]+)`", re.sub(r" \([^)]*\)", "", data))
        rows[kind.strip("`")] = (int(schema), fields)
    return rows


def test_the_docs_table_of_drive_event_types_is_the_codes() -> None:
    documented = _documented()
    assert list(documented) == list(DRIVE_EVENT_TYPES)
    for name, cls in DRIVE_EVENT_TYPES.items():
        fields = [field.name for field in dataclasses.fields(cls)]
        assert documented[name] == (cls.SCHEMA, fields), name
