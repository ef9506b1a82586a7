"""The errors of the replay layer: one root under the engine's, and a type per failure."""

from __future__ import annotations

from engine.errors import FortyFiveError


class HistoryError(FortyFiveError):
    """Root of the errors raised on purpose by :mod:`replay`."""


class HistoryFormatError(HistoryError, ValueError):
    """Raised when a value does not fit the hand-history format (a missing field, a wrong
    type, an unsealed history asked for its JSON form)."""


class HistoryRangeError(HistoryError, ValueError):
    """Raised when a history is asked for a deal or an event the game does not have."""
