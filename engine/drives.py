"""Drives: the fold of an evening of several tables and rounds.

A drive is an aggregate of its own, event-sourced like a game: its events
(:data:`events.drive_types.DRIVE_EVENT_TYPES`) record the creation (profile, options, players,
format, the whole schedule fixed up front), each round's start (its games, and in duplicate the
commitment of every board) and end (each game's head then), each board's reveal, a paper
table's score card entered, disputed and confirmed (held to the rules by :mod:`engine.paper`),
and the finish. This module is pure: it folds those events into a
:class:`engine.drive_state.DriveState`, checking each against the state (a director's action
the evening does not allow is refused here, once).

The movements that seat the rounds are :mod:`engine.seating`'s; the standings are derived in
:mod:`engine.standings`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.drive_state import (
    ADJUSTED,
    FORMATS,
    RANKINGS,
    Adjustment,
    Board,
    BoardAdjustment,
    DriveState,
    Format,
    GameHead,
    RosterChange,
    RoundState,
    ScoreCard,
)
from engine.errors import DriveError
from engine.levels import BASIC, BotLevelError, check_level
from engine.paper import ScoreCardDeal, ScoreCardError, score_card_result
from engine.profiles import make_ruleset
from engine.seating import (
    MOVEMENTS,
    ODD_PLAYERS,
    SEATED_AT_START,
    Table,
    sitting_out,
)
from engine.sides import side_name
from events.drive_types import (
    BoardAbandoned,
    BoardRevealed,
    DriveCreated,
    DriveFinished,
    DrivePaused,
    DriveResumed,
    DriveStopped,
    PlayerAdded,
    PlayerSubstituted,
    PlayerWithdrawn,
    RoundCalled,
    RoundEnded,
    RoundStarted,
    ScoreCardConfirmed,
    ScoreCardDisputed,
    ScoreCardEntered,
    TableAbandoned,
)
from events.types import Event


class ScoreCardRefused(DriveError):
    """Raised by the fold for a score card the rules of its game do not allow
    (:class:`engine.paper.ScoreCardError`, saying which deal breaks which rule), apart from a
    card that does not fit the drive's state: the service answers it 422, not 409."""


_GAME_OF_DRIVE = re.compile(r"(dr-[0-9a-f]{20})\.(\d+)\.(\d+)")


def game_id_of(drive_id: str, round_number: int, table: int) -> str:
    """Returns the id of the game of *table* (1-based) in round *round_number* of a drive."""
    return f"{drive_id}.{round_number}.{table}"


def drive_of(game_id: str) -> str | None:
    """Returns the drive a game id belongs to, or ``None``.

    >>> drive_of("dr-" + "a" * 20 + ".2.3") == "dr-" + "a" * 20, drive_of("abc")
    (True, None)
    """
    found = _GAME_OF_DRIVE.fullmatch(game_id)
    return found.group(1) if found else None


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
            state = DriveState(
                drive_id=drive_id, version=1, profile=event.profile,
                options=dict(event.options), players=_check_created(event),
                format=_format(event.format), rounds=event.rounds, size=event.table_size,
                schedule=tuple(tuple(tuple(t) for t in r) for r in event.schedule),
                boards=event.boards, rank_by=event.rank_by or "points",
                movement=event.movement or "round_robin",
                odd_players=event.odd_players or "bots",
                round_minutes=event.round_minutes,
                paper_tables=tuple(event.paper_tables or ()),
            )
            continue
        state = _apply(event, state)
    if state is None:
        raise DriveError(f"no drive {drive_id!r}")
    return state


_HEX64 = re.compile(r"[0-9a-f]{64}")
_RECORD = re.compile(r"h-[0-9a-f]{32}")


def player_level(player: Mapping[str, str]) -> str | None:
    """Returns the bot level of a drive's *player*: the level its creation recorded, ``basic``
    for a bot of a drive created before levels, ``None`` for a person."""
    if player["type"] != "bot":
        return None
    return player.get("level") or BASIC


