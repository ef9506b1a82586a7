"""Every event type describes itself, and every layer that shows or produces it knows it: the
fold applies it, the engine maps its action, the notation writes and reads it, ``history
show`` says it, and the web client lists and says it.

A new type is written in four places: its type in events/types.py (with its sentence, token and
example), its apply function in engine/fold.py, the rule check of its action in
engine/actions.py (if a seat's action emits it) and its row in docs/hand-history.md. Each test
here names the place a new type misses; the rest derive from the registry."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine import action_values, actions, fold
from events.types import EVENT_TYPES, GameCreated, event_from_data, event_to_data
from replay.formats.document import HistoryEvent, RulesBlock, SeatInfo
from replay.formats.notation import (
    Context,
    parse_event_json,
    parse_move,
    render_event_json,
    render_move,
)
from replay.presentation.show import describe
from service.http.app import create_app
from service.http.routes import web

WEB = Path(__file__).resolve().parents[2] / "service" / "web"

SAMPLES: dict[str, dict[str, Any]] = {
    name: dict(cls.EXAMPLE) for name, cls in EVENT_TYPES.items()}
"""One event of each type: its type's example."""

TYPES = sorted(EVENT_TYPES)
TYPES_IN_ORDER = list(EVENT_TYPES)


@pytest.mark.parametrize("name", TYPES)
def test_every_event_type_has_an_example_of_its_data(name: str) -> None:
    cls = EVENT_TYPES[name]
    assert cls.EXAMPLE, f"give {cls.__name__} an EXAMPLE of its data (events/types.py)"
    assert event_to_data(event_from_data(name, SAMPLES[name])) == SAMPLES[name]


@pytest.mark.parametrize("name", TYPES)
def test_the_fold_applies_every_type(name: str) -> None:
    cls = EVENT_TYPES[name]
    assert cls is GameCreated or cls in fold._APPLY, f"register an apply function for {name}"


@pytest.mark.parametrize("name", TYPES)
def test_an_action_type_maps_both_ways_with_its_rule_check(name: str) -> None:
    cls = EVENT_TYPES[name]
    event = event_from_data(name, SAMPLES[name])
    if cls.ACTION is None:
        assert action_values.action_of(event) is None
        assert not cls.ACTION_FIELDS and cls.PHASE is None
        return
    body = action_values.action_of(event)
    assert body is not None and body["type"] == cls.ACTION
    assert action_values.parse_action(body).to_dict() == body
    assert cls.PHASE in ("cut", "joker", "bidding", "trump", "discard", "play")
    assert actions.PHASE_OF[cls.ACTION] == cls.PHASE
    assert cls.ACTION in actions._CHECKS, f"add the rule check of {cls.ACTION!r}"


def test_every_action_type_is_produced_by_one_event_type() -> None:
    produced = [cls.ACTION for cls in EVENT_TYPES.values() if cls.ACTION is not None]
    assert len(produced) == len(set(produced))
    assert set(produced) == set(action_values.ACTION_FIELDS) == set(actions._CHECKS)


@pytest.mark.parametrize("name", TYPES)
def test_the_notation_writes_and_reads_every_type(name: str) -> None:
    cls = EVENT_TYPES[name]
    if cls.TOKEN is None:
        # A card is written bare, a recorded deal as [Hands] [TurnUp] [Stock] tags, any other
        # type without a token as a %event line.
        line = render_event_json(name, SAMPLES[name], ())
        assert parse_event_json(line.removeprefix("%event ")) == (name, SAMPLES[name], ())
        return
    context = Context()
    context.deal = 1
    context.rules = RulesBlock("bruff", 6, {"target": 45}, None)
    context.seats = tuple(SeatInfo(seat, "human", seat % 3) for seat in range(6))
    data = SAMPLES[name]
    token = render_move(name, data, (), context)
    assert token is not None and token.split("(")[0].split(":")[-1] == cls.TOKEN
    parsed = parse_move(token, context)[2]
    assert parsed is not None and parsed[:2] == (name, data)


@pytest.mark.parametrize("name", TYPES)
def test_show_says_every_type(name: str) -> None:
    event = HistoryEvent(1, name, 1, "server", None, "2024-05-01", SAMPLES[name], None, None)
    said = describe(event)
    assert said and not said.startswith(name), said
    assert "{" not in said


