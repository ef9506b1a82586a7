"""The command path: load a game, decide, append. Shared by the HTTP API and the workers.

Nothing here knows Flask: a bot job, a turn clock and an HTTP request all call :func:`act`
with the version they decided on and, when a retry must not act twice, a command id. The
store checks both in one atomic step, so two writers racing for a turn cannot both win, and a
retried command appends nothing and gets its first result back.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeAlias

from engine.action_values import action_of, parse_action
from engine.actions import abandonment, decide_and_apply, start_game_and_apply
from engine.errors import FortyFiveError
from engine.fold import apply_event, fold
from engine.nonce_window import NONCE_WINDOW, awaited, nonce_too_late, wait_in, window_of
from engine.rejections import ContributionRefusedError
from engine.state import GameState, Seat
from events.envelope import SERVER, Actor, RecordedEvent, parse_timestamp
from events.errors import ConcurrencyError
from events.fold_cache import FoldCache, Folded, on_events
from events.store import EventStore, check_game_id
from events.types import DealContributed, DeckCut, Event
from service.application.names import SeatNameError, check_names

Entropy: TypeAlias = Callable[[], bytes]
"""Returns 32 fresh random bytes."""


def fresh_entropy() -> bytes:
    """Returns 32 bytes from :mod:`secrets`: the seed of a new game or shuffle."""
    return secrets.token_bytes(32)


class GameNotFoundError(LookupError):
    """Raised for a game id with no events (or one that cannot be a game id)."""

    def __init__(self, game_id: object) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class IdempotencyKeyReusedError(ValueError):
    """Raised when a command id seen before comes with a different action."""


class NonceWindowOpenError(RuntimeError):
    """Raised for a bot's or the turn clock's cut while its deal's nonce window is still open
    for a human seat's nonce (:mod:`engine.nonce_window`); *wait* says for how long."""

    def __init__(self, game_id: str, wait: float) -> None:
        super().__init__(f"game {game_id}: a bot's or the clock's cut waits {wait:.3f} s more "
                         "for the human seats' nonces")
        self.game_id = game_id
        self.wait = wait


@dataclasses.dataclass(frozen=True, slots=True)
class ActionResult:
    """What an accepted action led to (or, for a repeated command id, what it first led to)."""

    state: GameState
    """The game's state right after the action's events."""
    version: int
    """The version of that state: the last event the action appended."""
    recorded: tuple[RecordedEvent, ...]
    """The events the action appended, with their envelopes."""
    duplicate: bool
    """True when the command id had been seen: nothing was appended now."""


@dataclasses.dataclass(frozen=True, slots=True)
class CreatedGame:
    """A game just created: its id, its state and the version of that state."""

    game_id: str
    state: GameState
    version: int


class GameCache(FoldCache[GameState | None]):
    """Folded game states per game id (``None`` before a game's first event), plus what the
    command path adds: the state held now without a read (:meth:`peek`), and keeping the
    state an append of this process has just produced (:meth:`remember`).

    So the next action on a game this process serves needs no read: it is decided on the
    state held, and the store's compare-and-append refuses it if another process moved the
    game on meanwhile.
    """

    def peek(self, game_id: str) -> Folded[GameState] | None:
        """Returns the state held for *game_id*, without reading the store."""
        with self._lock:
            folded = self._games.get(game_id)
        if folded is None or folded.state is None:
            return None
        return Folded(folded.state, folded.version, folded.head_hash)

    def remember(self, game_id: str, folded: Folded[GameState]) -> None:
        """Holds *folded* for *game_id* unless a newer state is held already."""
        self._keep(game_id, Folded(folded.state, folded.version, folded.head_hash))


def new_cache(
    store: EventStore, max_games: int = 1024, max_bytes: int | None = None
) -> GameCache:
    """Returns a fold cache of game states read from *store*, bounded by *max_games* games
    and by *max_bytes* bytes (see :class:`events.fold_cache.FoldCache`)."""
    return GameCache(store, lambda: None, on_events(apply_event, fold), max_games=max_games,
                     max_bytes=max_bytes)


def load(cache: GameCache, game_id: str) -> Folded[GameState]:
    """Returns *game_id*'s state folded over every stored event.

    :raises GameNotFoundError: if the id is not a game id or the game has no events.
    :raises events.store.StoreError: from the store.
    """
    return load_reading(cache, game_id)[0]


