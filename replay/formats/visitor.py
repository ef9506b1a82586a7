"""The visitor that builds a hand history, as :mod:`chess.pgn`'s ``GameBuilder`` builds games.

The text reader (:func:`replay.formats.text.read_hand`) and
:meth:`replay.formats.document.HandHistory.accept` call the methods of
:class:`~replay.formats.document.HandVisitor` in the same order, so one visitor serves both:
:class:`HandBuilder` builds a :class:`~replay.formats.document.HandHistory` (from text, or as a
copy), and :class:`replay.formats.export.TextExporter` writes the notation.

Values passed to visitors are structured (rules as a :class:`~replay.formats.document.RulesBlock`,
results as JSON objects): the notation's encoding stays in :mod:`replay.formats.notation`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from events.chain import GENESIS_HASH
from events.types import EVENT_TYPES
from replay.formats.diagnostics import Diagnostic
from replay.formats.document import (
    HandHistory,
    HandVisitor,
    HistoryEvent,
    Integrity,
    RulesBlock,
    SeatInfo,
    StartBlock,
    ViewInfo,
)


class HandBuilder(HandVisitor[HandHistory]):
    """Builds a :class:`HandHistory`, collecting problems in ``errors`` instead of raising.

    With integrity records (an exported history) the events are sealed; without them (a
    hand-written record) the result is a draft for :func:`replay.formats.importing.complete_draft`.
    """

    def __init__(self) -> None:
        self.errors: list[Diagnostic] = []
        self._where: tuple[int, int] | None = None
        self._headers: dict[str, Any] = {}
        self._tags: dict[str, str] = {}
        self._game: Mapping[str, Any] | None = None
        self._irregularities: list[Any] = []
        self._deals: list[dict[str, Any]] = []
        self._section: int | None = None
        self._section_entry: dict[str, Any] | None = None
        self._events: list[tuple[str, Mapping[str, Any], tuple[str, ...],
                                 tuple[int, int] | None]] = []
        self._records: list[Integrity] | None = None
        self._positions: dict[str, tuple[int, int]] = {}

    def locate(self, line: int, column: int) -> None:
        self._where = (line, column)

    def _error(self, code: str, message: str) -> None:
        line, column = self._where if self._where is not None else (None, None)
        self.errors.append(Diagnostic(code, message, line=line, column=column))

    def visit_header(self, name: str, value: Any) -> None:
        if name in self._headers:
            self._error("duplicate_header", f"{name} is given twice; the first is kept")
            return
        self._headers[name] = value
        if self._where is not None:
            self._positions[name] = self._where

    def visit_tag(self, name: str, value: str) -> None:
        if name in self._tags:
            self._error("duplicate_tag", f"tag {name!r} is given twice; the first is kept")
            return
        self._tags[name] = value
        if self._where is not None:
            self._positions[name] = self._where

    def visit_deal(self, number: int) -> None:
        self._section = number
        self._section_entry = None

    def visit_result(self, kind: str, value: Any) -> None:
        if kind == "game":
            if self._game is not None:
                self._error("duplicate_result", "the game result is given twice")
                return
            self._game = value
        elif kind == "irregularity":
            self._irregularities.append(value)
        elif kind == "deal":
            if self._section is None:
                self._error("misplaced_result", "a deal result needs a [Deal] tag before it")
                return
            if self._section_entry is not None:
                self._error("duplicate_result", f"deal {self._section} has two '= deal' lines")
                return
            opened = {"number": self._section, **dict(value), "hands": None, "facts": [],
                      "result": None}
            self._section_entry = opened
            self._deals.append(opened)
        else:
            entry = self._section_entry
            if entry is None:
                self._error("misplaced_result",
                            f"'= {kind}' belongs to a deal: give its '= deal' line first")
                return
            if kind == "hands":
                entry["hands"] = value
            elif kind == "fact":
                entry["facts"].append(value)
            elif kind == "result":
                entry["result"] = value

    def visit_play(self, seat: int | None, card: str) -> None:
        self._events.append(("card_played", {"seat": seat, "card": card}, (), self._where))

    def visit_event(self, type: str, data: Mapping[str, Any], redacted: Sequence[str]) -> None:
        self._events.append((type, dict(data), tuple(redacted), self._where))

    def visit_integrity(self, records: Sequence[Integrity]) -> None:
        self._records = list(records)

    def handle_error(self, diagnostic: Diagnostic) -> None:
        self.errors.append(diagnostic)

    def result(self) -> HandHistory:
        events = self._sealed_events() if self._records is not None else self._draft_events()
        results = None
        if self._game is not None or self._deals:
            for entry in self._deals:
                if entry["hands"] is None:
                    self._error("missing_result", f"deal {entry['number']} has no '= hands' line")
            if self._game is None:
                self._error("missing_result", "the history has deal results but no '= game' line")
            else:
                results = {"deals": self._deals, "game": self._game,
                           "irregularities": self._irregularities}
        headers = self._headers
        view = headers.get("view")
        if not isinstance(view, ViewInfo):
            view = ViewInfo("auditor", events[-1].version if events and self._records else None)
        rules = headers.get("rules")
        seats = headers.get("seats", ())
        start = headers.get("start")
        return HandHistory(
            game_id=headers.get("game_id"),
            rules=rules if isinstance(rules, RulesBlock) else None,
            seats=tuple(seat for seat in seats if isinstance(seat, SeatInfo)),
            view=view,
            events=tuple(events),
            head=headers.get("head"),
            results=results,
            start=start if isinstance(start, StartBlock) else None,
            tags=dict(self._tags),
            format_version=headers.get("format_version", "1.0"),
            ruling_texts=headers.get("ruling_texts"),
            checkpoint=headers.get("checkpoint"),
            checkpoint_key=headers.get("checkpoint_key"),
            errors=tuple(self.errors),
            positions=dict(self._positions),
        )

    def _draft_events(self) -> list[HistoryEvent]:
        """Returns the events of a hand-written record: numbered in order, not yet sealed."""
        events = []
        for index, (kind, data, redacted, where) in enumerate(self._events, start=1):
            events.append(HistoryEvent(
                version=index, type=kind, schema=default_schema(kind),
                actor=default_actor(data), command_id=None, occurred_at=None, data=data,
                prev_hash=None, hash=None, redacted=redacted, position=where,
            ))
        return events

    def _sealed_events(self) -> list[HistoryEvent]:
        records = self._records or []
        if len(records) != len(self._events):
            self._error(
                "integrity_count",
                f"the integrity section lists {len(records)} events but the history has "
                f"{len(self._events)}; the unmatched ones are left out",
            )
        events = []
        for (kind, data, redacted, where), record in zip(self._events, records, strict=False):
            events.append(HistoryEvent(
                version=record.version, type=kind, schema=record.schema, actor=record.actor,
                command_id=record.command_id, occurred_at=record.occurred_at, data=data,
                prev_hash=record.prev_hash, hash=record.hash, redacted=redacted, position=where,
            ))
        return events


def default_schema(type_name: str) -> int:
    """Returns the schema an event of *type_name* has unless the history says otherwise: the
    type's current schema (1 for a type this code does not know)."""
    cls = EVENT_TYPES.get(type_name)
    return cls.SCHEMA if cls is not None else 1


def default_actor(data: Mapping[str, Any]) -> int | str:
    """Returns who acted for an event with *data* when a record does not say: its seat, else
    the server."""
    seat = data.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    return "server"


def default_prev(previous: Integrity | None) -> str | None:
    """Returns the ``prev_hash`` an integrity record has unless it says otherwise: the hash of
    the record before it (``None`` where withheld), or the genesis hash for the first."""
    return previous.hash if previous is not None else GENESIS_HASH
