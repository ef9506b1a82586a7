"""Verifying a signed checkpoint against a hand history (docs/verification.md section 8).

A checkpoint is the service's signed statement that the game had a given hash at a given
event. It must have the checkpoint's form and a signature that verifies with the key it names,
be of this game, and the history must reach its version with the same hash there: which
catches a history cut short, or rewritten since.

A signature present is a signature checked. The key comes from the keys the caller gives
(``--keys``, the answer of ``GET /v1/keys``: a trust root the user chose) or else, for the
checkpoint a history carries, from the key the history carries with it (``checkpoint_key``),
which proves the checkpoint unchanged since that key signed it but not that the key is the
service's. Each checkpoint's :class:`~replay.verification.findings.Signature` says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events import checkpoints
from replay.verification.findings import Signature
from replay.verification.state import Run

CODES = ("checkpoint",)
"""``checkpoint``: a checkpoint does not verify with the key it names, or the history does not
reach it with the same hash."""


class CarriedKeyError(checkpoints.CheckpointError):
    """The key a history carries beside its checkpoint is not a valid key."""


def check_signature(checkpoint: Mapping[str, Any], keys: Mapping[str, bytes] | None,
                    carried_key: Any, subject: str = "game_id") -> str:
    """Checks the signature of *checkpoint* (one of a *subject*, its form checked) with *keys*
    (the caller's trust root) or, when none are given, with *carried_key* (the key the history
    carries, a ``GET /v1/keys`` entry); returns how, a :class:`Signature`'s ``trust``:
    ``keys_given``, ``history_key``, or ``none`` (no key given or carried: not checked). Game
    and drive histories both check theirs here.

    :raises CarriedKeyError: if the carried key is not a valid key.
    :raises events.checkpoints.CheckpointError: if the signature does not verify with the key
        it names, or that key is not the one checked against.
    """
    if keys is not None:
        checkpoints.check(checkpoint, keys, subject)
        return "keys_given"
    if carried_key is None:
        return "none"
    try:
        against = checkpoints.read_keys({"keys": [carried_key]})
    except checkpoints.CheckpointError as error:
        raise CarriedKeyError(f"the key the history carries is not valid: {error}") from None
    if checkpoint["key_id"] not in against:
        raise checkpoints.CheckpointError(
            f"it is signed with key {checkpoint['key_id']}, but the key the history carries is "
            f"{', '.join(against)}")
    checkpoints.check(checkpoint, against, subject)
    return "history_key"


def check(run: Run, checkpoint: Mapping[str, Any], keys: Mapping[str, bytes] | None,
          what: str, where: str | None, *, carried_key: Any = None) -> None:
    """Checks *checkpoint*'s signature with *keys* (the caller's trust root) or, when none are
    given, with *carried_key* (the key the history carries, a ``GET /v1/keys`` entry), and that
    the history has the checkpoint's hash at its version."""
    try:
        checkpoints.check_form(checkpoint)
    except checkpoints.CheckpointError as error:
        run.problem("checkpoint", f"{what}: {error}", None, where)
        return
    kid = checkpoint["key_id"]
    try:
        trust = check_signature(checkpoint, keys, carried_key)
    except CarriedKeyError as error:
        run.problem("checkpoint", f"{what}: {error}", None, "/checkpoint_key")
        return
    except checkpoints.CheckpointError as error:
        run.problem("checkpoint", f"{what}: {error}", None, where)
        return
    if trust != "none":
        run.checked["checkpoints"] = run.checked.get("checkpoints", 0) + 1
    run.signatures.append(Signature(what, kid, trust, checkpoint["version"]))
    history = run.history
    version, head = checkpoint["version"], checkpoint["head"]
    if checkpoint["game_id"] != history.game_id:
        run.problem("checkpoint", f"{what} is of game {checkpoint['game_id']!r}, not of "
                    f"{history.game_id!r}", None, where)
        return
    last = history.events[-1].version
    if version > last:
        run.problem("checkpoint", f"{what} vouches for event {version}, but the history stops "
                    f"at event {last}: it was cut short", last, where)
        return
    found = next((event for event in history.events if event.version == version), None)
    start = history.start
    if found is None and start is not None and start.version == version:
        stored: str | None = start.hash
    elif found is None:
        run.problem("checkpoint", f"{what} vouches for event {version}, which this history "
                    "does not hold", None, where)
        return
    else:
        stored = found.hash
    if stored is None:
        run.problem("checkpoint", f"{what} vouches for event {version}, whose hash this view "
                    "withholds, so it cannot be compared", version, where)
    elif stored != head:
        run.problem("checkpoint", f"{what} says event {version} has hash {head[:16]}..., the "
                    f"history has {stored[:16]}...: it was rewritten", version, where)
    else:
        if trust != "none":  # A signature not checked vouches for nothing.
            run.vouched.append(version)
        said = {"keys_given": "signature verified with the keys given",
                "history_key": "signature verified with the key the history carries",
                "none": "signature not checked: no keys given"}[trust]
        run.notes.append(f"{what} (signed at {checkpoint['signed_at']} with {kid}, {said}) "
                         f"matches event {version}")
