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
