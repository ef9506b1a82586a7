"""The event vocabulary of a drive's stream (an evening of several tables and rounds).

A drive is a stream of its own, sealed by :mod:`events.chain` like a game's: its creation (the
profile, options, players and the whole schedule), each round's start and end, each board's
reveal, a table or board abandoned, a round called at its time, a paper table's score card
entered, disputed and confirmed, the director's pause, resume, stop and roster changes, and
its finish. They are folded by :func:`engine.drives.fold_drive` and listed in docs/api.md;
tests/events/test_drive_event_types.py holds them to both. Each is a frozen dataclass of
:class:`events.types.Event`, read and written as a game's events are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from events.types import EVENT_TYPES, Event


@dataclasses.dataclass(frozen=True, slots=True)
class DriveCreated(Event):
    """A drive was set up: its games' rules, its players, and the whole schedule."""

    TYPE: ClassVar[str] = "drive_created"

    profile: str
    options: Mapping[str, Any]
    """Every option of the profile, defaults filled in: the rules of every game."""
    players: tuple[Mapping[str, str], ...]
    """Each ``{"name", "type"}`` (``human`` or ``bot``), and a bot's ``level`` (none in drives
    created before levels: ``basic``), in the order the creator gave them."""
    format: str
    """``progressive`` or ``duplicate``."""
    rounds: int
    table_size: int
    schedule: tuple[tuple[tuple[int, ...], ...], ...]
    """Per round, per table, the players (indices into :attr:`players`) in seat order."""
    boards: int
    """Boards (deals) per round in duplicate; 0 in progressive."""
    rank_by: str | None = None
    """How its standings rank the players for the prizes: ``points`` or ``games_won`` (the
    other breaks ties); ``None`` (drives created before the option) ranks by points."""
    movement: str | None = None
    """The movement its schedule was drawn by: ``round_robin``, ``fixed_partners`` or
    ``winners_move`` (whose schedule holds round 1 only: each next round is seated at its
    start); ``None`` (drives created before the option): ``round_robin``."""
    odd_players: str | None = None
    """What seats players that do not fill the tables after arrivals and withdrawals:
    ``bots`` (house bots fill the last table) or ``sit_out``; ``None`` (drives created before
    the option): ``bots``."""

    round_minutes: int | None = None
    """Minutes a round may last: then the drive's clock rings the bell (``round_called``,
    actor ``server``); ``None``: rounds end when their tables do, or at the director's bell."""

    paper_tables: tuple[int, ...] | None = None
    """The tables (1-based, in every round) played with real cards, whose results are entered
    from their score cards (:class:`ScoreCardEntered`); ``None``: none."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"rank_by", "movement", "odd_players",
                                                    "round_minutes", "paper_tables"})


@dataclasses.dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A round began: the game of each table and, in duplicate, the commitment and cut of
    each board, published before any table deals it."""

    TYPE: ClassVar[str] = "round_started"

    round: int
    games: tuple[str, ...]
    """The game of each table, table 1 first."""
    boards: tuple[Mapping[str, Any], ...]
    """Each ``{"board", "deal", "commitment", "cut"}``; empty in progressive."""
    tables: tuple[tuple[int, ...], ...] | None = None
    """The players of each table in seat order, when the round is seated at its start
    (``winners_move``, from the last round's results); ``None``: as the schedule says."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"tables"})


@dataclasses.dataclass(frozen=True, slots=True)
class BoardRevealed(Event):
    """Every table finished a duplicate board (or ended its game first): its seed is public."""

    TYPE: ClassVar[str] = "board_revealed"

    round: int
    board: str
    deal: int
    seed: str


@dataclasses.dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """Every game of the round is over; *heads* pins each game as it ended, so the drive's
    chain (and a checkpoint of it) covers every result."""

    TYPE: ClassVar[str] = "round_ended"
    SCHEMA: ClassVar[int] = 2

    round: int
    heads: tuple[Mapping[str, Any], ...] | None
    """Each game's ``{"game", "version", "head"}`` when the round ended, table 1 first;
    ``None`` for a round ended at schema 1, which did not record them."""


@dataclasses.dataclass(frozen=True, slots=True)
class DriveFinished(Event):
    """The drive's last round ended: its standings are final."""

    TYPE: ClassVar[str] = "drive_finished"


@dataclasses.dataclass(frozen=True, slots=True)
class DrivePaused(Event):
    """The director paused the drive: no round starts until it is resumed (the round in
    play, if any, plays on and ends)."""

    TYPE: ClassVar[str] = "drive_paused"

    reason: str
    """What the director said, for the hall (may be empty)."""


@dataclasses.dataclass(frozen=True, slots=True)
class TableAbandoned(Event):
    """The director abandoned one table's game of the round in play: it ends without a
    winner, and each side gets the adjusted score the director named, as duplicate bridge
    scores a board a table could not play (engine.drive_state.ADJUSTED)."""

    TYPE: ClassVar[str] = "table_abandoned"

    round: int
    table: int
    """1-based, as the drive's view numbers tables."""
    adjusted: tuple[str, ...]
    """Per side: ``average``, ``average_plus`` or ``average_minus``."""
    reason: str
    """What the director said, for the hall (may be empty)."""


