"""What a check finds, before the report is assembled: a problem as the check states it, and
the events a view leaves unchecked.

The checks of :mod:`replay.verification.verify`'s pipeline record these on the shared
:class:`replay.verification.state.Run`; :mod:`replay.verification.report` turns the findings
into the published :class:`~replay.verification.report.Problem` values, whose codes it holds to
the list the checks declare.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple


class Finding(NamedTuple):
    """A problem as a check records it: its code (one the check declares), what is wrong, the
    event concerned and where in the JSON document."""

    code: str
    message: str
    version: int | None = None
    pointer: str | None = None


UNSIGNED = "signature"
"""What an :class:`Unchecked` of events no checkpoint vouches for names (the extent check)."""


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


@dataclasses.dataclass(frozen=True, slots=True)
class Signature:
    """How a checkpoint's signature was checked: against which key, from which trust root."""

    checkpoint: str
    """Which checkpoint: the one the history carries, or the one kept elsewhere."""
    key_id: str
    trust: str
    """``keys_given``: verified with the keys the caller gave (a trust root of their choice);
    ``history_key``: verified with the key the history carries, which shows the checkpoint is
    unchanged since that key signed it, not that the key is the service's; ``none``: not
    checked, no key for it given or carried."""
    version: int | None = None
    """The event the checkpoint vouches for: what it signs is the history up to there, no
    further."""

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"checkpoint": self.checkpoint, "key_id": self.key_id, "trust": self.trust,
                "version": self.version}

    def __str__(self) -> str:
        what = (self.checkpoint if self.version is None
                else f"{self.checkpoint} (events 1-{self.version})")
        if self.trust == "keys_given":
            return (f"{what}: signature verified with key {self.key_id} from the "
                    "keys you gave (your trust root)")
        if self.trust == "history_key":
            return (f"{what}: signature verified with key {self.key_id}, which the "
                    "history carries itself: no trust root you gave vouches for it (compare it "
                    "with the service's GET /v1/keys, or give --keys)")
        return (f"{what}: signature NOT checked: key {self.key_id} is neither "
                "given nor carried by the history (give --keys, the service's GET /v1/keys)")


@dataclasses.dataclass(frozen=True, slots=True)
class Prefix:
    """A history that stops before the game's end: where it stops, and how far a checkpoint
    shows the game went on."""

    last: int
    """The history's last event."""
    vouched: int | None = None
    """The latest event a checkpoint given or carried vouches for, when after :attr:`last`."""

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"last": self.last, "vouched": self.vouched,
                "missing": None if self.vouched is None else self.vouched - self.last}

    def __str__(self) -> str:
        return (f"this history stops at event {self.last} of a game that was not over"
                + vouched_beyond(self.last, self.vouched, "event", "game"))


def vouched_beyond(last: int, vouched: int | None, event: str, whole: str) -> str:
    """The words a prefix ending at *last* adds when a checkpoint vouches for a later *event*
    (``"event"``, ``"drive event"``) of the *whole* (``"game"``, ``"drive"``): how many events
    at least are missing from it; ``""`` when none does."""
    if vouched is None:
        return ""
    missing = vouched - last
    return (f"; a checkpoint vouches for {event} {vouched}, so at least {missing} "
            f"event{'s' if missing != 1 else ''} of the {whole} "
            f"{'are' if missing != 1 else 'is'} missing from it")


def no_counts() -> dict[str, int]:
    """Returns the counts of what a verification checked, all at zero: the report's
    ``checked``."""
    return {"hashes_recomputed": 0, "hashes_rebuilt": 0, "events_folded": 0, "seeds": 0,
            "results": 0}
