"""Capped exponential backoff, shared by every loop that retries: the supervisor restarting a
child, the worker reconnecting to its store.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class Backoff:
    """Capped exponential backoff: the delays before successive retries of something that
    keeps failing, back to *initial* once it has been healthy for *reset_after* seconds.

    >>> backoff = Backoff(initial=1, factor=2, cap=5, reset_after=60)
    >>> [backoff.next_delay() for _ in range(5)]
    [1, 2, 4, 5, 5]
    >>> backoff.next_delay(healthy_for=60)
    1
    """

    initial: float = 0.5
    factor: float = 2.0
    cap: float = 30.0
    reset_after: float = 60.0
    failures: int = 0
    """Failures since the last reset."""

    def next_delay(self, healthy_for: float = 0.0) -> float:
        """Returns the delay before the next attempt after a failure that came after
        *healthy_for* seconds of health (a child's run time), and counts the failure."""
        if healthy_for >= self.reset_after:
            self.failures = 0
        # The exponent is bounded so that a long outage cannot overflow a float.
        delay = min(self.cap, self.initial * self.factor ** min(self.failures, 64))
        self.failures += 1
        return delay

    def reset(self) -> None:
        """Starts over from *initial* (the thing retried works again)."""
        self.failures = 0
