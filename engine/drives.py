"""Drives: the schedule of an evening of several tables and rounds, and its standings.

A drive is an aggregate of its own, event-sourced like a game: its events
(:data:`events.types.DRIVE_EVENT_TYPES`) record the creation (profile, options, players, format,
the whole schedule fixed up front), each round's start (its games, and in duplicate the
commitment of every board) and end (each game's head then), each board's reveal and the
finish. This module is pure: it folds those events into a :class:`DriveState`, builds the
schedule, and derives the standings from the results of the drive's games; standings are never
stored, so anyone holding the history can derive them again.

The schedule is an individual movement: every table seats whole partnerships of two (pairs
tables of four, bruff's three partnerships at tables of six), and round *r* pairs the players by
the *r*-th perfect matching of the round-robin "circle" (one fixed player, the others turning),
so nobody partners the same player twice until ``players - 1`` rounds have been played; each
round's partnerships then go to the tables so that few players stay where they just played.

>>> rounds = movement(8, 4, 3)
>>> rounds[0]
((7, 1, 0, 6), (2, 3, 5, 4))
>>> len({frozenset(p) for r in rounds for t in r for p in partner_pairs(t, 2)})
12
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal, TypeAlias

from engine.errors import FortyFiveError
from engine.levels import BASIC, LEVELS
from engine.state import GameState
from events.types import (
    BoardRevealed,
    DriveCreated,
    DriveFinished,
    DrivePaused,
    DriveResumed,
    DriveStopped,
    Event,
    RoundEnded,
    RoundStarted,
    TableAbandoned,
)

Format: TypeAlias = Literal["progressive", "duplicate"]
FORMATS: tuple[Format, ...] = ("progressive", "duplicate")
Table: TypeAlias = tuple[int, ...]
"""The players (indices into the drive's players) of one table, in seat order."""
Round: TypeAlias = tuple[Table, ...]

TABLE_SIZES: dict[str, int] = {"classic": 4, "auction": 4, "bruff": 6}
"""Seats per table of a drive, by profile: two partnerships of two, or bruff's three."""

RANKINGS = ("points", "games_won")
"""What a drive ranks its players by for the prizes (``rank_by``), the other breaking ties."""

TIE_RULES: dict[str, str] = {
    "points": (
        "ranked by points (matchpoints in duplicate, game points in progressive), then by "
        "games won; players equal on both share the place (1, 2, 2, 4) and are listed by name"),
    "games_won": (
        "ranked by games won, then by points (matchpoints in duplicate, game points in "
        "progressive); players equal on both share the place (1, 2, 2, 4) and are listed by "
        "name"),
}
"""How standings rank and break ties, by ``rank_by`` (published with the standings and in
docs/api.md)."""
TIE_RULE = TIE_RULES["points"]
"""The tie rule of a drive ranked by points (every drive created before ``rank_by``)."""


ADJUSTED: dict[str, Fraction] = {
    "average": Fraction(1, 2), "average_plus": Fraction(3, 5), "average_minus": Fraction(2, 5)}
"""The adjusted scores a director may give a side of an abandoned table, as a share of the
top (as duplicate bridge's average, average-plus and average-minus are 50, 60 and 40 per cent
of a board's top). Duplicate: on each board the table did not finish, the side scores that
share of the matchpoints a side could make on it (one per other table that finished it).
Progressive: the side scores that share of the most points a side made at any other table of
the round that was not abandoned. An abandoned table wins no game."""

ADJUSTMENT_RULE = (
    "an abandoned table's sides score the adjustment the director named: average, "
    "average-plus or average-minus, 50, 60 or 40 per cent of the top (duplicate: of the "
    "matchpoints a side could make on each board the table did not finish; progressive: of "
    "the most points a side made at another table of the round); it wins no game"
)
"""How adjusted scores are computed (published with the standings and in docs/api.md)."""


class DriveError(FortyFiveError, ValueError):
    """Raised for a drive that cannot be made: a profile without drive tables, a player
    count that does not fill them, a bad format or number of rounds."""


def table_size(profile: str) -> int:
    """Returns the seats of a drive table for *profile*.

    :raises DriveError: if *profile* has no drive tables.
    """
    try:
        return TABLE_SIZES[profile]
    except KeyError:
        raise DriveError(
            f"profile {profile!r} cannot run a drive (known: {', '.join(TABLE_SIZES)})"
        ) from None


def check_players(count: int, size: int) -> None:
    """Checks that *count* players fill tables of *size*.

    :raises DriveError: if they do not.
    """
    if count < size or count % size:
        fewer = count - count % size
        counts = f"{fewer} or {fewer + size}" if fewer else f"{size}"
        raise DriveError(
            f"{count} players do not fill tables of {size}: use {counts} players, or ask "
            "for bots to fill the last table (fill_with_bots)"
        )


def matching(players: int, number: int) -> tuple[tuple[int, int], ...]:
    """Returns the partner pairs of round *number* (0-based) of the circle method for an even
    count of *players*: every pair of players meets in exactly one of ``players - 1`` rounds.

    >>> matching(4, 0), matching(4, 1)
    (((3, 0), (1, 2)), ((3, 1), (2, 0)))
    """
    assert players % 2 == 0, "a perfect matching needs an even count"
    turning = players - 1
    r = number % turning
    pairs = [(turning, r)]
    for k in range(1, players // 2):
        pairs.append(((r + k) % turning, (r - k) % turning))
    return tuple(pairs)


def movement(players: int, size: int, rounds: int) -> tuple[Round, ...]:
    """Returns the seats of every table of every round: partners sit *sides* seats apart
    (seat s is on side ``s mod sides``), a table holds ``size // 2`` partnerships, and each
    round's partnerships are given to tables so that as few players as possible stay at the
    table they just played at (each in turn takes the free table it knows least)."""
    sides = size // 2
    tables = players // size
    schedule: list[Round] = []
    where: dict[int, int] = {}
    for number in range(rounds):
        pairs = matching(players, number)
        groups = [pairs[t * sides:(t + 1) * sides] for t in range(tables)]
        placed: list[tuple[tuple[int, int], ...] | None] = [None] * tables
        for group in groups:
            free = [t for t in range(tables) if placed[t] is None]
            best = min(free, key=lambda t: sum(where.get(p) == t for pair in group for p in pair))
            placed[best] = group
        schedule.append(tuple(
            tuple(group[seat % sides][seat // sides] for seat in range(size))
            for group in placed if group is not None
        ))
        where = {p: t for t, table in enumerate(schedule[-1]) for p in table}
    return tuple(schedule)


MOVEMENTS = ("round_robin", "fixed_partners")
"""The movements a drive can use (``movement``): docs/api.md says what each gives."""


def fixed_partners(players: int, size: int, rounds: int) -> tuple[Round, ...]:
    """Returns a movement of set partnerships, as a Mitchell moves pairs: players ``2k`` and
    ``2k + 1`` partner each other all evening. At table *t* of round *r* (0-based) side 0 is
    the stationary partnership *t*; side 1 is the partnership that moved up *r* tables; in
    bruff, side 2 is the one that moved down *r* tables. Over as many rounds as tables, each
    stationary pair meets every moving pair once (classic, auction).

    >>> fixed_partners(8, 4, 2)
    (((0, 4, 1, 5), (2, 6, 3, 7)), ((0, 6, 1, 7), (2, 4, 3, 5)))
    """
    sides = size // 2
    tables = players // size
    shift = (0, 1, -1)
    schedule = []
    for number in range(rounds):
        seated = []
        for table in range(tables):
            pairs = [side * tables + (table - shift[side] * number) % tables
                     for side in range(sides)]
            seated.append(tuple(2 * pairs[seat % sides] + seat // sides for seat in range(size)))
        schedule.append(tuple(seated))
    return tuple(schedule)


def schedule_of(movement_name: str, players: int, size: int, rounds: int) -> tuple[Round, ...]:
    """Returns the schedule of the movement named *movement_name*.

    :raises DriveError: for a movement that is none of :data:`MOVEMENTS`.
    """
    if movement_name == "round_robin":
        return movement(players, size, rounds)
    if movement_name == "fixed_partners":
        return fixed_partners(players, size, rounds)
    raise DriveError(f"movement must be one of {', '.join(MOVEMENTS)}, got {movement_name!r}")


def meetings(schedule: Sequence[Round], sides: int) -> tuple[list[int], list[int]]:
    """Returns, per player, how many different partners and how many different opponents
    they meet over *schedule* (for ``fortyfive bench drive``)."""
    count = 1 + max(p for r in schedule for t in r for p in t)
    partners: list[set[int]] = [set() for _ in range(count)]
    opponents: list[set[int]] = [set() for _ in range(count)]
    for tables in schedule:
        for table in tables:
            for members in partner_pairs(table, sides):
                for player in members:
                    partners[player] |= set(members) - {player}
                    opponents[player] |= set(table) - set(members)
    return [len(p) for p in partners], [len(o) for o in opponents]


def partner_pairs(table: Table, sides: int) -> tuple[tuple[int, ...], ...]:
    """Returns the partnerships of *table* (the players of each side)."""
    return tuple(tuple(table[s] for s in range(side, len(table), sides)) for side in range(sides))


@dataclasses.dataclass(frozen=True, slots=True)
class Board:
    """A duplicate board: one deal played at every table of a round with the same cards."""

    board: str
    """Its id, ``<drive>/r<round>/b<deal>``: the context of its deck derivation."""
    deal: int
    commitment: str
    """Hex SHA-256 of its seed, public from the round's start."""
    cut: int
    """The cut fixed with the board (no seat cuts a board)."""
    seed: str | None = None
    """Hex seed, once revealed (when every table has finished the deal)."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameHead:
    """A game as a drive pinned it: its version and the hash of its event there."""

    game: str
    version: int
    head: str


@dataclasses.dataclass(frozen=True, slots=True)
class RoundState:
    """One round of a drive as its events tell it."""

    number: int
    games: tuple[str, ...]
    """The game of each table, table 1 first."""
    boards: tuple[Board, ...] = ()
    ended: bool = False
    heads: tuple[GameHead, ...] | None = None
    """Each game's version and head when the round ended (``None`` while it runs, and for a
    round ended before drives recorded them)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Adjustment:
    """A table its director abandoned, and the adjusted score of each side."""

    round: int
    table: int
    """1-based."""
    adjusted: tuple[str, ...]
    """Per side, a key of :data:`ADJUSTED`."""
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class DriveState:
    """A drive folded from its events."""

    drive_id: str
    version: int
    profile: str
    options: Mapping[str, Any]
    players: tuple[Mapping[str, str], ...]
    """Each ``{"name", "type"}`` and, for a bot of a drive created since levels, its
    ``"level"`` (:func:`player_level`), in the order the creator gave them (bots added
    last)."""
    format: Format
    rounds: int
    size: int
    schedule: tuple[Round, ...]
    boards: int
    """Boards (deals) per round in duplicate; 0 in progressive."""
    rank_by: str = "points"
    """A key of :data:`TIE_RULES`: what the standings rank by."""
    movement: str = "round_robin"
    """A key of :data:`MOVEMENTS`: how its schedule was drawn."""
    played: tuple[RoundState, ...] = ()
    finished: bool = False
    paused: bool = False
    """Paused by its director: no round starts until it is resumed."""
    stopped: bool = False
    """Stopped by its director between rounds (it is then finished, with fewer rounds)."""
    adjustments: tuple[Adjustment, ...] = ()
    """The tables its director abandoned, in order."""

    def adjustment(self, round_number: int, table: int) -> Adjustment | None:
        """Returns the adjustment of *table* (1-based) in round *round_number*, if any."""
        return next((a for a in self.adjustments
                     if (a.round, a.table) == (round_number, table)), None)

    @property
    def between_rounds(self) -> bool:
        """True when no round is in play (none started yet, or the last one ended)."""
        return self.current is None or self.current.ended

    @property
    def sides(self) -> int:
        """Partnerships per table."""
        return self.size // 2

    @property
    def status(self) -> Literal["running", "finished"]:
        """``finished`` once its last round has ended."""
        return "finished" if self.finished else "running"

    @property
    def current(self) -> RoundState | None:
        """The last round started, or ``None`` before the first."""
        return self.played[-1] if self.played else None


def fold_drive(drive_id: str, events: Iterable[Event]) -> DriveState:
    """Returns the drive folded over its typed *events*, oldest first.

    :raises DriveError: if the events are not a drive's, in a drive's order.
    """
    state: DriveState | None = None
    for event in events:
        if state is None:
            if not isinstance(event, DriveCreated):
                raise DriveError(f"drive {drive_id!r} starts with {event.TYPE!r}, not "
                                 "drive_created")
            _check_created(event)
            state = DriveState(
                drive_id=drive_id, version=1, profile=event.profile,
                options=dict(event.options), players=tuple(dict(p) for p in event.players),
                format=_format(event.format), rounds=event.rounds, size=event.table_size,
                schedule=tuple(tuple(tuple(t) for t in r) for r in event.schedule),
                boards=event.boards, rank_by=event.rank_by or "points",
                movement=event.movement or "round_robin",
            )
            continue
        state = _apply(event, state)
    if state is None:
        raise DriveError(f"no drive {drive_id!r}")
    return state


_HEX64 = re.compile(r"[0-9a-f]{64}")


def player_level(player: Mapping[str, str]) -> str | None:
    """Returns the bot level of a drive's *player*: the level its creation recorded, ``basic``
    for a bot of a drive created before levels, ``None`` for a person."""
    if player["type"] != "bot":
        return None
    return player.get("level") or BASIC


def _whole(value: object, low: int = 0) -> bool:
    """True for an int (not a bool) of at least *low*."""
    return type(value) is int and value >= low


def _check_created(event: DriveCreated) -> None:
    """Checks a drive's creation holds what a drive is made of: named players, each human or
    bot, and a schedule of *rounds* rounds seating every player once a round at tables of
    *table_size*.

    :raises DriveError: naming what does not fit.
    """
    players = event.players
    if not all(isinstance(p, Mapping) and isinstance(p.get("name"), str)
               and p.get("type") in ("human", "bot") for p in players):
        raise DriveError("every player of a drive is an object with a name and a type, human "
                         "or bot")
    for p in players:
        level = p.get("level")
        if level is not None and (p["type"] != "bot" or level not in LEVELS):
            raise DriveError(f"a drive's bot has a level, {' or '.join(LEVELS)}, and a person "
                             f"none: {p['name']!r} ({p['type']}) has {level!r}")
    if event.movement is not None and event.movement not in MOVEMENTS:
        raise DriveError(f"a drive's movement is {' or '.join(MOVEMENTS)}, not "
                         f"{event.movement!r}")
    if event.rank_by is not None and event.rank_by not in RANKINGS:
        raise DriveError(f"a drive ranks by {' or '.join(RANKINGS)}, not {event.rank_by!r}")
    size = event.table_size
    if not _whole(size, 4) or size % 2 or not _whole(event.boards) or not _whole(event.rounds, 1):
        raise DriveError(f"a drive of tables of {size!r}, {event.rounds!r} rounds and "
                         f"{event.boards!r} boards is not one")
    if len(event.schedule) != event.rounds:
        raise DriveError(f"the schedule has {len(event.schedule)} rounds, not {event.rounds}")
    everyone = list(range(len(players)))
    for number, tables in enumerate(event.schedule, start=1):
        if not all(isinstance(t, tuple) and len(t) == size for t in tables) or sorted(
                p if _whole(p) else -1 for t in tables for p in t) != everyone:
            raise DriveError(f"round {number} of the schedule does not seat every player once "
                             f"at tables of {size}")


def _format(value: str) -> Format:
    """Returns *value* as a format.

    :raises DriveError: if it is none.
    """
    for known in FORMATS:
        if value == known:
            return known
    raise DriveError(f"unknown drive format {value!r}")


@functools.singledispatch
def _apply(event: Event, state: DriveState) -> DriveState:
    """Returns *state* after *event*: one registered function per drive event type."""
    raise DriveError(f"{event.TYPE or type(event).__name__!r} is not an event a drive has "
                     "after its creation")


def apply_drive_event(state: DriveState, event: Event) -> DriveState:
    """Returns *state* after one more *event* (what :func:`fold_drive` does for each).

    :raises DriveError: if the event does not follow there.
    """
    return _apply(event, state)


APPLIES = _apply.registry
"""The apply function of each drive event type (tests/events/test_drive_event_types.py
checks every type has one)."""


@_apply.register
def _round_started(event: RoundStarted, state: DriveState) -> DriveState:
    played = state.played
    if event.round != len(played) + 1 or (played and not played[-1].ended):
        raise DriveError(f"round {event.round} starts out of order")
    if event.round > state.rounds:
        raise DriveError(f"round {event.round} of a drive of {state.rounds}")
    if state.paused:
        raise DriveError(f"round {event.round} starts while its director has paused the drive")
    if len(event.games) != len(state.schedule[event.round - 1]):
        raise DriveError(f"round {event.round} starts {len(event.games)} games for "
                         f"{len(state.schedule[event.round - 1])} tables")
    if not all(isinstance(g, str) for g in event.games) or len(set(event.games)) != len(
            event.games):
        raise DriveError(f"round {event.round} starts games that are not distinct ids")
    boards = tuple(Board(b.get("board", ""), b.get("deal", 0), b.get("commitment", ""),
                         b.get("cut", 0))
                   for b in event.boards if isinstance(b, Mapping))
    if len(boards) != len(event.boards) or [b.deal for b in boards] != list(
            range(1, len(boards) + 1)) or not all(
            isinstance(b.board, str) and isinstance(b.commitment, str)
            and _HEX64.fullmatch(b.commitment) and _whole(b.cut, 1) for b in boards):
        raise DriveError(f"round {event.round} starts with boards that are not deals 1... "
                         "each with an id, a commitment (64 hex digits) and a cut")
    if len(boards) != (state.boards if state.format == "duplicate" else 0):
        raise DriveError(f"round {event.round} starts {len(boards)} boards, not "
                         f"{state.boards if state.format == 'duplicate' else 0}")
    return _next(state, played=(*played, RoundState(event.round, tuple(event.games), boards)))


@_apply.register
def _board_revealed(event: BoardRevealed, state: DriveState) -> DriveState:
    current = _round(state.played, event.round)
    if not any(b.board == event.board and b.deal == event.deal and b.seed is None
               for b in current.boards):
        raise DriveError(f"board {event.board!r} is not a board of round {event.round} still "
                         "to reveal")
    if not isinstance(event.seed, str) or not _HEX64.fullmatch(event.seed):
        raise DriveError(f"board {event.board!r} is revealed with a seed that is not 64 hex "
                         "digits")
    boards = tuple(b if b.board != event.board else dataclasses.replace(b, seed=event.seed)
                   for b in current.boards)
    return _next(state, played=(*state.played[:-1], dataclasses.replace(current,
                                                                         boards=boards)))


@_apply.register
def _table_abandoned(event: TableAbandoned, state: DriveState) -> DriveState:
    current = _round(state.played, event.round)
    if not _whole(event.table, 1) or event.table > len(current.games):
        raise DriveError(f"round {event.round} has no table {event.table!r} (tables 1 to "
                         f"{len(current.games)})")
    if state.adjustment(event.round, event.table) is not None:
        raise DriveError(f"table {event.table} of round {event.round} is abandoned already")
    adjusted = tuple(event.adjusted) if isinstance(event.adjusted, Sequence) else ()
    if len(adjusted) != state.sides or not all(a in ADJUSTED for a in adjusted):
        raise DriveError(f"an abandoned table's adjusted score names one of "
                         f"{', '.join(ADJUSTED)} for each of its {state.sides} sides")
    if not isinstance(event.reason, str):
        raise DriveError("a director's reason is text")
    return _next(state, adjustments=(*state.adjustments, Adjustment(
        event.round, event.table, adjusted, event.reason)))


@_apply.register
def _round_ended(event: RoundEnded, state: DriveState) -> DriveState:
    current = _round(state.played, event.round)
    heads = None
    if event.heads is not None:
        heads = tuple(GameHead(h.get("game", ""), h.get("version", 0), h.get("head", ""))
                      for h in event.heads if isinstance(h, Mapping))
        if tuple(h.game for h in heads) != current.games or not all(
                _whole(h.version, 1) and isinstance(h.head, str) and _HEX64.fullmatch(h.head)
                for h in heads):
            raise DriveError(f"round {event.round} ended with the heads of other games than "
                             "it started")
    ended = dataclasses.replace(current, ended=True, heads=heads)
    return _next(state, played=(*state.played[:-1], ended))


@_apply.register
def _drive_finished(event: DriveFinished, state: DriveState) -> DriveState:
    if len(state.played) != state.rounds or not state.played[-1].ended:
        raise DriveError("a drive finishes only after its last round")
    return _next(state, finished=True)


@_apply.register
def _drive_paused(event: DrivePaused, state: DriveState) -> DriveState:
    if state.paused:
        raise DriveError("the drive is paused already")
    return _next(state, paused=True)


@_apply.register
def _drive_resumed(event: DriveResumed, state: DriveState) -> DriveState:
    if not state.paused:
        raise DriveError("the drive is not paused")
    return _next(state, paused=False)


@_apply.register
def _drive_stopped(event: DriveStopped, state: DriveState) -> DriveState:
    if not state.between_rounds:
        raise DriveError(f"round {state.played[-1].number} is in play: a drive stops between "
                         "rounds (pause it, and stop it once the round has ended)")
    return _next(state, finished=True, stopped=True, paused=False)


def _next(state: DriveState, **changes: Any) -> DriveState:
    """Returns *state* one version on, with *changes*."""
    if state.finished:
        raise DriveError("nothing follows a drive's finish")
    return dataclasses.replace(state, version=state.version + 1, **changes)


def _round(played: Sequence[RoundState], number: int) -> RoundState:
    if not played or played[-1].number != number or played[-1].ended:
        raise DriveError(f"round {number} is not the round in play")
    return played[-1]


# Results and standings ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class TableResult:
    """What one game of a drive produced: enough to rank its players."""

    game: str
    over: bool
    winner: int | None
    """The winning side, or ``None`` (not over, or abandoned)."""
    scores: tuple[int, ...]
    """Final (or current) points of each side."""
    deals: Mapping[int, tuple[int, ...]]
    """Points each side made in each finished deal, by deal number."""

    def to_dict(self) -> dict[str, Any]:
        """Returns the result as JSON (deal numbers as strings)."""
        return {"game": self.game, "over": self.over, "winner": self.winner,
                "scores": list(self.scores),
                "deals": {str(n): list(points) for n, points in sorted(self.deals.items())}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableResult:
        """Returns the result written by :meth:`to_dict`."""
        return cls(data["game"], bool(data["over"]), data["winner"], tuple(data["scores"]),
                   {int(n): tuple(p) for n, p in data["deals"].items()})


def table_result(game_id: str, state: GameState) -> TableResult:
    """Returns the result of *game_id* in *state*: its winner, scores and the points each
    finished deal gave each side. A deal that was not played out (its game abandoned during
    it) has no points: it is not a deal that table finished."""
    finished = list(state.past_deals)
    if state.deal is not None and state.deal.phase == "over":
        finished.append(state.deal)
    deals = {deal.number: tuple(deal.result.points) for deal in finished
             if deal.result is not None}
    return TableResult(game_id, state.phase == "over", state.winner, tuple(state.scores), deals)


def public_results(drive: DriveState,
                   results: Mapping[str, TableResult]) -> dict[str, TableResult]:
    """Returns *results* as anyone may see them while the drive runs.

    In duplicate, what a table made on a board tells the other tables about the cards they
    are playing, so until a board is revealed (every table has finished it) no table's
    result shows it: a table's deals are those of revealed boards, its scores their sum, and
    it is shown over, with its winner, once every board of its round is revealed. Progressive
    tables play deals of their own, and show everything.
    """
    if drive.format != "duplicate":
        return dict(results)
    shown: dict[str, TableResult] = {}
    for played in drive.played:
        revealed = {board.deal for board in played.boards if board.seed is not None}
        settled = len(revealed) == len(played.boards)
        for game in played.games:
            result = results.get(game)
            if result is None:
                continue
            if settled:
                shown[game] = result
                continue
            deals = {number: points for number, points in result.deals.items()
                     if number in revealed}
            scores = tuple(sum(points[side] for points in deals.values())
                           for side in range(len(result.scores)))
            shown[game] = TableResult(game, False, None, scores, deals)
    return shown


def standings(drive: DriveState, results: Mapping[str, TableResult]) -> list[dict[str, Any]]:
    """Returns the players ranked (see :data:`TIE_RULES`, by the drive's ``rank_by``), each
    with ``name``, ``type``, ``games_won``, ``points`` and ``place``; *results* maps game ids
    to their results (a game not yet in it counts nothing)."""
    count = len(drive.players)
    won = [0] * count
    points: list[Fraction] = [Fraction(0)] * count
    for number, played in enumerate(drive.played):
        tables = drive.schedule[number]
        top = _progressive_top(drive, played, results)
        for index, (game, table) in enumerate(zip(played.games, tables, strict=True), start=1):
            result = results.get(game)
            adjustment = drive.adjustment(played.number, index)
            if result is None and adjustment is None:
                continue
            for side, members in enumerate(partner_pairs(table, drive.sides)):
                for player in members:
                    if adjustment is not None:
                        if drive.format == "progressive":
                            points[player] += ADJUSTED[adjustment.adjusted[side]] * top
                        continue
                    assert result is not None
                    if result.winner == side:
                        won[player] += 1
                    if drive.format == "progressive":
                        points[player] += result.scores[side]
        if drive.format == "duplicate":
            for player, mp in matchpoints(drive, number, results).items():
                points[player] += mp
    by_wins = drive.rank_by == "games_won"
    order = sorted(range(count), key=lambda p: (
        (-won[p], -points[p]) if by_wins else (-points[p], -won[p]), drive.players[p]["name"], p))
    ranked: list[dict[str, Any]] = []
    for position, player in enumerate(order):
        if ranked and (points[player], won[player]) == (ranked[-1]["_p"], ranked[-1]["games_won"]):
            place = ranked[-1]["place"]
        else:
            place = position + 1
        ranked.append({"name": drive.players[player]["name"], "type": drive.players[player]["type"],
                       "player": player, "games_won": won[player], "_p": points[player],
                       "points": _number(points[player]), "place": place})
    for row in ranked:
        del row["_p"]
    return ranked


def _progressive_top(drive: DriveState, played: RoundState,
                     results: Mapping[str, TableResult]) -> Fraction:
    """Returns the most points a side made at a table of round *played* that was not
    abandoned (what a progressive adjustment is a share of; 0 when there is none)."""
    scores = [score for index, game in enumerate(played.games, start=1)
              if drive.adjustment(played.number, index) is None and game in results
              for score in results[game].scores]
    return Fraction(max(scores, default=0))


def matchpoints(
    drive: DriveState, number: int, results: Mapping[str, TableResult]
) -> dict[int, Fraction]:
    """Returns each player's matchpoints in round *number* (0-based) of a duplicate drive:
    on every board, a side scores 1 for each other table whose same side it beat on that board
    (more points), and 1/2 for each tie; only tables that finished the deal compare. A side of
    a table its director abandoned scores, on each board that table did not finish, its
    adjusted share (:data:`ADJUSTED`) of the tables that finished it."""
    played = drive.played[number]
    tables = drive.schedule[number]
    earned: dict[int, Fraction] = {}
    for deal in range(1, drive.boards + 1):
        scored = [(table, results[game].deals[deal]) for game, table in
                  zip(played.games, tables, strict=True)
                  if game in results and deal in results[game].deals]
        for index, (game, table) in enumerate(zip(played.games, tables, strict=True), start=1):
            adjustment = drive.adjustment(played.number, index)
            if adjustment is None or (game in results and deal in results[game].deals):
                continue
            for side, members in enumerate(partner_pairs(table, drive.sides)):
                for player in members:
                    earned[player] = earned.get(player, Fraction(0)) + ADJUSTED[
                        adjustment.adjusted[side]] * len(scored)
        for table, mine in scored:
            for side, members in enumerate(partner_pairs(table, drive.sides)):
                mp = Fraction(0)
                for other, theirs in scored:
                    if other is table:
                        continue
                    if mine[side] > theirs[side]:
                        mp += 1
                    elif mine[side] == theirs[side]:
                        mp += Fraction(1, 2)
                for player in members:
                    earned[player] = earned.get(player, Fraction(0)) + mp
    return earned


def _number(value: Fraction) -> int | float:
    """Returns *value* as an int when whole (halves otherwise, exact in binary)."""
    return int(value) if value.denominator == 1 else float(value)
