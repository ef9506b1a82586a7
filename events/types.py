"""The event vocabulary: one frozen dataclass per decision or chance outcome.

Events record only what somebody decided or what chance produced (a shuffle seed, a cut, a
card played). Trick winners, bonuses, scores and the winner are derived by the engine's fold
and are never stored: that is what keeps a mid-deal finish reproducible.

A drive's stream has types of its own, in :mod:`events.drive_types`; they share this module's
base class and its reading and writing of event data.

Cards travel as their canonical codes (``"5S"``, ``"TD"``, ``"JK"``) and suits as one letter,
so this module imports nothing of the project. Every type has a stable ``TYPE`` name used on
the wire and a ``SCHEMA`` number that goes up when its data changes shape (see
:mod:`events.upcasting`).

Each type also describes itself once, for every layer that shows or produces it: the action a seat
posts to produce it (``ACTION``, ``ACTION_FIELDS``, ``PHASE``: read by :mod:`engine.actions`), its
token in the text notation (``TOKEN``: :mod:`replay.formats.notation`) and its sentence in
``fortyfive history show`` (``SAYS``: :mod:`replay.presentation.show`). A new event type fills these
in, registers an apply function in :mod:`engine.fold`, and gets an entry in the web client's lists;
tests/events/test_event_types.py fails while one is missing.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeAlias

Seat: TypeAlias = int
"""A seat number, 0..n-1 clockwise."""

Cards: TypeAlias = tuple[str, ...]
"""Card codes, in the order they matter (a hand, a discard, a stock)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Base of every event type; never stored itself."""

    TYPE: ClassVar[str] = ""
    """The stable wire name of the type."""
    SCHEMA: ClassVar[int] = 1
    """The current schema version of the type's data."""
    PRIVATE: ClassVar[frozenset[str]] = frozenset()
    """Fields that are face down: only :mod:`replay.views` decides who may see them."""
    ACTION: ClassVar[str | None] = None
    """The type of the action a seat posts to produce this event; ``None`` for the server's
    own events (a creation, a shuffle, a reveal, a recorded deal)."""
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()
    """(field of the action's JSON object, field of the event) for each field it carries."""
    PHASE: ClassVar[str | None] = None
    """The phase of the deal the action belongs to."""
    TOKEN: ClassVar[str | None] = None
    """Its name in the text notation (``2:bid(20)``, ``reveal(...)``); ``None`` where the
    notation writes it otherwise: a card bare, a recorded deal as tags, anything else as a
    ``%event`` JSON line."""
    SAYS: ClassVar[str] = ""
    """What ``history show`` says of it: a template of its data fields (a list is written
    with blanks, or ``nothing``, and ``{name_count}`` is its length; ``None`` is ``none``)."""
    SAYS_HIDDEN: ClassVar[str | None] = None
    """The same, for a viewer from whom a field is hidden (``None``: as :attr:`SAYS`)."""
    ACTION_OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    """Fields of the action's JSON object a client may leave out."""
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    """Fields added after the type's schema was released: ``None`` by default, and left out
    of the data when ``None``, so every event stored before them keeps its exact bytes."""
    EXAMPLE: ClassVar[Mapping[str, Any]] = {}
    """The data of one event of the type: each layer that writes, reads or says events is
    tested on every type's example (tests/events/test_event_types.py)."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameCreated(Event):
    """A game was set up: its rules, its seats and the seed that draws the first dealer."""

    TYPE: ClassVar[str] = "game_created"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {
        "profile": "bruff", "options": {"target": 45}, "seats": ["human"] * 6, "seed": "00" * 32}
    SCHEMA: ClassVar[int] = 2
    TOKEN: ClassVar[str | None] = "create"
    SAYS: ClassVar[str] = "game created: {profile}, seats {seats}"

    profile: str
    """The built-in profile name, e.g. ``"bruff"``."""
    options: Mapping[str, Any]
    """Every option of the profile, defaults filled in (so a history needs no defaults table)."""
    seats: tuple[str, ...]
    """One entry per seat, ``"human"`` or ``"bot"``."""
    seed: str
    """Hex seed that draws the first dealer; public, since the dealer is public anyway."""
    contribution_commitment: str | None = None
    """Hex SHA-256 of :attr:`contribution_secret` (games dealt by ``hmac-sha256-fy/2``)."""
    contribution_secret: str | None = None
    """Hex secret (32 bytes) from which bots and the turn clock draw their cuts, fixed before
    any deal's seed; private: every seat sees it once the game is over (an auditor's view)."""
    nonce_window: int | None = None
    """Seconds a ``/2`` deal keeps open for the human seats' nonces before a bot or the turn
    clock may cut it (:mod:`engine.nonce_window`), fixed here before any deal's seed;
    ``None`` in games created before the rule (their bots cut at once)."""

    names: tuple[str | None, ...] | None = None
    """One entry per seat: the name its player gave, or ``None``; ``None`` for a game where
    nobody gave one. Public: it is how the table, the histories and the drive pages call the
    seat."""
    bot_pace_ms: int | None = None
    """Milliseconds the bots wait before each of their actions, so that a person at the table
    can follow them; ``None`` (every game created before the pace, and games without a
    person) for no wait. Not a rule: the same actions are taken either way."""

    bot_levels: tuple[str | None, ...] | None = None
    """One entry per seat: how the bot there decides (``"basic"``, ``"strong"``: the names of
    :mod:`engine.levels`), ``None`` for a person's seat; ``None`` as a whole where every bot
    seat is ``basic`` (every game created before levels, and games whose bots are all basic,
    so that their creation keeps its exact bytes). Public: a player may know what sits at the
    table."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"contribution_commitment", "contribution_secret", "nonce_window", "names",
         "bot_pace_ms", "bot_levels"})
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"contribution_secret"})


