"""The access log: every read of a live deal's hidden information with the auditor token.

A game's auditor token reads every hand, the stock and the seeds while the game is in
progress. Each such read (a game view, the events, the stream, a history, a replay, the audit)
appends one entry to a Redis list beside the game's events (``f45:{p<NNN>}:access:<id>``):
who, which route, when, and the game's version and deal then. The seats may read it once the
game is over (``GET /v1/games/{id}/access-log``). It is not an event of the game: recording a
read must not move the game's version, or the players' ``If-Match`` would go stale.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from engine.state import GameState
from events.keys import access_key
from service.application.tokens import TokenRegistry


def record(
    registry: TokenRegistry,
    game_id: str,
    state: GameState,
    version: int,
    *,
    method: str,
    route: str,
    path: str,
) -> None:
    """Appends one auditor read of *game_id* (at *version*, in *state*) to its access log.

    :raises StoreUnavailableError: if Redis cannot be reached (the read is then refused: an
        unrecorded read of a live deal must not happen).
    """
    entry = {
        "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "who": "auditor",
        "method": method,
        "route": route,
        "path": path,
        "version": version,
        "deal": state.deal.number if state.deal is not None else 0,
    }
    with registry.translate():
        registry.client.rpush(access_key(game_id), json.dumps(entry, separators=(",", ":")))


def entries(registry: TokenRegistry, game_id: str) -> list[dict[str, Any]]:
    """Returns every entry of *game_id*'s access log, oldest first.

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    with registry.translate():
        stored = registry.client.lrange(access_key(game_id), 0, -1)
    return [json.loads(item) for item in stored]


def count(registry: TokenRegistry, game_id: str) -> int:
    """Returns how many auditor reads of live deals *game_id*'s access log holds.

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    with registry.translate():
        return int(registry.client.llen(access_key(game_id)))
