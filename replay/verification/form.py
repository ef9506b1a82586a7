"""The first check: the document is a sealed history this version can verify.

A draft (no hashes, no results) must be imported first; the format must be 1.x, and the ruling
texts a version this code knows, since every sentence of the results is compared in them. When
this check fails, no other check runs.
"""

from __future__ import annotations

from engine.ruling_texts import known_versions
from replay.verification.state import Run

CODES = ("format",)
"""``format``: not a sealed history of format 1.x, or ruling texts of an unknown version."""


def check(run: Run) -> bool:
    """Returns True when the history can be verified; else records why not."""
    history = run.history
    if not history.sealed:
        run.problem("format", "this history is a draft (no hashes or results): import it first")
        return False
    if history.format_version.split(".")[0] != "1":
        run.problem("format", f"format version {history.format_version} is not 1.x",
                    pointer="/format_version")
        return False
    if history.texts_version not in known_versions():
        run.problem("format", f"the history's sentences are in ruling texts version "
                    f"{history.texts_version}, which this version does not know (it knows "
                    f"{', '.join(map(str, known_versions()))}): update fortyfive",
                    pointer="/ruling_texts")
        return False
    return True