@dataclasses.dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """The dealer shuffled: the deck order follows from *seed* by *algorithm*.

    The commitment (SHA-256 of the seed bytes) is public at once; the seed stays hidden until
    :class:`SeedRevealed` so that nobody can know the deal in advance, and anybody can check it
    afterwards.
    """

    TYPE: ClassVar[str] = "deck_shuffled"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {
        "deal": 1, "algorithm": "hmac-sha256-fy/1", "commitment": "ab" * 32, "seed": "cd" * 32}
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"seed"})
    TOKEN: ClassVar[str | None] = "shuffle"
    SAYS: ClassVar[str] = (
        "shuffled ({algorithm}); commitment {commitment:.16}...; seed {seed:.16}...")
    SAYS_HIDDEN: ClassVar[str | None] = (
        "shuffled ({algorithm}); commitment {commitment:.16}...; seed hidden until the deal is "
        "over")

    deal: int
    """1-based number of the deal in the game."""
    algorithm: str
    """Versioned name of the seed-to-order algorithm, e.g. ``"hmac-sha256-fy/1"``."""
    commitment: str
    """Hex SHA-256 of the seed bytes."""
    seed: str
    """Hex seed (32 bytes); private until revealed."""
    context: str | None = None
    """What the ``/2`` deck depends on besides the seed: the game id (a duplicate board's id
    for a board); ``None`` for ``/1``."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"context"})


@dataclasses.dataclass(frozen=True, slots=True)
class DeckCut(Event):
    """The player right of the dealer cut the shuffled deck at *position*."""

    TYPE: ClassVar[str] = "deck_cut"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 4, "position": 17}
    ACTION: ClassVar[str | None] = "cut"
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("position", "position"), ("nonce", "nonce"))
    PHASE: ClassVar[str | None] = "cut"
    TOKEN: ClassVar[str | None] = "cut"
    SAYS: ClassVar[str] = "seat {seat} cut at {position}"

    seat: Seat
    position: int
    """Cards lifted from the top and put underneath, 1..deck size - 1."""
    nonce: str | None = None
    """The cutter's own contribution to a ``/2`` deal (lowercase hex, 16 to 64 bytes)."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"nonce"})
    ACTION_OPTIONAL: ClassVar[frozenset[str]] = frozenset({"nonce"})


