"""The report ``fortyfive history verify`` prints: counts in plain English (one of a thing is
singular), and problem codes the documentation explains."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replay.verification.report import PROBLEM_CODES, Problem, Report


def test_counts_of_one_are_singular_and_others_plural() -> None:
    report = Report("g1", 2, events=1, head="ab" * 32, checked={
        "hashes_recomputed": 1, "hashes_rebuilt": 1, "events_folded": 1, "seeds": 1,
        "results": 1})
    assert report.format().splitlines() == [
        f"history g1: seat 3's view, 1 event, head {'ab' * 8}",  # Seat 2 counted from 1.
        "OK: 1 hash recomputed, 1 rebuilt from revealed seeds, 1 seed commitment, 1 event "
        "re-folded, 1 derived result compared",
    ]
    report = Report("g1", "auditor", events=0, head=None)
    assert report.format().splitlines() == [
        "history g1: auditor's view, 0 events, head ?",
        "OK: 0 hashes recomputed, 0 rebuilt from revealed seeds, 0 seed commitments, 0 events "
        "re-folded, 0 derived results compared",
    ]


def test_every_problem_code_is_explained_in_the_docs_and_no_other() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "verification.md").read_text("utf-8")
    section = text.split("## 9. What fails verification", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    assert sorted(documented) == sorted(PROBLEM_CODES)
    assert len(set(PROBLEM_CODES)) == len(PROBLEM_CODES), "each code has one owning check"
    with pytest.raises(ValueError, match="unknown problem code 'hashes'"):
        Problem("hashes", "a typo")
