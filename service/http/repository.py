"""The app's handles on the store, and loading a game for a request.

:func:`create_services` builds them once per app (the store, the fold cache, the token
registry, the API keys, the entropy source); :func:`services` returns them inside a request.
For endpoints that need a game:

- :func:`load_game`: the current state and version (from the fold cache: one small read);
- :func:`load_record`: the state *and* the verified events, optionally only up to a version
  (hand histories, replays, audits);
- :func:`request_caller` / :func:`request_viewer`: the caller and its viewer for this game
  (see :mod:`service.http.auth`); :func:`request_game` loads the game and resolves the viewer in
  one call.

Each raises :class:`service.application.commands.GameNotFoundError` (404) for an unknown game and
:class:`events.store.StoreUnavailableError` (503) when the store is down; the app's error
handlers turn those into problem responses.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from flask import current_app, g, request
from flask_smorest import abort

from engine.drives import drive_of
from engine.fold import fold
from engine.state import GameState
from events.drive_store import DriveStore
from events.envelope import RecordedEvent
from events.errors import StoreUnavailableError
from events.redis_store import RedisEventStore
from events.transparency_log import TransparencyLog
from replay.views import Viewer
from service.application import access_log, commands, drives
from service.application.signing import Publisher, latest_deal_end
from service.application.store_settings import StoreSettings
from service.application.tokens import AUDITOR, TokenRegistry
from service.http.apikeys import ApiKey, KeyRegistry, require_api_key
from service.http.auth import Caller, caller_for, viewer_for
from service.http.stream_hub import StreamHub

_View = TypeVar("_View", bound=Callable[..., Any])

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
    signing: Publisher


class _NoStore:
    """Stands in for the store when the app has no ``REDIS_URL``: every use is a 503."""

    def __getattr__(self, name: str) -> Any:
        raise StoreUnavailableError(
            "store unavailable at (none): no REDIS_URL is configured; start the service "
            "with `fortyfive serve` or set REDIS_URL"
        )


def create_services(config: Mapping[str, Any]) -> Services:
    """Returns the services for an app *config* (``STORE`` or ``REDIS_URL`` with
    ``STORE_SETTINGS``, ``ENTROPY``, ``FOLD_CACHE_GAMES``, ``FOLD_CACHE_BYTES``, ``STREAM_MAX``,
    ``SIGNING_KEY``: the path of the checkpoint signing key, default ``FORTYFIVE_SIGNING_KEY``).
    No connection is made, and no key loaded, until the first request."""
    store: Any = config.get("STORE")
    tails: Any = store
    max_streams = config.get("STREAM_MAX", 1000)
    if store is None:
        url = config.get("REDIS_URL")
        settings: StoreSettings = config.get("STORE_SETTINGS") or StoreSettings()
        store = settings.open(url) if url else _NoStore()
        # The live tails wait on connections of their own, so that however many games are
        # watched, the requests always find one. A tail holds one while it has streams, and
        # for up to one block after its last stream ends: room for twice as many.
        tails = settings.open(url, max_connections=2 * max_streams) if url else store
    client = store.client if not isinstance(store, _NoStore) else store
    cache = commands.new_cache(store, config.get("FOLD_CACHE_GAMES", 1024),
                               config.get("FOLD_CACHE_BYTES") or None)

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
        signing=Publisher(client, config.get("SIGNING_KEY"), log=None if isinstance(
            store, _NoStore) else TransparencyLog.of(store)),
    )


def services() -> Services:
    """Returns the current app's services."""
    found: Services = current_app.extensions[EXTENSION]
    return found


def key_first(what: str, *, always: bool = False,
              when: Callable[[], bool] | None = None) -> Callable[[_View], _View]:
    """Decorates a view that takes an API key so that the key is checked first
    (:func:`service.http.apikeys.require_api_key`, with *what* and *always*): placed above its
    ``blp.arguments``, a request without the key a server requires gets its 401, not a 422
    about its body. *when* (reading the raw request) limits the check to the requests it is
    true for (a history's upload only when it is kept). The view reads the key with
    :func:`checked_key`."""

    def decorate(view: _View) -> _View:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if when is None or when():
                g.checked_api_key = require_api_key(services().keys, what=what,
                                                    always=always)
            return view(*args, **kwargs)

        return cast(_View, checked)

    return decorate


