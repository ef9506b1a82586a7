"""Both encodings are lossless: JSON -> text -> JSON gives the same canonical bytes, for any
history (tampered and odd ones included), and the visitor walk copies a history exactly."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay_helpers import golden, golden_names, json_paths, raw, set_at

from replay.formats.build import build_history, replay_log
from replay.formats.document import HandHistory
from replay.formats.export import export_text
from replay.formats.jsonformat import dumps, read_json
from replay.formats.text import read_text
from replay.formats.visitor import HandBuilder
from replay.sample import GameDriver, seeded_choice

TABLES = [
    ("bruff", 6, {}),
    ("auction", 4, {}),
    ("classic", 4, {"jink": "announced", "joker": "below_ah"}),
    ("classic", 3, {"finish": "deal_end", "spoil_five": True, "deal_pattern": "2-3"}),
    ("classic", 8, {"decks": 2, "follow": "must_follow", "diamond_ace": "below_jack"}),
]


def _game(label: str, table: int) -> GameDriver:
    profile, players, options = TABLES[table]
    driver = GameDriver(f"rt-{label}", label).start(profile, ["human"] * players, options)
    driver.play(seeded_choice(label), limit=400)
    return driver


def assert_lossless(history: HandHistory) -> None:
    data = dumps(history)
    text = export_text(history)
    back = read_text(text)
    assert back.errors == (), back.errors
    assert dumps(back) == data
    assert export_text(back) == text
    assert history.accept(HandBuilder()) == history


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(label=st.text("abcdefgh", min_size=1, max_size=6),
       table=st.integers(0, len(TABLES) - 1),
       viewer_pick=st.integers(0, 12),
       cut=st.floats(0.05, 1.0),
       one_deal=st.booleans())
def test_any_history_of_any_view_converts_losslessly(
    label: str, table: int, viewer_pick: int, cut: float, one_deal: bool
) -> None:
    driver = _game(label, table)
    replay = replay_log(driver.recorded)
    players = TABLES[table][1]
    viewers: list[Any] = [*range(players), "spectator", "auditor"]
    viewer = viewers[viewer_pick % len(viewers)]
    as_of = max(1, int(len(driver.recorded) * cut))
    deal = None
    if one_deal:
        state = replay.states[as_of - 1]
        deal = state.deal.number if state.deal is not None else None
    history = build_history(driver.game_id, replay, viewer, as_of=as_of, deal=deal)
    assert_lossless(history)


def test_every_golden_history_copies_through_the_visitor() -> None:
    for name in golden_names():
        assert_lossless(golden(name))


_ODD_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.text(max_size=12) | st.sampled_from(["", " ", "?", "#3", "null", "45", "5S,KD", "a b",
                                              '"', "\\", "=", "%event", "{", "}", ";", "1."]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["seat", "card", "deal", "seed", "x", "cards", "count"]), children,
        max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(["seed-000-09", "turned-joker", "turned-joker.seat0",
                             "all-pass-redeal.seat2", "seed-001-06"]),
       pick=st.integers(0, 10**6), value=_ODD_VALUES)
def test_a_tampered_history_still_converts_losslessly(name: str, pick: int, value: Any) -> None:
    doc = copy.deepcopy(raw(f"{name}.json"))
    paths = [p for p in json_paths(doc) if len(p) >= 2 and p[0] in ("events", "results", "tags",
                                                                  "rules", "start")]
    path = paths[pick % len(paths)]
    set_at(doc, path, value)
    history, diagnostics = read_json(json.dumps(doc))
    if history is None:
        assert diagnostics, "an unreadable history always says why"
        return
    assert_lossless(history)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["seed-000-09", "set-bid"]), data=st.data())
def test_reordered_or_dropped_events_still_convert_losslessly(name: str, data: Any) -> None:
    doc = copy.deepcopy(raw(f"{name}.json"))
    events = doc["events"]
    first = data.draw(st.integers(1, len(events) - 1))
    if data.draw(st.booleans()):
        second = data.draw(st.integers(1, len(events) - 1))
        events[first], events[second] = events[second], events[first]
    else:
        del events[first]
    history, _ = read_json(json.dumps(doc))
    assert history is not None
    assert_lossless(history)


def _tampered(name: str, path: tuple[Any, ...], value: Any) -> HandHistory:
    doc = copy.deepcopy(raw(f"{name}.json"))
    set_at(doc, path, value)
    history, diagnostics = read_json(json.dumps(doc))
    assert history is not None, diagnostics
    return history


def test_a_semicolon_inside_a_quoted_integrity_field_is_not_a_comment_bug() -> None:
    assert_lossless(_tampered("turned-joker", ("events", 0, "actor"), ";"))


def test_a_line_break_in_a_tag_value_stays_on_its_line_bug() -> None:
    history = _tampered("turned-joker", ("rules", "profile"), "a\nb\u2028c")
    assert_lossless(history)
    assert "\u2028" not in export_text(history)


def test_a_next_line_character_in_event_data_takes_the_json_escape_bug() -> None:
    assert_lossless(_tampered("seed-000-09", ("events", 15, "data", "card"), "\x85"))


def test_a_value_with_spaces_keeps_them_through_the_text_notation() -> None:
    # The reader drops the spaces a writer puts between a token's parts, but never inside
    # quotes: a tampered seed "a b" once came back as "ab".
    for path, value in ((("events", 0, "data", "seed"), "a b"),
                        (("events", 1, "data", "commitment"), " "),
                        (("events", 1, "data", "algorithm"), 'x ( ) " y')):
        doc = copy.deepcopy(raw("turned-joker.json"))
        set_at(doc, path, value)
        history, diagnostics = read_json(json.dumps(doc))
        assert history is not None, diagnostics
        assert_lossless(history)