def _player_of(player: object) -> dict[str, str]:
    """Returns the drive's player *player* records, as the drive's state keeps it (``{"name",
    "type"}``, and a bot's ``level`` where one is recorded), at its creation or when the
    director brings one.

    :raises DriveError: unless it has a name, a type (human or bot), and no level or, for a
        bot, one of :data:`engine.levels.LEVELS`.
    """
    if not (isinstance(player, Mapping) and isinstance(player.get("name"), str)
            and player.get("type") in ("human", "bot")):
        raise DriveError("every player of a drive is an object with a name and a type, human "
                         "or bot")
    level = player.get("level")
    try:
        check_level(player["type"], level, f"player {player['name']!r}")
    except BotLevelError as error:
        raise DriveError(str(error)) from None
    kept = {"name": player["name"], "type": player["type"]}
    return kept if level is None else {**kept, "level": level}


def _whole(value: object, low: int = 0) -> bool:
    """True for an int (not a bool) of at least *low*."""
    return type(value) is int and value >= low


def _check_created(event: DriveCreated) -> tuple[dict[str, str], ...]:
    """Checks a drive's creation holds what a drive is made of: named players, each human or
    bot, and a schedule of *rounds* rounds seating every player once a round at tables of
    *table_size*; returns its players as the drive's state keeps them (:func:`_player_of`).

    :raises DriveError: naming what does not fit.
    """
    players = tuple(_player_of(p) for p in event.players)
    if event.movement is not None and event.movement not in MOVEMENTS:
        raise DriveError(f"a drive's movement is {' or '.join(MOVEMENTS)}, not "
                         f"{event.movement!r}")
    if event.odd_players is not None and event.odd_players not in ODD_PLAYERS:
        raise DriveError(f"a drive seats odd players by {' or '.join(ODD_PLAYERS)}, not "
                         f"{event.odd_players!r}")
    if event.round_minutes is not None and not _whole(event.round_minutes, 1):
        raise DriveError(f"a drive's round_minutes is a whole number of minutes, not "
                         f"{event.round_minutes!r}")
    if event.rank_by is not None and event.rank_by not in RANKINGS:
        raise DriveError(f"a drive ranks by {' or '.join(RANKINGS)}, not {event.rank_by!r}")
    paper = event.paper_tables or ()
    count = len(event.schedule[0]) if event.schedule else 0
    if not all(_whole(t, 1) and t <= count for t in paper) or len(set(paper)) != len(paper):
        raise DriveError(f"a drive's paper tables are distinct tables 1 to {count}, not "
                         f"{list(paper)!r}")
    if paper and event.format != "progressive":
        raise DriveError("a duplicate board's cards are dealt by the server and hidden until "
                         "every table has played it: paper tables play progressive drives")
    size = event.table_size
    if not _whole(size, 4) or size % 2 or not _whole(event.boards) or not _whole(event.rounds, 1):
        raise DriveError(f"a drive of tables of {size!r}, {event.rounds!r} rounds and "
                         f"{event.boards!r} boards is not one")
    known = 1 if event.movement == SEATED_AT_START else event.rounds
    if len(event.schedule) != known:
        raise DriveError(f"the schedule has {len(event.schedule)} rounds, not {known}")
    everyone = list(range(len(players)))
    for number, tables in enumerate(event.schedule, start=1):
        if not all(isinstance(t, tuple) and len(t) == size for t in tables) or sorted(
                p if _whole(p) else -1 for t in tables for p in t) != everyone:
            raise DriveError(f"round {number} of the schedule does not seat every player once "
                             f"at tables of {size}")
    return players


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
    schedule = state.schedule
    if event.tables is not None:
        tables = tuple(tuple(t) for t in event.tables)
        _check_round(state, tables, f"round {event.round}")
        schedule = (*schedule[:event.round - 1], tables, *schedule[event.round:])
    elif len(schedule) < event.round:
        raise DriveError(f"round {event.round} starts without its tables (the schedule has "
                         f"{len(schedule)} rounds)")
    if len(event.games) != len(schedule[event.round - 1]):
        raise DriveError(f"round {event.round} starts {len(event.games)} games for "
                         f"{len(schedule[event.round - 1])} tables")
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
    out = sitting_out(schedule[event.round - 1], state.present)
    return _next(state, schedule=schedule, played=(*played, RoundState(
        event.round, tuple(event.games), boards, sitting_out=out)))


