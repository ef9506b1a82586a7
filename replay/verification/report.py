"""What verifying a hand history finds: its problems, what it left unchecked, and the report.

These are the values :func:`replay.verification.verify.verify` returns and ``fortyfive history
verify`` prints (``--json`` gives :meth:`Report.to_dict`). They are kept apart from the checks that
fill them in, so that a caller reading a report needs nothing of how it was made; the one thing
taken from the checks is the list of problem codes, which each check declares for itself.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.sides import seat_name
from replay.verification import (
    chain,
    checkpoint,
    contributions,
    extent,
    fold,
    form,
    results,
    rules,
    seeds,
    view,
)
from replay.verification.contributions import DealContributions
from replay.verification.findings import (
    UNSIGNED,
    Finding,
    Prefix,
    Signature,
    Unchecked,
    no_counts,
)
from replay.verification.state import Run

__all__ = ["PROBLEM_CODES", "Problem", "Report", "Unchecked"]

PROBLEM_CODES: tuple[str, ...] = (
    *form.CODES, *rules.CODES, *view.CODES, *chain.CODES, *seeds.CODES, *fold.CODES,
    *results.CODES, *contributions.CODES, *checkpoint.CODES, *extent.CODES,
)
"""Every code a problem may have, gathered from the checks that own them (each declares its
``CODES``): stable, and each explained in docs/verification.md, section 9."""


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

    @classmethod
    def of(cls, finding: Finding) -> Problem:
        """Returns the problem a check recorded.

        :raises ValueError: if its code is not one of :data:`PROBLEM_CODES`.
        """
        return cls(finding.code, finding.message, finding.version, finding.pointer)

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"code": self.code, "message": self.message, "version": self.version,
                "pointer": self.pointer}

    def __str__(self) -> str:
        where = f"event {self.version}: " if self.version is not None else ""
        return f"{where}{self.message} [{self.code}]"


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
    checked: dict[str, int] = dataclasses.field(default_factory=no_counts)
    irregularities: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    contributions: list[DealContributions] = dataclasses.field(default_factory=list)
    """Per deal, what its deck's fairness rests on (:mod:`replay.verification.contributions`)."""
    signatures: list[Signature] = dataclasses.field(default_factory=list)
    """How each checkpoint's signature was checked, and against which trust root."""
    prefix: Prefix | None = None
    """Set when the history stops before the game's end (a game not over at its last
    event)."""
    signed_through: int | None = None
    """For a finished game judged by signatures: the latest event a checkpoint vouches for
    (``None`` when none does, or the history is not judged by signatures)."""

    @classmethod
    def of(cls, run: Run) -> Report:
        """Returns the report of what the checks of *run* found.

        :raises ValueError: for a problem whose code no check declares.
        """
        history = run.history
        return cls(history.game_id, history.view.viewer, len(history.events), history.head,
                   problems=[Problem.of(finding) for finding in run.problems],
                   unchecked=list(run.unchecked), notes=list(run.notes),
                   checked=dict(run.checked), irregularities=list(run.irregularities),
                   contributions=list(run.contributions), signatures=list(run.signatures),
                   prefix=run.prefix, signed_through=run.signed_through)

    @property
    def ok(self) -> bool:
        """True when nothing in the history is contradicted."""
        return not self.problems

    @property
    def complete(self) -> bool:
        """True when nothing was left unchecked (no event no checkpoint vouches for, in a
        finished game judged by signatures) and the history is no prefix."""
        return not self.unchecked and self.prefix is None

    @property
    def unsigned(self) -> tuple[int, int] | None:
        """The first and last events of a finished game no checkpoint vouches for, where the
        history is judged by signatures; ``None`` when a checkpoint covers its last event."""
        return next(((item.first, item.last) for item in self.unchecked
                     if item.what == UNSIGNED), None)

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
            "signatures": [signature.to_dict() for signature in self.signatures],
            "prefix": None if self.prefix is None else self.prefix.to_dict(),
            "signed_through": self.signed_through,
        }

    def format(self) -> str:
        """Returns the report as lines a person reads."""
        viewer = (f"seat {seat_name(self.viewer)}" if isinstance(self.viewer, int)
                  else self.viewer)
        lines = [f"PREFIX: {self.prefix}"] if self.prefix is not None else []
        lines += [f"history {self.game_id}: {viewer}'s view, {_count(self.events, 'event')}, "
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
        lines += [f"  signature: {signature}" for signature in self.signatures]
        lines += [f"  note: {note}" for note in self.notes]
        lines += [f"  deal: {deal.sentence()}" for deal in self.contributions]
        lines += [f"  irregularity: event {item['version']}: {item['text']} [{item['rule']}]"
                  for item in self.irregularities]
        return "\n".join(lines)


def _count(number: int, noun: str, plural: str | None = None) -> str:
    """Returns "1 event", "2 events": *number* and *noun*, plural unless it is one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