@dataclasses.dataclass(frozen=True, slots=True)
class DealContributed(Event):
    """*seat* added *nonce* to deal *deal* while it waited for its cut (``hmac-sha256-fy/2``):
    the deck depends on it, and it was made after the seed's commitment was public."""

    TYPE: ClassVar[str] = "deal_contributed"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"deal": 1, "seat": 2, "nonce": "5e" * 16}
    ACTION: ClassVar[str | None] = "contribute"
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (("nonce", "nonce"),)
    PHASE: ClassVar[str | None] = "cut"
    SAYS: ClassVar[str] = "seat {seat} contributes {nonce:.16}... to deal {deal}"

    deal: int
    seat: Seat
    nonce: str
    """Lowercase hex, 16 to 64 bytes, drawn by the seat's client."""


@dataclasses.dataclass(frozen=True, slots=True)
class DealRecorded(Event):
    """A deal made at a real table, recorded card by card instead of from a seed (disputes)."""

    TYPE: ClassVar[str] = "deal_recorded"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {
        "deal": 1, "hands": [["5S"]] * 6, "turn_up": "9S", "stock": ["2S"]}
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"hands", "stock"})
    SAYS: ClassVar[str] = "dealt at a real table and recorded; turn-up {turn_up}"

    deal: int
    hands: tuple[Cards, ...]
    """The hands as dealt, indexed by seat."""
    turn_up: str | None
    """The exposed card (``None`` for the auction, which has no turn-up)."""
    stock: Cards
    """The undealt cards below the turn-up, top first (auction draws come from here)."""


@dataclasses.dataclass(frozen=True, slots=True)
class JokerBuried(Event):
    """The dealer took a turned joker and put *card* face down beneath the stock."""

    TYPE: ClassVar[str] = "joker_buried"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 5, "card": "4D"}
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"card"})
    ACTION: ClassVar[str | None] = "bury"
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (("card", "card"),)
    PHASE: ClassVar[str | None] = "joker"
    TOKEN: ClassVar[str | None] = "bury"
    SAYS: ClassVar[str] = "the joker was turned: seat {seat} took it and buried {card}"
    SAYS_HIDDEN: ClassVar[str | None] = (
        "the joker was turned: seat {seat} took it and buried a card face down")

    seat: Seat
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class TurnUpRobbed(Event):
    """*seat* set *discard* aside face down and took the turn-up."""

    TYPE: ClassVar[str] = "turn_up_robbed"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 2, "discard": "4D"}
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"discard"})
    ACTION: ClassVar[str | None] = "rob"
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (("discard", "discard"),)
    PHASE: ClassVar[str | None] = "play"
    TOKEN: ClassVar[str | None] = "rob"
    SAYS: ClassVar[str] = "seat {seat} robbed the turn-up, setting aside {discard}"
    SAYS_HIDDEN: ClassVar[str | None] = (
        "seat {seat} robbed the turn-up, setting aside a card face down")

    seat: Seat
    discard: str


@dataclasses.dataclass(frozen=True, slots=True)
class BidMade(Event):
    """*seat* bid *amount* in the auction."""

    TYPE: ClassVar[str] = "bid_made"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 1, "amount": 20}
    ACTION: ClassVar[str | None] = "bid"
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (("amount", "amount"),)
    PHASE: ClassVar[str | None] = "bidding"
    TOKEN: ClassVar[str | None] = "bid"
    SAYS: ClassVar[str] = "seat {seat} bids {amount}"

    seat: Seat
    amount: int


