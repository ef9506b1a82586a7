"""Players' names: the one rule that tells two names apart, for drives and for game seats.

Two names are the same name to the people at a table when they have the same letters whatever
their case or Unicode form (NFKC, case-folded) and the same words however spaced: "Ann",
" ann " and "ＡＮＮ" are one name. A name that is blank under that rule names nobody.

A name is printed as it is on terminals, pages and pictures, so it holds no character that
is not text there (:func:`replay.presentation.printable.unprintable`): no control character
(an escape sequence, a NUL, a line break), no format character (a bidi override such as U+202E
that reorders what follows), no line or paragraph separator.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from replay.presentation.printable import unprintable

MAX_NAME_LENGTH = 40
"""The longest name, in characters."""


class SeatNameError(ValueError):
    """Raised for a name that is blank, too long, not all text, or another seat's (*taken*)."""

    def __init__(self, message: str, *, taken: bool = False) -> None:
        super().__init__(message)
        self.taken = taken
        """True when the name is another seat's at the table (not blank, not too long)."""


def name_key(name: str) -> str:
    """Returns what makes two players' names the same to the people at the tables: the
    letters, whatever their case or Unicode form, and the words, however spaced."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def unprintable_fault(name: str) -> str | None:
    """Says what of *name* is no text where it is shown (its first such character, after the
    words "the name of X"), or returns ``None`` when it is all text.

    >>> unprintable_fault("Séan") is None
    True
    >>> unprintable_fault("Ann\x1b[2J").split(",")[0]
    'holds the character U+001B'
    """
    character = next((c for c in name if unprintable(c)), None)
    if character is None:
        return None
    return (f"holds the character U+{ord(character):04X}, which is no text: a name has no "
            "control, format or line break characters")


def check_names(names: Sequence[str | None]) -> None:
    """Checks the names of a table's seats (``None``: a seat without a name).

    :raises SeatNameError: naming the first seat (counted from 0, as the API counts seats)
        whose name is blank, longer than :data:`MAX_NAME_LENGTH`, holds a character that is
        no text (:func:`unprintable_fault`), or is the same as an earlier seat's.
    """
    taken: dict[str, int] = {}
    for seat, name in enumerate(names):
        if name is None:
            continue
        key = name_key(name)
        if not key:
            raise SeatNameError(f"the name of seat {seat} is blank: give a name, or none")
        if len(name) > MAX_NAME_LENGTH:
            raise SeatNameError(f"the name of seat {seat} is longer than {MAX_NAME_LENGTH} "
                                "characters")
        fault = unprintable_fault(name)
        if fault is not None:
            raise SeatNameError(f"the name of seat {seat} {fault}")
        if key in taken:
            raise SeatNameError(f"seat {seat} cannot be named {name!r}: seat "
                                f"{taken[key]} is named so at this table", taken=True)
        taken[key] = seat