def test_the_shown_sentences_fill_in_the_data() -> None:
    def said(name: str, **changes: Any) -> str:
        return describe(HistoryEvent(1, name, 1, 0, None, "t", {**SAMPLES[name], **changes},
                                     None, None))

    # Seat 3 of the data is seat 4 to a person: show counts seats from 1, as the table does.
    assert said("cards_discarded") == "seat 4 discards 4D 7C and draws 2"
    assert said("cards_discarded", cards=[]) == "seat 4 discards nothing and draws 0"
    assert said("seat_named") == "seat 3 claimed and named Séan"
    assert said("deck_shuffled", seed=None).endswith("seed hidden until the deal is over")
    assert said("seed_revealed") == f"seed of deal 1 revealed: {'cd' * 8}..."
    assert said("deal_recorded", turn_up=None).endswith("turn-up none")


def test_the_web_client_takes_every_type_from_the_registry() -> None:
    module = create_app({"TESTING": True}).test_client().get("/web/event-types.js")
    assert module.status_code == 200 and module.mimetype == "text/javascript"
    assert module.text == web.EVENT_TYPES_MODULE
    listed = re.search(r"export const EVENT_TYPES = (\[.*?\]);", module.text, re.S)
    assert listed is not None and json.loads(listed.group(1)) == TYPES_IN_ORDER
    app_js = (WEB / "app.js").read_text()
    assert 'import { EVENT_TYPES } from "./event-types.js";' in app_js
    assert "for (const type of [...EVENT_TYPES, " in app_js


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_web_client_says_every_type(tmp_path: Path) -> None:
    # history.js says each type in its own words, or else with the type's SAYS.
    shutil.copy(WEB / "history.js", tmp_path / "history.js")
    shutil.copy(WEB / "cards.js", tmp_path / "cards.js")  # history.js numbers seats with it.
    (tmp_path / "event-types.js").write_text(web.EVENT_TYPES_MODULE)
    events = [{"type": name, "data": SAMPLES[name], "redacted": []} for name in TYPES]
    script = ('import { describeEvent } from "./history.js";\n'
              f"const events = {json.dumps(events)};\n"
              "console.log(JSON.stringify(events.map(describeEvent)));\n")
    (tmp_path / "run.mjs").write_text(script)
    said = json.loads(subprocess.run(["node", str(tmp_path / "run.mjs")], capture_output=True,
                                     text=True, check=True, timeout=60).stdout)
    for name, line in zip(TYPES, said, strict=True):
        assert line and not line.startswith(name) and "{" not in line, (name, line)


def _documented_event_types() -> dict[str, tuple[int, list[str], set[str], str | None]]:
    """Returns docs/hand-history.md's table of event types: per type its schema, its data
    fields in order (``name?`` for an optional one), the fields a view may hide and its
    token in the text notation (``None``: it has none)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "hand-history.md").read_text("utf-8")
    table = text.split("\n| type | schema | data | hidden | text notation |\n", 1)[1]
    rows = {}
    for line in table.split("\n\n", 1)[0].splitlines()[1:]:
        kind, schema, data, hidden, notation = (cell.strip() for cell in line.strip("|").split("|"))
        # The field names, each maybe followed by what it holds, in brackets.
        fields = re.findall(r"`([a-z_]+\??)`", re.sub(r" \([^)]*\)", "", data))
        token = re.findall(r"`(?:S:)?([a-z]+)[(`]", notation)
        rows[kind.strip("`")] = (int(schema), fields, set(re.findall(r"`([a-z_]+)`", hidden)),
                                 token[0] if token else None)
    return rows


def test_the_docs_table_of_event_types_is_the_codes() -> None:
    documented = _documented_event_types()
    missing = [name for name in EVENT_TYPES if name not in documented]
    assert not missing, f"add a row for each of {missing} to docs/hand-history.md"
    assert list(documented) == list(EVENT_TYPES)
    for name, cls in EVENT_TYPES.items():
        fields = [field.name + ("?" if field.name in cls.OPTIONAL else "")
                  for field in dataclasses.fields(cls)]
        assert documented[name] == (cls.SCHEMA, fields, set(cls.PRIVATE), cls.TOKEN), name