def _check_round(state: DriveState, tables: tuple[Table, ...], what: str) -> None:
    """Checks *tables* seat present players only, each at most once, at tables of the
    drive's size, leaving out fewer than a table's worth.

    :raises DriveError: naming what does not fit.
    """
    present = set(state.present)
    seated = [p for t in tables for p in t]
    if not tables or not all(len(t) == state.size for t in tables) or len(set(seated)) != len(
            seated) or not all(_whole(p) and p in present for p in seated):
        raise DriveError(f"{what} does not seat players of the drive still there, each once, "
                         f"at tables of {state.size}")
    if len(present) - len(seated) >= state.size:
        raise DriveError(f"{what} leaves {len(present) - len(seated)} players out: they fill "
                         "a table")


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
    adjusted = _check_adjusted(state, event.adjusted, "an abandoned table")
    if not isinstance(event.reason, str):
        raise DriveError("a director's reason is text")
    return _next(state, adjustments=(*state.adjustments, Adjustment(
        event.round, event.table, adjusted, event.reason)))


def _check_adjusted(state: DriveState, adjusted: object, what: str) -> tuple[str, ...]:
    """Returns *adjusted* as one key of :data:`ADJUSTED` per side of the drive's tables.

    :raises DriveError: if it is not.
    """
    given = tuple(adjusted) if isinstance(adjusted, Sequence) and not isinstance(
        adjusted, str) else ()
    if len(given) != state.sides or not all(a in ADJUSTED for a in given):
        raise DriveError(f"{what}'s adjusted score names one of {', '.join(ADJUSTED)} for "
                         f"each of its {state.sides} sides")
    return given


@_apply.register
def _board_abandoned(event: BoardAbandoned, state: DriveState) -> DriveState:
    if state.format != "duplicate":
        raise DriveError("only a duplicate drive has boards to abandon: a progressive table "
                         "deals its own (abandon the table)")
    current = _round(state.played, event.round)
    if current.called:
        raise DriveError(f"round {event.round} is called: its tables end as they stand")
    if not _whole(event.table, 1) or event.table > len(current.games):
        raise DriveError(f"round {event.round} has no table {event.table!r} (tables 1 to "
                         f"{len(current.games)})")
    if not _whole(event.deal, 1) or event.deal > len(current.boards):
        raise DriveError(f"round {event.round} has no board {event.deal!r} (boards 1 to "
                         f"{len(current.boards)})")
    if state.adjustment(event.round, event.table) is not None:
        raise DriveError(f"table {event.table} of round {event.round} is abandoned already")
    if state.board_adjustment(event.round, event.table, event.deal) is not None:
        raise DriveError(f"board {event.deal} of table {event.table} in round {event.round} "
                         "is abandoned already")
    if current.boards[event.deal - 1].seed is not None:
        raise DriveError(f"board {event.deal} of round {event.round} is revealed: every table "
                         "has played it")
    adjusted = _check_adjusted(state, event.adjusted, "an abandoned board")
    if not isinstance(event.reason, str):
        raise DriveError("a director's reason is text")
    return _next(state, board_adjustments=(*state.board_adjustments, BoardAdjustment(
        event.round, event.table, event.deal, adjusted, event.reason)))


@_apply.register
def _round_called(event: RoundCalled, state: DriveState) -> DriveState:
    current = _round(state.played, event.round)
    if current.called:
        raise DriveError(f"round {event.round} is called already")
    if not isinstance(event.reason, str):
        raise DriveError("a director's reason is text")
    return _next(state, played=(*state.played[:-1], dataclasses.replace(current, called=True)))


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
    for table in state.paper_tables:
        card = state.score_card(event.round, table)
        if state.adjustment(event.round, table) is None and (card is None or not card.confirmed):
            raise DriveError(f"round {event.round} ends before the score card of paper table "
                             f"{table} is confirmed")
    ended = dataclasses.replace(current, ended=True, heads=heads)
    return _next(state, played=(*state.played[:-1], ended))


@_apply.register
def _drive_finished(event: DriveFinished, state: DriveState) -> DriveState:
    if len(state.played) != state.rounds or not state.played[-1].ended:
        raise DriveError("a drive finishes only after its last round")
    return _next(state, finished=True)


