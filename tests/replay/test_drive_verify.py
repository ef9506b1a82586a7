"""``fortyfive drive verify`` on a document that is not a drive's history says what it is,
rather than failing on a field the document never had; drive histories written before drive
events were typed still verify; a history changed anywhere gets problems in words, never a
crash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.verification.drive import (
    FORMAT,
    VERSION,
    check_drive,
    check_played_out,
    verify_drive,
)
from replay.verification.drive_standings import Outcome
from service.cli import main

GOLDEN = Path(__file__).resolve().parent / "golden"


def test_a_games_hand_history_is_named_and_sent_to_history_verify(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = GOLDEN / "all-pass-redeal.json"
    assert main(["drive", "verify", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        'FAIL not a drive history: its format is "fortyfive-hand-history", not '
        '"fortyfive-drive-history" (a game\'s hand history: check it with `fortyfive history '
        'verify`)'
    ]


@pytest.mark.parametrize(("document", "problem"), [
    ({}, 'not a drive history: its format is null, not "fortyfive-drive-history"'),
    ({"format": "club-sheet"}, 'not a drive history: its format is "club-sheet", not '
                               '"fortyfive-drive-history"'),
    ({"format": "fortyfive-audit"}, 'not a drive history: its format is "fortyfive-audit", '
                                    'not "fortyfive-drive-history"'),
    ({"format": FORMAT, "version": VERSION + 1},
     f"drive history version {VERSION + 1}: this verifier reads version {VERSION}"),
    ({"format": FORMAT, "version": True},
     f"drive history version true: this verifier reads version {VERSION}"),
])
def test_another_format_or_version_is_one_problem(document: dict[str, object],
                                                  problem: str) -> None:
    assert verify_drive({**document, "events": [], "games": []}) == [problem]


@pytest.mark.parametrize("document", [[], "drive", None, 5])
def test_a_json_value_that_is_no_object_is_one_problem(document: object) -> None:
    assert verify_drive(document) == ["not a drive history: a drive history is a JSON object"]


def test_the_json_answer_carries_the_same_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps({"format": "club-sheet"}))
    assert main(["drive", "verify", str(path), "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert (answer["ok"], answer["complete"], answer["problems"]) == (False, False, [
        'not a drive history: its format is "club-sheet", not "fortyfive-drive-history"'])


UNTYPED = sorted((GOLDEN / "drives").glob("untyped-*.json"))
"""Drive histories served before drive events were typed (envelopes without ``schema`` and
``actor``): a progressive drive of two rounds and a duplicate drive of two boards, as
``GET /v1/drives/{id}/history`` answered them. Stored events are never rewritten, so these
must verify for as long as such drives are kept."""


@pytest.mark.parametrize("path", UNTYPED, ids=lambda p: p.name)
def test_a_drive_history_written_before_drive_events_were_typed_still_verifies(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(UNTYPED) == 2
    assert verify_drive(json.loads(path.read_bytes())) == []
    assert main(["drive", "verify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK drive dr-")


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Returns the path of every value inside the JSON *value*."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 70) | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=4)


@settings(max_examples=150)
@given(data=st.data())
def test_a_history_changed_anywhere_is_reported_never_a_crash(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(UNTYPED), label="history")
    document = json.loads(path.read_bytes())
    where = data.draw(st.sampled_from(_paths(document)[1:]), label="where")
    holder = document
    for key in where[:-1]:
        holder = holder[key]
    holder[where[-1]] = data.draw(JSON, label="value")
    report = check_drive(document)
    assert isinstance(report.problems, list)  # Whatever it says, it says it in words.


def test_a_listed_result_of_the_wrong_shape_is_a_problem() -> None:
    document = json.loads(UNTYPED[1].read_bytes())
    entry = document["games"][0]
    del entry["events"]
    entry["result"]["scores"] = ["ten", 0]
    assert check_drive(document).problems[0] == (
        f"game {entry['game']}: its result is not one of 2 sides (whole points per side, a "
        "winning side or null)")


@pytest.mark.parametrize(("outcome", "problem"), [
    (Outcome(True, 1, (15, 25), {1: (5, 20), 2: (10, 5)}), None),
    (Outcome(True, None, (15, 15), {1: (5, 10), 2: (10, 5)}), None),
    (Outcome(True, 1, (5, 20), {1: (5, 20)}),
     "it is over after boards [1], not after every one of its 2 boards"),
    (Outcome(True, 1, (15, 30), {1: (5, 20), 2: (10, 5)}),
     "its scores (A 15, B 30) are not the sums of its boards (A 15, B 25)"),
    (Outcome(True, 0, (15, 25), {1: (5, 20), 2: (10, 5)}),
     "it is won by side A, but side B has the most points over its boards (A 15, B 25)"),
    (Outcome(True, 0, (15, 15), {1: (5, 10), 2: (10, 5)}),
     "it is won by side A, but no side has the most points over its boards (A 15, B 15): "
     "nobody wins it"),
    (Outcome(True, None, (15, 25), {1: (5, 20), 2: (10, 5)}),
     "it is won by nobody, but side B has the most points over its boards (A 15, B 25)"),
])
def test_a_game_of_boards_played_out_is_held_to_the_rule_apart_from_the_fold(
    outcome: Outcome, problem: str | None,
) -> None:
    if problem is None:
        check_played_out(outcome, 2)
    else:
        with pytest.raises(ValueError) as raised:
            check_played_out(outcome, 2)
        assert str(raised.value) == problem