@dataclasses.dataclass(frozen=True, slots=True)
class BidPassed(Event):
    """*seat* passed; a pass is final for the deal."""

    TYPE: ClassVar[str] = "bid_passed"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 2}
    ACTION: ClassVar[str | None] = "pass"
    PHASE: ClassVar[str | None] = "bidding"
    TOKEN: ClassVar[str | None] = "pass"
    SAYS: ClassVar[str] = "seat {seat} passes"

    seat: Seat


@dataclasses.dataclass(frozen=True, slots=True)
class BidHeld(Event):
    """The dealer held, taking over the current highest bid at its amount."""

    TYPE: ClassVar[str] = "bid_held"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 0}
    ACTION: ClassVar[str | None] = "hold"
    PHASE: ClassVar[str | None] = "bidding"
    TOKEN: ClassVar[str | None] = "hold"
    SAYS: ClassVar[str] = "seat {seat} holds"

    seat: Seat


@dataclasses.dataclass(frozen=True, slots=True)
class TrumpNamed(Event):
    """The winning bidder named the trump suit (one of ``S C D H``)."""

    TYPE: ClassVar[str] = "trump_named"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 1, "suit": "H"}
    ACTION: ClassVar[str | None] = "name_trump"
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (("suit", "suit"),)
    PHASE: ClassVar[str | None] = "trump"
    TOKEN: ClassVar[str | None] = "trump"
    SAYS: ClassVar[str] = "seat {seat} names {suit} trumps"

    seat: Seat
    suit: str


@dataclasses.dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    """*seat* discarded *cards* face down and drew as many from the stock (auction)."""

    TYPE: ClassVar[str] = "cards_discarded"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 3, "cards": ["4D", "7C"]}
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"cards"})
    ACTION: ClassVar[str | None] = "discard"
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (("cards", "cards"),)
    PHASE: ClassVar[str | None] = "discard"
    TOKEN: ClassVar[str | None] = "discard"
    SAYS: ClassVar[str] = "seat {seat} discards {cards} and draws {cards_count}"
    SAYS_HIDDEN: ClassVar[str | None] = (
        "seat {seat} discards {count} card(s) face down and draws")

    seat: Seat
    cards: Cards


@dataclasses.dataclass(frozen=True, slots=True)
class JinkAnnounced(Event):
    """*seat* announced a jink for its side before the opening lead (classic option)."""

    TYPE: ClassVar[str] = "jink_announced"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 0}
    ACTION: ClassVar[str | None] = "jink"
    PHASE: ClassVar[str | None] = "play"
    TOKEN: ClassVar[str | None] = "jink"
    SAYS: ClassVar[str] = "seat {seat} announces a jink"

    seat: Seat