def load_reading(
    cache: GameCache, game_id: str
) -> tuple[Folded[GameState], RecordedEvent | None]:
    """Returns what :func:`load` does, and the last event it read to get there (``None`` when
    *cache* held the game's current state: see :meth:`events.fold_cache.FoldCache.load_reading`).

    :raises GameNotFoundError: if the id is not a game id or the game has no events.
    :raises events.store.StoreError: from the store.
    """
    try:
        check_game_id(game_id)
    except ValueError:
        raise GameNotFoundError(game_id) from None
    folded, last = cache.load_reading(game_id)
    if folded.state is None:
        raise GameNotFoundError(game_id)
    return Folded(folded.state, folded.version, folded.head_hash), last


def known(cache: GameCache, game_id: str) -> Folded[GameState]:
    """Returns *game_id* as this process last saw it, reading the store only if it holds
    nothing for it (enough to tell that a game exists).

    :raises GameNotFoundError: if there is no such game.
    :raises events.store.StoreError: from the store.
    """
    return cache.peek(game_id) or load(cache, game_id)


def new_game_id() -> str:
    """Returns a fresh, unguessable game id (24 hex digits)."""
    return secrets.token_hex(12)


def create_game(
    store: EventStore,
    profile: str,
    options: Mapping[str, Any],
    seat_types: Sequence[str],
    *,
    entropy: Entropy = fresh_entropy,
    before_append: Callable[[str], None] | None = None,
    bot_pace_ms: int = 0,
    names: Sequence[str | None] = (),
    bot_levels: Sequence[str | None] = (),
    names_seated: bool = False,
) -> CreatedGame:
    """Creates a game: checks the rules, then appends its creation and first shuffle.

    *bot_pace_ms* is how long the bots wait before each action where a person plays with
    them (:attr:`events.types.GameCreated.bot_pace_ms`); *names* each seat's name, or
    ``None`` (checked by :func:`service.application.names.check_names`, unless
    *names_seated*: names a game of this service already seated, as a rematch copies them,
    which a rule made stricter since must not refuse); *bot_levels* each seat's bot level, or
    ``None`` for the default (:func:`engine.levels.seat_levels`).

    :raises service.application.names.SeatNameError: for a blank, long or repeated name.

    *before_append* is called with the new id once the rules are checked and before the
    game exists, so that credentials bound to it are stored first (a game without them could
    never be played).

    :raises engine.errors.ProfileError: for a bad profile, option or number of seats.
    :raises engine.errors.InvalidActionError: for a seat type other than human or bot.
    :raises engine.levels.BotLevelError: for an unknown level, or one for a person's seat.
    :raises events.store.StoreError: from the store.
    """
    if names:
        if len(names) != len(seat_types):
            raise SeatNameError(f"give one name (or null) per seat: {len(seat_types)} seats, "
                                f"{len(names)} names")
        if not names_seated:
            check_names(names)
    game_id = new_game_id()
    # Dealt by hmac-sha256-fy/2: the deck depends on the game id and on the seats' nonces;
    # the bots' and the clock's cuts come from a secret committed here, before any seed, and
    # wait for the human seats' nonces for the window committed with it.
    events, state = start_game_and_apply(
        profile, options, tuple(seat_types), entropy(), entropy(), context=game_id,
        contribution_secret=entropy(), nonce_window=NONCE_WINDOW,
        bot_pace_ms=bot_pace_ms, names=names, bot_levels=bot_levels)
    if before_append is not None:
        before_append(game_id)
    result = store.append(game_id, 0, events, actor=SERVER)
    return CreatedGame(game_id, state, result.version)


