"""The engine's exceptions: one root, and a type for each way an input can be wrong."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.rulings import Ruling


class FortyFiveError(Exception):
    """Root of every error the engine raises on purpose."""


def shown(value: Any) -> str:
    """Returns *value* as JSON writes it (``true``, ``null``, ``"x"``) for an error message:
    the engine's input comes as JSON, and its sender should see what it sent."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


class InvalidCardError(FortyFiveError, ValueError):
    """Raised when a text is not a card (``1S``, ``5X``, ``JKS``, empty)."""


class ProfileError(FortyFiveError, ValueError):
    """Raised for an unknown profile, an unknown option or a bad combination of options."""


class InvalidActionError(FortyFiveError, ValueError):
    """Raised when an action is malformed: unknown type, missing or extra field, bad value."""


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


class EventSequenceError(FortyFiveError):
    """Raised when an event cannot follow the state it is applied to (a corrupt log)."""