@dataclasses.dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """*seat* played *card* to the current trick."""

    TYPE: ClassVar[str] = "card_played"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 0, "card": "5S"}
    ACTION: ClassVar[str | None] = "play"
    ACTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (("card", "card"),)
    PHASE: ClassVar[str | None] = "play"
    SAYS: ClassVar[str] = "seat {seat} plays {card}"
    SAYS_HIDDEN: ClassVar[str | None] = "seat {seat} plays a card"

    seat: Seat
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The deal is over and its shuffle seed is made public for anyone to check."""

    TYPE: ClassVar[str] = "seed_revealed"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"deal": 1, "seed": "cd" * 32}
    TOKEN: ClassVar[str | None] = "reveal"
    SAYS: ClassVar[str] = "seed of deal {deal} revealed: {seed:.16}..."

    deal: int
    seed: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    """Nobody acted for too long: the server ended the game unfinished, without a winner.

    A decision of the server's retention policy (``ABANDON_AFTER``), appended by a worker
    through the command path; the game is over from this event on and nothing follows it.
    """

    TYPE: ClassVar[str] = "game_abandoned"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"idle_seconds": 90000, "after_seconds": 86400}
    SAYS: ClassVar[str] = (
        "game abandoned by the server after {idle_seconds} s without an action")

    idle_seconds: int
    """How long the game had waited since its previous event."""
    after_seconds: int
    """The idle time after which the service abandons a game (the policy then in force)."""


@dataclasses.dataclass(frozen=True, slots=True)
class SeatNamed(Event):
    """The person who claimed a seat gave the name the table calls them by.

    Recorded by the server with the claim of the seat's invite (``POST
    /v1/games/{id}/seats/{seat}/claim`` with a ``name``), so that the table, the views, the
    histories and the pictures name the seat from then on; it replaces a name the game's
    creator gave the seat. The name follows :mod:`service.application.names`'s rule (not blank,
    at most 40 characters, no other seat's name at the table), checked before it is recorded.
    """

    TYPE: ClassVar[str] = "seat_named"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"seat": 2, "name": "Séan"}
    SAYS: ClassVar[str] = "seat {seat} claimed and named {name}"

    seat: Seat
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """The server dealt a duplicate board: the same deal at every table of a drive's round.

    The deck follows from *seed* by *algorithm* with the board id as its context and the cut
    fixed with the board (no seat cuts a board), so seat k at every table gets the same cards.
    The commitment was published by the drive before the round started; the seed stays hidden
    until the drive reveals it (a :class:`SeedRevealed` in each game) once every table has
    finished this deal.
    """

    TYPE: ClassVar[str] = "board_dealt"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {
        "deal": 1, "board": "dr-00000000000000000000/r1/b1", "boards": 2,
        "algorithm": "hmac-sha256-fy/2", "commitment": "ab" * 32, "cut": 9, "seed": "cd" * 32}
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"seed"})
    SAYS: ClassVar[str] = (
        "board {board} dealt ({algorithm}, cut {cut}, {boards} boards); commitment "
        "{commitment:.16}...; seed {seed:.16}...")
    SAYS_HIDDEN: ClassVar[str | None] = (
        "board {board} dealt ({algorithm}, cut {cut}, {boards} boards); commitment "
        "{commitment:.16}...; seed hidden until every table has played it")

    deal: int
    board: str
    """The board id, ``<drive>/r<round>/b<deal>``: the context of the deck derivation."""
    boards: int
    """How many boards the game plays: it is over after the last."""
    algorithm: str
    commitment: str
    """Hex SHA-256 of the seed bytes (as the drive published it)."""
    cut: int
    seed: str
    """Hex seed (32 bytes); private until revealed."""
    finish: str | None = None
    """How the game of boards ends: ``"played_out"``, after its last board whatever the
    scores (every table plays every board, so every board compares), won by the side with
    the most points over the boards; ``None`` (boards dealt before drives played them out):
    when a side reaches the target, or after the last board."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"finish"})


@dataclasses.dataclass(frozen=True, slots=True)
class BoardSkipped(Event):
    """The server ended a duplicate board unplayed at this table: its drive's director
    abandoned that board here (the drive's ``board_abandoned``, which this carries out).

    The deal ends where it stood, without a result (it scores the director's adjusted score
    in the drive, not points here); the dealer moves on as after any deal, so the next board
    has the same dealer as at every other table, and the game goes on with it once the drive
    reveals this one; after the last board the game is decided over the boards played, as a
    played-out game of boards is.
    """

    TYPE: ClassVar[str] = "board_skipped"
    EXAMPLE: ClassVar[Mapping[str, Any]] = {"deal": 1, "board": "dr-00000000000000000000/r1/b1"}
    SAYS: ClassVar[str] = (
        "board {board} (deal {deal}) skipped: its drive's director abandoned it here")

    deal: int
    board: str


EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameCreated,
        DeckShuffled,
        DeckCut,
        DealContributed,
        DealRecorded,
        JokerBuried,
        TurnUpRobbed,
        BidMade,
        BidPassed,
        BidHeld,
        TrumpNamed,
        CardsDiscarded,
        JinkAnnounced,
        CardPlayed,
        SeedRevealed,
        GameAbandoned,
        BoardDealt,
        SeatNamed,
        BoardSkipped,
    )
}
"""Every event type of a game's stream by its wire name."""



class UnknownEventTypeError(ValueError):
    """Raised when data names an event type this version does not know."""


class EventDataError(ValueError):
    """Raised when an event's data does not fit its type's fields."""


def event_to_data(event: Event) -> dict[str, Any]:
    """Returns the JSON-ready data of *event* (tuples become lists)."""
    optional = event.OPTIONAL
    return {
        field.name: _to_json(value)
        for field in dataclasses.fields(event)
        if (value := getattr(event, field.name)) is not None or field.name not in optional
    }


def compact_data(type_name: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Returns *data* without the optional fields of *type_name* that are ``None``: the form
    that is stored and hashed (see :attr:`Event.OPTIONAL`)."""
    cls = EVENT_TYPES.get(type_name)
    optional = cls.OPTIONAL if cls is not None else frozenset()
    return {name: value for name, value in data.items()
            if value is not None or name not in optional}


def event_from_data(type_name: str, data: Mapping[str, Any],
                    types: Mapping[str, type[Event]] = EVENT_TYPES) -> Event:
    """Returns the event of type *type_name* built from current-schema *data*; *types* are
    the types of its stream (a game's by default, for a drive's
    :data:`events.drive_types.DRIVE_EVENT_TYPES`).

    :raises UnknownEventTypeError: if *type_name* is not a known type.
    :raises EventDataError: if *data* lacks a field or has one the type does not define.
    """
    try:
        cls = types[type_name]
    except KeyError:
        known = ", ".join(sorted(types))
        raise UnknownEventTypeError(
            f"unknown event type {type_name!r}: register it in events.types "
            f"(known: {known})"
        ) from None
    fields_of = _FIELD_NAMES.get(cls)
    if fields_of is None:
        ordered = tuple(field.name for field in dataclasses.fields(cls))
        fields_of = _FIELD_NAMES[cls] = (ordered, frozenset(ordered))
    names = fields_of[0]
    if data.keys() == fields_of[1]:
        values = {}
        for name in names:
            value = data[name]
            values[name] = value if type(value) in _SCALARS else _from_json(value)
        return cls(**values)
    missing = [name for name in names if name not in data and name not in cls.OPTIONAL]
    extra = sorted(set(data) - set(names))
    if missing or extra:
        raise EventDataError(
            f"{type_name} data does not fit schema {cls.SCHEMA}: "
            f"missing {missing}, unexpected {extra}"
        )
    return cls(**{name: _from_json(data[name]) for name in names if name in data})


_FIELD_NAMES: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}
"""The field names of each event type, in order and as a set (looked up once)."""
_SCALARS = frozenset((str, int, bool, type(None)))
"""JSON values :func:`_from_json` returns as they are."""


def positional_constructor(cls: type) -> Callable[..., Any]:
    """Returns a function building an instance of dataclass *cls* from the values of its
    fields, in order: what ``cls(*values)`` builds, but cheaper for a frozen dataclass with
    slots (its ``__init__`` calls ``object.__setattr__`` once per field; this sets each slot
    through its descriptor). Any other class (no slots, a ``__post_init__``, a field that
    is not an ``__init__`` argument) gets ``cls`` itself.
    """
    fields = dataclasses.fields(cls)
    slots = [_slot(cls, field.name) for field in fields]
    if hasattr(cls, "__post_init__") or not all(field.init for field in fields) or None in slots:
        return cls
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for index, slot in enumerate(slots):
        namespace[f"_set{index}"] = slot.__set__  # type: ignore[union-attr]
    arguments = [f"v{index}" for index in range(len(fields))]
    lines = [f"def make({', '.join(arguments)}):", "    made = _new(_cls)"]
    lines += [f"    _set{index}(made, v{index})" for index in range(len(fields))]
    lines.append("    return made")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built from field indexes only
    make: Callable[..., Any] = namespace["make"]
    return make


def event_builder(cls: type[Event]) -> Callable[[dict[str, Any]], Event | None]:
    """Returns a function from data of *cls* at its current schema, as orjson decodes it
    (:func:`events.codec.parse_json_fast`), to the event :func:`event_from_data` builds from
    it; or ``None`` for data it does not build at once: data with a missing or unexpected
    field (for :func:`event_from_data`'s error), or holding a float anywhere (which the
    store decodes again for exact integers).

    The field names are looked up once, each value is taken by name and converted as
    :func:`event_from_data` does, and the event is built by :func:`positional_constructor`.
    """
    fields = dataclasses.fields(cls)
    optional = [field for field in fields if field.name in cls.OPTIONAL
                and field.default is not dataclasses.MISSING]
    required = [field for field in fields if field not in optional]
    namespace: dict[str, Any] = {
        "_make": positional_constructor(cls), "_plain": _SCALARS, "_convert": _from_plain_json,
        "_NotPlain": _NotPlainJson, "_absent": _ABSENT, "_len": len, "_type": type,
    }
    lines = ["def build(data):", "    present = _len(data)", "    try:"]
    lines += [f"        v{fields.index(field)} = data[{field.name!r}]" for field in required]
    lines += ["    except KeyError:", "        return None"]
    for field in optional:
        index = fields.index(field)
        namespace[f"_default{index}"] = field.default
        lines += [f"    v{index} = data.get({field.name!r}, _absent)",
                  f"    if v{index} is _absent:",
                  f"        v{index} = _default{index}",
                  "        present += 1"]
    lines += [f"    if present != {len(fields)}:", "        return None", "    try:"]
    for index in range(len(fields)):
        lines += [f"        if _type(v{index}) not in _plain:",
                  f"            v{index} = _convert(v{index})"]
    lines += ["    except _NotPlain:", "        return None"]
    lines.append(f"    return _make({', '.join(f'v{index}' for index in range(len(fields)))})")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built from field names only
    build: Callable[[dict[str, Any]], Event | None] = namespace["build"]
    return build


def _slot(cls: type, name: str) -> types.MemberDescriptorType | None:
    """Returns the slot descriptor of field *name* of *cls*, or ``None`` if it has none."""
    for klass in cls.__mro__:
        if name in vars(klass):
            found = vars(klass)[name]
            return found if isinstance(found, types.MemberDescriptorType) else None
    return None


class _NotPlainJson(Exception):
    """Raised by :func:`_from_plain_json` for a value holding a float (or anything else JSON
    decoding does not give: a tuple, a set...)."""


_ABSENT = object()
"""A field left out of the data."""


def _from_plain_json(value: Any) -> Any:
    """Returns :func:`_from_json` of decoded JSON *value*.

    :raises _NotPlainJson: if *value* holds a float anywhere (or what JSON does not give).
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return tuple([_from_plain_json(item) for item in value])
    if kind is dict:
        _check_no_float(value)
        return dict(value)
    raise _NotPlainJson


def _check_no_float(value: Any) -> None:
    """Raises :class:`_NotPlainJson` if decoded JSON *value* holds a float anywhere (or
    what JSON decoding does not give)."""
    kind = type(value)
    if kind is dict:
        for item in value.values():
            if type(item) not in _SCALARS:
                _check_no_float(item)
    elif kind is list:
        for item in value:
            if type(item) not in _SCALARS:
                _check_no_float(item)
    elif kind not in _SCALARS:
        raise _NotPlainJson


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _to_json(item) for key, item in value.items()}
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_from_json(item) for item in value)
    if isinstance(value, Mapping):
        return dict(value)
    return value
