"""Positioned diagnostics: what is wrong in an imported file, and exactly where.

Text is located by line and column (both 1-based), JSON by a JSON pointer (RFC 6901). Readers
collect diagnostics and go on, as :mod:`chess.pgn` collects ``errors``: a malformed file is
answered with every problem found, never with a traceback, and nothing is invented to fill a
gap.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Literal

Severity = Literal["error", "warning"]


@dataclasses.dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found while reading or importing a history."""

    code: str
    """A stable, machine-readable name, e.g. ``bad_card`` or ``schema``."""
    message: str
    """One lower-case sentence saying what is wrong and, where it can, how to fix it."""
    severity: Severity = "error"
    line: int | None = None
    """1-based line in a text history."""
    column: int | None = None
    """1-based column in a text history."""
    pointer: str | None = None
    """JSON pointer into a JSON history (``""`` is the whole document)."""

    def where(self) -> str:
        """Returns the position as a person reads it, e.g. ``line 3, column 7`` or ``/events/4``."""
        if self.line is not None:
            return f"line {self.line}, column {self.column or 1}"
        if self.pointer is not None:
            return self.pointer or "/"
        return "file"

    def to_dict(self) -> dict[str, object]:
        """Returns the JSON form (position fields only where known)."""
        body: dict[str, object] = {
            "code": self.code, "severity": self.severity, "message": self.message,
        }
        if self.line is not None:
            body["line"] = self.line
            body["column"] = self.column or 1
        if self.pointer is not None:
            body["pointer"] = self.pointer
        return body

    def __str__(self) -> str:
        return f"{self.where()}: {self.severity}: {self.message} [{self.code}]"


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """True if any of *diagnostics* is an error (not only a warning)."""
    return any(diagnostic.severity == "error" for diagnostic in diagnostics)


def pointer(path: Sequence[str | int]) -> str:
    """Returns the JSON pointer of *path*, escaping ``~`` and ``/`` as RFC 6901 says.

    >>> pointer(["events", 3, "data"])
    '/events/3/data'
    >>> pointer(["tags", "a/b"])
    '/tags/a~1b'
    """
    return "".join(
        "/" + str(part).replace("~", "~0").replace("/", "~1") for part in path
    )
