"""Drives: create one, advance it round by round, and show it (the glue of store and engine).

:func:`create_drive` checks everything and appends the drive's creation with its whole
schedule; nothing else happens in the request. The workers then call :func:`advance` whenever
the feed shows the drive or one of its games moving (workers/drives.py): it starts the next
round's games, reveals a duplicate board once every table has finished that deal, and ends the
round, then the drive, when every game is over. Each step is idempotent: games have ids fixed
by the drive (``<drive>.<round>.<table>``), appends carry the version they were decided on and
a command id, and secrets are kept with set-if-absent, so two advances racing or a retry change
nothing twice. When a round has ended, and when the drive has, :func:`advance` signs a
checkpoint of the drive there (as a worker signs a game's at each deal's end) and keeps it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.actions import start_game
from engine.boards import BOARD_ALGORITHM, PLAYED_OUT
from engine.drive_state import (
    FORMATS,
    RANKINGS,
    DriveState,
    RoundState,
)
from engine.drives import fold_drive, game_id_of, player_level
from engine.errors import DriveError, shown
from engine.fold import apply_event
from engine.levels import check_level, default_level
from engine.paper import ScoreCardError, check_paper_rules
from engine.profiles import RuleSet, make_ruleset
from engine.seating import (
    ODD_PLAYERS,
    SEATED_AT_START,
    check_players,
    choose_sit_outs,
    mover,
    schedule_of,
    seat_present,
    table_size,
    winners_move,
)
from engine.standings import (
    TableResult,
    paper_results,
    public_results,
    standings,
    standings_document,
    table_result,
    table_winner,
)
from engine.state import GameState
from events.chain import GENESIS_HASH
from events.drive_store import DriveStore, is_drive_id
from events.drive_types import (
    BoardRevealed,
    DriveCreated,
    DriveFinished,
    DriveStopped,
    RoundCalled,
    RoundEnded,
    RoundStarted,
)
from events.envelope import SERVER, DriveEnvelope
from events.errors import ConcurrencyError
from events.fold_cache import Folded
from events.types import BoardDealt, BoardSkipped, Event, SeedRevealed
from events.upcasting import decode_drive
from service.application import commands, signing
from service.application.names import SeatNameError, name_key, unprintable_fault
from service.application.tokens import (
    Role,
    TokenRefusedError,
    TokenRegistry,
    new_token,
    token_digest,
)

MAX_PLAYERS = 400
MAX_TABLES = 50
"""Tables per round of a drive, at most (docs/api.md)."""
MAX_ROUNDS = 30
"""Rounds per drive, at most (docs/api.md)."""
MAX_BOARDS = 12
MAX_ROUND_MINUTES = 240
"""A drive's ``round_minutes``, at most (docs/api.md)."""
DEFAULT_BOARDS = 2
"""Boards per round of a duplicate drive when its creator names no number."""
DEFAULT_TURN_SECONDS = 120
"""The turn clock of a drive's games when its creator names none (``turn_seconds``): an absent
player's seat is played for after it, so one absence cannot halt an evening. A creator may
give ``null`` for no clock; a stalled table is then the director's to resolve."""

def new_drive_id() -> str:
    """Returns a fresh, unguessable drive id (``dr-`` and 20 hex digits)."""
    return "dr-" + secrets.token_hex(10)


def board_id(drive_id: str, round_number: int, deal: int) -> str:
    """Returns the id of a duplicate board: the context its deck is derived with."""
    return f"{drive_id}/r{round_number}/b{deal}"


class DriveNotFoundError(LookupError):
    """Raised for a drive id with no events."""

    def __init__(self, drive_id: object) -> None:
        super().__init__(f"no drive {drive_id!r}")
        self.drive_id = drive_id


def load(drives: DriveStore, drive_id: str) -> tuple[DriveState, str]:
    """Returns the drive folded and its head hash.

    :raises DriveNotFoundError: if there is no such drive.
    """
    drive, envelopes = load_envelopes(drives, drive_id)
    return drive, envelopes[-1].hash


