"""Bot levels in histories: a history written before levels (the golden corpus of format 1.0,
whose jink game has four bots) still verifies and reads as basic bots; a history's creation
that names levels that do not fit its seats does not verify."""

from __future__ import annotations

import json
from typing import Any

from replay_helpers import GOLDEN

from engine.fold import fold
from events.types import event_from_data
from events.upcasting import upcast
from replay.formats.document import HandHistory
from replay.formats.jsonformat import read_json
from replay.presentation.show import render
from replay.verification.verify import verify

OLD_JINK = GOLDEN / "v1.0" / "jink.json"
"""Written by a release before levels: seats human, bot, bot, human, bot, bot."""


def _read(document: bytes | str) -> HandHistory:
    history, diagnostics = read_json(document)
    assert history is not None and diagnostics == [], diagnostics
    return history


def test_an_old_history_with_bots_verifies_and_reads_as_basic_bots() -> None:
    history = _read(OLD_JINK.read_bytes())
    created = history.events[0]
    assert (created.type, created.schema) == ("game_created", 2)
    assert "bot_levels" not in created.data
    report = verify(history)
    assert report.ok and report.complete, report.format()
    state = fold(event_from_data(event.type, upcast(event.type, event.schema, event.data))
                 for event in history.events[:1])
    assert state.seat_types == ("human", "bot", "bot", "human", "bot", "bot")
    assert state.seat_levels == (None, "basic", "basic", None, "basic", "basic")
    assert ("seats: seat 1 (human), seat 2 (bot, basic), seat 3 (bot, basic), seat 4 (human), "
            "seat 5 (bot, basic), seat 6 (bot, basic)") in render(history)


def test_levels_that_do_not_fit_the_seats_do_not_verify() -> None:
    # A level on a person's seat, written into the creation as a forger would, chain rebuilt
    # or not: the fold refuses the creation, so nothing after it verifies.
    document: dict[str, Any] = json.loads(OLD_JINK.read_bytes())
    document["events"][0]["data"]["bot_levels"] = ["strong", "basic", "basic", None, "basic",
                                                   "basic"]
    report = verify(_read(json.dumps(document)))
    assert not report.ok
    assert "do not fit the seats" in report.format()
