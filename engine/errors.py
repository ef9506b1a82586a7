"""The engine's exceptions: one root, and a type for each way an input can be malformed.

An action that is well-formed but may not be taken now is refused with an error of
:mod:`engine.rejections`, which carries the ruling that refused it; this module stays below
every other engine module (the cards raise its errors).
"""

from __future__ import annotations

import json
from typing import Any


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


class EventSequenceError(FortyFiveError):
    """Raised when an event cannot follow the state it is applied to (a corrupt log)."""


class DriveError(FortyFiveError, ValueError):
    """Raised for a drive that cannot be made: a profile without drive tables, a player
    count that does not fill them, a bad format or number of rounds; and by the drive's fold
    for an event its state does not allow."""
