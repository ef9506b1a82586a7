"""Immutable game state: what the fold of a game's events has established so far.

Nothing here decides anything; :mod:`engine.fold` builds these values and :mod:`engine.actions`
reads them. Hidden information (hands, the seed before its reveal, face-down cards) is held
here in full: :mod:`replay.views` is the only place that decides who may see it.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, NamedTuple, TypeAlias, TypeVar

from engine.cards import Card, Suit
from engine.profiles import RuleSet
from engine.rulings import Ruling

Seat: TypeAlias = int
Side: TypeAlias = int

DealPhase = Literal["cut", "joker", "bidding", "trump", "discard", "play", "over"]
GamePhase = Literal[
    "shuffle", "cut", "joker", "bidding", "trump", "discard", "play", "reveal", "over"
]


class Fact(NamedTuple):
    """A derived fact (a trick won, a bonus proven, a target reached...) with its ruling.

    A named tuple, as the deal that holds it: the fold makes one at every trick's end, and a
    frozen dataclass took about four times as long to build.
    """

    kind: str
    """What was established: ``trick_won``, ``renege_allowed``, ``bonus_proven``,
    ``bonus_none``, ``target_reached``, ``jink``, ``bid_made``, ``bid_set``, ``auction_won``,
    ``passed_out``, ``spoiled``, ``game_won``, ``match_won``."""
    ruling: Ruling
    version: int
    """The event version at which the fact became established."""
    trick: int | None = None
    """The 1-based trick it concerns (for a bonus: the trick at which it was proven)."""
    seat: Seat | None = None
    side: Side | None = None
    points: int | None = None
    credited_trick: int | None = None
    """For a bonus: the trick it is credited to."""

    def to_dict(self, texts: int | None = None) -> dict[str, object]:
        """Returns the JSON form, without the fields that are unset, the ruling's sentence in
        the ruling texts of version *texts* (the current ones by default)."""
        body: dict[str, object] = {"kind": self.kind, "version": self.version}
        for name in ("trick", "seat", "side", "points", "credited_trick"):
            value = getattr(self, name)
            if value is not None:
                body[name] = value
        body["ruling"] = self.ruling.to_dict(texts)
        return body


class Trick(NamedTuple):
    """A trick: who led, the cards in play order, and (once complete) who won it."""

    leader: Seat
    seats: tuple[Seat, ...] = ()
    cards: tuple[Card, ...] = ()
    winner: Seat | None = None


class HighestTrump(NamedTuple):
    """The highest trump played so far in a deal and where it fell."""

    card: Card
    seat: Seat
    trick: int
    """1-based number of the trick it was played to."""


@dataclasses.dataclass(frozen=True, slots=True)
class Auction:
    """The bidding of one deal."""

    turn: Seat
    high: int | None = None
    high_seat: Seat | None = None
    passed: frozenset[Seat] = frozenset()
    calls: tuple[tuple[Seat, str, int | None], ...] = ()
    """Every call in order: (seat, ``bid``/``pass``/``hold``, amount)."""

    def __copy__(self) -> Auction:
        return self

    def __deepcopy__(self, memo: object) -> Auction:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


@dataclasses.dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: the points it gave each side and the scores after it."""

    points: tuple[int, ...]
    scores: tuple[int, ...]
    tricks_won: tuple[int, ...]
    ended_at_trick: int
    """The last trick that counted (0 for a passed-out auction)."""
    winner: Side | None = None
    """The side that won the game in this deal, if any."""

    def __copy__(self) -> DealResult:
        return self

    def __deepcopy__(self, memo: object) -> DealResult:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


class DealState(NamedTuple):
    """One deal, from the shuffle to its last counted trick.

    The records the fold rebuilds on every event (deals, tricks) are named tuples rather than
    frozen dataclasses: ``_replace`` copies one in a single C-level pass, several times faster
    than ``dataclasses.replace``, and folding is the service's hot path. The fields a play
    changes (``hands`` to ``facts``) stand at the places ``engine.fold._after_plays`` writes
    them (it checks so when the fold is imported).
    """

    number: int
    dealer: Seat
    phase: DealPhase
    hands: tuple[tuple[Card, ...], ...]
    tricks: tuple[Trick, ...] = ()
    """Completed tricks, in order."""
    current: Trick | None = None
    turn: Seat | None = None
    highest: HighestTrump | None = None
    facts: tuple[Fact, ...] = ()
    algorithm: str | None = None
    commitment: str | None = None
    seed: str | None = None
    """The shuffle seed (hex); hidden from everyone until :attr:`seed_revealed`."""
    seed_revealed: bool = False
    recorded: bool = False
    """True when the hands were recorded at a real table instead of drawn from a seed."""
    order: tuple[Card, ...] = ()
    """The shuffled pack before the cut, top first (for ``hmac-sha256-fy/2``, known only
    from the cut on: the deck depends on the cut and the contributions)."""
    context: str | None = None
    """What a ``/2`` deck depends on besides the seed: the game id, or a board's id."""
    nonces: tuple[tuple[Seat, str], ...] = ()
    """The contributions to a ``/2`` deal, (seat, nonce) in the order they were recorded."""
    cut_position: int | None = None
    turn_up: Card | None = None
    stock: tuple[Card, ...] = ()
    """The undealt cards below the turn-up, top first."""
    face_down: tuple[Card, ...] = ()
    """Cards out of play face down: rob discards, a buried card, auction discards."""
    robbed_by: Seat | None = None
    trump: Suit | None = None
    auction: Auction | None = None
    bidder: Seat | None = None
    bid: int | None = None
    discards_done: tuple[Seat, ...] = ()
    jink_seat: Seat | None = None
    bonus_proven: bool = False
    result: DealResult | None = None
    start_scores: tuple[int, ...] = ()
    """The game's scores when this deal began."""
    board: str | None = None
    """The duplicate board this deal is (``board_dealt``), whose seed the drive reveals."""
    boards: int = 0
    """For a board: how many boards the game plays (it is over after the last)."""
    opened: int = 0
    """The version of the event that opened the deal (its shuffle, board or recorded hands):
    a ``/2`` deal's nonce window runs from that event's time."""
    played_out: bool = False
    """For a board dealt ``finish: played_out``: no target ends it or its game; the game is
    decided after its last board."""
    skipped: bool = False
    """For a board its drive's director abandoned at this table (``board_skipped``): it
    ended where it stood, without a result."""


