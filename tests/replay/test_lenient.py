"""Lenient import: a malformed file is answered with positioned diagnostics, never a
traceback, and nothing is invented to fill a gap."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from replay_helpers import GOLDEN, raw

from replay.formats.diagnostics import Diagnostic
from replay.formats.importing import read_history
from replay.formats.text import read_text

TABLE = (GOLDEN / "seed-001-06.table.txt").read_text()


def _where(diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> list[tuple[object, ...]]:
    return [(d.code, d.line, d.column) for d in diagnostics]


def test_a_bad_card_is_reported_at_its_line_and_column_and_skipped() -> None:
    text = '[Profile "bruff"]\n[Deal "1"]\n1. 0:7S 5S XQ 2S\n'
    history = read_text(text)
    assert _where(history.errors) == [("bad_token", 3, 12)]
    assert [e.data["card"] for e in history.events] == ["7S", "5S", "2S"]
    assert history.events[2].data["seat"] == 2, "the rotation skips nothing it cannot see"


def test_a_seat_beyond_the_table_is_quoted_as_the_notation_counts() -> None:
    history = read_text('[Profile "bruff"]\n[Deal "1"]\n1. 6:7S\n')
    assert [(e.code, e.message, e.line, e.column) for e in history.errors] == [
        ("bad_seat", "seat 6 is not at this table of 6 (the notation counts seats from 0, to 5)",
         3, 4)]


def test_a_card_code_that_is_not_a_card_is_named() -> None:
    history = read_text('[Profile "bruff"]\n[Deal "1"]\n1. 0:7S 1S\n')
    (error,) = history.errors
    assert (error.line, error.column) == (3, 9)
    assert "1S" in error.message


def test_a_malformed_tag_is_reported_where_it_starts() -> None:
    history = read_text('[Profile "bruff"]\n[Dealer 5]\n')
    assert _where(history.errors) == [("bad_tag", 2, 1)]


def test_a_bad_header_value_points_into_the_value() -> None:
    history = read_text('[Profile "bruff"]\n[Options "target=45 nonsense"]\n')
    (error,) = history.errors
    assert (error.code, error.line, error.column) == ("bad_header", 2, 21)


def test_an_unknown_action_and_an_unclosed_comment_are_both_reported() -> None:
    history = read_text('[Profile "bruff"]\n[Deal "1"]\n0:steal(KD) 7S {never closed\n')
    assert [(d.code, d.line) for d in history.errors] == [("bad_token", 3),
                                                          ("unterminated_comment", 3)]


def test_a_broken_result_line_is_positioned() -> None:
    text = (GOLDEN / "jink.txt").read_text().replace("= result points=", "= result pts=", 1)
    line = next(number for number, content in enumerate(text.splitlines(), 1)
                if content.startswith("= result"))
    history = read_text(text)
    (error,) = history.errors
    assert (error.code, error.line, error.column) == ("bad_result", line, 10)


def test_a_broken_integrity_line_is_positioned_and_nothing_is_filled_in() -> None:
    lines = (GOLDEN / "jink.txt").read_text().splitlines()
    index = lines.index("%integrity") + 3
    lines[index] = lines[index].split()[0] + " server"
    result = read_history("\n".join(lines) + "\n")
    assert ("bad_integrity", index + 1, 1) in _where(result.diagnostics)
    assert any(d.code == "integrity_count" for d in result.diagnostics)
    assert not result.ok


def test_invalid_json_is_reported_by_line_and_column() -> None:
    result = read_history('{"format": "fortyfive-hand-history",\n "game_id": }')
    (error,) = result.diagnostics
    assert (error.code, error.line, error.column) == ("json_syntax", 2, 13)
    assert result.history is None


def test_schema_violations_are_reported_by_json_pointer_all_at_once() -> None:
    doc = raw("jink.json")
    doc["events"][3]["version"] = "four"
    doc["results"]["deals"][0]["facts"][1]["ruling"].pop("rule")
    doc["seats"][2]["side"] = -1
    result = read_history(json.dumps(doc))
    pointers = sorted(d.pointer or "" for d in result.diagnostics)
    assert pointers == ["/events/3/version", "/results/deals/0/facts/1/ruling",
                        "/seats/2/side"]
    assert result.history is None


def test_a_fraction_anywhere_is_refused_with_its_pointer() -> None:
    doc = raw("jink.json")
    doc["events"][5]["data"]["seat"] = 1.5
    result = read_history(json.dumps(doc))
    assert [(d.code, d.pointer) for d in result.diagnostics] == [("schema", "/events/5/data/seat")]


def test_a_missing_dealer_is_not_invented() -> None:
    text = TABLE.replace('[Dealer "3"]\n', "")
    result = read_history(text)
    assert result.history is None
    assert [d.code for d in result.diagnostics] == ["missing_dealer"]


def test_a_play_whose_seat_cannot_be_told_is_reported_not_guessed() -> None:
    text = '[Profile "bruff"]\n[Dealer "5"]\n[Deal "1"]\n7S 5S\n'
    result = read_history(text)
    assert result.history is None
    (error,) = result.diagnostics
    assert (error.code, error.line, error.column) == ("unknown_seat", 4, 1)


def test_a_second_history_in_one_file_is_refused_where_it_starts() -> None:
    text = TABLE + "\n" + TABLE
    history = read_text(text)
    assert ("second_history", len(TABLE.splitlines()) + 2, 1) in _where(history.errors)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(list('[]"{}();:=%#?,.\n 0123456789SCDHJKQATx')
                               + ["Profile", "bruff", "Deal", "%integrity", "%event",
                                  "= fact", "= deal", "rob(", "#5", '[Profile "bruff"]\n',
                                  '[Deal "1"]\n', "\n1. ", "0:"]),
                max_size=80).map("".join))
def test_no_text_raises(text: str) -> None:
    result = read_history(text)
    assert result.history is not None or result.diagnostics


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: "{" + t))
def test_no_bytes_raise(data: bytes | str) -> None:
    result = read_history(data)
    assert result.history is not None or result.diagnostics


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(0, 10_000), junk=st.text(max_size=5))
def test_a_truncated_or_spliced_golden_text_never_raises(cut: int, junk: str) -> None:
    text = (GOLDEN / "turned-joker.seat0.txt").read_text()
    cut %= len(text)
    result = read_history(text[:cut] + junk + text[cut + len(junk):])
    assert result.history is not None or result.diagnostics