def act(
    store: EventStore,
    cache: GameCache,
    game_id: str,
    seat: Seat,
    action: Mapping[str, Any],
    *,
    expected_version: int,
    command_id: str | None = None,
    entropy: Entropy = fresh_entropy,
    loaded: Folded[GameState] | None = None,
    actor: Actor | None = None,
) -> ActionResult:
    """Takes *action* for *seat* on the game at *expected_version*, and returns the result.

    The events are recorded as made by *seat*, or by *actor* when given (``"server"`` for
    the turn clock acting for a seat that ran out of time).

    A *command_id* seen before returns that command's first result and appends nothing,
    whatever the version is now and whatever *expected_version* says; scope it to the caller
    (e.g. the seat) so that two callers cannot collide.

    When *loaded* (the game as the caller just loaded it) or else the cache holds the game at
    *expected_version*, the action is decided on that state without a read (the append still
    checks the version); when the engine refuses it there, it is decided again on a fresh
    read, since the store may be ahead.

    :raises GameNotFoundError: if there is no such game.
    :raises events.store.ConcurrencyError: if the game is not at *expected_version*.
    :raises IdempotencyKeyReusedError: if *command_id* was used for another action.
    :raises engine.errors.FortyFiveError: if the engine refuses the action (malformed,
        not this seat's turn, wrong phase, illegal, game over).
    :raises events.store.StoreError: from the store.
    """
    held = loaded if loaded is not None else cache.peek(game_id)
    if held is not None and held.version == expected_version:
        try:
            decided = decide_and_apply(held.state, seat, action, entropy=entropy())
        except FortyFiveError:
            pass
        else:
            return _append(
                store, cache, game_id, actor if actor is not None else seat, action, held,
                decided, command_id,
            )
    author = actor if actor is not None else seat
    folded = load(cache, game_id)
    if folded.version != expected_version:
        # A retry finds the game moved on by its own first attempt: answer with that.
        if command_id is not None:
            earlier = _earlier_result(store, cache, game_id, author, action, command_id)
            if earlier is not None:
                return earlier
        raise ConcurrencyError(game_id, expected_version, folded.version)
    try:
        decided = decide_and_apply(folded.state, seat, action, entropy=entropy())
    except FortyFiveError:
        # A retry that names the version its first attempt moved the game to is refused by
        # the engine there (it is no longer this seat's turn): answer with that attempt.
        if command_id is not None:
            earlier = _earlier_result(store, cache, game_id, author, action, command_id)
            if earlier is not None:
                return earlier
        raise
    return _append(store, cache, game_id, author, action, folded, decided, command_id)


def cut_wait(store: EventStore, game_id: str, state: GameState,
             now: datetime | None = None) -> float:
    """Returns how many more seconds a bot's or the turn clock's cut of *game_id* in *state*
    must wait for the human seats' nonces (:func:`engine.nonce_window.wait_in`) at *now*
    (default: the store's clock), against the time its deal's shuffle was recorded: 0 when
    it may cut now.

    :raises events.store.StoreError: from the store.
    """
    if not awaited(state):
        return 0.0
    return wait_in(state, _since_shuffle(store, game_id, state,
                                         store.now() if now is None else now))


def _since_shuffle(store: EventStore, game_id: str, state: GameState, now: datetime) -> float:
    """Returns the seconds from the recorded time of the shuffle of *state*'s deal to *now*."""
    deal = state.deal
    assert deal is not None, "a deal was shuffled"
    opening = store.read(game_id, after=deal.opened - 1, limit=1)
    shuffled_at = parse_timestamp(opening[0].envelope.occurred_at)
    return (now - shuffled_at).total_seconds()


def _check_nonce_in_time(store: EventStore, game_id: str, state: GameState,
                         event: DealContributed, now: datetime) -> None:
    """Refuses a nonce recorded at *now* to a deal a bot is to cut once its nonce window has
    closed (:func:`engine.nonce_window.nonce_too_late`).

    :raises ContributionRefusedError: ``nonce_window_closed``.
    """
    deal = state.deal
    assert deal is not None and deal.turn is not None, "a deal waits for its cut"
    bot_cuts = state.seat_types[deal.turn] == "bot"
    if not bot_cuts:
        return
    waited, window = _since_shuffle(store, game_id, state, now), window_of(state)
    if nonce_too_late(window, waited, bot_cuts):
        raise ContributionRefusedError(
            f"deal {event.deal} closed its nonce window {window} s after its shuffle "
            f"({waited:.1f} s ago): the bot in seat {deal.turn} cuts it without this nonce",
            code="nonce_window_closed")


def abandon_command_id(game_id: str, version: int) -> str:
    """Returns the command id of abandoning *game_id* at *version*."""
    return f"abandon:{game_id}:{version}"


