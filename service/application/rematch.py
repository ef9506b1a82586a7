"""A rematch: the same table plays again, each person keeping the token they hold.

When a game is over, any of its seats may ask for a rematch: a new game with the same profile,
options, seats and bot pace, whose credentials are those of the old one (the registry copies
the digests, :meth:`service.application.tokens.TokenRegistry.copy`), so that every seat's token,
the auditor's and any unused claim code open the new game as they opened the old. A game has
one rematch: the first request creates it and records its id beside the old game
(``SET NX``, before the new game's events exist, so that of two requests racing only one game
is ever created); every later request gets that id.
"""

from __future__ import annotations

from events.keys import rematch_key, seats_key
from events.store import EventStore
from service.application import commands
from service.application.commands import Entropy, GameCache, fresh_entropy
from service.application.tokens import TokenRegistry


class RematchRefusedError(Exception):
    """Raised for a game that cannot have a rematch (yet): in progress, or a drive's board."""


class _Taken(Exception):
    """The rematch was created by another request first."""


def rematch_of(registry: TokenRegistry, game_id: str) -> str | None:
    """Returns the id of *game_id*'s rematch, or ``None`` if it has none.

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    with registry.translate():
        found = registry.client.get(rematch_key(game_id))
    return found.decode() if isinstance(found, bytes) else found


def rematch(
    store: EventStore,
    cache: GameCache,
    registry: TokenRegistry,
    game_id: str,
    *,
    entropy: Entropy = fresh_entropy,
) -> tuple[str, bool]:
    """Returns the id of *game_id*'s rematch and whether this call created it.

    :raises GameNotFoundError: if there is no such game.
    :raises RematchRefusedError: if the game is not over, or is a board of a drive.
    :raises events.store.StoreError: from the store.
    """
    state = commands.load(cache, game_id).state
    if state.phase != "over":
        raise RematchRefusedError("a rematch can be asked for once the game is over")
    if state.deal is not None and state.deal.board is not None:
        raise RematchRefusedError("a drive's boards are dealt by the drive, not played again "
                                  "one by one")
    existing = rematch_of(registry, game_id)
    if existing is not None:
        return existing, False

    def claim(new_id: str) -> None:
        registry.copy(game_id, new_id)
        with registry.translate():
            won = registry.client.set(rematch_key(game_id), new_id, nx=True)
        if not won:
            with registry.translate():
                registry.client.delete(seats_key(new_id))
            raise _Taken

    try:
        created = commands.create_game(
            store, state.rules.profile, state.rules.options(), state.seat_types,
            entropy=entropy, before_append=claim, bot_pace_ms=state.bot_pace_ms,
            names=state.names, bot_levels=state.seat_levels,  # The same bots, at their levels.
            names_seated=True)
    except _Taken:
        winner = rematch_of(registry, game_id)
        assert winner is not None, "another request set it"
        return winner, False
    return created.game_id, True
