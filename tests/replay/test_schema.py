"""The JSON Schema ships with the package, is itself valid, and describes every history."""

from __future__ import annotations

import json
import re
from importlib import resources

import jsonschema
import pytest
from replay_helpers import golden_files

from engine import state as engine_state
from engine.rulings import RULE_IDS
from replay.formats.irregularities import IRREGULARITY_RULES
from replay.formats.jsonformat import schema, validate


def test_the_schema_is_package_data_and_a_valid_draft_2020_12_schema() -> None:
    text = resources.files("replay.formats").joinpath("hand-history.schema.json").read_text()
    loaded = json.loads(text)
    assert loaded["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(loaded)
    assert schema() == loaded


@pytest.mark.parametrize("path", golden_files(".json"), ids=lambda p: p.name)
def test_every_golden_history_validates(path: object) -> None:
    value = json.loads(path.read_bytes())  # type: ignore[attr-defined]
    jsonschema.Draft202012Validator(schema()).validate(value)
    assert validate(value) == []


def test_the_schema_knows_every_fact_the_engine_derives() -> None:
    assert "kind" in engine_state.Fact._fields  # Its kinds are listed in its docstring.
    source = resources.files("engine").joinpath("state.py").read_text()
    listed = set(re.findall(r"``([a-z_]+)``", source.split("kind: str", 1)[1].split('"""', 2)[1]))
    enum = set(schema()["$defs"]["fact"]["properties"]["kind"]["enum"])
    assert listed and listed <= enum


def test_every_rule_a_history_may_cite_fits_the_rule_pattern() -> None:
    pattern = re.compile(schema()["$defs"]["ruling"]["properties"]["rule"]["pattern"])
    for rule in (*RULE_IDS, *IRREGULARITY_RULES):
        assert pattern.fullmatch(rule), rule