def load_envelopes(drives: DriveStore, drive_id: str) -> tuple[DriveState, list[DriveEnvelope]]:
    """Returns the drive folded and its envelopes, as stored.

    :raises DriveNotFoundError: if there is no such drive.
    """
    if not is_drive_id(drive_id):
        raise DriveNotFoundError(drive_id)
    envelopes = drives.read(drive_id)
    if not envelopes:
        raise DriveNotFoundError(drive_id)
    return fold_drive(drive_id, (decode_drive(envelope) for envelope in envelopes)), envelopes


def check_player_name(name: str, who: str) -> None:
    """Checks a drive's player's *name* names someone: it is not blank as
    :func:`service.application.names.name_key` compares names, and it is all text
    (:func:`service.application.names.unprintable_fault`), the rules of a seat's name. The one
    check of every name a drive takes, at its creation and from its director. A refusal of a
    name that is no text says whose it is, *who* ("the name of player 3"); a blank one names
    nobody, and is refused in the same words wherever it is given.

    :raises SeatNameError: if it is blank or holds a character that is no text (the HTTP layer
        answers 422 ``invalid_name``).
    """
    if not name_key(name):
        raise SeatNameError("every player of a drive needs a name: a blank one names nobody")
    fault = unprintable_fault(name)
    if fault is not None:
        raise SeatNameError(f"{who} {fault}")


