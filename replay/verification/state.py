"""What the checks of one verification share: the history, what they found so far, the rules
rebuilt from it, the engine's replay and where the fold stopped.

:func:`replay.verification.verify.verify` makes one :class:`Run` and passes it to each check of
its pipeline in turn; a check reads what the checks before it left here (the rules, the
replayed state) and records its findings.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.profiles import RuleSet
from replay.formats.derive import Replayer
from replay.formats.document import HandHistory
from replay.verification.contributions import DealContributions
from replay.verification.findings import Finding, Prefix, Signature, Unchecked, no_counts


@dataclasses.dataclass
class Run:
    """The state of one verification, and how a check records what it finds."""

    history: HandHistory
    rules: RuleSet | None = None
    """The rules rebuilt from the history (by the rules check); ``None`` when not valid."""
    replayer: Replayer = dataclasses.field(default_factory=lambda: Replayer(legality=True))
    """The engine's replay. Every action is judged against the rules: an irregularity fails a
    server-dealt deal, and is only reported in a deal recorded at a table
    (:func:`replay.verification.fold.judge`)."""
    dealt_by: str | None = None
    """How the deal being folded was dealt: ``server`` (deck_shuffled) or ``table``
    (deal_recorded); ``None`` before the first deal."""
    blocked: tuple[int, int | None, str] | None = None
    """(version, deal, why) of the event from which the fold could not go on."""
    problems: list[Finding] = dataclasses.field(default_factory=list)
    unchecked: list[Unchecked] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    checked: dict[str, int] = dataclasses.field(default_factory=no_counts)
    irregularities: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    contributions: list[DealContributions] = dataclasses.field(default_factory=list)
    signatures: list[Signature] = dataclasses.field(default_factory=list)
    prefix: Prefix | None = None
    vouched: list[int] = dataclasses.field(default_factory=list)
    """The events each checkpoint vouches for whose hash the history matches there (the
    checkpoint check records them; the extent check says what no checkpoint covers)."""
    signed_through: int | None = None
    """The latest event a checkpoint vouches for, where the extent check weighed it."""

    def problem(self, code: str, message: str, version: int | None = None,
                pointer: str | None = None) -> None:
        """Records a problem; *code* is one the recording check declares."""
        self.problems.append(Finding(code, message, version, pointer))


def is_viewer(viewer: object, rules: RuleSet | None) -> bool:
    """True if *viewer* can view a game under *rules*."""
    if viewer in ("spectator", "auditor"):
        return True
    return rules is not None and isinstance(viewer, int) and 0 <= viewer < rules.players