class GameState(NamedTuple):
    """A whole game (or match): the rules, the scores and the deal in progress.

    A named tuple for the same reason as :class:`DealState`: the fold replaces it on every
    event, and an event changes ``version`` and ``deal``, its first fields. Change one with
    ``state._replace(...)``.
    """

    version: int
    deal: DealState | None
    """The deal in progress, or the last one played (``None`` before the first shuffle)."""
    rules: RuleSet
    seat_types: tuple[str, ...]
    game_seed: str
    dealer: Seat
    """The dealer of the current deal, or of the next one once the current is over."""
    scores: tuple[int, ...]
    games_won: tuple[int, ...]
    game_number: int = 1
    deals_played: int = 0
    winner: Side | None = None
    """The side that won the game (the match, where several games are played)."""
    game_winners: tuple[Side, ...] = ()
    """The winner of each finished game of the match, in order."""
    past_deals: tuple[DealState, ...] = ()
    """Every finished deal, for histories and audits."""
    contribution_secret: str | None = None
    """The secret the bots' and the turn clock's cuts come from (``/2`` games), committed in
    ``game_created``; hidden like a seed."""
    names: tuple[str | None, ...] = ()
    """Each seat's name, or ``None`` (empty for a game where nobody gave one)."""
    bot_pace_ms: int = 0
    """Milliseconds the bots wait before each action in this game (``game_created``'s pace; 0:
    no wait). The workers' business, not the rules'."""
    abandoned: bool = False
    """True once the server ended the game unfinished (``game_abandoned``): it is over,
    without a winner, and the deal in progress stays as it was left."""
    nonce_window: int | None = None
    """Seconds a ``/2`` deal waits for the human seats' nonces before a bot's or the turn
    clock's cut (``game_created``; ``None`` in games created before the rule)."""
    seat_levels: tuple[str | None, ...] = ()
    """Each seat's bot level (:mod:`engine.levels`), ``None`` for a person's seat, as the
    game's creation records it (``basic`` for every bot of a game created before levels).
    The workers' business, not the rules': the rules are the same for every level."""

    @property
    def phase(self) -> GamePhase:
        """What the game waits for: a player's action, or the server's (shuffle, reveal)."""
        deal = self.deal
        if deal is not None and self.winner is None and not self.abandoned:
            # The common case, a deal in progress, answered first (every action asks).
            phase = deal.phase
            if phase != "over":
                return phase
        if self.abandoned:
            return "over"
        if self.winner is not None and (self.deal is None or _seed_settled(self.deal)):
            return "over"
        deal = self.deal
        if deal is None:
            return "shuffle"
        if deal.phase == "over":
            if not _seed_settled(deal):
                return "reveal"
            return "over" if deal.board is not None and deal.number >= deal.boards else "shuffle"
        return deal.phase


    @property
    def seed_due(self) -> bool:
        """True when the server owes the reveal of the current deal's seed: the deal is over
        (phase ``reveal``), or the game was abandoned in the middle of it. A duplicate
        board's seed is its drive's to reveal (other tables may still be playing it)."""
        deal = self.deal
        if deal is None or _seed_settled(deal):
            return False
        return self.phase == "reveal" or (self.abandoned and deal.board is None)

    @property
    def turn(self) -> Seat | None:
        """The seat to act, or ``None`` when the server acts or the game is over."""
        deal = self.deal
        if deal is None or deal.phase == "over" or self.winner is not None or self.abandoned:
            return None
        return deal.turn


def _seed_settled(deal: DealState) -> bool:
    """True once nothing about the deal's seed is left to reveal."""
    return deal.recorded or deal.seed_revealed or deal.seed is None


_FIELD_INDEX: dict[type, dict[str, int]] = {
    record: {name: index for index, name in enumerate(record._fields)}
    for record in (DealState, GameState)
}
"""The position of each field of the records the fold rebuilds."""

_Record = TypeVar("_Record", DealState, GameState)


def replaced(record: _Record, **changes: Any) -> _Record:
    """Returns *record* with *changes*: ``_replace`` in one copy of the fields, about twice
    as fast (the fold rebuilds a deal and the game on most events)."""
    fields = list(record)
    index = _FIELD_INDEX[type(record)]
    for name, value in changes.items():
        fields[index[name]] = value
    return tuple.__new__(type(record), fields)
