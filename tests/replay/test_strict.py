"""Strict verification: in a server-dealt game any irregularity fails and names the event, even
when a forger re-hashed the chain and rebuilt every result; a table record still only reports
its irregularities."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from replay_helpers import golden, recorded

from events.chain import GENESIS_HASH, seal
from events.envelope import SERVER, RecordedEvent
from events.upcasting import decode
from replay.formats.build import build_history
from replay.formats.jsonformat import dumps, read_json
from replay.verification.report import Report
from replay.verification.verify import verify
from service.cli import main

GAME = "all-pass-redeal"
"""A server-dealt game (deck_shuffled, a cut, bids and tricks)."""

Change = Callable[[list[dict[str, Any]]], None]


def _forged(change: Change, name: str = GAME) -> bytes:
    """Returns the auditor's history of golden game *name* after *change* edits its envelopes
    (a list of dicts), the versions renumbered, the chain re-hashed and every result rebuilt
    by our own code: all a forger can do."""
    raw = [item.envelope.to_dict() for item in recorded(golden(name))]
    change(raw)
    prev, events = GENESIS_HASH, []
    for version, item in enumerate(raw, start=1):
        envelope, _ = seal(game_id=item["game_id"], version=version, event_type=item["type"],
                           schema=item["schema"], data=item["data"], actor=item["actor"],
                           command_id=item["command_id"], occurred_at=item["occurred_at"],
                           prev_hash=prev)
        events.append(RecordedEvent(envelope, decode(envelope)))
        prev = envelope.hash
    return dumps(build_history(events[0].envelope.game_id, events, "auditor"))


def _report(document: bytes) -> Report:
    history, diagnostics = read_json(document)
    assert history is not None, diagnostics
    return verify(history)


def _plays(raw: list[dict[str, Any]]) -> list[int]:
    return [index for index, item in enumerate(raw) if item["type"] == "card_played"]


def _swap_two_plays(raw: list[dict[str, Any]]) -> None:
    first = _plays(raw)[-3]
    raw[first], raw[first + 1] = raw[first + 1], raw[first]


def _play_for_another(raw: list[dict[str, Any]]) -> None:
    index = _plays(raw)[2]
    raw[index]["actor"] = (raw[index]["actor"] + 1) % 4


def _cut_by_the_wrong_seat(raw: list[dict[str, Any]]) -> None:
    cut = next(index for index, item in enumerate(raw) if item["type"] == "deck_cut")
    seat = (raw[cut]["data"]["seat"] + 1) % 4
    raw[cut]["data"] = {**raw[cut]["data"], "seat": seat}
    raw[cut]["actor"] = seat


def _clock_without_a_clock(raw: list[dict[str, Any]]) -> None:
    raw[_plays(raw)[4]]["actor"] = SERVER


def _server_event_by_a_seat(raw: list[dict[str, Any]]) -> None:
    shuffle = next(index for index, item in enumerate(raw) if item["type"] == "deck_shuffled")
    raw[shuffle]["actor"] = 1


def _a_shuffle_the_rules_do_not_call_for(raw: list[dict[str, Any]]) -> None:
    """The deck shuffled again in mid-deal, as deal 2, seed and all."""
    shuffle = next(index for index, item in enumerate(raw) if item["type"] == "deck_shuffled")
    again = json.loads(json.dumps(raw[shuffle]))
    raw.insert(_plays(raw)[0], again)


def test_the_untouched_histories_verify() -> None:
    assert _report(dumps(golden(GAME))).ok
    assert _report(_forged(lambda raw: None)).ok


@pytest.mark.parametrize(("change", "says"), [
    (_swap_two_plays, "out of turn"),
    (_play_for_another, "is recorded as made by seat"),
    (_cut_by_the_wrong_seat, "not their turn"),
    (_clock_without_a_clock, "this game has none"),
    (_server_event_by_a_seat, "it is the server's"),
])
def test_a_forgery_fails_and_names_the_event(change: Change, says: str) -> None:
    report = _report(_forged(change))
    assert not report.ok
    problems = [problem for problem in report.problems if problem.code == "irregular"]
    assert problems and problems[0].version is not None, report.format()
    assert any(says in problem.message for problem in problems), report.format()


def test_a_shuffle_out_of_place_fails() -> None:
    report = _report(_forged(_a_shuffle_the_rules_do_not_call_for))
    assert not report.ok
    assert any(problem.code == "irregular" and "the rules call for no shuffle" in problem.message
               for problem in report.problems), report.format()


def test_the_cli_exits_1_on_a_forgery(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "forged.json"
    path.write_bytes(_forged(_swap_two_plays))
    assert main(["history", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "[irregular]" in out and "out of turn" in out


def test_a_table_record_reports_irregularities_without_failing() -> None:
    """A record of a real table (deal_recorded) with two plays swapped: reported, not failed."""
    report = _report(_forged(_swap_two_plays, "seed-000-09"))
    assert report.ok, report.format()
    assert report.irregularities and not any(
        problem.code == "irregular" for problem in report.problems)
