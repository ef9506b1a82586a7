"""What the checks of one verification share: the history, the report they add to, the rules
rebuilt from it, the engine's replay and where the fold stopped.

:func:`replay.verification.verify.verify` checks a history with one object whose class gathers the
checks of the ``replay.verify_*`` modules (rules, view, chain, seeds, fold, results); each of them
subclasses :class:`VerifierState`, so that the state they read and write is declared once, here.
"""

from __future__ import annotations

from engine.profiles import RuleSet
from replay.formats.derive import Replayer
from replay.formats.document import HandHistory
from replay.verification.report import Problem, Report


class VerifierState:
    """The state of one verification, and how a check records a problem."""

    def __init__(self, history: HandHistory) -> None:
        self.history = history
        self.report = Report(history.game_id, history.view.viewer, len(history.events),
                             history.head)
        self.rules: RuleSet | None = None
        # Every action is judged against the rules: an irregularity fails a server-dealt
        # deal, and is only reported in a deal recorded at a table
        # (:meth:`replay.verification.fold.FoldChecks.judge`).
        self.replayer = Replayer(legality=True)
        self.dealt_by: str | None = None
        """How the deal being folded was dealt: ``server`` (deck_shuffled) or ``table``
        (deal_recorded); ``None`` before the first deal."""
        self.blocked: tuple[int, int | None, str] | None = None
        """(version, deal, why) of the event from which the fold could not go on."""

    def problem(self, code: str, message: str, version: int | None = None,
                pointer: str | None = None) -> None:
        self.report.problems.append(Problem(code, message, version, pointer))


def is_viewer(viewer: object, rules: RuleSet | None) -> bool:
    """True if *viewer* can view a game under *rules*."""
    if viewer in ("spectator", "auditor"):
        return True
    return rules is not None and isinstance(viewer, int) and 0 <= viewer < rules.players
