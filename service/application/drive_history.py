"""A drive's history document: its events, every game it lists, its standings, and a signed
checkpoint of its head with the public key that signed it (``checkpoint_key``, as
``GET /v1/keys`` lists it), so that its signature can be checked offline.

Each game is listed with its version, head hash and result (a paper table, played with real
cards, is listed with ``paper`` true and no events: its score card is in the drive's events);
a game that is over comes with its events too (its envelopes as stored, seeds included:
nothing of it is secret once it is over), so :func:`replay.verification.drive.verify_drive`
re-folds it with the engine. A game still in play is listed by its head and result only, which
hides nothing its seats cannot see.
"""

from __future__ import annotations

from typing import Any

from engine.drive_state import DriveState, RoundState
from engine.standings import TableResult, paper_results, table_result
from events.drive_store import DriveStore
from replay.verification.drive import FORMAT, VERSION
from service.application import commands, drives, signing


def build(store: Any, cache: commands.GameCache, drive_store: DriveStore, drive_id: str,
          signer: signing.Publisher | signing.Signer | None = None) -> dict[str, Any]:
    """Returns the history document of *drive_id*, carrying a checkpoint of its head signed by
    *signer* (``null`` without one).

    :raises service.application.drives.DriveNotFoundError: if there is no such drive.
    :raises events.store.StoreError: from the store.
    """
    drive, envelopes = drives.load_envelopes(drive_store, drive_id)
    head = envelopes[-1].hash
    games: list[dict[str, Any]] = []
    results = {}
    paper = paper_results(drive)
    for played in drive.played:
        for table, game in enumerate(played.games, start=1):
            if drive.is_paper(table):
                games.append(_paper_entry(drive, played, table, paper.get(game)))
                if game in paper:
                    results[game] = paper[game]
                continue
            recorded = store.read(game)
            state = commands.load(cache, game).state
            if state.version != len(recorded):
                state = commands.state_at(store, cache, game, len(recorded))
            result = table_result(game, state)
            results[game] = result
            entry: dict[str, Any] = {
                "game": game, "round": played.number, "version": len(recorded),
                "head": recorded[-1].envelope.hash if recorded else None,
                "result": result.to_dict(),
            }
            if result.over:
                entry["events"] = [r.envelope.to_dict() for r in recorded]
            games.append(entry)
    checkpoint = None if signer is None else drives.head_checkpoint(
        drive_store, signer, drive_id, len(envelopes), head)
    key = None if checkpoint is None else signing.key_record(drive_store.client,
                                                             checkpoint["key_id"])
    return {
        "format": FORMAT, "version": VERSION, "drive_id": drive_id, "head": head,
        "checkpoint": checkpoint, "checkpoint_key": key,
        "events": [envelope.to_dict() for envelope in envelopes],
        "games": games, "standings": drives.standings_view(drive, results),
    }


def _paper_entry(drive: DriveState, played: RoundState, table: int,
                 result: TableResult | None) -> dict[str, Any]:
    """Returns the listing of a paper table: no game events (it was played with real cards;
    its score card is in the drive's own events), pinned where its round's end pinned it
    (the drive's head then), its result its confirmed card's (``null`` before)."""
    game = played.games[table - 1]
    pinned = next((h for h in played.heads or () if h.game == game), None)
    return {"game": game, "round": played.number, "paper": True,
            "version": pinned.version if pinned is not None else None,
            "head": pinned.head if pinned is not None else None,
            "result": result.to_dict() if result is not None else None}