def create_drive(
    drives: DriveStore,
    *,
    profile: str,
    options: Mapping[str, Any],
    players: Sequence[Mapping[str, str]],
    format: str,
    rounds: int,
    fill_with_bots: bool = False,
    boards: int | None = None,
    admit: Callable[[int], None] | None = None,
    rank_by: str = "points",
    movement: str = "round_robin",
    odd_players: str = "bots",
    round_minutes: int | None = None,
    paper_tables: Sequence[int] | str | None = None,
) -> tuple[str, dict[int, str], str]:
    """Creates a drive and returns its id, a token per human player (by player index) and
    its director's token (only its digest is kept: :func:`direct` takes it).
    *boards* (duplicate only) defaults to :data:`DEFAULT_BOARDS`. Once the drive is known to
    be valid, and before anything is kept, *admit* is called with the number of games it will
    start (tables times rounds): the HTTP layer counts them against the creation rate limit,
    and whatever it raises leaves nothing done.

    :raises DriveError: for a bad format, count of rounds or boards, players that do not
        fill the tables or share a name, or a duplicate drive of one table.
    :raises SeatNameError: for a blank name, or one that is no text (:func:`check_player_name`).
    :raises engine.errors.ProfileError: for a bad profile or options.
    :raises engine.levels.BotLevelError: for a bot's unknown level, or a person's level (a
        bot named without one gets :func:`engine.levels.default_level` of the drive's
        players: strong where a person plays).
    """
    if format not in FORMATS:
        raise DriveError(f"format must be one of {', '.join(FORMATS)}, got {shown(format)}")
    if round_minutes is not None and not 1 <= round_minutes <= MAX_ROUND_MINUTES:
        raise DriveError(f"round_minutes must be 1 to {MAX_ROUND_MINUTES}, got "
                         f"{shown(round_minutes)}")
    if odd_players not in ODD_PLAYERS:
        raise DriveError(f"odd_players must be one of {', '.join(ODD_PLAYERS)}, got "
                         f"{shown(odd_players)}")
    if rank_by not in RANKINGS:
        raise DriveError(f"rank_by must be one of {', '.join(RANKINGS)}, got {shown(rank_by)}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise DriveError(f"rounds must be 1 to {MAX_ROUNDS}, got {rounds}")
    if format == "progressive" and boards is not None:
        raise DriveError("boards are for duplicate drives: a progressive table deals its own")
    boards = DEFAULT_BOARDS if boards is None else boards
    if format == "duplicate" and not 1 <= boards <= MAX_BOARDS:
        raise DriveError(f"boards must be 1 to {MAX_BOARDS}, got {boards}")
    size = table_size(profile)
    options = {"turn_seconds": DEFAULT_TURN_SECONDS, **options}
    rules = make_ruleset(profile, options, size)
    if format == "duplicate" and rules.match_games != 1:
        raise DriveError("a duplicate drive plays its boards once: match_games must be 1")
    if format == "duplicate" and rules.jink == "announced":
        raise DriveError("a duplicate drive plays every board out and the side with the most "
                         "points over them wins: an announced jink, which wins or loses the "
                         "game, does not fit (jink must be none)")
    if rules.sides * 2 != size:
        raise DriveError(f"a drive table seats partnerships of two; layout {rules.layout!r} "
                         "does not")
    roster = [{"name": p["name"], "type": p["type"]} for p in players]
    bot_level = default_level([p["type"] for p in players])
    for player, given in zip(roster, players, strict=True):
        level = given.get("level")
        check_level(player["type"], level, f"player {player['name']!r}")
        if player["type"] == "bot":
            player["level"] = level or bot_level
    taken: dict[str, str] = {}
    for index, player in enumerate(roster):
        name, key = player["name"], name_key(player["name"])
        check_player_name(name, f"the name of player {index}")
        if key in taken:
            raise DriveError(f"every player of a drive needs a name of their own: "
                             f"{shown(taken[key])} and {shown(name)} are the same name")
        taken[key] = name
    if fill_with_bots and len(roster) % size:
        bots = (f"Bot {number}" for number in itertools.count(1)
                if name_key(f"Bot {number}") not in taken)
        roster += [{"name": next(bots), "type": "bot", "level": bot_level}
                   for _ in range(size - len(roster) % size)]
    if len(roster) > MAX_PLAYERS:
        raise DriveError(f"a drive has at most {MAX_PLAYERS} players, got {len(roster)}")
    check_players(len(roster), size)
    if len(roster) // size > MAX_TABLES:
        raise DriveError(f"a drive has at most {MAX_TABLES} tables a round, got "
                         f"{len(roster) // size}")
    if format == "duplicate" and len(roster) == size:
        raise DriveError(f"a duplicate drive compares tables: it needs two or more, not one "
                         f"({size + 1} players or more, with fill_with_bots)")
    schedule = schedule_of(movement, len(roster), size, rounds)
    paper = paper_tables_of(paper_tables, len(schedule[0]), format, rules)
    if admit is not None:
        admit(len(roster) // size * rounds)
    drive_id = new_drive_id()
    tokens = {i: new_token() for i, p in enumerate(roster) if p["type"] == "human"}
    director = new_token()
    drives.keep_secrets(drive_id, {**{f"token:{i}": token_digest(t) for i, t in tokens.items()},
                                   DIRECTOR_SECRET: token_digest(director)})
    created = DriveCreated(
        profile=profile, options=rules.options(), players=tuple(roster), format=format,
        rounds=rounds, table_size=size, schedule=schedule,
        boards=boards if format == "duplicate" else 0, rank_by=rank_by, movement=movement,
        odd_players=odd_players, round_minutes=round_minutes,
        paper_tables=paper or None,
    )
    drives.append(drive_id, 0, [created], head=GENESIS_HASH, command_id="create")
    return drive_id, tokens, director


# The director ---------------------------------------------------------------------------------

DIRECTOR_SECRET = "director"
"""The field of a drive's secrets that keeps its director's token digest."""


class DirectorTokenError(TokenRefusedError):
    """Raised for a director's action without the drive's director token."""


def abandon_tables(store: Any, cache: commands.GameCache, drive: DriveState) -> list[str]:
    """Ends, as abandoned, the game of every table of the round in play that its director
    abandoned, or of every table when the director called the round, that is not over yet;
    returns their ids. The game's ``game_abandoned`` is the server's (it carries out the
    decision the drive's ``table_abandoned`` or ``round_called`` records), with the seconds
    the game had waited and ``after_seconds`` 0 (no idle policy was applied)."""
    current = drive.current
    if current is None or current.ended:
        return []
    done = []
    ended = range(1, len(current.games) + 1) if current.called else [
        a.table for a in drive.adjustments if a.round == current.number]
    for table in ended:
        if drive.is_paper(table):
            continue  # No game was started: its score card settles it.
        game = current.games[table - 1]
        folded = commands.load(cache, game)
        if folded.state.phase == "over":
            continue
        last = store.read(game, after=folded.version - 1, limit=1)[0].envelope.occurred_at
        idle = max(0, int(datetime.now(UTC).timestamp() - datetime.fromisoformat(
            last.replace("Z", "+00:00")).timestamp()))
        if commands.abandon(store, cache, game, expected_version=folded.version,
                            idle_seconds=idle, after_seconds=0):
            done.append(game)
    return done


def skip_boards(store: Any, cache: commands.GameCache, drive: DriveState) -> list[str]:
    """Skips, in the game of its table, every board of the round in play that its director
    abandoned at one table (``board_abandoned``) and that the table is still playing; returns
    the games it skipped a board in. The game's ``board_skipped`` is the server's (it carries
    out the drive's decision); a table that finished the board before it could be skipped
    plays on (the director's adjusted score stands for it all the same:
    :func:`engine.standings.matchpoints`), and a game that moved meanwhile is skipped at the
    next advance."""
    current = drive.current
    if current is None or current.ended:
        return []
    done = []
    for adjustment in drive.board_adjustments:
        if adjustment.round != current.number:
            continue
        game = current.games[adjustment.table - 1]
        folded = commands.load(cache, game)
        deal = folded.state.deal
        if (deal is None or deal.board is None or deal.number != adjustment.deal
                or deal.phase == "over" or folded.state.phase == "over"):
            continue
        try:
            store.append(game, folded.version, (BoardSkipped(deal.number, deal.board),),
                         actor=SERVER, command_id=f"drive:board_skipped:{deal.number}")
        except ConcurrencyError:
            continue
        done.append(game)
    return done


# Advancing ------------------------------------------------------------------------------------


def advance(
    store: Any,
    cache: commands.GameCache,
    drives: DriveStore,
    tokens: TokenRegistry,
    drive_id: str,
    entropy: commands.Entropy = commands.fresh_entropy,
    signer: signing.Publisher | signing.Signer | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> list[str]:
    """Does whatever *drive_id* is due for now; returns what it did (for logs and tests).
    With a *signer*, it also signs and keeps the checkpoint of every round end and of the
    drive's end that has none yet (:func:`keep_checkpoints`).

    :raises DriveNotFoundError: if there is no such drive.
    :raises events.store.StoreError: from the store.
    """
    done: list[str] = []
    for _step in range(4 + 2 * MAX_BOARDS):
        drive, envelopes = load_envelopes(drives, drive_id)
        head = envelopes[-1].hash
        step: Event | None = _bell_due(drive, envelopes, now())
        if step is None:
            step = _next_step(store, cache, drives, tokens, drive, entropy)
        if step is None:
            break
        try:
            drives.append(drive_id, drive.version, [step], head=head,
                          command_id=f"{step.TYPE}:{_step_key(step)}")
        except ConcurrencyError:
            continue  # Another advance moved it on: look again.
        done.append(f"{step.TYPE} {_step_key(step)}")
    if signer is not None:
        done += [f"checkpoint {moment}" for moment in keep_checkpoints(drives, drive_id, signer)]
    return done


def keep_checkpoints(drives: DriveStore, drive_id: str,
                     signer: signing.Publisher | signing.Signer) -> list[str]:
    """Signs and keeps a checkpoint of the drive at each round's end and at its finish (the
    version of that event, its hash the head) that has none kept yet; returns their moments
    (``round:<n>``, ``finished``)."""
    kept = signing.drive_checkpoints(drives.client, drive_id)
    signed: list[str] = []
    drive, envelopes = load_envelopes(drives, drive_id)
    if len(kept) >= sum(played.ended for played in drive.played) + drive.finished:
        return signed  # Every end is signed already.
    for envelope in envelopes:
        event = decode_drive(envelope)
        if isinstance(event, RoundEnded):
            moment = f"round:{event.round}"
        elif isinstance(event, DriveFinished | DriveStopped):
            moment = "finished"
        else:
            continue
        if moment in kept:
            continue
        checkpoint = signer.checkpoint(drive_id, envelope.version, envelope.hash,
                                       subject="drive_id")
        signing.store_drive_checkpoint(drives.client, checkpoint, moment)
        signed.append(moment)
    return signed


def head_checkpoint(drives: DriveStore, signer: signing.Publisher | signing.Signer,
                    drive_id: str, version: int, head: str) -> dict[str, Any]:
    """Returns the checkpoint of *drive_id* at *version* with *head*: the one kept there (a
    round's or the drive's end), else that head signed now."""
    for kept in signing.drive_checkpoints(drives.client, drive_id).values():
        if (kept["version"], kept["head"]) == (version, head):
            return kept
    return signer.checkpoint(drive_id, version, head, subject="drive_id")


def round_deadline(drive: DriveState, envelopes: Sequence[DriveEnvelope]) -> datetime | None:
    """Returns when the drive's clock calls the round in play (its start plus the drive's
    ``round_minutes``, to the next whole second), or ``None``: no clock, no round in play,
    or called already."""
    current = drive.current
    if drive.round_minutes is None or current is None or current.ended or current.called:
        return None
    for envelope in envelopes:
        event = decode_drive(envelope)
        if isinstance(event, RoundStarted) and event.round == current.number:
            started = datetime.fromisoformat(envelope.occurred_at.replace("Z", "+00:00"))
            due = started + timedelta(minutes=drive.round_minutes)
            # To the next whole second: what the view publishes and the bell's job keeps.
            return due.replace(microsecond=0) + timedelta(seconds=1 if due.microsecond else 0)
    return None


def _bell_due(drive: DriveState, envelopes: Sequence[DriveEnvelope],
              now: datetime) -> RoundCalled | None:
    """Returns the drive's clock's call of the round in play once its time is up."""
    deadline = round_deadline(drive, envelopes)
    if deadline is None or now < deadline:
        return None
    assert drive.current is not None
    return RoundCalled(drive.current.number, f"{drive.round_minutes} minutes are up")


def _step_key(step: Event) -> str:
    if isinstance(step, BoardRevealed):
        return step.board
    if isinstance(step, RoundStarted | RoundEnded | RoundCalled):
        return str(step.round)
    return "drive"


def _next_step(
    store: Any, cache: commands.GameCache, drives: DriveStore, tokens: TokenRegistry,
    drive: DriveState, entropy: commands.Entropy,
) -> Event | None:
    """Returns the next drive event due (after making the games it needs), or ``None``."""
    current = drive.current
    if drive.finished:
        return None
    if current is None or current.ended:
        if len(drive.played) == drive.rounds:
            return DriveFinished()
        if drive.paused:
            return None  # Its director holds the next round.
        number = len(drive.played) + 1
        tables = _seated_at_start(cache, drive, number)
        if tables is not None:
            drive = dataclasses.replace(drive, schedule=(*drive.schedule[:number - 1], tables))
        games, boards = _start_round(store, drives, tokens, drive, number, entropy)
        return RoundStarted(number, tuple(games), tuple(boards), tables)
    abandon_tables(store, cache, drive)
    skip_boards(store, cache, drive)
    if drive.paper_tables:
        return _paper_round_step(drives, cache, drive)
    folded = [commands.load(cache, game) for game in current.games]
    if drive.format == "duplicate":
        states = [game.state for game in folded]
        revealed = _reveal_due(drives, drive, states)
        if revealed is not None:
            return revealed
        for _board in range(2 * drive.boards + 1):
            if not _deal_boards(store, cache, drives, drive, states):
                break
            folded = [commands.load(cache, game) for game in current.games]
            states = [game.state for game in folded]
    if all(game.state.phase == "over" for game in folded):
        return _round_ended(current, folded)
    return None


def _seated_at_start(cache: commands.GameCache, drive: DriveState,
                     number: int) -> tuple[tuple[int, ...], ...] | None:
    """Returns the tables of round *number* of a ``winners_move`` drive, from the last
    round's: each table's moving side (its winner; else the side ahead, the first on equal
    points) moves on to the next table, the players who left give their seats to those
    waiting (:func:`engine.seating.seat_present`), and with ``odd_players`` ``sit_out``
    those who have sat out least, the last to join first, sit out. ``None`` for a round the
    schedule seats."""
    if drive.movement != SEATED_AT_START or number == 1:
        return None
    last = drive.played[-1]
    previous = drive.schedule[number - 2]
    paper = paper_results(drive)
    movers = []
    for table, game in enumerate(last.games, start=1):
        if drive.is_paper(table):  # Its confirmed card; abandoned, no side is ahead.
            card = paper.get(game)
            movers.append(mover(tuple(card.scores), card.winner) if card is not None
                          else mover((0,) * drive.sides, None))
            continue
        state = commands.load(cache, game).state
        movers.append(mover(tuple(state.scores), state.winner))
    moved = winners_move(previous, movers, drive.sides)
    present = list(drive.present)
    out = choose_sit_outs(present, len(present) % drive.size,
                          [p for played in drive.played for p in played.sitting_out])
    return seat_present(moved, [p for p in present if p not in out], drive.size)


def paper_tables_of(asked: Sequence[int] | str | None, tables: int, format: str,
                    rules: RuleSet) -> tuple[int, ...]:
    """Returns the paper tables a creator asked for (table numbers, or ``"all"``), checked.

    :raises DriveError: for tables the drive does not have, or a drive paper cannot play.
    """
    if asked is None or (not isinstance(asked, str) and not asked):
        return ()
    if isinstance(asked, str):
        if asked != "all":
            raise DriveError(f"paper_tables names tables (1 to {tables}) or \"all\", not "
                             f"{shown(asked)}")
        paper = tuple(range(1, tables + 1))
    else:
        paper = tuple(sorted(set(asked)))
        if len(paper) != len(asked) or not all(1 <= t <= tables for t in paper):
            raise DriveError(f"paper_tables names distinct tables 1 to {tables}, not "
                             f"{shown(list(asked))}")
    if format != "progressive":
        raise DriveError("a duplicate board's cards are dealt by the server and hidden until "
                         "every table has played it: paper tables play progressive drives")
    try:
        check_paper_rules(rules)
    except ScoreCardError as error:
        raise DriveError(str(error)) from None
    return paper


def _paper_round_step(drives: DriveStore, cache: commands.GameCache,
                      drive: DriveState) -> Event | None:
    """Returns the end of the round in play of a drive with paper tables once every table is
    settled (its game over; a paper table's card confirmed, or the table abandoned), else
    ``None``. A paper table is pinned at the drive's own head then, which covers its card."""
    current = drive.current
    assert current is not None, "a round is in play"
    heads: list[dict[str, Any]] = []
    paper_head: dict[str, Any] | None = None
    for table, game in enumerate(current.games, start=1):
        if drive.is_paper(table):
            card = drive.score_card(current.number, table)
            if drive.adjustment(current.number, table) is None and (
                    card is None or not card.confirmed):
                return None
            if paper_head is None:
                paper_head = {"version": drive.version,
                              "head": drives.read(drive.drive_id)[drive.version - 1].hash}
            heads.append({"game": game, **paper_head})
            continue
        folded = commands.load(cache, game)
        if folded.state.phase != "over":
            return None
        heads.append({"game": game, "version": folded.version, "head": folded.head_hash})
    return RoundEnded(current.number, tuple(heads))


def _round_ended(current: RoundState,
                 folded: Sequence[Folded[GameState]]) -> RoundEnded:
    """Returns the end of round *current*, pinning each of its games (*folded*, all over) at
    its head: the drive's chain then covers every result of the round."""
    return RoundEnded(current.number, tuple(
        {"game": game, "version": f.version, "head": f.head_hash}
        for game, f in zip(current.games, folded, strict=True)))


def _start_round(
    store: Any, drives: DriveStore, tokens: TokenRegistry, drive: DriveState, number: int,
    entropy: commands.Entropy,
) -> tuple[list[str], list[dict[str, Any]]]:
    """Creates the games of round *number* (those not made by an earlier attempt) and, in
    duplicate, draws and keeps its boards; returns the game ids and the public boards."""
    kept = drives.keep_secrets(drive.drive_id, {
        f"round:{number}:game_seed": entropy().hex(),
        **{f"seed:{board_id(drive.drive_id, number, d)}": entropy().hex()
           for d in range(1, drive.boards + 1)},
    })
    boards = [
        {"board": board_id(drive.drive_id, number, d), "deal": d,
         "commitment": hashlib.sha256(
             bytes.fromhex(kept[f"seed:{board_id(drive.drive_id, number, d)}"])).hexdigest(),
         "cut": _board_cut(drive, kept[f"seed:{board_id(drive.drive_id, number, d)}"])}
        for d in range(1, drive.boards + 1)
    ]
    games = []
    for index, table in enumerate(drive.schedule[number - 1], start=1):
        game_id = game_id_of(drive.drive_id, number, index)
        games.append(game_id)
        if drive.is_paper(index) or store.version(game_id) > 0:
            continue  # A paper table's game is played with real cards: its card is entered.
        seat_types = [drive.players[p]["type"] for p in table]
        names = [drive.players[p]["name"] for p in table]
        levels = [player_level(drive.players[p]) for p in table]
        digests: dict[Role, str] = {seat: kept[f"token:{p}"] for seat, p in enumerate(table)
                                    if kept.get(f"token:{p}")
                                    and drive.players[p]["type"] == "human"}
        if drive.format == "duplicate":
            # One game seed for the round: the same first dealer at every table.
            game_seed = bytes.fromhex(kept[f"round:{number}:game_seed"])
            created = start_game(drive.profile, drive.options, seat_types, game_seed,
                                 entropy(), names=names, bot_levels=levels)[0]
            events: tuple[Event, ...] = (created, _board_event(drive, boards[0], kept))
        else:
            events = start_game(drive.profile, drive.options, seat_types, entropy(), entropy(),
                                names=names, bot_levels=levels)
        if digests:
            tokens.register_digests(game_id, digests)
        try:
            store.append(game_id, 0, events, actor=SERVER, command_id="drive:create")
        except ConcurrencyError:
            pass  # Made by a racing advance.
    return games, boards


def _board_event(drive: DriveState, board: Mapping[str, Any],
                 secrets_: Mapping[str, str]) -> BoardDealt:
    """Returns the deal of *board* at a table (the same event at every table)."""
    return BoardDealt(board["deal"], board["board"], drive.boards, BOARD_ALGORITHM,
                      board["commitment"], board["cut"], secrets_[f"seed:{board['board']}"],
                      finish=PLAYED_OUT)


def _deal_boards(store: Any, cache: commands.GameCache, drives: DriveStore, drive: DriveState,
                 states: Sequence[GameState]) -> bool:
    """Appends to the round's games what the drive owes them: the seed of a board it has
    revealed, where the game waits for it, and the next board, where the game waits for
    that; returns True if it appended anything. A reveal and the next board go in one append:
    between two, a stream opened on the game would pass the board check (the board revealed)
    and then carry the next board's play to a reader who may not see it."""
    current = drive.current
    assert current is not None, "a round is in play"
    by_deal = {board.deal: board for board in current.boards}
    appended = False
    secrets_: dict[str, str] | None = None
    for game, state in zip(current.games, states, strict=True):
        deal = state.deal
        if deal is None or deal.board is None:
            continue
        events: list[Event] = []
        after = state
        if state.phase == "reveal" and by_deal[deal.number].seed is not None:
            events.append(SeedRevealed(deal.number, str(by_deal[deal.number].seed)))
            after = apply_event(state, events[0])
        if after.phase == "shuffle" and deal.number + 1 in by_deal:
            following = by_deal[deal.number + 1]
            secrets_ = secrets_ or drives.secrets(drive.drive_id)
            events.append(_board_event(drive, {"deal": following.deal, "board": following.board,
                                               "commitment": following.commitment,
                                               "cut": following.cut}, secrets_))
        if not events:
            continue
        try:
            store.append(game, state.version, tuple(events), actor=SERVER,
                         command_id=f"drive:{events[0].TYPE}:{deal.number}")
        except ConcurrencyError:
            continue
        appended = True
    return appended


def _board_cut(drive: DriveState, seed_hex: str) -> int:
    """Returns the cut fixed with a board: drawn from its seed, 1..deck size - 1."""
    deck = make_ruleset(drive.profile, drive.options, drive.size).deck_size
    return 1 + int.from_bytes(hashlib.sha256(b"fortyfive/board-cut/1" + bytes.fromhex(
        seed_hex)).digest()[:8], "big") % (deck - 1)


def _reveal_due(
    drives: DriveStore, drive: DriveState, states: Sequence[GameState]
) -> BoardRevealed | None:
    """Returns the reveal of the first board every table has finished (or will never play:
    its game ended first), if one is still hidden."""
    current = drive.current
    assert current is not None, "a round is in play"
    for board in current.boards:
        if board.seed is not None:
            continue
        if all(state.phase == "over" or any(d.number == board.deal for d in state.past_deals)
               or (state.deal is not None and state.deal.number == board.deal
                   and state.deal.phase == "over")
               for state in states):
            seed = drives.secrets(drive.drive_id)[f"seed:{board.board}"]
            return BoardRevealed(current.number, board.board, board.deal, seed)
        break
    return None


# Views ----------------------------------------------------------------------------------------


def results_of(cache: commands.GameCache, drive: DriveState) -> dict[str, TableResult]:
    """Returns the result of every game the drive has started, by game id."""
    return {**{game: table_result(game, commands.load(cache, game).state)
               for played in drive.played
               for table, game in enumerate(played.games, start=1)
               if not drive.is_paper(table)},
            **paper_results(drive)}


def drive_view(drive: DriveState, results: Mapping[str, TableResult], *, head: str,
               checkpoint: Mapping[str, Any] | None = None,
               kept: Mapping[str, Mapping[str, Any]] | None = None,
               round_ends_at: datetime | None = None) -> dict[str, Any]:
    """Returns the public view of a drive: status, players, the schedule, every round started
    with its tables (game, players in seat order, status, scores), each table's result as
    :func:`engine.standings.public_results` lets anyone see it, and the checkpoint *kept* at its
    end (by moment, :func:`keep_checkpoints`); and the drive's ``head``: its version, the
    hash *head* of its last event, and *checkpoint*, that head signed."""
    results = public_results(drive, results)
    rounds = []
    for played in drive.played:
        tables = []
        for index, (game, table) in enumerate(
                zip(played.games, drive.schedule[played.number - 1], strict=True), start=1):
            result = results.get(game)
            seated = [drive.player_in_round(p, played.number) for p in table]
            tables.append({
                "table": index, "game": game,
                "players": [{"name": player["name"], "type": player["type"],
                             "level": player_level(player), "seat": seat,
                             "side": seat % drive.sides} for seat, player in enumerate(seated)],
                "status": "over" if result is not None and result.over else "in_progress",
                "scores": list(result.scores) if result is not None else [],
                "winner": table_winner(played, result) if result is not None else None,
                "paper": drive.is_paper(index),
            })
        rounds.append({
            "number": played.number, "status": "finished" if played.ended else "running",
            "checkpoint": (kept or {}).get(f"round:{played.number}"), "tables": tables,
            "boards": [{"board": b.board, "deal": b.deal, "commitment": b.commitment,
                        "cut": b.cut, "seed": b.seed} for b in played.boards],
        })
    return {
        "id": drive.drive_id, "status": drive.status, "profile": drive.profile,
        "options": dict(drive.options), "format": drive.format, "round_count": drive.rounds,
        "boards_per_round": drive.boards, "rank_by": drive.rank_by,
        "movement": drive.movement, "version": drive.version,
        "players": [{**p, "level": player_level(p), "player": i,
                     "withdrawn": i in drive.withdrawn}
                    for i, p in enumerate(drive.players)],
        "odd_players": drive.odd_players,
        "schedule": [[[drive.player_in_round(p, number)["name"] for p in t] for t in r]
                     for number, r in enumerate(drive.schedule, start=1)],
        "current_round": drive.current.number if drive.current is not None else None,
        "paused": drive.paused, "stopped": drive.stopped,
        "round_minutes": drive.round_minutes,
        "round_ends_at": None if round_ends_at is None else round_ends_at.astimezone(
            UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "paper_tables": list(drive.paper_tables),
        "rounds": rounds,
        "head": {"version": drive.version, "hash": head, "checkpoint": checkpoint},
    }


def standings_view(drive: DriveState, results: Mapping[str, TableResult]) -> dict[str, Any]:
    """Returns the standings of a drive, with its tie rule, from the results anyone may see
    (:func:`engine.standings.public_results`)."""
    return standings_document(drive, standings(drive, public_results(drive, results)))