def checked_key() -> ApiKey | None:
    """Returns the API key :func:`key_first` accepted for the current request (``None``
    without one)."""
    record: ApiKey | None = g.get("checked_api_key")
    return record


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

    :raises service.application.commands.GameNotFoundError: if there is no such game.
    :raises events.store.StoreError: from the store.
    """
    folded = commands.load(services().cache, game_id)
    return folded.state, folded.version


def load_record(game_id: str, upto: int | None = None) -> GameRecord:
    """Returns *game_id*'s events (all, or the first *upto*) and the state they fold to.

    The events come verified link by link from the store; an *upto* beyond the last event
    gives the whole game.

    :raises service.application.commands.GameNotFoundError: if there is no such game, or *upto* is
    0.
    :raises events.store.StoreError: from the store (a broken chain included).
    """
    if upto is not None and upto < 1:
        raise commands.GameNotFoundError(game_id)
    load_game(game_id)
    events = tuple(services().store.read(game_id, limit=upto))
    return GameRecord(game_id, events, fold(recorded.event for recorded in events))


def hides_cards(state: GameState, viewer: Viewer) -> bool:
    """True when *viewer* may not be given the head of *state*: the deal in progress put a card
    face down (or was recorded at a table) and its seed is not revealed, or an earlier deal was
    recorded at a table (its stock is never revealed), so a hash from then on would give a card
    away (see :func:`replay.formats.build.build_history`). Never for the auditor, nor once the
    game is over."""
    deal = state.deal
    if viewer == "auditor" or state.phase == "over":
        return False
    if any(past.recorded for past in state.past_deals):
        return True  # A recorded deal's stock stays face down until the game is over.
    return deal is not None and not deal.seed_revealed and bool(deal.face_down or deal.recorded)


def view_checkpoint(game_id: str, state: GameState, version: int, head: str,
                    viewer: Viewer, svc: Services | None = None) -> dict[str, Any] | None:
    """Returns the latest checkpoint *viewer* may have of *game_id* at *version* with *head*:
    that point, signed (once per process), unless it would give a hidden card away; then the
    one signed at the end of the last deal (``None`` before the first deal ends, and in a
    table record until the game is over). *svc*: the app's services (default: the current
    app's)."""
    svc = svc or services()
    if not hides_cards(state, viewer):
        return svc.signing.checkpoint(game_id, version, head)
    if any(deal.recorded for deal in (*state.past_deals, state.deal) if deal is not None):
        # A deal recorded at a table never reveals its stock while the game runs, and every
        # hash from that deal on covers it: no checkpoint until the game is over.
        return None
    return latest_deal_end(svc.store.client, game_id, upto=version)


def request_caller(game_id: str) -> Caller:
    """Returns the caller of the current request for *game_id* (from its bearer token).

    :raises werkzeug.exceptions.HTTPException: 401 for a token not of this game.
    """
    return caller_for(services().tokens, game_id)


def request_game(game_id: str, requested: str | None = None) -> tuple[GameState, int, Viewer]:
    """Returns *game_id*'s current state, its version, and the viewer the current request gets
    of it (see :func:`request_viewer`): what every read of a game starts with.

    :raises service.application.commands.GameNotFoundError: if there is no such game.
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
    see :func:`service.http.auth.viewer_for`. The auditor token's view of a game in progress is
    recorded in the game's access log (:mod:`service.application.access_log`) before it is granted.

    A caller with no role in the game (no token, or an API key) is refused a duplicate board
    still in play: see :func:`check_board_open`.

    :raises werkzeug.exceptions.HTTPException: 401 for a token not of this game, 403 for an
        auditor view of a live game without the auditor token, or for a board in play.
    """
    caller = request_caller(game_id)
    if caller.role is None:
        check_board_open(game_id, state)
    viewer = viewer_for(caller, state, requested)
    if viewer == AUDITOR and caller.role == AUDITOR and state.phase != "over":
        rule = request.url_rule.rule if request.url_rule is not None else request.path
        if version is None:
            version = services().store.version(game_id)
        access_log.record(services().tokens, game_id, state, version, method=request.method,
                          route=rule, path=request.path)
    return viewer


def check_board_open(game_id: str, state: GameState) -> None:
    """Refuses to show *game_id* to anyone but its seats and auditor while its deal is a
    duplicate board the drive has not revealed: the other tables of the round play (or are
    about to play) the same cards, as in duplicate bridge. The game's own ``seed_revealed``
    settles it; until then the drive's ``board_revealed`` (an abandoned game never gets the
    seed) does.

    :raises werkzeug.exceptions.HTTPException: 403 ``board_in_play``.
    """
    deal = state.deal
    if deal is None or deal.board is None or deal.seed_revealed:
        return
    drive_id = drive_of(game_id)
    if drive_id is not None:
        try:
            drive, _ = drives.load(DriveStore(services().store), drive_id)
        except drives.DriveNotFoundError:
            drive = None
        played = drive.played if drive is not None else ()
        if any(b.board == deal.board and b.seed is not None for r in played for b in r.boards):
            return
    abort(
        403,
        message=(
            f"board {deal.board} is in play: every table of the round plays the same cards, "
            "so only this table's seats see its game until the drive reveals the board "
            "(board_revealed, once every table has finished it; see GET /v1/drives/"
            f"{drive_id}); a seat token of this game gives the seat's view"
        ),
        code="board_in_play",
    )


def request_seating(game_id: str) -> dict[str, Any]:
    """Returns what every view of *game_id* shows of its credentials: ``auditor`` (whether
    the game has an auditor token) and ``unclaimed_seats``.

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    seating = services().tokens.seating(game_id)
    return {"auditor": seating.auditor, "unclaimed_seats": list(seating.unclaimed)}
