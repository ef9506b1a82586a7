"""Verifying the shuffle seeds of a hand history against the commitments published before.

Each shuffle (or duplicate board) publishes the commitment of its seed; a seed, wherever the
history gives it (in the shuffle for the auditor, or revealed after the deal), must match the
commitment of its deal, and a shuffle must name an algorithm this version can re-derive.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import FortyFiveError
from engine.shuffle import ALGORITHM, ALGORITHM_2, ALGORITHMS, commitment
from replay.formats.document import HistoryEvent
from replay.verification.state import Run

CODES = ("seed",)
"""``seed``: a seed does not match its commitment, a reveal has no shuffle before it, a deck
algorithm this version cannot re-derive, a ``/2`` deck dealt for another context than the game
id, or a ``/1`` deck in a game whose creation commits a contribution secret."""


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
        _check_dealt_for_this_game(run, data, deal, event.version, where)
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


def _check_dealt_for_this_game(run: Run, data: Mapping[str, Any], deal: int, version: int,
                               where: str) -> None:
    """Checks that a shuffle's deck is this game's: a ``/2`` deck's context is the game id
    (docs/verification.md sections 4-5), and a game whose creation commits a contribution
    secret (every game created since ``/2``) deals every deal by ``/2``: an older algorithm
    there would drop the context and the committed cuts."""
    algorithm, context = data.get("algorithm"), data.get("context")
    game_id = run.history.game_id
    if algorithm == ALGORITHM_2 and context != game_id:
        run.problem("seed", f"deal {deal} is shuffled for context {context!r}, not for this "
                    f"game ({game_id!r}): a deck dealt for another game",
                    version, where + "/data/context")
    events = run.history.events
    created = events[0].data if events and events[0].type == "game_created" else {}
    if algorithm == ALGORITHM and created.get("contribution_commitment") is not None:
        run.problem("seed", f"deal {deal} is shuffled by {ALGORITHM}, but game_created "
                    f"commits a contribution secret, so every deal of this game is dealt by "
                    f"{ALGORITHM_2}: an older algorithm where the newer applies",
                    version, where + "/data/algorithm")


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
