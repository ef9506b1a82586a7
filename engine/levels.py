"""The bot levels: their names, and the level a bot seat gets when nobody names one.

A level is how a bot decides (:mod:`engine.bot_levels` maps each to its decision function):
``basic`` is :mod:`engine.bots`' fixed rules, ``strong`` searches under a budget of CPU per
decision (:mod:`engine.strong_bot`). The level of each bot seat is recorded in the game's
creation (:attr:`events.types.GameCreated.bot_levels`); this module is the one list of the
names, and holds the defaults, so that the service, the workers, the command line and the
histories agree on them. docs/bots.md describes the levels.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import FortyFiveError

BASIC = "basic"
STRONG = "strong"
LEVELS: tuple[str, ...] = (BASIC, STRONG)
"""Every level there is, weakest first."""


class BotLevelError(FortyFiveError, ValueError):
    """Raised for a level that is not one of :data:`LEVELS`, or a level given to a seat a
    person holds."""


def check_level(kind: str, level: object, who: str) -> None:
    """Checks that *level* fits a player of *kind* (``human`` or ``bot``): ``None``, or for a
    bot one of :data:`LEVELS`. The one check of a level named for a seat, a drive's player or
    a player the director brings, and of the events that record them.

    :raises BotLevelError: naming *who*: for an unknown level, or a level for a person.
    """
    if level is None:
        return
    if level not in LEVELS:
        raise BotLevelError(f"{who}: a bot's level is {' or '.join(LEVELS)}, not {level!r}")
    if kind != "bot":
        raise BotLevelError(f"{who}: only a bot has a level; a person holds this one")


def default_level(seat_types: Sequence[str]) -> str:
    """Returns the level of a bot seat whose level nobody named, in a game of *seat_types*:
    ``strong`` where a person sits at the table (issue 27: people sit with bots worth sitting
    with; the strong level wins more than the basic one in every profile over 1,000 games,
    docs/bots.md, "The strong level, measured"), ``basic`` in a game of bots alone, where
    nobody is served by spending some 100 ms of the worker's CPU a decision (a drive applies
    it over all its players: :func:`service.application.drives.create_drive`)."""
    return STRONG if any(kind != "bot" for kind in seat_types) else BASIC


def seat_levels(seat_types: Sequence[str],
                levels: Sequence[str | None] = ()) -> tuple[str | None, ...]:
    """Returns each seat's level: for a bot seat the level *levels* names for it (``None`` or
    nothing: :func:`default_level`), for a person's seat ``None``.

    :raises BotLevelError: for an unknown level, a level for a person's seat, or *levels*
        not one per seat.
    """
    if levels and len(levels) != len(seat_types):
        raise BotLevelError(f"give one level (or null) per seat: {len(seat_types)} seats, "
                            f"{len(levels)} levels")
    default = default_level(seat_types)
    chosen: list[str | None] = []
    for seat, kind in enumerate(seat_types):
        level = levels[seat] if levels else None
        check_level(kind, level, f"seat {seat}")
        chosen.append(None if kind != "bot" else level or default)
    return tuple(chosen)


def recorded_levels(seat_types: Sequence[str],
                    bot_levels: Sequence[str | None] | None) -> tuple[str | None, ...]:
    """Returns each seat's level as a game's creation records it: *bot_levels* as given, or,
    where it records none (every game created before levels, and games whose bots are all
    basic), ``basic`` for every bot seat.

    :raises BotLevelError: if *bot_levels* is not one per seat, a level of each bot seat
        and ``None`` for each person's.
    """
    if bot_levels is None:
        return tuple(BASIC if kind == "bot" else None for kind in seat_types)
    levels = tuple(bot_levels)
    fits = len(levels) == len(seat_types) and all(
        level in LEVELS if kind == "bot" else level is None
        for kind, level in zip(seat_types, levels, strict=True))
    if not fits:
        raise BotLevelError(f"the recorded bot levels {list(levels)} do not fit the seats "
                            f"{list(seat_types)}: one of {', '.join(LEVELS)} per bot seat, "
                            "null per person's")
    return levels


def seat_label(kind: str, level: str | None) -> str:
    """Returns how a seat's player is named beside its number: ``human``, or ``bot, strong``.
    """
    return f"{kind}, {level}" if kind == "bot" and level is not None else kind