@_apply.register
def _player_substituted(event: PlayerSubstituted, state: DriveState) -> DriveState:
    player = event.player
    if not _whole(player) or player >= len(state.players) or player in state.withdrawn:
        raise DriveError(f"player {player!r} is not a player of the drive still there")
    if not isinstance(event.reason, str):
        raise DriveError("a substitution gives its reason as text")
    newcomer = _player_of({"name": event.name, "type": event.type, "level": event.level})
    if not newcomer["name"].strip():
        raise DriveError("a substitute has a name that is not blank")
    if not state.between_rounds and event.type != state.players[player]["type"]:
        raise DriveError("a bot and a person change places only between rounds")
    before = state.players[player]
    players = (*state.players[:player], newcomer, *state.players[player + 1:])
    return _next(state, players=players, roster=(*state.roster, RosterChange(
        "substitute", state.next_round, player, event.name, before, event.reason)))


@_apply.register
def _player_added(event: PlayerAdded, state: DriveState) -> DriveState:
    return _roster_changed(state, event.players, event.withdrawn, event.schedule,
                           event.reason, arrival=True)


@_apply.register
def _player_withdrawn(event: PlayerWithdrawn, state: DriveState) -> DriveState:
    return _roster_changed(state, event.players, event.withdrawn, event.schedule,
                           event.reason, arrival=False)


def _roster_changed(state: DriveState, players: Sequence[Mapping[str, str]],
                    withdrawn: Sequence[int], schedule: Sequence[Sequence[Table]],
                    reason: str, *, arrival: bool) -> DriveState:
    """Returns *state* with *players* added and *withdrawn* withdrawn between rounds, and the
    rounds not started seated by *schedule*; with *arrival*, the first player added is the
    director's arrival (the others are house bots), else the first withdrawn is the
    director's withdrawal (the others house bots stood down)."""
    what = "an arrival" if arrival else "a withdrawal"
    if not state.between_rounds:
        raise DriveError(f"{what} waits for the end of round {state.played[-1].number}")
    if not isinstance(reason, str):
        raise DriveError(f"{what} gives its reason as text")
    players = [_player_of(p) for p in players]
    if (arrival and not players) or (not arrival and not withdrawn) or not all(
            p["type"] == "bot" for p in players[1 if arrival else 0:]):
        raise DriveError(f"{what} names its player; only house bots come and go with it")
    count = len(state.players)
    house = [count + i for i in range(1 if arrival else 0, len(players))]
    if len(set(withdrawn)) != len(withdrawn) or not all(
            _whole(p) and p < count and p not in state.withdrawn for p in withdrawn) or not all(
            p in state.house_bots for p in withdrawn[0 if arrival else 1:]):
        raise DriveError(f"{what} withdraws players of the drive still there (beside the "
                         "player withdrawn, house bots only)")
    number = state.next_round
    changes = [RosterChange("add_player", number, count + i, p["name"], None, reason)
               for i, p in enumerate(players)]
    changes += [RosterChange("withdraw_player", number, p, state.players[p]["name"], None,
                             reason) for p in withdrawn]
    after = dataclasses.replace(
        state, players=(*state.players, *players),
        withdrawn=(*state.withdrawn, *withdrawn), house_bots=(*state.house_bots, *house),
        roster=(*state.roster, *changes))
    rest = tuple(tuple(tuple(t) for t in r) for r in schedule)
    known = (1 if not state.played else 0) if state.movement == SEATED_AT_START else (
        state.rounds - len(state.played))
    if len(rest) != known:
        raise DriveError(f"{what} seats {len(rest)} rounds again, not the {known} still to "
                         "start")
    for offset, tables in enumerate(rest):
        _check_round(after, tables, f"round {number + offset} seated again")
    return _next(after, schedule=(*state.schedule[:len(state.played)], *rest))


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


def _paper_table(state: DriveState, round_number: int, table: int) -> RoundState:
    """Returns the round in play, checking *table* is one of its paper tables and is not
    abandoned.

    :raises DriveError: if it is not.
    """
    current = _round(state.played, round_number)
    if not _whole(table, 1) or table > len(current.games) or not state.is_paper(table):
        raise DriveError(f"table {table!r} of round {round_number} is not a paper table (paper "
                         f"tables: {', '.join(map(str, state.paper_tables)) or 'none'})")
    if state.adjustment(round_number, table) is not None:
        raise DriveError(f"table {table} of round {round_number} was abandoned by the director")
    return current


