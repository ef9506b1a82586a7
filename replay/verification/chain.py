"""Verifying the hash chain of a hand history, and the signed checkpoints that vouch for it.

Events must be versions 1, 2, 3... (a one-deal history skips to its start block), each linked by
``prev_hash`` to the one before and each hash recomputed from its content; a redacted event is
rebuilt where the history allows (:mod:`replay.verification.reconstruct`), and otherwise listed as
unchecked with the reason. A signed checkpoint (docs/verification.md section 8) must verify and
match the hash the history has at its version.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events import checkpoints
from events.codec import CodecError
from replay.formats.document import HistoryEvent
from replay.verification.reconstruct import reconstruct, stored_hash
from replay.verification.report import Unchecked
from replay.verification.state import VerifierState


class ChainChecks(VerifierState):
    """The checks of versions, links, hashes and checkpoints."""

    def revealed_seeds(self) -> dict[int, tuple[str, int]]:
        revealed: dict[int, tuple[str, int]] = {}
        for event in self.history.events:
            deal, seed = event.data.get("deal"), event.data.get("seed")
            if event.type == "seed_revealed" and isinstance(deal, int) and isinstance(seed, str):
                revealed.setdefault(deal, (seed, event.version))
        return revealed

    def check_link(self, event: HistoryEvent, index: int, version: int, prev: str | None,
                   where: str) -> None:
        if event.version != version:
            if event.version > version:
                missing = f"event {version}" if event.version == version + 1 else (
                    f"events {version}-{event.version - 1}")
                why = f"{missing} missing before it"
            else:
                why = "it is out of order or repeated"
            self.problem("version", f"event at position {index + 1} is version {event.version}"
                         f", expected {version}: {why}", event.version, where + "/version")
        if prev is None or event.prev_hash is None:
            return  # Withheld from this view: listed once as unchecked.
        if event.prev_hash != prev:
            self.problem("chain", f"{event.type}: prev_hash {str(event.prev_hash)[:16]}... does "
                         f"not link to the event before it ({prev[:16]}...)", event.version,
                         where + "/prev_hash")

    def check_hash(self, game_id: str, event: HistoryEvent,
                   revealed: Mapping[int, tuple[str, int]], where: str) -> dict[str, Any] | None:
        """Checks the stored hash; returns the event's full data, or None when not known."""
        if event.withheld:
            return None if event.redacted else dict(event.data)
        if event.prev_hash is None:
            self.problem("chain", f"{event.type}: its hash is given but the link it covers is "
                         "withheld, so it cannot be checked", event.version, where + "/prev_hash")
            return None if event.redacted else dict(event.data)
        if event.redacted:
            state = self.replayer.state if self.blocked is None else None
            rebuilt = reconstruct(game_id, event, state, revealed)
            if rebuilt.status == "rebuilt":
                self.report.checked["hashes_rebuilt"] += 1
                return rebuilt.data
            if rebuilt.status == "mismatch":
                self.problem("hash", f"{event.type}: {rebuilt.note}", event.version,
                             where + "/hash")
            else:
                self.report.unchecked.append(Unchecked(
                    event.version, event.version, f"the hash of {event.type}",
                    f"{rebuilt.note}; the stored hash is kept and the chain linked by "
                    "prev_hash"))
            return None
        try:
            computed = stored_hash(game_id, event, event.data)
        except CodecError as error:
            self.problem("data", f"{event.type}: {error}", event.version, where + "/data")
            return None
        if computed != event.hash:
            self.problem("hash", f"{event.type}: the stored hash {str(event.hash)[:16]}... does "
                         f"not match its content ({computed[:16]}...): the event was changed",
                         event.version, where + "/hash")
        else:
            self.report.checked["hashes_recomputed"] += 1
        return dict(event.data)

    def check_checkpoint(self, checkpoint: Mapping[str, Any], keys: Mapping[str, bytes] | None,
                         what: str, where: str | None) -> None:
        """Checks *checkpoint* is signed by one of *keys* (unless None) and that the history
        has the checkpoint's hash at its version."""
        try:
            if keys is None:
                checkpoints.check_form(checkpoint)
            else:
                checkpoints.check(checkpoint, keys)
        except checkpoints.CheckpointError as error:
            self.problem("checkpoint", f"{what}: {error}", None, where)
            return
        if keys is not None:
            self.report.checked["checkpoints"] = self.report.checked.get("checkpoints", 0) + 1
        history = self.history
        version, head = checkpoint["version"], checkpoint["head"]
        if checkpoint["game_id"] != history.game_id:
            self.problem("checkpoint", f"{what} is of game {checkpoint['game_id']!r}, not of "
                         f"{history.game_id!r}", None, where)
            return
        last = history.events[-1].version
        if version > last:
            self.problem("checkpoint", f"{what} vouches for event {version}, but the history "
                         f"stops at event {last}: it was cut short", last, where)
            return
        found = next((event for event in history.events if event.version == version), None)
        start = history.start
        if found is None and start is not None and start.version == version:
            stored: str | None = start.hash
        elif found is None:
            self.problem("checkpoint", f"{what} vouches for event {version}, which this "
                         "history does not hold", None, where)
            return
        else:
            stored = found.hash
        if stored is None:
            self.problem("checkpoint", f"{what} vouches for event {version}, whose hash this "
                         "view withholds, so it cannot be compared", version, where)
        elif stored != head:
            self.problem("checkpoint", f"{what} says event {version} has hash {head[:16]}..., "
                         f"the history has {stored[:16]}...: it was rewritten", version, where)
        else:
            self.report.notes.append(
                f"{what} (signed at {checkpoint['signed_at']} with {checkpoint['key_id']}"
                + (", signature verified" if keys is not None else ", signature not checked: "
                   "no keys given") + f") matches event {version}")
