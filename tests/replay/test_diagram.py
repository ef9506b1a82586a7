"""Hand diagrams (:mod:`replay.presentation.diagram`): well-formed SVG that shows the hands as
dealt, as far as the history's viewer may see them, the tricks with their winners and the
result; and ``fortyfive history diagram``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from replay_helpers import golden

from replay.formats.document import HandHistory
from replay.formats.importing import read_history
from replay.formats.jsonformat import dumps
from replay.presentation.diagram import DiagramError, card_label, render_svg
from service.cli import main

SVG = "{http://www.w3.org/2000/svg}"
HANDS = ('[Hands "0:5S,KH,2C,3C,4C 1:2H,3H,5C,6C,7C 2:4H,5H,8C,9C,TC 3:6H,7H,2D,3D,4D '
         '4:8H,9H,5D,6D,7D 5:TH,JH,8D,9D,TD"]')
TRICKS = "1. 5S 2H 4H 6H 8H TH\n2. 0:KH 1:3H 2:5H 3:7H 4:9H 5:JH"


def _history() -> HandHistory:
    text = (f'[Profile "bruff"]\n[Dealer "5"]\n[Scores "0 0 0"]\n\n[Deal "1"]\n{HANDS}\n'
            f'[TurnUp "9S"]\n{TRICKS}\n')
    result = read_history(text)
    assert result.ok and result.history is not None, result.diagnostics
    return result.history


def _lines(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode())
    assert root.tag == f"{SVG}svg"
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def test_a_table_record_draws_every_hand_the_tricks_and_their_winners() -> None:
    lines = _lines(render_svg(_history(), 1))
    assert "Dealer: Seat 6 · Trumps: \u2660 · Turn-up: 9\u2660" in lines
    # Seat 1 (seat 0 of the record) held 5S KH 2C 3C 4C: one line per suit, people's ranks.
    assert "\u2660 5" in lines and "\u2665 K" in lines and "\u2663 2 3 4" in lines
    assert "\u2665 10 J" in lines, "seat 6's hearts, the ten written 10"
    assert lines.count("\u2666 \u2014") == 3, "three hands without a diamond"
    assert "1. Seat 1 5\u2660 Seat 2 2\u2665 Seat 3 4\u2665 Seat 4 6\u2665 Seat 5 8\u2665 " \
        "Seat 6 10\u2665  \u2192 Seat 1" in lines
    assert any(line.startswith("2. Seat 1 K\u2665") for line in lines)
    assert lines[-1] == "The deal is not over.", "two tricks of five"


def test_a_seat_sees_its_own_hand_as_dealt_and_no_other() -> None:
    history = golden("bonus-proven-at-end.seat3")
    section = history.sections()[0]
    assert section.entry is not None
    own = section.entry["hands"][3]
    lines = _lines(render_svg(history, section.number))
    assert lines.count("hidden from this view") == len(section.entry["hands"]) - 1
    hearts = [card_label(code)[:-1] for code in own if code != "JK" and code[1] == "H"]
    assert f"\u2665 {' '.join(hearts) if hearts else chr(0x2014)}" in lines
    assert any("\u2192" in line for line in lines), "the tricks name their winners"
    assert any(line.startswith("Bonus: ") for line in lines)
    scores = ", ".join(f"{side} {score}" for side, score in zip(
        "ABC", section.entry["result"]["scores"], strict=False))
    assert any(line.startswith(f"Scores: {scores}") for line in lines)


def test_a_deal_the_history_does_not_hold_is_refused() -> None:
    with pytest.raises(DiagramError, match="no deal 7"):
        render_svg(_history(), 7)


def test_card_labels() -> None:
    assert [card_label(code) for code in ("TD", "AS", "2C", "JK")] == [
        "10\u2666", "A\u2660", "2\u2663", "Joker"]


def test_the_command_writes_the_svg_and_refuses_a_missing_deal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "game.json"
    source.write_bytes(dumps(_history()))
    out = tmp_path / "deal.svg"
    assert main(["history", "diagram", str(source), "--deal", "1", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render_svg(_history(), 1)
    assert main(["history", "diagram", str(source), "--deal", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["fortyfive history diagram: the history holds no deal 3"]