def _side_of(state: DriveState, side: object, who: str) -> int | None:
    """Returns *side* if it is one of the drive's sides, or ``None`` (the director).

    :raises DriveError: if it is neither.
    """
    if side is None:
        return None
    if not _whole(side) or not isinstance(side, int) or side >= state.sides:
        raise DriveError(f"{who} is a player of side 0 to {state.sides - 1}, or the director")
    return side


@_apply.register
def _score_card_entered(event: ScoreCardEntered, state: DriveState) -> DriveState:
    _paper_table(state, event.round, event.table)
    side = _side_of(state, event.side, "a score card's writer")
    before = state.score_card(event.round, event.table)
    if before is not None and before.confirmed and side is not None:
        raise DriveError(f"the score card of table {event.table} is confirmed: only the "
                         "director corrects it now")
    deals = tuple(ScoreCardDeal(d.get("dealer", -1), tuple(d["points"]))
                  if isinstance(d, Mapping) and isinstance(d.get("points"), Sequence)
                  else ScoreCardDeal(-1, ()) for d in event.deals)
    rules = make_ruleset(state.profile, state.options, state.size)
    try:
        result = score_card_result(rules, deals, winner=event.winner,
                                   called=round_called(state, event.round))
    except ScoreCardError as error:
        raise ScoreCardRefused(f"table {event.table}'s score card: {error}") from None
    if event.record is not None and not (isinstance(event.record, str)
                                         and _RECORD.fullmatch(event.record)):
        raise DriveError(f"a score card's record is a kept history's id (h- and 32 hex "
                         f"digits), not {event.record!r}")
    card = ScoreCard(event.round, event.table, side, deals, result, record=event.record)
    return _next(state, score_cards=(*(c for c in state.score_cards if c is not before), card))


@_apply.register
def _score_card_confirmed(event: ScoreCardConfirmed, state: DriveState) -> DriveState:
    _paper_table(state, event.round, event.table)
    side = _side_of(state, event.side, "a score card's confirmer")
    card = state.score_card(event.round, event.table)
    if card is None or card.confirmed:
        raise DriveError(f"table {event.table} has no score card waiting to be confirmed")
    if side is not None and card.side is not None and side == card.side:
        raise DriveError(f"side {side_name(side)} entered table {event.table}'s score card: "
                         "another side, or the director, confirms it")
    if side is not None and card.disputed is not None:
        raise DriveError(f"table {event.table}'s score card is disputed: enter it again, or "
                         "the director confirms it")
    confirmed = dataclasses.replace(card, confirmed=True, confirmed_by=side, disputed=None)
    return _next(state, score_cards=tuple(confirmed if c is card else c
                                          for c in state.score_cards))


@_apply.register
def _score_card_disputed(event: ScoreCardDisputed, state: DriveState) -> DriveState:
    _paper_table(state, event.round, event.table)
    side = _side_of(state, event.side, "a score card's disputer")
    card = state.score_card(event.round, event.table)
    if card is None or card.confirmed:
        raise DriveError(f"table {event.table} has no score card waiting to be confirmed (a "
                         "confirmed one is the director's to correct)")
    if side is None or side == card.side:
        raise DriveError("a player of another side than its writer disputes a score card")
    if not isinstance(event.reason, str):
        raise DriveError("a dispute's reason is text")
    disputed = dataclasses.replace(card, disputed=event.reason)
    return _next(state, score_cards=tuple(disputed if c is card else c
                                          for c in state.score_cards))


def _next(state: DriveState, **changes: Any) -> DriveState:
    """Returns *state* one version on, with *changes*."""
    if state.finished:
        raise DriveError("nothing follows a drive's finish")
    return dataclasses.replace(state, version=state.version + 1, **changes)


def _round(played: Sequence[RoundState], number: int) -> RoundState:
    if not played or played[-1].number != number or played[-1].ended:
        raise DriveError(f"round {number} is not the round in play")
    return played[-1]


def round_called(state: DriveState, round_number: int) -> bool:
    """True if round *round_number* was ended at its time (``round_called``)."""
    return any(played.called for played in state.played if played.number == round_number)