def abandon(
    store: EventStore,
    cache: GameCache,
    game_id: str,
    *,
    expected_version: int,
    idle_seconds: int,
    after_seconds: int,
) -> bool:
    """Ends *game_id* as abandoned (``game_abandoned``, by the server) if it is still at
    *expected_version* and not over; returns True if it appended the event.

    In the same append the seed of the deal in progress is revealed
    (:func:`engine.actions.abandonment`), so the game's history verifies as far as it went.
    The retention policy decides that the game waited too long (*idle_seconds* since its
    last event, more than *after_seconds*); this checks that it still can be abandoned, and
    the store that nothing was appended meanwhile. Running it twice appends once.

    :raises GameNotFoundError: if there is no such game.
    :raises events.store.StoreError: from the store.
    """
    folded = load(cache, game_id)
    if folded.version != expected_version or folded.state.phase == "over":
        return False
    events = abandonment(folded.state, idle_seconds, after_seconds)
    try:
        result = store.append(game_id, expected_version, events, actor=SERVER,
                              command_id=abandon_command_id(game_id, expected_version))
    except ConcurrencyError:
        return False
    if result.duplicate:
        return False
    cache.remember(game_id, Folded(fold(events, folded.state), result.version,
                                   result.recorded[-1].envelope.hash))
    return True


def _append(
    store: EventStore,
    cache: GameCache,
    game_id: str,
    actor: Actor,
    action: Mapping[str, Any],
    folded: Folded[GameState],
    decided: tuple[tuple[Event, ...], GameState],
    command_id: str | None,
) -> ActionResult:
    """Appends the events decided on *folded* and returns the result (or, if the command
    id was seen, the first one), keeping in the cache the state the engine produced with
    them (:func:`engine.actions.decide_and_apply`), so they are not folded a second time."""
    events, state = decided
    # The nonce window's rules are checked at the very time the events are stamped with.
    first, now = events[0], store.now()
    if isinstance(first, DeckCut) and (
            actor == SERVER or folded.state.seat_types[first.seat] == "bot"):
        wait = cut_wait(store, game_id, folded.state, now)
        if wait > 0:
            raise NonceWindowOpenError(game_id, wait)
    elif isinstance(first, DealContributed):
        _check_nonce_in_time(store, game_id, folded.state, first, now)
    result = store.append(game_id, folded.version, events, actor=actor, command_id=command_id,
                          occurred_at=now)
    if result.duplicate:
        return _replayed(store, cache, game_id, actor, action, result.recorded)
    cache.remember(game_id, Folded(state, result.version, result.recorded[-1].envelope.hash))
    return ActionResult(state, result.version, result.recorded, False)


def _earlier_result(
    store: EventStore,
    cache: GameCache,
    game_id: str,
    actor: Actor,
    action: Mapping[str, Any],
    command_id: str,
) -> ActionResult | None:
    """Returns the first result of *command_id* if it was seen, else ``None``.

    Asks the store with an append of no events, which looks the command id up and writes
    nothing; it retries when the game moves on meanwhile.
    """
    version = store.version(game_id)
    for _attempt in range(5):
        try:
            probe = store.append(game_id, version, (), actor=actor, command_id=command_id)
        except ConcurrencyError as conflict:
            version = conflict.actual
            continue
        if not probe.duplicate:
            return None
        return _replayed(store, cache, game_id, actor, action, probe.recorded)
    return None


def _replayed(
    store: EventStore,
    cache: GameCache,
    game_id: str,
    actor: Actor,
    action: Mapping[str, Any],
    recorded: tuple[RecordedEvent, ...],
) -> ActionResult:
    """Returns the result of a command first taken with *recorded* events.

    :raises IdempotencyKeyReusedError: if those events are not *actor*'s *action*.
    """
    first = recorded[0] if recorded else None
    wanted = parse_action(action).to_dict()
    if first is None or first.envelope.actor != actor or action_of(first.event) != wanted:
        raise IdempotencyKeyReusedError(
            "this Idempotency-Key was already used for another action; use a new key for a "
            "new action"
        )
    version = recorded[-1].version
    return ActionResult(state_at(store, cache, game_id, version), version, recorded, True)


def state_at(store: EventStore, cache: GameCache, game_id: str, version: int) -> GameState:
    """Returns *game_id*'s state as it stood right after event *version*.

    :raises GameNotFoundError: if the game has no event *version*.
    :raises events.store.StoreError: from the store.
    """
    folded = cache.load(game_id)
    if folded.version == version and folded.state is not None:
        return folded.state
    events = store.read(game_id, limit=version) if version > 0 else []
    if len(events) != version:
        raise GameNotFoundError(game_id)
    return fold(recorded.event for recorded in events)
