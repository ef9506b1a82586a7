"""The director of a drive: each action, checked and appended as a drive event whose actor is
the director (docs/api.md, "Running an evening: the director").

Refusals are :class:`DirectorRefusal`, each with a ``code`` and an HTTP ``status`` of its
own, decided before anything is appended; the drive's fold (:mod:`engine.drives`) checks the
event again as it folds it, so a history holds only actions that fitted the drive then.
"""

from __future__ import annotations

import dataclasses
import hmac
import itertools
from collections.abc import Sequence
from typing import Any

from engine.drive_state import ADJUSTED, DriveState, RoundState
from engine.drives import apply_drive_event
from engine.errors import DriveError, shown
from engine.levels import BotLevelError, check_level, default_level
from engine.seating import SEATED_AT_START, choose_sit_outs, schedule_of
from events.drive_store import DriveStore
from events.drive_types import (
    BoardAbandoned,
    DrivePaused,
    DriveResumed,
    DriveStopped,
    PlayerAdded,
    PlayerSubstituted,
    PlayerWithdrawn,
    RoundCalled,
    TableAbandoned,
)
from events.envelope import DIRECTOR
from events.errors import ConcurrencyError
from events.types import Event
from service.application import commands
from service.application.drives import (
    DIRECTOR_SECRET,
    MAX_TABLES,
    DirectorTokenError,
    check_player_name,
    load,
)
from service.application.names import SeatNameError, name_key
from service.application.tokens import TokenRegistry, new_token, token_digest

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "pause": (), "resume": (), "stop": (),
    "abandon_table": ("table", "adjusted", "round"),
    "abandon_board": ("table", "board", "adjusted", "round"),
    "end_round": ("round",),
    "substitute": ("player", "name", "type", "level"),
    "add_player": ("name", "type", "level"),
    "withdraw_player": ("player",),
}
"""The fields each director action takes beside ``action`` and ``reason`` (docs/api.md,
"Running an evening"): any other is refused, not ignored. ``round``, where taken, names the
round the director means, so that a request arriving after that round ended acts on no other."""

DIRECTOR_ACTIONS = tuple(ACTION_FIELDS)
"""What a director can do to a drive (docs/api.md, "Running an evening")."""


