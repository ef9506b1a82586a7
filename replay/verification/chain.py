"""Verifying the hash chain of a hand history: versions, links, hashes and the head.

Events must be versions 1, 2, 3... (a one-deal history skips to its start block), each linked
by ``prev_hash`` to the one before and each hash recomputed from its content; a redacted event
is rebuilt where the history allows (:mod:`replay.verification.reconstruct`), and otherwise
listed as unchecked with the reason. The history's head must be its last event's hash, and the
head the caller expects, if any.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.codec import CodecError
from replay.formats.document import HandHistory, HistoryEvent
from replay.verification.findings import Unchecked
from replay.verification.reconstruct import reconstruct, stored_hash
from replay.verification.state import Run

CODES = ("start", "version", "chain", "hash", "head")
"""``start``: the start block does not fit the table, or does not link; ``version``: a version
is missing, repeated or out of order; ``chain``: a ``prev_hash`` does not link to the event
before; ``hash``: an event's hash does not match its envelope, or a hidden value put back does
not give the stored hash; ``head``: the head is not the last event's hash, or not the expected
one. (An event whose data has no canonical form is reported as ``data``.)"""


def revealed_seeds(history: HandHistory) -> dict[int, tuple[str, int]]:
    """Returns each deal whose seed the history reveals: ``deal -> (seed, version of the
    reveal)``, the first reveal of each."""
    revealed: dict[int, tuple[str, int]] = {}
    for event in history.events:
        deal, seed = event.data.get("deal"), event.data.get("seed")
        if event.type == "seed_revealed" and isinstance(deal, int) and isinstance(seed, str):
            revealed.setdefault(deal, (seed, event.version))
    return revealed


def check_start(run: Run) -> None:
    """Checks a start block belongs to a history that may have one, and that one at version 1
    links to event 1's hash.

    Only a one-deal history (the game before its deal, left out) and a table record (a game
    taken up at stated scores) have a start block: in a whole game the service dealt, it
    would stand in for the events it leaves out, and the results would be read off it.
    """
    history = run.history
    start = history.start
    if start is not None and history.view.deal is None and any(
            event.type == "deck_shuffled" for event in history.events):
        run.problem("start", "a start block belongs to a one-deal history or a table record, "
                    "but this is a whole game the service dealt (its deals are shuffled by "
                    "the server): its events from 1 on are the game, and nothing stands in for "
                    "them", None, "/start")
    if start is not None and start.version == 1 and start.hash != history.events[0].hash:
        run.problem("start", "the start block links to a hash that is not event 1's", 1,
                    "/start/hash")


def check_link(run: Run, event: HistoryEvent, index: int, version: int, prev: str | None,
               where: str) -> None:
    """Checks *event* is *version* and links by ``prev_hash`` to *prev* (the hash of the event
    before it; ``None`` when withheld from this view)."""
    if event.version != version:
        if event.version > version:
            missing = f"event {version}" if event.version == version + 1 else (
                f"events {version}-{event.version - 1}")
            why = f"{missing} missing before it"
        else:
            why = "it is out of order or repeated"
        run.problem("version", f"event at position {index + 1} is version {event.version}, "
                    f"expected {version}: {why}", event.version, where + "/version")
    if prev is None or event.prev_hash is None:
        return  # Withheld from this view: listed once as unchecked.
    if event.prev_hash != prev:
        run.problem("chain", f"{event.type}: prev_hash {str(event.prev_hash)[:16]}... does not "
                    f"link to the event before it ({prev[:16]}...)", event.version,
                    where + "/prev_hash")


def check_hash(run: Run, game_id: str, event: HistoryEvent,
               revealed: Mapping[int, tuple[str, int]], where: str) -> dict[str, Any] | None:
    """Checks the stored hash; returns the event's full data, or None when not known."""
    if event.withheld:
        return None if event.redacted else dict(event.data)
    if event.prev_hash is None:
        run.problem("chain", f"{event.type}: its hash is given but the link it covers is "
                    "withheld, so it cannot be checked", event.version, where + "/prev_hash")
        return None if event.redacted else dict(event.data)
    if event.redacted:
        state = run.replayer.state if run.blocked is None else None
        rebuilt = reconstruct(game_id, event, state, revealed)
        if rebuilt.status == "rebuilt":
            run.checked["hashes_rebuilt"] += 1
            return rebuilt.data
        if rebuilt.status == "mismatch":
            run.problem("hash", f"{event.type}: {rebuilt.note}", event.version, where + "/hash")
        else:
            run.unchecked.append(Unchecked(
                event.version, event.version, f"the hash of {event.type}",
                f"{rebuilt.note}; the stored hash is kept and the chain linked by prev_hash"))
        return None
    try:
        computed = stored_hash(game_id, event, event.data)
    except CodecError as error:
        run.problem("data", f"{event.type}: {error}", event.version, where + "/data")
        return None
    if computed != event.hash:
        run.problem("hash", f"{event.type}: the stored hash {str(event.hash)[:16]}... does not "
                    f"match its content ({computed[:16]}...): the event was changed",
                    event.version, where + "/hash")
    else:
        run.checked["hashes_recomputed"] += 1
    return dict(event.data)


def note_withheld(run: Run) -> None:
    """Lists the hashes and links this view withholds as unchecked (once, as a span)."""
    withheld = [event.version for event in run.history.events if event.withheld]
    if withheld:
        run.unchecked.append(Unchecked(
            withheld[0], withheld[-1], "the hashes and chain links",
            "this view does not get them: from another seat's face-down card on, a hash "
            "would give the card away until its deal is revealed (an auditor's history "
            "has them all)"))


def check_head(run: Run) -> None:
    """Checks the history's head is the hash of its last event (unless withheld)."""
    history = run.history
    last = history.events[-1]
    if history.head is None and last.withheld:
        return  # Withheld with the last hash; listed as unchecked.
    if history.head != last.hash:
        run.problem("head", f"the head {str(history.head)[:16]}... is not the hash of the last "
                    f"event ({str(last.hash)[:16]}...)", last.version, "/head")


def check_expected_head(run: Run, expected_head: str) -> None:
    """Checks the history ends on *expected_head*, a head obtained elsewhere (from the server,
    or a receipt): this also catches a history rewritten and re-hashed throughout."""
    head = run.history.head
    if head != expected_head:
        run.problem("head", f"the history ends on head {str(head)[:16]}..., not on the "
                    f"expected {expected_head[:16]}...", pointer="/head")
