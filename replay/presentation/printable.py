r"""Which characters are no text where a person reads them, and text written with them escaped.

A character of a control, format, surrogate or separator category (an escape, a NUL, a CR or
LF, a bidi override such as U+202E) printed as it is moves a terminal's cursor, colours it,
starts a line or reorders one: a player's name holding one could fake a line of a report.
Names are refused with one (:mod:`service.application.names`); a history written before that
is shown with each such character escaped (:func:`escaped`).

>>> escaped("Ann\x1b[2J\u202eX\r\n")
'Ann\\u001b[2J\\u202eX\\u000d\\u000a'
>>> unprintable("\u200d"), unprintable("\u200b")
(False, True)
"""

from __future__ import annotations

import unicodedata

UNPRINTABLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""The Unicode categories of the characters that are no text where they are shown: control,
format (bidi controls among them), lone surrogate, line and paragraph separator."""

JOINING = frozenset({"\u00ad", "\u200c", "\u200d"})
"""The format characters that are part of ordinary text: the soft hyphen, and the zero-width
non-joiner and joiner that Persian and Indic scripts and emoji sequences are written with.
None moves a cursor or reorders a line."""


def unprintable(character: str) -> bool:
    """Whether *character* is no text where it is shown (:data:`UNPRINTABLE_CATEGORIES`, but
    not the :data:`JOINING` characters of ordinary text)."""
    return unicodedata.category(character) in UNPRINTABLE_CATEGORIES and character not in JOINING


def escaped(line: str) -> str:
    """Returns *line* with each character that is no text (:func:`unprintable`), line breaks
    included, written as ``\\uXXXX``: one line of plain text, whatever it quotes."""
    return "".join(f"\\u{ord(c):04x}" if unprintable(c) else c for c in line)
