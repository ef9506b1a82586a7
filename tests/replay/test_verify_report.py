"""The report ``fortyfive history verify`` prints counts in plain English: one of a thing is
singular."""

from __future__ import annotations

from replay.verify_report import Report


def test_counts_of_one_are_singular_and_others_plural() -> None:
    report = Report("g1", 2, events=1, head="ab" * 32, checked={
        "hashes_recomputed": 1, "hashes_rebuilt": 1, "events_folded": 1, "seeds": 1,
        "results": 1})
    assert report.format().splitlines() == [
        f"history g1: seat 2's view, 1 event, head {'ab' * 8}",
        "OK: 1 hash recomputed, 1 rebuilt from revealed seeds, 1 seed commitment, 1 event "
        "re-folded, 1 derived result compared",
    ]
    report = Report("g1", "auditor", events=0, head=None)
    assert report.format().splitlines() == [
        "history g1: auditor's view, 0 events, head ?",
        "OK: 0 hashes recomputed, 0 rebuilt from revealed seeds, 0 seed commitments, 0 events "
        "re-folded, 0 derived results compared",
    ]
