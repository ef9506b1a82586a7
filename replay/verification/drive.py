"""Offline verification of a drive's history (``fortyfive drive verify``).

It trusts nothing in the document that it can derive: the drive's chain and fold, every
listed game's chain and result (re-folded from its events where the document holds them),
every revealed board against its commitment, every board a game was dealt against the board
the drive committed to (so every table of a round had the same cards), and the standings,
derived again and compared with the ones the document states.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from engine.drives import (
    DriveError,
    TableResult,
    fold_drive,
    public_results,
    standings,
    table_result,
)
from engine.errors import FortyFiveError, shown
from engine.fold import fold
from events.chain import verify as verify_game_chain
from events.drive_store import verify_chain
from events.envelope import Envelope
from events.errors import CorruptStreamError, SchemaError
from events.upcasting import decode
from replay.formats.document import FORMAT as HAND_HISTORY_FORMAT

FORMAT = "fortyfive-drive-history"
"""The ``format`` of a drive's history (``GET /v1/drives/{id}/history``)."""
VERSION = 1
"""Its ``version``: the one this module verifies."""


def verify_drive(document: Any) -> list[str]:
    """Returns every problem found in a drive history *document*, a JSON value (none: it
    verifies)."""
    if not isinstance(document, Mapping):
        return ["not a drive history: a drive history is a JSON object"]
    kind = document.get("format")
    if kind != FORMAT:
        hint = (" (a game's hand history: check it with `fortyfive history verify`)"
                if kind == HAND_HISTORY_FORMAT else "")
        return [f"not a drive history: its format is {shown(kind)}, not {shown(FORMAT)}{hint}"]
    version = document.get("version")
    if type(version) is not int or version != VERSION:
        return [f"drive history version {shown(version)}: this verifier reads version "
                f"{VERSION}"]
    problems: list[str] = []
    drive_id = str(document.get("drive_id"))
    try:
        head = verify_chain(drive_id, document["events"])
        drive = fold_drive(drive_id, document["events"])
    except (KeyError, TypeError, CorruptStreamError, DriveError) as error:
        return [f"drive events: {error}"]
    if head != document.get("head"):
        problems.append(f"drive head {document.get('head')!r} is not the chain's {head!r}")
    listed = {entry["game"]: entry for entry in document.get("games", [])}
    wanted = [game for played in drive.played for game in played.games]
    if sorted(listed) != sorted(wanted):
        problems.append("the games listed are not the games the drive's rounds started")
    for played in drive.played:
        for board in played.boards:
            if board.seed is not None and hashlib.sha256(
                    bytes.fromhex(board.seed)).hexdigest() != board.commitment:
                problems.append(f"board {board.board}: revealed seed does not match its "
                                "commitment")
    boards = {(played.number, board.deal): board for played in drive.played
              for board in played.boards}
    rounds = {game: played.number for played in drive.played for game in played.games}
    for game, entry in listed.items():
        for raw in entry.get("events") or ():
            if not isinstance(raw, Mapping) or raw.get("type") != "board_dealt":
                continue
            data = raw.get("data", {})
            committed = boards.get((rounds.get(game, 0), data.get("deal")))
            if committed is None or (data.get("board"), data.get("commitment"), data.get("cut"),
                                     data.get("seed")) != (committed.board, committed.commitment,
                                                           committed.cut, committed.seed):
                problems.append(f"game {game}: deal {data.get('deal')} is not the board the "
                                "drive committed to and revealed")
    results: dict[str, TableResult] = {}
    for game, entry in listed.items():
        try:
            result = _result(game, entry)
        except (KeyError, TypeError, ValueError, FortyFiveError, CorruptStreamError,
                SchemaError) as error:
            problems.append(f"game {game}: {error}")
            continue
        results[game] = result
    derived = standings(drive, public_results(drive, results))  # As the service states them.
    stated = document.get("standings", {}).get("players")
    if stated != derived:
        problems.append("the standings stated differ from the standings derived from the games")
    return problems


def _result(game: str, entry: Mapping[str, Any]) -> TableResult:
    """Returns the result of a listed game: re-folded from its events when present (their
    chain must end at the listed head, and the listed result must agree), else as listed."""
    stated = TableResult.from_dict(entry["result"])
    events = entry.get("events")
    if events is None:
        return stated
    envelopes = [Envelope.from_dict(raw) for raw in events]
    head = verify_game_chain(envelopes, game_id=game)
    if head != entry.get("head"):
        raise ValueError(f"chain head {head[:12]}... is not the listed head")
    derived = table_result(game, fold(decode(envelope) for envelope in envelopes))
    if derived != stated:
        raise ValueError("the listed result differs from the result of its events")
    return derived
