"""Verifying the shuffle seeds of a hand history against the commitments published before.

Each shuffle (or duplicate board) publishes the commitment of its seed; a seed, wherever the
history gives it (in the shuffle for the auditor, or revealed after the deal), must match the
commitment of its deal, and a shuffle must name an algorithm this version can re-derive.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import FortyFiveError
from engine.shuffle import ALGORITHMS, commitment
from replay.formats.document import HistoryEvent
from replay.verification.state import Run

CODES = ("seed",)
"""``seed``: a seed does not match its commitment, a reveal has no shuffle before it, or a deck
algorithm this version cannot re-derive."""


def check(run: Run, event: HistoryEvent, data: Mapping[str, Any],
          commitments: dict[int, tuple[str, int]], where: str) -> None:
    """Checks the seed or commitment *event* carries (its full *data*); *commitments* holds
    each deal's published commitment and the event that published it."""
    deal = data.get("deal")
    if event.type == "deck_shuffled" and isinstance(deal, int):
        commitments[deal] = (str(data.get("commitment")), event.version)
        if data.get("algorithm") not in ALGORITHMS:
            run.problem("seed", f"deal {deal} is shuffled by {data.get('algorithm')!r}, "
                        "which this version cannot re-derive (it knows "
                        f"{', '.join(ALGORITHMS)})",
                        event.version, where + "/data/algorithm")
        seed = data.get("seed")
        if isinstance(seed, str):
            check_commitment(run, seed, commitments[deal], deal, event.version, where)
    elif event.type == "board_dealt" and isinstance(deal, int):
        # A duplicate board: its deck is re-derived by the fold (engine.boards), which
        # refuses a seed that does not match the commitment.
        commitments[deal] = (str(data.get("commitment")), event.version)
        seed = data.get("seed")
        if isinstance(seed, str):
            check_commitment(run, seed, commitments[deal], deal, event.version, where)
    elif event.type == "seed_revealed" and isinstance(deal, int):
        seed = data.get("seed")
        if deal not in commitments:
            run.problem("seed", f"the seed of deal {deal} is revealed but no shuffle of "
                        "that deal comes before it", event.version, where)
        elif isinstance(seed, str) and check_commitment(
            run, seed, commitments[deal], deal, event.version, where):
            run.notes.append(
                f"deal {deal}: the seed revealed at event {event.version} matches the "
                f"commitment published at event {commitments[deal][1]}; the deck order "
                "follows from it")


def check_commitment(run: Run, seed: str, published: tuple[str, int], deal: int, version: int,
                     where: str) -> bool:
    try:
        actual = commitment(seed)
    except FortyFiveError as error:
        run.problem("seed", f"deal {deal}: {error}", version, where + "/data/seed")
        return False
    if actual != published[0]:
        run.problem("seed", f"deal {deal}: the seed does not match the commitment "
                    f"published at event {published[1]} ({published[0][:16]}...)",
                    version, where + "/data/seed")
        return False
    run.checked["seeds"] += 1
    return True
