"""The app's handles on the store, and loading a game for a request.

:func:`create_services` builds them once per app (the store, the fold cache, the token
registry, the API keys, the entropy source); :func:`services` returns them inside a request.
For endpoints that need a game:

- :func:`load_game`: the current state and version (from the fold cache: one small read);
- :func:`load_record`: the state *and* the verified events, optionally only up to a version
  (hand histories, replays, audits);
- :func:`request_caller` / :func:`request_viewer`: the caller and its viewer for this game
  (see :mod:`service.auth`); :func:`request_game` loads the game and resolves the viewer in
  one call.

Each raises :class:`service.commands.GameNotFoundError` (404) for an unknown game and
:class:`events.store.StoreUnavailableError` (503) when the store is down; the app's error
handlers turn those into problem responses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from flask import current_app, request

from engine.fold import fold
from engine.state import GameState
from events.envelope import RecordedEvent
from events.errors import StoreUnavailableError
from events.redis_store import RedisEventStore
from replay.views import Viewer
from service import access_log, commands
from service.apikeys import KeyRegistry
from service.auth import AUDITOR, Caller, TokenRegistry, caller_for, viewer_for
from service.stream_hub import StreamHub

EXTENSION = "fortyfive"
"""The key of :class:`Services` in ``app.extensions``."""


@dataclasses.dataclass(frozen=True, slots=True)
class Services:
    """What the endpoints use: the event store, folded states, tokens, API keys and fresh
    entropy."""

    store: RedisEventStore
    cache: commands.GameCache
    tokens: TokenRegistry
    keys: KeyRegistry
    entropy: commands.Entropy
    streams: StreamHub


class _NoStore:
    """Stands in for the store when the app has no ``REDIS_URL``: every use is a 503."""

    def __getattr__(self, name: str) -> Any:
        raise StoreUnavailableError(
            "store unavailable at (none): no REDIS_URL is configured; start the service "
            "with `fortyfive serve` or set REDIS_URL"
        )


def create_services(config: Mapping[str, Any]) -> Services:
    """Returns the services for an app *config* (``STORE`` or ``REDIS_URL``, ``ENTROPY``,
    ``FOLD_CACHE_GAMES``, ``STREAM_MAX``). No connection is made until the first request."""
    store: Any = config.get("STORE")
    tails: Any = store
    max_streams = config.get("STREAM_MAX", 1000)
    if store is None:
        url = config.get("REDIS_URL")
        store = RedisEventStore.from_url(url) if url else _NoStore()
        # The live tails wait on connections of their own, so that however many games are
        # watched, the requests always find one. A tail holds one while it has streams, and
        # for up to one block after its last stream ends: room for twice as many.
        tails = RedisEventStore.from_url(url, max_connections=2 * max_streams) if url else store
    client = store.client if not isinstance(store, _NoStore) else store
    cache = commands.new_cache(store, config.get("FOLD_CACHE_GAMES", 1024))

    def is_over(game_id: str, version: int) -> bool:
        folded = commands.load(cache, game_id)
        return folded.version <= version and folded.state.phase == "over"

    return Services(
        store=store,
        cache=cache,
        tokens=TokenRegistry(client),
        keys=KeyRegistry(client),
        entropy=config.get("ENTROPY") or commands.fresh_entropy,
        streams=StreamHub(store, tails=tails, max_streams=max_streams, is_over=is_over),
    )


def services() -> Services:
    """Returns the current app's services."""
    found: Services = current_app.extensions[EXTENSION]
    return found


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's verified events and the state they fold to."""

    game_id: str
    events: tuple[RecordedEvent, ...]
    state: GameState

    @property
    def version(self) -> int:
        """The version of :attr:`state` (its last event's)."""
        return self.events[-1].version if self.events else 0


def load_game(game_id: str) -> tuple[GameState, int]:
    """Returns *game_id*'s current state and version.

    :raises service.commands.GameNotFoundError: if there is no such game.
    :raises events.store.StoreError: from the store.
    """
    folded = commands.load(services().cache, game_id)
    return folded.state, folded.version


def load_record(game_id: str, upto: int | None = None) -> GameRecord:
    """Returns *game_id*'s events (all, or the first *upto*) and the state they fold to.

    The events come verified link by link from the store; an *upto* beyond the last event
    gives the whole game.

    :raises service.commands.GameNotFoundError: if there is no such game, or *upto* is 0.
    :raises events.store.StoreError: from the store (a broken chain included).
    """
    if upto is not None and upto < 1:
        raise commands.GameNotFoundError(game_id)
    load_game(game_id)
    events = tuple(services().store.read(game_id, limit=upto))
    return GameRecord(game_id, events, fold(recorded.event for recorded in events))


def request_caller(game_id: str) -> Caller:
    """Returns the caller of the current request for *game_id* (from its bearer token).

    :raises werkzeug.exceptions.HTTPException: 401 for a token not of this game.
    """
    return caller_for(services().tokens, game_id)


def request_game(game_id: str, requested: str | None = None) -> tuple[GameState, int, Viewer]:
    """Returns *game_id*'s current state, its version, and the viewer the current request gets
    of it (see :func:`request_viewer`): what every read of a game starts with.

    :raises service.commands.GameNotFoundError: if there is no such game.
    :raises werkzeug.exceptions.HTTPException: 401 for a token not of this game, 403 for an
        auditor view of a live game without the auditor token.
    """
    state, version = load_game(game_id)
    return state, version, request_viewer(game_id, state, requested, version=version)


def request_viewer(
    game_id: str, state: GameState, requested: str | None = None, *, version: int | None = None
) -> Viewer:
    """Returns the viewer the current request gets of *game_id* at *state* (*version*, read
    from the store when not given and needed).

    *requested* is an optional ``view`` parameter (``own``, ``spectator``, ``auditor``);
    see :func:`service.auth.viewer_for`. The auditor token's view of a game in progress is
    recorded in the game's access log (:mod:`service.access_log`) before it is granted.

    :raises werkzeug.exceptions.HTTPException: 401 for a token not of this game, 403 for an
        auditor view of a live game without the auditor token.
    """
    caller = request_caller(game_id)
    viewer = viewer_for(caller, state, requested)
    if viewer == AUDITOR and caller.role == AUDITOR and state.phase != "over":
        rule = request.url_rule.rule if request.url_rule is not None else request.path
        if version is None:
            version = services().store.version(game_id)
        access_log.record(services().tokens, game_id, state, version, method=request.method,
                          route=rule, path=request.path)
    return viewer


def request_seating(game_id: str) -> dict[str, Any]:
    """Returns what every view of *game_id* shows of its credentials: ``auditor`` (whether
    the game has an auditor token) and ``unclaimed_seats``.

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    seating = services().tokens.seating(game_id)
    return {"auditor": seating.auditor, "unclaimed_seats": list(seating.unclaimed)}
