"""docs/rules.md: its generated part (options, rule ids, sentences) is what the engine's
registries write today, and ``fortyfive rules doc`` keeps it so."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rule_ids import RULE_IDS
from replay.formats.irregularities import IRREGULARITY_RULES
from replay.presentation.reference import BEGIN, END, generated, updated
from service.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_docs_rules_md_is_current() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert updated(text) == text, "run: fortyfive rules doc"


def test_the_reference_lists_every_rule_id_and_option() -> None:
    part = generated()
    for rule_id in (*RULE_IDS, *IRREGULARITY_RULES):
        assert f"| `{rule_id}` |" in part
    for option in ("layout", "follow", "diamond_ace", "min_bid", "spoil_five", "turn_seconds"):
        assert f"| `{option}` |" in part
    assert "| `target` | `45` | a positive multiple of 5 up to 1000 |" in part


def test_rules_doc_rewrites_a_stale_reference_and_check_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "rules.md"
    stale.write_text(f"# Rules\n\n{BEGIN}\nold table\n{END}\n", encoding="utf-8")
    assert main(["rules", "doc", str(stale), "--check"]) == 1
    assert "is not current" in capsys.readouterr().err
    assert main(["rules", "doc", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == f"# Rules\n\n{generated()}"
    assert main(["rules", "doc", str(stale), "--check"]) == 0


def test_rules_doc_refuses_a_file_without_the_markers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "rules.md"
    plain.write_text("# Rules\n", encoding="utf-8")
    assert main(["rules", "doc", str(plain)]) == 2
    assert "needs the markers" in capsys.readouterr().err
