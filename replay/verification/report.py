"""What verifying a hand history finds: its problems, what it left unchecked, and the report.

These are the values :func:`replay.verification.verify.verify` returns and ``fortyfive history
verify`` prints (``--json`` gives :meth:`Report.to_dict`). They are kept apart from the checks that
fill them in, so that a caller reading a report needs nothing of how it was made.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from replay.verification.contributions import DealContributions

PROBLEM_CODES = ("format", "rules", "seats", "view", "start", "version", "chain", "hash",
                 "head", "seed", "data", "fold", "result", "contribution", "checkpoint",
                 "irregular")
"""Every code a problem may have: stable, and each explained in docs/verification.md,
section 9."""


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """Something in the history that does not hold."""

    code: str
    """One of :data:`PROBLEM_CODES`."""
    message: str
    version: int | None = None
    """The event concerned, where there is one."""
    pointer: str | None = None
    """Where in the JSON document."""

    def __post_init__(self) -> None:
        if self.code not in PROBLEM_CODES:
            raise ValueError(f"unknown problem code {self.code!r}")

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"code": self.code, "message": self.message, "version": self.version,
                "pointer": self.pointer}

    def __str__(self) -> str:
        where = f"event {self.version}: " if self.version is not None else ""
        return f"{where}{self.message} [{self.code}]"


@dataclasses.dataclass(frozen=True, slots=True)
class Unchecked:
    """Events this view cannot check, and why."""

    first: int
    last: int
    what: str
    why: str

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"first": self.first, "last": self.last, "what": self.what, "why": self.why}

    def __str__(self) -> str:
        span = f"event {self.first}" if self.first == self.last else (
            f"events {self.first}-{self.last}")
        return f"{span}: {self.what} not checked: {self.why}"


@dataclasses.dataclass
class Report:
    """What :func:`replay.verification.verify.verify` found."""

    game_id: str | None
    viewer: object
    events: int
    head: str | None
    problems: list[Problem] = dataclasses.field(default_factory=list)
    unchecked: list[Unchecked] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    checked: dict[str, int] = dataclasses.field(default_factory=lambda: {
        "hashes_recomputed": 0, "hashes_rebuilt": 0, "events_folded": 0, "seeds": 0,
        "results": 0,
    })
    irregularities: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    contributions: list[DealContributions] = dataclasses.field(default_factory=list)
    """Per deal, what its deck's fairness rests on (:mod:`replay.verification.contributions`)."""

    @property
    def ok(self) -> bool:
        """True when nothing in the history is contradicted."""
        return not self.problems

    @property
    def complete(self) -> bool:
        """True when nothing was left unchecked."""
        return not self.unchecked

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form (what ``fortyfive history verify --json`` prints)."""
        return {
            "ok": self.ok, "complete": self.complete, "game_id": self.game_id,
            "viewer": self.viewer, "events": self.events, "head": self.head,
            "checked": dict(self.checked),
            "problems": [problem.to_dict() for problem in self.problems],
            "unchecked": [item.to_dict() for item in self.unchecked],
            "notes": list(self.notes),
            "irregularities": list(self.irregularities),
            "contributions": [deal.to_dict() for deal in self.contributions],
        }

    def format(self) -> str:
        """Returns the report as lines a person reads."""
        viewer = f"seat {self.viewer}" if isinstance(self.viewer, int) else self.viewer
        lines = [f"history {self.game_id}: {viewer}'s view, {_count(self.events, 'event')}, "
                 f"head {(self.head or '?')[:16]}"]
        counts = self.checked
        verdict = "OK" if self.ok else "FAILED"
        lines.append(
            f"{verdict}: {_count(counts['hashes_recomputed'], 'hash', 'hashes')} recomputed, "
            f"{counts['hashes_rebuilt']} rebuilt from revealed seeds, "
            f"{_count(counts['seeds'], 'seed commitment')}, "
            f"{_count(counts['events_folded'], 'event')} re-folded, "
            f"{_count(counts['results'], 'derived result')} compared"
        )
        lines += [f"  problem: {problem}" for problem in self.problems]
        lines += [f"  unchecked: {item}" for item in self.unchecked]
        lines += [f"  note: {note}" for note in self.notes]
        lines += [f"  deal: {deal.sentence()}" for deal in self.contributions]
        lines += [f"  irregularity: event {item['version']}: {item['text']} [{item['rule']}]"
                  for item in self.irregularities]
        return "\n".join(lines)


def _count(number: int, noun: str, plural: str | None = None) -> str:
    """Returns "1 event", "2 events": *number* and *noun*, plural unless it is one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
