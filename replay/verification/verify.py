"""Verifying a hand history: the chain, the head, the seeds, and every derived result.

:func:`verify` trusts nothing in the document but its events:

1. the embedded rules are rebuilt from the profile and options, and must match their digest and
   the game's first event;
2. the events must be versions 1, 2, 3... (a one-deal history skips to its start block), each
   linked by ``prev_hash`` to the one before, each hash recomputed from its content; a redacted
   event is rebuilt where the history allows (:mod:`replay.verification.reconstruct`), and otherwise
   named with the reason its hash cannot be recomputed by this viewer;
3. each shuffle's seed, where known, must match its commitment, and each reveal the commitment
   of its deal;
4. the events are folded again with the engine, and every derived result (each fact with its
   ruling, each deal's hands, result and the game's standing) must equal what the history says:
   rule ids always, and sentences as the ruling texts of the history's version
   (``ruling_texts``; 1 for format 1.0) write them.

A tampered history is reported by the event (version) and what differs. What a view cannot check
is listed separately: a history is *ok* when nothing it holds is contradicted, and *complete*
when nothing was left unchecked (an auditor's history of a finished game always is).

This module runs the steps in order; their checks live in their own modules:
:mod:`replay.verification.rules` (1), :mod:`replay.verification.view` (what the viewer may see),
:mod:`replay.verification.chain` (2, and signed checkpoints), :mod:`replay.verification.seeds` (3),
:mod:`replay.verification.fold` and :mod:`replay.verification.results` (4), sharing the state of
:mod:`replay.verification.state`; :mod:`replay.verification.report` holds the report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ruling_texts import known_versions
from events.chain import GENESIS_HASH
from replay.formats.diagnostics import pointer
from replay.formats.document import HandHistory
from replay.verification.chain import ChainChecks
from replay.verification.contributions import contributions
from replay.verification.fold import FoldChecks
from replay.verification.report import Report, Unchecked
from replay.verification.results import ResultChecks
from replay.verification.rules import RuleChecks
from replay.verification.seeds import SeedChecks
from replay.verification.view import ViewChecks


def verify(history: HandHistory, *, expected_head: str | None = None,
           checkpoint: Mapping[str, Any] | None = None,
           keys: Mapping[str, bytes] | None = None) -> Report:
    """Verifies *history* (see the module docstring) and returns the report.

    *expected_head* is a head hash obtained elsewhere (from the server, or a receipt): the
    history must end on it, which also catches a history rewritten and re-hashed throughout.

    *checkpoint* is a signed checkpoint kept elsewhere (docs/verification.md section 8): its
    signature must verify with one of *keys* (key id -> raw Ed25519 public key), and the
    history must reach its version with the same hash there, which catches a history cut
    short or rewritten since. The checkpoint the history carries, if any, must hold against
    its events too (and its signature, when *keys* are given).
    """
    checker = _Verifier(history)
    checker.run()
    if expected_head is not None and history.head != expected_head:
        checker.problem("head", f"the history ends on head {str(history.head)[:16]}..., not "
                        f"on the expected {expected_head[:16]}...", pointer="/head")
    if history.checkpoint is not None:
        checker.check_checkpoint(history.checkpoint, keys, "the checkpoint the history "
                                 "carries", "/checkpoint")
    if checkpoint is not None:
        checker.check_checkpoint(checkpoint, keys if keys is not None else {},
                                 "the kept checkpoint", None)
    return checker.report


class _Verifier(RuleChecks, ViewChecks, ChainChecks, SeedChecks, FoldChecks, ResultChecks):
    """Runs the checks of the ``replay.verify_*`` modules over one history, in order."""

    def run(self) -> None:
        history = self.history
        if not history.sealed:
            self.problem("format", "this history is a draft (no hashes or results): import "
                         "it first")
            return
        if history.format_version.split(".")[0] != "1":
            self.problem("format", f"format version {history.format_version} is not 1.x",
                         pointer="/format_version")
            return
        if history.texts_version not in known_versions():
            self.problem("format", f"the history's sentences are in ruling texts version "
                         f"{history.texts_version}, which this version does not know (it knows "
                         f"{', '.join(map(str, known_versions()))}): update fortyfive",
                         pointer="/ruling_texts")
            return
        self.check_rules()
        self.check_view()
        self.walk()
        last = history.events[-1]
        if history.head is None and last.withheld:
            pass  # Withheld with the last hash; listed as unchecked.
        elif history.head != last.hash:
            self.problem("head", f"the head {str(history.head)[:16]}... is not the hash of the "
                         f"last event ({str(last.hash)[:16]}...)", last.version, "/head")
        self.check_results()
        self.check_contributions()

    def check_contributions(self) -> None:
        """Says per deal whether a person contributed, and checks the committed cuts."""
        found, problems = contributions(self.history)
        self.report.contributions = found
        for message, version in problems:
            self.problem("contribution", message, version)

    def walk(self) -> None:
        history = self.history
        game_id = history.game_id
        assert game_id is not None
        revealed = self.revealed_seeds()
        commitments: dict[int, tuple[str, int]] = {}
        expected_version: int = 1
        expected_prev: str | None = GENESIS_HASH
        for index, event in enumerate(history.events):
            where = pointer(["events", index])
            if index == 1 and history.start is not None:
                start = history.start
                expected_version, expected_prev = start.version + 1, start.hash
                if start.version == 1 and start.hash != history.events[0].hash:
                    self.problem("start", "the start block links to a hash that is not event "
                                 "1's", 1, "/start/hash")
            self.check_link(event, index, expected_version, expected_prev, where)
            data = self.check_hash(game_id, event, revealed, where)
            decoded = self.decode(event, data, where)
            if data is not None:
                self.check_seed(event, data, commitments, where)
            self.check_view_of(event, decoded, where)
            self.fold(event, data, decoded, where)
            expected_version, expected_prev = event.version + 1, event.hash
        withheld = [event.version for event in history.events if event.withheld]
        if withheld:
            self.report.unchecked.append(Unchecked(
                withheld[0], withheld[-1], "the hashes and chain links",
                "this view does not get them: from another seat's face-down card on, a hash "
                "would give the card away until its deal is revealed (an auditor's history "
                "has them all)"))
        if self.blocked is not None:
            version, _, why = self.blocked
            self.report.unchecked.append(Unchecked(
                version, history.events[-1].version, "re-folding", why))
