"""Refusals of a well-formed action that may not be taken now, each with its ruling.

Every refusal carries the ruling that decided (:mod:`engine.rulings`) and the legal
alternatives, so a client can show the player what they may do instead; a malformed action is
refused earlier, with :class:`engine.errors.InvalidActionError`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import FortyFiveError
from engine.rulings import Ruling


class ActionRejectedError(FortyFiveError):
    """Base of the errors for a well-formed action that may not be taken now.

    Carries the legal alternatives (as action dicts) and the ruling that decided, so a client
    can show the player what they may do instead.
    """

    code = "action_rejected"

    def __init__(
        self,
        message: str,
        *,
        ruling: Ruling | None = None,
        legal: Sequence[dict[str, object]] = (),
    ) -> None:
        super().__init__(message)
        self.ruling = ruling
        self.legal = tuple(legal)


class IllegalPlayError(ActionRejectedError):
    """Raised for an action the rules forbid now, including a renege the privilege does not
    cover."""

    code = "illegal_action"


class ContributionRefusedError(ActionRejectedError):
    """Raised for a nonce a deal cannot take: its algorithm takes none
    (``contribution_not_taken``), the seat contributed already (``contribution_repeated``), or
    the same nonce was sent before (``nonce_repeated``)."""

    code = "contribution_refused"

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code


class NotYourTurnError(ActionRejectedError):
    """Raised when a seat acts while another seat is to act."""

    code = "not_your_turn"


class WrongPhaseError(ActionRejectedError):
    """Raised for an action that belongs to another phase of the deal."""

    code = "wrong_phase"


class GameOverError(ActionRejectedError):
    """Raised for any action on a game that has been won."""

    code = "game_over"
