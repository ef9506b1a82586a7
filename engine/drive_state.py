"""A drive's state, as its fold (:mod:`engine.drives`) leaves it: the rounds played, the
tables' heads, the director's adjustments and changes of the roster, the paper tables' score
cards; and the published rules by which its standings (:mod:`engine.standings`) rank and score.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal, TypeAlias

from engine.paper import PaperResult, ScoreCardDeal
from engine.seating import Round

Format: TypeAlias = Literal["progressive", "duplicate"]
FORMATS: tuple[Format, ...] = ("progressive", "duplicate")

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
    "the most points a side made at another table of the round); it wins no game; a "
    "duplicate board abandoned at one table is skipped there (its game goes on with the next "
    "board), and on it each side of that table scores the adjustment named, of the "
    "matchpoints a side could make on it (one per other table that finished it), whatever "
    "the table played of it"
)
"""How adjusted scores are computed (published with the standings and in docs/api.md)."""

CALLED_RULE = (
    "when the director ends a round at its time, every table still playing ends as it "
    "stands: the deal in play does not count; progressive: each side keeps the points of "
    "the deals it finished and the side ahead wins the game (none on equal points); "
    "duplicate: the boards it finished compare as any other, on each board it did not "
    "finish each side scores average (50 per cent of the matchpoints a side could make on "
    "it, one per table that finished it), and the side ahead over its finished boards wins "
    "the game (none on equal points)"
)
"""How a table still playing when its round is called is scored (published with the
standings and in docs/api.md)."""


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
    sitting_out: tuple[int, ...] = ()
    """The players present when it started that it seats at no table."""
    called: bool = False
    """Its director rang the bell: the tables still playing ended as they stood."""


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
class BoardAdjustment:
    """One board of a duplicate round its director abandoned at one table: that table skips
    it, and each side scores the adjusted score named on it (:data:`ADJUSTED`)."""

    round: int
    table: int
    """1-based."""
    deal: int
    """The board's deal number in its round (1-based)."""
    adjusted: tuple[str, ...]
    """Per side, a key of :data:`ADJUSTED`."""
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class RosterChange:
    """A change of the drive's players by its director."""

    action: Literal["substitute", "add_player", "withdraw_player"]
    round: int
    """The first round it applies to."""
    player: int
    name: str
    """The player's name after it (for a withdrawal, the name of who left)."""
    was: Mapping[str, str] | None
    """For a substitution, the player as they were before it (name, type, a bot's level)."""
    reason: str

    @property
    def replaced(self) -> str | None:
        """For a substitution, the name before it."""
        return None if self.was is None else self.was["name"]


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreCard:
    """A paper table's score card as last entered (engine.paper), and who stands by it."""

    round: int
    table: int
    """1-based."""
    side: int | None
    """The side of the player who entered it; ``None``: the director."""
    deals: tuple[ScoreCardDeal, ...]
    result: PaperResult
    confirmed: bool = False
    confirmed_by: int | None = None
    """The confirming player's side; ``None`` (when confirmed): the director."""
    disputed: str | None = None
    """The reason a player of the table gave in disputing it, until it is entered again or
    the director confirms it."""
    record: str | None = None
    """The id of the kept hand history recording the table's deals, if one was given."""


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
    board_adjustments: tuple[BoardAdjustment, ...] = ()
    """The boards its director abandoned at one table each, in order."""
    odd_players: str = "bots"
    """A key of :data:`ODD_PLAYERS`."""
    round_minutes: int | None = None
    """Minutes a round may last before the drive's clock calls it (``None``: no clock)."""
    withdrawn: tuple[int, ...] = ()
    """The players its director withdrew, in order."""
    house_bots: tuple[int, ...] = ()
    """The bots seated by a change of the roster to fill a table (they may be stood down)."""
    roster: tuple[RosterChange, ...] = ()
    """Every change of its players by its director, in order."""
    paper_tables: tuple[int, ...] = ()
    """The tables (1-based, every round) played with real cards (engine.paper)."""
    score_cards: tuple[ScoreCard, ...] = ()
    """The score card of each paper table as last entered, by round and table."""

    @property
    def present(self) -> tuple[int, ...]:
        """The players not withdrawn, in the order they joined."""
        return tuple(p for p in range(len(self.players)) if p not in self.withdrawn)

    @property
    def next_round(self) -> int:
        """The round a change of the roster applies to first: the round in play, else the
        next to start."""
        return len(self.played) + (1 if self.between_rounds else 0)

    def player_in_round(self, player: int, round_number: int) -> Mapping[str, str]:
        """Returns *player* as they sat in round *round_number*: their record now, less every
        substitution that applies only from a later round (a past round's tables show who
        played them, not who took the place since)."""
        seated = self.players[player]
        for change in reversed(self.roster):
            if (change.action == "substitute" and change.player == player
                    and change.round > round_number and change.was is not None):
                seated = change.was
        return seated

    def is_paper(self, table: int) -> bool:
        """True if *table* (1-based) is played with real cards."""
        return table in self.paper_tables

    def score_card(self, round_number: int, table: int) -> ScoreCard | None:
        """Returns the score card of *table* (1-based) in round *round_number*, if any."""
        return next((c for c in self.score_cards
                     if (c.round, c.table) == (round_number, table)), None)

    def adjustment(self, round_number: int, table: int) -> Adjustment | None:
        """Returns the adjustment of *table* (1-based) in round *round_number*, if any."""
        return next((a for a in self.adjustments
                     if (a.round, a.table) == (round_number, table)), None)

    def board_adjustment(self, round_number: int, table: int,
                         deal: int) -> BoardAdjustment | None:
        """Returns the adjustment of board *deal* at *table* (1-based) in round
        *round_number*, if its director abandoned that board there."""
        return next((a for a in self.board_adjustments
                     if (a.round, a.table, a.deal) == (round_number, table, deal)), None)

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
