"""Verifying a hand history: a pipeline of named checks, run in order by :func:`verify`.

:func:`verify` trusts nothing in the document but its events. Its checks, in the order they
run (each a module of this package that owns its problem codes):

1. **form** (:mod:`~replay.verification.form`): a sealed history of format 1.x in ruling texts
   this version knows; otherwise nothing else runs;
2. **rules** (:mod:`~replay.verification.rules`): the embedded rules are rebuilt from the
   profile and options, and must match their digest and the game's first event; the seats must
   be its seats;
3. **view** (:mod:`~replay.verification.view`): the view block fits the table and the events;
4. then, event by event:

   - **chain** (:mod:`~replay.verification.chain`): versions 1, 2, 3... (a one-deal history
     skips to its start block), each linked by ``prev_hash`` to the one before, each hash
     recomputed from its content; a redacted event is rebuilt where the history allows
     (:mod:`~replay.verification.reconstruct`), and otherwise named with the reason its hash
     cannot be recomputed by this viewer;
   - **seeds** (:mod:`~replay.verification.seeds`): each shuffle's seed, where known, matches
     its commitment and names a deck algorithm this version re-derives, and each reveal the
     commitment of its deal;
   - **view** again: the event shows what the viewer sees of it, no more, no less;
   - **fold** (:mod:`~replay.verification.fold`): the engine applies the event (re-deriving
     each deck from its seed and cut), judging who made it;

   then **view** once more: event 1 shows the contribution secret exactly when the game is over
   (so that every view of a finished game authenticates its rules, seats and commitments);

5. **chain** again: the head is the last event's hash;
6. **results** (:mod:`~replay.verification.results`): every derived result (each fact with its
   ruling, each deal's hands, result and the game's standing) equals what the history says:
   rule ids always, and sentences as the ruling texts of the history's version
   (``ruling_texts``; 1 for format 1.0) write them;
7. **contributions** (:mod:`~replay.verification.contributions`): per deal, what its deck's
   fairness rests on; the bots' and the clock's cuts are the committed ones;
8. **chain**: the head the caller expects, if any;
9. **checkpoint** (:mod:`~replay.verification.checkpoint`): the checkpoint the history
   carries (its signature checked with the keys given, or else the key it carries), and one
   kept elsewhere;
10. **extent** (:mod:`~replay.verification.extent`): whether the history stops before the
    game's end, and how much a later checkpoint shows is missing: the report says it first;
    and, for a finished game judged by signatures, which of its events no checkpoint vouches
    for (left unchecked).

The checks share one :class:`~replay.verification.state.Run`; :mod:`replay.verification.report`
turns what they found into the :class:`~replay.verification.report.Report`.

A tampered history is reported by the event (version) and what differs. What a view cannot check
is listed separately: a history is *ok* when nothing it holds is contradicted, and *complete*
when nothing was left unchecked and it is no prefix (an auditor's history of a finished game,
carrying its final checkpoint, always is).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.chain import GENESIS_HASH
from replay.formats.diagnostics import pointer
from replay.formats.document import HandHistory
from replay.verification import (
    chain,
    contributions,
    extent,
    fold,
    form,
    results,
    rules,
    seeds,
    view,
)
from replay.verification import checkpoint as checkpoints
from replay.verification.findings import Unchecked
from replay.verification.report import Report
from replay.verification.state import Run


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
    its events too, and its signature verify with *keys* or, when none are given, with the
    key the history carries (the report says which).
    """
    run = Run(history)
    readable = form.check(run)
    if readable:
        rules.check(run)
        view.check_block(run)
        _walk(run)
        view.check_secret(run)
        chain.check_head(run)
        results.check(run)
        run.contributions, found = contributions.check(history)
        run.problems.extend(found)
    if expected_head is not None:
        chain.check_expected_head(run, expected_head)
    if history.checkpoint is not None:
        checkpoints.check(run, history.checkpoint, keys, "the checkpoint the history carries",
                          "/checkpoint", carried_key=history.checkpoint_key)
    if checkpoint is not None:
        checkpoints.check(run, checkpoint, keys if keys is not None else {},
                          "the kept checkpoint", None)
    if readable:
        extent.check(run, (history.checkpoint, checkpoint), keys_given=keys is not None)
    return Report.of(run)


def _walk(run: Run) -> None:
    """Runs the per-event checks over the history's events, oldest first: the chain link and
    hash, the seed, the view and the fold."""
    history = run.history
    game_id = history.game_id
    assert game_id is not None, "a sealed history has a game id"
    revealed = chain.revealed_seeds(history)
    commitments: dict[int, tuple[str, int]] = {}
    expected_version: int = 1
    expected_prev: str | None = GENESIS_HASH
    for index, event in enumerate(history.events):
        where = pointer(["events", index])
        if index == 1 and history.start is not None:
            expected_version, expected_prev = history.start.version + 1, history.start.hash
            chain.check_start(run)
        chain.check_link(run, event, index, expected_version, expected_prev, where)
        data = chain.check_hash(run, game_id, event, revealed, where)
        decoded = fold.decode(run, event, data, where)
        if data is not None:
            seeds.check(run, event, data, commitments, where)
        view.check_event(run, event, decoded, where)
        if data is None and (known := fold.foldable(event)) is not None:
            data, decoded = known, fold.decode(run, event, known, where)
        fold.apply(run, event, data, decoded, where)
        expected_version, expected_prev = event.version + 1, event.hash
    chain.note_withheld(run)
    if run.blocked is not None:
        version, _, why = run.blocked
        run.unchecked.append(Unchecked(version, history.events[-1].version, "re-folding", why))