class DirectorRefusal(DriveError):
    """Raised for a director's action that does not fit the drive now, or names what the
    drive does not have; ``code`` and ``status`` are its problem's (docs/api.md)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


@dataclasses.dataclass(frozen=True, slots=True)
class Directed:
    """What a director's action did: the drive after it and, when it seated a person, their
    player number and token (shown once)."""

    drive: DriveState
    player: int | None = None
    token: str | None = None


def direct(drives: DriveStore, drive_id: str, token: str | None, action: str,
           reason: str = "", *, fields: dict[str, Any] | None = None,
           cache: commands.GameCache | None = None,
           tokens: TokenRegistry | None = None) -> Directed:
    """Carries out the director's *action* on *drive_id* with its *fields* (``table``,
    ``board``, ``adjusted``, ``round``, ``player``, ``name``, ``type``, ``level``: those
    :data:`ACTION_FIELDS` gives it; docs/api.md) as one
    drive event whose actor is the director. With the games' *cache*, a table whose game is
    over is not abandoned, and a board a table has played or not reached is not abandoned
    there; with *tokens*, a person who takes another's seat in the round in play gets it at
    once.

    :raises DriveNotFoundError: if there is no such drive.
    :raises DirectorTokenError: if *token* is not its director's.
    :raises DirectorRefusal: if the action does not fit the drive now, or is given a field it
        does not take; nothing is appended.
    """
    load(drives, drive_id)  # Not found first: a missing drive has no director either.
    if token is None:
        raise DirectorTokenError("a director's action needs the director's token: "
                                 "Authorization: Bearer <director_token>", missing=True)
    kept = drives.secrets(drive_id).get(DIRECTOR_SECRET)
    if kept is None or not hmac.compare_digest(kept, token_digest(token)):
        raise DirectorTokenError(f"that is not the director's token of drive {drive_id!r}",
                                 missing=False)
    if action not in DIRECTOR_ACTIONS:
        raise DirectorRefusal(422, "director_action_incomplete",
                              f"a director can {', '.join(DIRECTOR_ACTIONS)}, not "
                              f"{shown(action)}")
    given = {k: v for k, v in (fields or {}).items() if v is not None}
    stray = sorted(f for f in given if f not in ACTION_FIELDS[action])
    if stray:
        raise DirectorRefusal(422, "field_not_taken",
                              f"{action} does not take {_listed(stray, 'or')} (it takes "
                              f"{_listed([*ACTION_FIELDS[action], 'reason'], 'and')})")
    new = new_token()
    while True:
        drive, head = load(drives, drive_id)
        event, seated = _decide(drive, action, reason, given, cache)
        secret: dict[str, str] = {}
        if seated is not None and given.get("type") == "human":
            secret = {f"token:{seated}": token_digest(new)}
        elif seated is not None:
            secret = {f"token:{seated}": ""}  # A bot's place opens with no token.
        try:
            after = apply_drive_event(drive, event)
        except DriveError as error:
            raise DirectorRefusal(409, "drive_conflict", str(error)) from None
        if secret:
            # Before the event: a round that starts right after it finds the newcomer's
            # token; the old one opens no table of a round started from now on.
            drives.replace_secrets(drive_id, secret)
        try:
            drives.append(drive_id, drive.version, [event], head=head, actor=DIRECTOR)
        except ConcurrencyError:
            continue  # The workers moved it on meanwhile: decide again.
        if isinstance(event, PlayerSubstituted) and tokens is not None:
            _hand_over_seat(after, event.player, secret, tokens)
        return Directed(after, seated if secret.get(f"token:{seated}") else None,
                        new if secret.get(f"token:{seated}") else None)


def _listed(names: Sequence[str], last: str) -> str:
    """Returns *names* as a list in words: ``a``, ``a and b``, ``a, b and c``."""
    return f"{', '.join(names[:-1])} {last} {names[-1]}" if len(names) > 1 else names[0]


def _decide(drive: DriveState, action: str, reason: str, given: dict[str, Any],
            cache: commands.GameCache | None) -> tuple[Event, int | None]:
    """Returns the event *action* makes of *drive* now, and the player it seats (a
    substitute's place, an arrival's number), or refuses it."""
    if drive.finished:
        raise DirectorRefusal(409, "drive_finished",
                              f"drive {drive.drive_id!r} is finished: there is nothing to "
                              f"{action}")
    if action == "pause":
        if drive.paused:
            raise DirectorRefusal(409, "drive_paused", "the drive is paused already")
        return DrivePaused(reason), None
    if action == "resume":
        if not drive.paused:
            raise DirectorRefusal(409, "drive_not_paused", "the drive is not paused")
        return DriveResumed(), None
    if action == "abandon_table":
        return _abandon(drive, reason, given, cache), None
    if action == "abandon_board":
        return _abandon_board(drive, reason, given, cache), None
    if action == "end_round":
        current = _round_in_play(drive, given, "the bell ends the round in play")
        if current.called:
            raise DirectorRefusal(409, "round_called",
                                  f"round {current.number} is called already")
        return RoundCalled(current.number, reason), None
    if action == "stop":
        _between_rounds(drive, "the drive stops between rounds (pause it, and stop it once "
                               "the round has ended)")
        return DriveStopped(reason), None
    if action == "substitute":
        player = _player(drive, given)
        newcomer = _newcomer(drive, given, replacing=player)
        if newcomer["type"] != drive.players[player]["type"]:
            _between_rounds(drive, "a bot and a person change places between rounds (pause "
                                   "the drive, and substitute once the round has ended)")
        return PlayerSubstituted(player, newcomer["name"], newcomer["type"], reason,
                                 newcomer.get("level")), player
    if action == "add_player":
        _between_rounds(drive, "a late arrival joins between rounds (pause the drive, and "
                               "add them once the round has ended)")
        added, withdrawn = _house_bots(drive, [_newcomer(drive, given, replacing=None)], [])
        return PlayerAdded(tuple(added), tuple(withdrawn),
                           _seat_again(drive, len(added), withdrawn), reason), len(
            drive.players)
    _between_rounds(drive, "a withdrawal waits for the end of the round (pause the drive, "
                           "and withdraw the player once the round has ended)")
    player = _player(drive, given)
    added, withdrawn = _house_bots(drive, [], [player])
    return PlayerWithdrawn(tuple(added), tuple(withdrawn),
                           _seat_again(drive, len(added), withdrawn), reason), None


def _abandon(drive: DriveState, reason: str, given: dict[str, Any],
             cache: commands.GameCache | None) -> TableAbandoned:
    current = _round_in_play(drive, given, "a table is abandoned during its round")
    missing = [f for f in ("table", "adjusted") if f not in given]
    if missing:
        raise DirectorRefusal(422, "director_action_incomplete",
                              f"abandon_table needs {' and '.join(missing)}")
    table, adjusted = given["table"], tuple(given["adjusted"])
    if not 1 <= table <= len(current.games):
        raise DirectorRefusal(422, "unknown_table", f"round {current.number} has no table "
                                                    f"{table} (tables 1 to {len(current.games)})")
    if drive.adjustment(current.number, table) is not None:
        raise DirectorRefusal(409, "table_abandoned",
                              f"table {table} of round {current.number} is abandoned already")
    if len(adjusted) != drive.sides or not all(a in ADJUSTED for a in adjusted):
        raise DirectorRefusal(422, "adjusted_per_side",
                              f"an abandoned table's adjusted score names one of "
                              f"{', '.join(ADJUSTED)} for each of its {drive.sides} sides")
    if drive.is_paper(table):
        card = drive.score_card(current.number, table)
        if card is not None and card.confirmed:
            raise DirectorRefusal(409, "table_over", f"table {table} of round "
                                  f"{current.number} has its score card confirmed: there is "
                                  "nothing to abandon")
    elif cache is not None and commands.load(
            cache, current.games[table - 1]).state.phase == "over":
        raise DirectorRefusal(409, "table_over", f"table {table} of round {current.number} "
                                                 "is over: there is nothing to abandon")
    return TableAbandoned(current.number, table, adjusted, reason)


def _abandon_board(drive: DriveState, reason: str, given: dict[str, Any],
                   cache: commands.GameCache | None) -> BoardAbandoned:
    """Returns the abandonment of the board a table of a duplicate round is playing, or
    refuses it: the table skips it, and each side scores the adjusted score named on it."""
    if drive.format != "duplicate":
        raise DirectorRefusal(422, "not_duplicate",
                              f"drive {drive.drive_id!r} is {drive.format}: only a duplicate "
                              "drive has boards to abandon (abandon the table)")
    current = _round_in_play(drive, given, "a board is abandoned during its round")
    missing = [f for f in ("table", "board", "adjusted") if f not in given]
    if missing:
        raise DirectorRefusal(422, "director_action_incomplete",
                              f"abandon_board needs {', '.join(missing)}")
    table, deal, adjusted = given["table"], given["board"], tuple(given["adjusted"])
    if not 1 <= table <= len(current.games):
        raise DirectorRefusal(422, "unknown_table", f"round {current.number} has no table "
                                                    f"{table} (tables 1 to {len(current.games)})")
    if not 1 <= deal <= len(current.boards):
        raise DirectorRefusal(422, "unknown_board", f"round {current.number} has no board "
                                                    f"{deal} (boards 1 to {len(current.boards)})")
    if len(adjusted) != drive.sides or not all(a in ADJUSTED for a in adjusted):
        raise DirectorRefusal(422, "adjusted_per_side",
                              f"an abandoned board's adjusted score names one of "
                              f"{', '.join(ADJUSTED)} for each of its {drive.sides} sides")
    if current.called:
        raise DirectorRefusal(409, "round_called", f"round {current.number} is called: its "
                                                   "tables end as they stand")
    if drive.adjustment(current.number, table) is not None:
        raise DirectorRefusal(409, "table_abandoned",
                              f"table {table} of round {current.number} is abandoned already")
    if drive.board_adjustment(current.number, table, deal) is not None:
        raise DirectorRefusal(409, "board_abandoned", f"board {deal} of table {table} in "
                                                      f"round {current.number} is abandoned "
                                                      "already")
    if current.boards[deal - 1].seed is not None:
        raise DirectorRefusal(409, "board_played", f"board {deal} of round {current.number} "
                                                   "is revealed: every table has played it")
    if cache is not None:
        state = commands.load(cache, current.games[table - 1]).state
        playing = state.deal
        if state.phase == "over" or (playing is not None and (
                playing.number > deal or (playing.number == deal
                                          and playing.phase == "over"))):
            raise DirectorRefusal(409, "board_played", f"table {table} has played board "
                                                       f"{deal}: there is nothing to abandon")
        if playing is None or playing.number < deal:
            raise DirectorRefusal(409, "board_not_reached",
                                  f"table {table} is not playing board {deal} yet (it is on "
                                  f"board {playing.number if playing else 1}): a board is "
                                  "abandoned at a table while the table plays it")
    return BoardAbandoned(current.number, table, deal, adjusted, reason)


def _round_in_play(drive: DriveState, given: dict[str, Any], why: str) -> RoundState:
    """Returns the round in play, which an action on it acts on: the one ``round`` names, if
    given.

    :raises DirectorRefusal: 409 ``round_not_in_play`` if ``round`` names another (the
        director's page showed a round that has ended since), else 409 ``no_round_in_play``
        between rounds (*why* says when the action is done).
    """
    current = drive.current
    playing = current if current is not None and not current.ended else None
    named = given.get("round")
    if named is not None and (playing is None or named != playing.number):
        started = current is not None and named <= current.number
        now = f"round {playing.number} is in play" if playing else "no round is in play"
        raise DirectorRefusal(409, "round_not_in_play",
                              f"round {named} {'is over' if started else 'has not started'}; "
                              f"{now}: nothing is done")
    if playing is None:
        raise DirectorRefusal(409, "no_round_in_play", f"no round is in play: {why}")
    return playing


def _between_rounds(drive: DriveState, why: str) -> None:
    if not drive.between_rounds:
        raise DirectorRefusal(409, "round_in_play",
                              f"round {drive.played[-1].number} is in play: {why}")


def _player(drive: DriveState, given: dict[str, Any]) -> int:
    if "player" not in given:
        raise DirectorRefusal(422, "director_action_incomplete", "name the player (player)")
    player = given["player"]
    if not 0 <= player < len(drive.players):
        raise DirectorRefusal(422, "unknown_player", f"the drive has no player {player} "
                                                     f"(players 0 to {len(drive.players) - 1})")
    if player in drive.withdrawn:
        raise DirectorRefusal(409, "player_withdrawn",
                              f"{drive.players[player]['name']} (player {player}) has left "
                              "the drive")
    return int(player)


def _bot_level(drive: DriveState, joining: Sequence[dict[str, str]],
               leaving: Sequence[int]) -> str:
    """Returns the level of a bot the director brings without naming one: as at the drive's
    creation, :func:`engine.levels.default_level` of the players there once *joining* have
    joined and *leaving* left (strong while a person plays in the drive)."""
    return default_level([*(drive.players[p]["type"] for p in drive.present
                            if p not in leaving), *(p["type"] for p in joining)])


def _newcomer(drive: DriveState, given: dict[str, Any],
              replacing: int | None) -> dict[str, str]:
    """Returns the player the director brings (``{"name", "type"}``, and a bot's ``level``:
    the one named, else :func:`_bot_level`), in *replacing*'s place or as an arrival."""
    missing = [f for f in ("name", "type") if f not in given]
    if missing:
        raise DirectorRefusal(422, "director_action_incomplete",
                              f"name the newcomer ({' and '.join(missing)})")
    name, kind = str(given["name"]), str(given["type"])
    try:
        check_player_name(name, "the newcomer's name")
    except SeatNameError as error:
        raise DirectorRefusal(422, "invalid_name", str(error)) from None
    key = name_key(name)
    for index, player in enumerate(drive.players):
        if index != replacing and name_key(player["name"]) == key:
            raise DirectorRefusal(409, "name_taken", f"{shown(name)} is the name of "
                                                     f"{shown(player['name'])} (player {index})")
    newcomer = {"name": name, "type": kind}
    level = given.get("level")
    try:
        check_level(kind, level, shown(name))
    except BotLevelError as error:  # A person's level is malformed, as at the creation.
        raise DirectorRefusal(422, "unknown_bot_level" if kind == "bot" else "invalid_request",
                              str(error)) from None
    if kind == "bot":
        newcomer["level"] = level or _bot_level(drive, [newcomer], [] if replacing is None
                                                else [replacing])
    return newcomer


def _house_bots(drive: DriveState, arrivals: list[dict[str, str]],
                leaving: list[int]) -> tuple[list[dict[str, str]], list[int]]:
    """Returns the players the change adds (*arrivals*, then house bots) and withdraws
    (*leaving*, then house bots stood down): with ``odd_players`` ``bots``, as many as make
    the players still there fill the tables, standing bots down before seating more."""
    count = len(drive.present) + len(arrivals) - len(leaving)
    minimum = drive.size * (2 if drive.format == "duplicate" else 1)
    added, withdrawn = list(arrivals), list(leaving)
    if drive.odd_players == "bots" and count % drive.size:
        spare = [p for p in reversed(drive.house_bots)
                 if p not in drive.withdrawn and p not in leaving]
        over = count % drive.size
        if len(spare) >= over and count - over >= minimum:
            withdrawn += spare[:over]
        else:
            taken = {name_key(p["name"]) for p in (*drive.players, *arrivals)}
            names = (f"Bot {n}" for n in itertools.count(1) if name_key(f"Bot {n}") not in taken)
            level = _bot_level(drive, arrivals, leaving)
            added += [{"name": next(names), "type": "bot", "level": level}
                      for _ in range(drive.size - over)]
        count = len(drive.present) + len(added) - len(withdrawn)
    if count < minimum:
        raise DirectorRefusal(422, "drive_too_small", f"{count} players would be left: a "
                                                      f"{drive.format} drive needs {minimum}")
    if count // drive.size > MAX_TABLES:
        raise DirectorRefusal(422, "drive_too_large", f"a drive has at most {MAX_TABLES} "
                                                      "tables a round")
    return added, withdrawn


def _seat_again(drive: DriveState, added: int,
                withdrawn: Sequence[int]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Returns the rounds not yet started, seated by the drive's movement over the players
    still there after the change (the players then present, in the order they joined,
    numbered into the movement; who sits out rotates by :func:`choose_sit_outs`)."""
    present = [p for p in (*drive.present, *range(len(drive.players),
                                                  len(drive.players) + added))
               if p not in withdrawn]
    start = len(drive.played)
    if drive.movement == SEATED_AT_START:
        rounds = 1 if start == 0 else 0
        movement_name = "round_robin"
    else:
        rounds = drive.rounds - start
        movement_name = drive.movement
    sat_out = [p for played in drive.played for p in played.sitting_out]
    over = len(present) % drive.size
    seated_count = len(present) - over
    plan = schedule_of(movement_name, seated_count, drive.size, start + rounds)
    schedule = []
    for number in range(start, start + rounds):
        out = choose_sit_outs(present, over, sat_out)
        sat_out += out
        seated = [p for p in present if p not in out]
        schedule.append(tuple(tuple(seated[i] for i in table) for table in plan[number]))
    return tuple(schedule)


def _hand_over_seat(drive: DriveState, player: int, secret: dict[str, str],
                    tokens: TokenRegistry) -> None:
    """Gives a person who took another person's place in the round in play that seat of its
    game at once (the old token's digest is replaced)."""
    digest = secret.get(f"token:{player}")
    current = drive.current
    if not digest or current is None or current.ended:
        return
    for game, table in zip(current.games, drive.schedule[current.number - 1], strict=True):
        if player in table:
            tokens.register_digests(game, {table.index(player): digest})
            tokens.forget(game)