@dataclasses.dataclass(frozen=True, slots=True)
class BoardAbandoned(Event):
    """The director abandoned one board of a duplicate round at one table: that table skips
    it (its game goes on with the next board, or ends after the last), and each side scores
    the adjusted score the director named on it, as duplicate bridge scores a board a table
    could not play (engine.drive_state.ADJUSTED); the other tables compare the board among
    themselves."""

    TYPE: ClassVar[str] = "board_abandoned"

    round: int
    table: int
    """1-based, as the drive's view numbers tables."""
    deal: int
    """The board's deal number in the round (1-based)."""
    adjusted: tuple[str, ...]
    """Per side: ``average``, ``average_plus`` or ``average_minus``."""
    reason: str
    """What the director said, for the hall (may be empty)."""


@dataclasses.dataclass(frozen=True, slots=True)
class RoundCalled(Event):
    """The director rang the bell on the round in play: every table still playing ends as it
    stands (engine.drive_state.CALLED_RULE scores it)."""

    TYPE: ClassVar[str] = "round_called"

    round: int
    reason: str
    """What the director said, for the hall (may be empty)."""


@dataclasses.dataclass(frozen=True, slots=True)
class DriveResumed(Event):
    """The director resumed a paused drive: the next round starts when due."""

    TYPE: ClassVar[str] = "drive_resumed"


@dataclasses.dataclass(frozen=True, slots=True)
class DriveStopped(Event):
    """The director stopped the drive between rounds: the rounds not started are not played,
    and its standings are final as the rounds played left them."""

    TYPE: ClassVar[str] = "drive_stopped"

    reason: str
    """What the director said, for the hall (may be empty)."""


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerSubstituted(Event):
    """The director put a newcomer in a player's place: the newcomer plays the player's
    seats from now on and carries their score (a person gets a token of their own; the old
    one opens no table any more)."""

    TYPE: ClassVar[str] = "player_substituted"

    player: int
    """The place taken (an index into the drive's players)."""
    name: str
    type: str
    """``human`` or ``bot``."""
    reason: str
    level: str | None = None
    """A bot's level (:mod:`engine.levels`); ``None`` for a person, and for a bot substituted
    before levels (it plays ``basic``)."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"level"})


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerAdded(Event):
    """The director added a late arrival between rounds; the rounds not started are seated
    again."""

    TYPE: ClassVar[str] = "player_added"

    players: tuple[Mapping[str, str], ...]
    """The arrival first (``{"name", "type"}``, and a bot's ``level``), then any house bots
    seated with them."""
    withdrawn: tuple[int, ...]
    """House bots stood down to make room (indices into the drive's players)."""
    schedule: tuple[tuple[tuple[int, ...], ...], ...]
    """The rounds not yet started, seated again (none for ``winners_move`` after round 1
    has started: its rounds are seated at their start)."""
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerWithdrawn(Event):
    """The director withdrew a player between rounds (they keep what they scored); the rounds
    not started are seated again."""

    TYPE: ClassVar[str] = "player_withdrawn"

    players: tuple[Mapping[str, str], ...]
    """House bots seated to fill the gap (``{"name", "type", "level"}``)."""
    withdrawn: tuple[int, ...]
    """The player withdrawn first, then any house bots stood down with them."""
    schedule: tuple[tuple[tuple[int, ...], ...], ...]
    """As :attr:`PlayerAdded.schedule`."""
    reason: str


# Paper tables: a drive's table played with real cards enters its score card (engine.paper).


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreCardEntered(Event):
    """A paper table's score card was entered, or entered again to correct it, by a player of
    the table (its side named) or by the director: it stands once confirmed."""

    TYPE: ClassVar[str] = "score_card_entered"

    round: int
    table: int
    """1-based, as the drive's view numbers tables."""
    side: int | None
    """The side of the player who entered it (the envelope's actor names the player);
    ``None``: the director."""
    deals: tuple[Mapping[str, Any], ...]
    """Each deal in order: ``{"dealer": seat, "points": [per side]}``."""
    winner: int | None
    """The winning side when only the order of the tricks could tell (engine.paper);
    ``None`` otherwise."""
    record: str | None = None
    """The table's record of its deals, card by card, for a dispute: the id of a hand history
    kept with ``POST /v1/histories?mode=keep`` (``h-`` and 32 hex digits of the SHA-256 of its
    content, so the id pins what it holds); ``None``: none."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"record"})


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreCardConfirmed(Event):
    """The score card entered last was confirmed: by a player of another side, or by the
    director. The table's result is then its card's."""

    TYPE: ClassVar[str] = "score_card_confirmed"

    round: int
    table: int
    side: int | None
    """The confirming player's side; ``None``: the director."""


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreCardDisputed(Event):
    """A player of the table disputes the score card entered last: only a new entry, or the
    director's confirmation, settles it."""

    TYPE: ClassVar[str] = "score_card_disputed"

    round: int
    table: int
    side: int
    reason: str
    """What the player said, for the director."""


DRIVE_EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (DriveCreated, RoundStarted, BoardAbandoned, BoardRevealed, TableAbandoned,
                RoundCalled,
                ScoreCardEntered, ScoreCardDisputed, ScoreCardConfirmed, RoundEnded,
                DrivePaused, DriveResumed, PlayerSubstituted, PlayerAdded, PlayerWithdrawn,
                DriveFinished, DriveStopped)
}
"""Every event type of a drive's stream by its wire name (no name is also a game's)."""
assert not set(DRIVE_EVENT_TYPES) & set(EVENT_TYPES), "a type name belongs to one stream"
