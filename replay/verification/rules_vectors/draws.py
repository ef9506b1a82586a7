"""Deterministic chance for the rules vectors: every draw comes from HMAC-SHA256 of a label.

The vectors are committed and a test regenerates them, so their chance must not depend on the
Python version or the machine: draws are read from the engine's own keyed byte stream
(:func:`engine.shuffle.keyed_stream`) by rejection sampling, as the deck is shuffled.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from engine.shuffle import keyed_stream, uniform_below

_LABEL = b"fortyfive/rules-vectors/1"

Item = TypeVar("Item")


class Draws:
    """A seeded source of chance (it fits :class:`engine.bots.Chance`)."""

    def __init__(self, label: str) -> None:
        self._stream = keyed_stream(hashlib.sha256(label.encode()).digest(), _LABEL)

    def randrange(self, stop: int, /) -> int:
        """Returns a number uniform in 0..stop-1."""
        return uniform_below(stop, self._stream) if stop > 1 else 0

    def chance(self, percent: int) -> bool:
        """True *percent* times in a hundred."""
        return self.randrange(100) < percent

    def choice(self, items: Sequence[Item]) -> Item:
        """Returns one of *items*, each as likely."""
        return items[self.randrange(len(items))]

    def shuffled(self, items: Sequence[Item]) -> list[Item]:
        """Returns *items* in a uniform random order (Fisher-Yates)."""
        order = list(items)
        for index in range(len(order) - 1, 0, -1):
            other = self.randrange(index + 1)
            order[index], order[other] = order[other], order[index]
        return order
