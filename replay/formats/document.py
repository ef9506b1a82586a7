"""The hand history as a value: the document two encodings share, and its visitor walk.

A :class:`HandHistory` holds what a record needs (docs/hand-history.md): the format version, the
embedded rules (profile, players, every option, and their digest), the seats with their sides, the
view it was cut for, the events with their hash chain and head, and the derived results with their
rulings. :mod:`replay.formats.jsonformat` and :mod:`replay.formats.text` encode it; both are
lossless, so either can be converted to the other and back to the same canonical bytes.

Walking a history is python-chess's ``Game.accept(visitor)``: :meth:`HandHistory.accept` calls a
:class:`HandVisitor` (defined here, beside the walk that calls it) in document order, and the
same visitor interface is what the text reader calls, so a builder
(:class:`replay.formats.visitor.HandBuilder`) or an exporter works from either side.

A history read from a hand-written text may be a *draft*: events without hashes or times, rules
without a digest, no results. :func:`replay.formats.importing.complete_draft` seals a draft; only a
sealed history has a JSON form.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Generic, Literal, TypeAlias, TypeVar

from replay.errors import HistoryFormatError
from replay.formats.diagnostics import Diagnostic

FORMAT = "fortyfive-hand-history"
"""The ``format`` field of every history."""
FORMAT_VERSION = "1.1"
"""The format version written by this code. Minor versions only add; readers accept 1.x.
1.1 added ``ruling_texts``."""
FIRST_TEXTS = 1
"""The ruling texts of a history that names none (format 1.0)."""

Viewer: TypeAlias = int | Literal["spectator", "auditor"]
Actor: TypeAlias = int | str

DEAL_START_TYPES = frozenset({"deck_shuffled", "deal_recorded", "board_dealt"})
"""Event types that open a deal: everything from one of these to the next belongs to it."""

T = TypeVar("T")


@dataclasses.dataclass(frozen=True, slots=True)
class RulesBlock:
    """The embedded rules profile: profile, players, every option, and its digest."""

    profile: str
    players: int | None
    """Seats at the table; ``None`` only in a draft (the profile's default is then used)."""
    options: Mapping[str, Any]
    """Every option with its value (a draft may give only some)."""
    digest: str | None
    """:meth:`engine.profiles.RuleSet.digest` of the above; ``None`` only in a draft."""

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {
            "profile": self.profile, "players": self.players, "options": dict(self.options),
            "digest": self.digest,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat: its number, who sits there (``human`` or ``bot``) and its side."""

    seat: int
    type: str
    side: int | None
    """Seat s plays for side s mod (number of sides); ``None`` only in a draft."""

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"seat": self.seat, "type": self.type, "side": self.side}


@dataclasses.dataclass(frozen=True, slots=True)
class ViewInfo:
    """The view a history was cut for: who, up to which event, and which deal if only one."""

    viewer: Viewer
    as_of: int | None
    """The version of the last event included; ``None`` only in a draft."""
    deal: int | None = None
    """The deal number when the history holds one deal only."""

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"viewer": self.viewer, "as_of": self.as_of, "deal": self.deal}


@dataclasses.dataclass(frozen=True, slots=True)
class StartBlock:
    """The game's state just before the first deal a history holds, as the history states it.

    Present in a one-deal history (whose earlier events are left out) and in a real-table record
    that starts from given scores. Verification starts its fold here and says so.
    """

    version: int
    """The version of the last event before the deal (1 when nothing is left out)."""
    hash: str
    """That event's hash: the first event of the deal links to it."""
    dealer: int
    scores: tuple[int, ...]
    games_won: tuple[int, ...]
    game_number: int

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {
            "version": self.version, "hash": self.hash, "dealer": self.dealer,
            "scores": list(self.scores), "games_won": list(self.games_won),
            "game_number": self.game_number,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class HistoryEvent:
    """One event as the history's viewer may see it, with its place in the hash chain.

    ``data`` is the stored data exactly as written (at ``schema``) unless ``redacted`` names
    fields the viewer may not see: it is then the viewer's view of the event (from
    :func:`replay.views.event_view`), and the stored ``hash`` can be recomputed only where the
    hidden fields can be reconstructed (see :mod:`replay.verification.reconstruct`).
    """

    version: int
    type: str
    schema: int
    actor: Actor
    command_id: str | None
    occurred_at: str | None
    """``None`` only in a draft."""
    data: Mapping[str, Any]
    prev_hash: str | None
    """``None`` in a draft, and where the hash is withheld (see :attr:`withheld`)."""
    hash: str | None
    """``None`` in a draft, and where the hash is withheld (see :attr:`withheld`)."""
    redacted: tuple[str, ...] = ()
    """Fields of ``data`` hidden from this view."""
    position: tuple[int, int] | None = dataclasses.field(default=None, compare=False)
    """Line and column where a text reader found the event (for diagnostics only)."""

    @property
    def sealed(self) -> bool:
        """True when the event carries its envelope fields (a draft's events do not)."""
        return self.occurred_at is not None

    @property
    def withheld(self) -> bool:
        """True when the view withholds this event's hash.

        A hash over a face-down card gives the card away: there are few candidates, and each
        can be hashed and compared. So while a deal is not revealed, a view that may not see
        another seat's face-down card gets no hash from that card's event on (see
        :func:`replay.formats.build.build_history`).
        """
        return self.sealed and self.hash is None

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form (``redacted`` only when something is)."""
        body: dict[str, Any] = {
            "version": self.version, "type": self.type, "schema": self.schema,
            "actor": self.actor, "command_id": self.command_id,
            "occurred_at": self.occurred_at, "data": _plain(self.data),
            "prev_hash": self.prev_hash, "hash": self.hash,
        }
        if self.redacted:
            body["redacted"] = list(self.redacted)
        return body


@dataclasses.dataclass(frozen=True, slots=True)
class Integrity:
    """The chain and envelope fields of one event, as the text notation's integrity section
    lists them."""

    version: int
    actor: Actor
    command_id: str | None
    occurred_at: str
    hash: str | None
    """``None`` where the view withholds it."""
    schema: int
    prev_hash: str | None
    """``None`` where the view withholds it."""

    @classmethod
    def of(cls, event: HistoryEvent) -> Integrity:
        """Returns the integrity fields of a sealed *event*.

        :raises HistoryFormatError: if *event* is not sealed.
        """
        if event.occurred_at is None:
            raise HistoryFormatError(f"event {event.version} is not sealed")
        return cls(event.version, event.actor, event.command_id, event.occurred_at,
                   event.hash, event.schema, event.prev_hash)


HEADERS = ("format_version", "ruling_texts", "game_id", "rules", "seats", "view", "start", "head",
           "checkpoint", "checkpoint_key")
"""The structured headers a history has, in the order visitors receive them."""

RESULT_KINDS = ("game", "irregularity", "deal", "hands", "fact", "result")
"""The kinds of derived result a visitor receives: the first two for the game, the rest for
the deal being visited."""


class HandVisitor(abc.ABC, Generic[T]):
    """Base visitor: every method does nothing except :meth:`handle_error`, which raises.

    Override what you need, and :meth:`result`. Readers call :meth:`locate` before a visit so a
    visitor can tell where in the text it is.
    """

    def begin_hand(self) -> None:
        """Called first."""

    def locate(self, line: int, column: int) -> None:
        """Called by the text reader with the position of what it visits next."""
        del line, column  # Unused here.

    def visit_header(self, name: str, value: Any) -> None:
        """Called for each header in :data:`HEADERS` that the history has."""
        del name, value  # Unused here.

    def visit_tag(self, name: str, value: str) -> None:
        """Called for a free metadata tag (``Event``, ``Site``, ``Date``...)."""
        del name, value  # Unused here.

    def visit_result(self, kind: str, value: Any) -> None:
        """Called for a derived result; *kind* is one of :data:`RESULT_KINDS`."""
        del kind, value  # Unused here.

    def visit_deal(self, number: int) -> None:
        """Called at the start of each deal."""
        del number  # Unused here.

    def visit_trick(self, number: int) -> None:
        """Called by the text reader where a trick line starts (``3.``)."""
        del number  # Unused here.

    def visit_play(self, seat: int | None, card: str) -> None:
        """Called for a card played; *seat* is ``None`` where the text leaves it to the engine
        (a hand-written trick that does not say who led)."""
        del seat, card  # Unused here.

    def visit_event(self, type: str, data: Mapping[str, Any], redacted: Sequence[str]) -> None:
        """Called for every event that is not a plain card play."""
        del type, data, redacted  # Unused here.

    def visit_comment(self, text: str) -> None:
        """Called for a ``{...}`` or ``;`` comment in the text."""
        del text  # Unused here.

    def visit_integrity(self, records: Sequence[Integrity]) -> None:
        """Called once with the chain fields of every event, in event order."""
        del records  # Unused here.

    def handle_error(self, diagnostic: Diagnostic) -> None:
        """Called for a problem in the input; this base raises it.

        :raises HistoryFormatError: always, in this base class.
        """
        raise HistoryFormatError(str(diagnostic))

    def end_hand(self) -> None:
        """Called last."""

    @abc.abstractmethod
    def result(self) -> T:
        """Returns what the visitor made."""


@dataclasses.dataclass(frozen=True, slots=True)
class Section:
    """One deal of a history: its number, its derived results (if any) and its events."""

    number: int
    entry: Mapping[str, Any] | None
    """The deal's entry in ``results["deals"]``."""
    events: tuple[HistoryEvent, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class HandHistory:
    """A hand history: see the module docstring and docs/hand-history.md for every field."""

    game_id: str | None
    """``None`` only in a draft (the importer then derives one from the content)."""
    rules: RulesBlock | None
    """``None`` only in a draft that names no profile."""
    seats: tuple[SeatInfo, ...]
    view: ViewInfo
    events: tuple[HistoryEvent, ...]
    head: str | None = None
    """The hash of the last event; ``None`` in a draft, or when that hash is withheld."""
    results: Mapping[str, Any] | None = None
    """``{"deals": [...], "game": {...}, "irregularities": [...]}``; ``None`` in a draft."""
    start: StartBlock | None = None
    tags: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Free metadata (``Event``, ``Site``, ``Date``...) outside the hash chain, as in PGN."""
    format_version: str = FORMAT_VERSION
    ruling_texts: int | None = None
    """The version of the ruling texts its sentences were written with
    (:mod:`engine.ruling_texts`); ``None`` in a history of format 1.0, which used version 1."""
    checkpoint: Mapping[str, Any] | None = None
    """The latest checkpoint the service signed for this history's game that its viewer may
    have (docs/verification.md section 8); outside the hash chain, checked against it."""
    checkpoint_key: Mapping[str, Any] | None = None
    """The public key that signed :attr:`checkpoint`, as ``GET /v1/keys`` lists it, so that its
    signature can be checked offline (against a key the history itself carries: a trust root
    given by the user, such as ``--keys``, outranks it)."""
    errors: tuple[Diagnostic, ...] = dataclasses.field(default=(), compare=False)
    """Problems a lenient reader met while reading this history."""
    positions: Mapping[str, tuple[int, int]] = dataclasses.field(
        default_factory=dict, compare=False)
    """Line and column of each header and tag a text reader found (for diagnostics only)."""

    @property
    def texts_version(self) -> int:
        """The version of the ruling texts this history's sentences are in."""
        return self.ruling_texts if self.ruling_texts is not None else FIRST_TEXTS

    @property
    def sealed(self) -> bool:
        """True when every part is present: the history has a JSON form and can be verified."""
        rules = self.rules
        head_known = self.head is not None or bool(self.events and self.events[-1].withheld)
        return (
            self.game_id is not None and rules is not None and rules.players is not None
            and rules.digest is not None and head_known
            and self.results is not None and self.view.as_of is not None
            and all(seat.side is not None for seat in self.seats)
            and all(event.sealed for event in self.events)
        )

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form of a sealed history.

        :raises HistoryFormatError: for a draft, which has no JSON form until it is sealed.
        """
        if not self.sealed or self.rules is None or self.results is None:
            raise HistoryFormatError(
                "this history is a draft (no hashes, times or results): import it to seal it "
                "before asking for its JSON form"
            )
        body: dict[str, Any] = {
            "format": FORMAT,
            "format_version": self.format_version,
            "game_id": self.game_id,
            **({"ruling_texts": self.ruling_texts} if self.ruling_texts is not None else {}),
            "rules": self.rules.to_dict(),
            "seats": [seat.to_dict() for seat in self.seats],
            "view": self.view.to_dict(),
            "events": [event.to_dict() for event in self.events],
            "head": self.head,
            "results": _plain(self.results),
        }
        if self.start is not None:
            body["start"] = self.start.to_dict()
        if self.tags:
            body["tags"] = dict(self.tags)
        if self.checkpoint is not None:
            body["checkpoint"] = dict(self.checkpoint)
        if self.checkpoint_key is not None:
            body["checkpoint_key"] = dict(self.checkpoint_key)
        return body

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> HandHistory:
        """Returns the history held by *raw*, the JSON form (already schema-checked).

        :raises HistoryFormatError: if *raw* does not have the shape of a history.
        """
        try:
            return _from_dict(raw)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise HistoryFormatError(
                f"not a hand history: {type(error).__name__}: {error}"
            ) from None

    def preamble(self) -> tuple[HistoryEvent, ...]:
        """Returns the events before the first deal (the game's creation)."""
        for index, event in enumerate(self.events):
            if event.type in DEAL_START_TYPES:
                return self.events[:index]
        return self.events

    def sections(self) -> list[Section]:
        """Returns the deals of the history in order, pairing each deal's events with its entry
        in ``results["deals"]`` by position (see docs/hand-history.md, "Deal sections")."""
        groups: list[list[HistoryEvent]] = []
        for event in self.events[len(self.preamble()):]:
            if event.type in DEAL_START_TYPES or not groups:
                groups.append([])
            groups[-1].append(event)
        entries: Sequence[Mapping[str, Any]] = (
            self.results.get("deals", []) if self.results is not None else []
        )
        sections = []
        for index in range(max(len(groups), len(entries))):
            events = tuple(groups[index]) if index < len(groups) else ()
            entry = entries[index] if index < len(entries) else None
            if entry is not None:
                number = entry["number"]
            else:
                opened = events[0].data.get("deal") if events else None
                number = opened if isinstance(opened, int) and not isinstance(
                    opened, bool) else index + 1
            sections.append(Section(number, entry, events))
        return sections

    def accept(self, visitor: HandVisitor[T]) -> T:
        """Walks the history with *visitor* in document order and returns its result.

        The order is the text notation's: headers, free tags, game results, the preamble, then
        each deal (its results, events, facts and result), then the integrity records.
        """
        visitor.begin_hand()
        visitor.visit_header("format_version", self.format_version)
        if self.ruling_texts is not None:
            visitor.visit_header("ruling_texts", self.ruling_texts)
        if self.game_id is not None:
            visitor.visit_header("game_id", self.game_id)
        if self.rules is not None:
            visitor.visit_header("rules", self.rules)
        visitor.visit_header("seats", self.seats)
        visitor.visit_header("view", self.view)
        if self.start is not None:
            visitor.visit_header("start", self.start)
        if self.head is not None:
            visitor.visit_header("head", self.head)
        if self.checkpoint is not None:
            visitor.visit_header("checkpoint", self.checkpoint)
        if self.checkpoint_key is not None:
            visitor.visit_header("checkpoint_key", self.checkpoint_key)
        for name in sorted(self.tags):
            visitor.visit_tag(name, self.tags[name])
        if self.results is not None:
            visitor.visit_result("game", self.results["game"])
            for irregularity in self.results["irregularities"]:
                visitor.visit_result("irregularity", irregularity)
        for event in self.preamble():
            _visit_event(visitor, event)
        for section in self.sections():
            visitor.visit_deal(section.number)
            entry = section.entry
            if entry is not None:
                visitor.visit_result("deal", {
                    "dealer": entry["dealer"], "turn_up": entry["turn_up"],
                    "trump": entry["trump"],
                })
                visitor.visit_result("hands", entry["hands"])
            for event in section.events:
                _visit_event(visitor, event)
            if entry is not None:
                for fact in entry["facts"]:
                    visitor.visit_result("fact", fact)
                if entry["result"] is not None:
                    visitor.visit_result("result", entry["result"])
        if all(event.sealed for event in self.events):
            visitor.visit_integrity([Integrity.of(event) for event in self.events])
        visitor.end_hand()
        return visitor.result()


def _visit_event(visitor: HandVisitor[Any], event: HistoryEvent) -> None:
    data = event.data
    seat = data.get("seat")
    card = data.get("card")
    if (
        event.type == "card_played" and not event.redacted and set(data) == {"seat", "card"}
        and isinstance(card, str) and (seat is None or _is_int(seat))
    ):
        visitor.visit_play(seat, card)
    else:
        visitor.visit_event(event.type, data, event.redacted)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain(value: Any) -> Any:
    """Returns *value* with mappings as dicts and tuples as lists (a JSON-ready copy)."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _int(value: Any, name: str) -> int:
    if not _is_int(value):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    assert isinstance(value, int)
    return value


def _str(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {value!r}")
    return value


def _optional_str(value: Any, name: str) -> str | None:
    return None if value is None else _str(value, name)


def _viewer(value: Any) -> Viewer:
    if value in ("spectator", "auditor"):
        return "spectator" if value == "spectator" else "auditor"
    return _int(value, "view.viewer")


def _from_dict(raw: Mapping[str, Any]) -> HandHistory:
    if raw.get("format") != FORMAT:
        raise ValueError(f"format must be {FORMAT!r}, got {raw.get('format')!r}")
    rules_raw = raw["rules"]
    rules = RulesBlock(
        _str(rules_raw["profile"], "rules.profile"), _int(rules_raw["players"], "rules.players"),
        dict(rules_raw["options"]), _str(rules_raw["digest"], "rules.digest"),
    )
    seats = tuple(
        SeatInfo(_int(seat["seat"], "seat"), _str(seat["type"], "seat type"),
                 _int(seat["side"], "side"))
        for seat in raw["seats"]
    )
    view_raw = raw["view"]
    deal = view_raw.get("deal")
    view = ViewInfo(
        _viewer(view_raw["viewer"]), _int(view_raw["as_of"], "view.as_of"),
        None if deal is None else _int(deal, "view.deal"),
    )
    start_raw = raw.get("start")
    start = None
    if start_raw is not None:
        start = StartBlock(
            _int(start_raw["version"], "start.version"), _str(start_raw["hash"], "start.hash"),
            _int(start_raw["dealer"], "start.dealer"),
            tuple(_int(v, "start.scores") for v in start_raw["scores"]),
            tuple(_int(v, "start.games_won") for v in start_raw["games_won"]),
            _int(start_raw["game_number"], "start.game_number"),
        )
    events = tuple(_event_from_dict(item) for item in raw["events"])
    results = raw["results"]
    if not isinstance(results, Mapping):
        raise TypeError("results must be an object")
    tags = raw.get("tags", {})
    head = raw["head"]
    texts = raw.get("ruling_texts")
    return HandHistory(
        game_id=_str(raw["game_id"], "game_id"), rules=rules, seats=seats, view=view,
        events=events, head=None if head is None else _str(head, "head"),
        results=_plain(results), start=start,
        tags={_str(k, "tag name"): _str(v, "tag value") for k, v in tags.items()},
        format_version=_str(raw["format_version"], "format_version"),
        ruling_texts=None if texts is None else _int(texts, "ruling_texts"),
        checkpoint=raw.get("checkpoint"),
        checkpoint_key=raw.get("checkpoint_key"),
    )


def _event_from_dict(raw: Mapping[str, Any]) -> HistoryEvent:
    actor = raw["actor"]
    if not (_is_int(actor) or isinstance(actor, str)):
        raise TypeError(f"actor must be a seat or a string, got {actor!r}")
    command_id = raw["command_id"]
    if command_id is not None:
        _str(command_id, "command_id")
    data = raw["data"]
    if not isinstance(data, Mapping):
        raise TypeError("event data must be an object")
    return HistoryEvent(
        version=_int(raw["version"], "version"), type=_str(raw["type"], "type"),
        schema=_int(raw["schema"], "schema"), actor=actor, command_id=command_id,
        occurred_at=_str(raw["occurred_at"], "occurred_at"), data=_plain(data),
        prev_hash=_optional_str(raw["prev_hash"], "prev_hash"),
        hash=_optional_str(raw["hash"], "hash"),
        redacted=tuple(_str(name, "redacted field") for name in raw.get("redacted", ())),
    )
