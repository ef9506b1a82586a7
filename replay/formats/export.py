"""Writing the text notation: ``hand.accept(TextExporter())``, as python-chess's
``game.accept(StringExporter())``.

The output is the notation's export form: fixed tag order, one deal per section, one trick per line
with its leader written, derived results on ``=`` lines next to what they concern, and the chain
fields of every event in the closing ``%integrity`` section. Each piece is written in its compact
form only when :mod:`replay.formats.notation` reads it back as exactly the same value; otherwise its
JSON escape is used, so the text always converts back to the same canonical JSON.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import ProfileError
from engine.profiles import profile_players
from engine.sides import side_name
from events.codec import canonical_json
from replay.formats.document import (
    HandVisitor,
    Integrity,
    RulesBlock,
    SeatInfo,
    StartBlock,
    ViewInfo,
)
from replay.formats.notation import (
    MAGIC,
    Context,
    encode_rules_tags,
    encode_seats,
    encode_start,
    encode_view,
    parse_move,
    render_event_json,
    render_move,
    render_recorded,
)
from replay.formats.notation_lines import render_integrity, render_result_line
from replay.formats.visitor import default_schema

_OWN_LINE = frozenset({"game_created", "deck_shuffled", "seed_revealed"})
"""Events long enough to stand on a line of their own."""

Item = tuple[str, str, Mapping[str, Any], tuple[str, ...], int | None]
"""An event as collected: ``("play"|"event", type, data, redacted, seat)``."""


_LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape_tag(value: str) -> str:
    """Returns *value* with ``\\`` and ``"`` escaped for a tag, as PGN does, and any control
    or line-breaking character written as ``\\uXXXX`` so a tag always stays on its line."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return _LINE_BREAKING.sub(lambda match: f"\\u{ord(match.group()):04x}", escaped)


class _Section:
    def __init__(self, number: int) -> None:
        self.number = number
        self.deal: Any = None
        self.hands: Any = None
        self.has_entry = False
        self.items: list[Item] = []
        self.facts: list[Any] = []
        self.result: Any = None


class TextExporter(HandVisitor[str]):
    """Collects a history from the visitor calls and returns its text from :meth:`result`."""

    def __init__(self) -> None:
        self._format_version = "1.0"
        self._headers: dict[str, Any] = {}
        self._tags: list[tuple[str, str]] = []
        self._game: Any = None
        self._irregularities: list[Any] = []
        self._preamble: list[Item] = []
        self._sections: list[_Section] = []
        self._records: list[Integrity] | None = None

    def visit_header(self, name: str, value: Any) -> None:
        if name == "format_version":
            self._format_version = value
        else:
            self._headers[name] = value

    def visit_tag(self, name: str, value: str) -> None:
        self._tags.append((name, value))

    def visit_result(self, kind: str, value: Any) -> None:
        if kind == "game":
            self._game = value
        elif kind == "irregularity":
            self._irregularities.append(value)
        elif self._sections:
            section = self._sections[-1]
            if kind == "deal":
                section.deal = value
                section.has_entry = True
            elif kind == "hands":
                section.hands = value
            elif kind == "fact":
                section.facts.append(value)
            elif kind == "result":
                section.result = value

    def visit_deal(self, number: int) -> None:
        self._sections.append(_Section(number))

    def visit_play(self, seat: int | None, card: str) -> None:
        self._items().append(("play", "card_played", {"seat": seat, "card": card}, (), seat))

    def visit_event(self, type: str, data: Mapping[str, Any], redacted: Sequence[str]) -> None:
        self._items().append(("event", type, data, tuple(redacted), None))

    def visit_integrity(self, records: Sequence[Integrity]) -> None:
        self._records = list(records)

    def _items(self) -> list[Item]:
        return self._sections[-1].items if self._sections else self._preamble

    # Rendering -------------------------------------------------------------------------------

    def result(self) -> str:
        context = Context()
        rules = self._headers.get("rules")
        seats = self._headers.get("seats", ())
        context.rules = rules if isinstance(rules, RulesBlock) else None
        context.seats = tuple(seat for seat in seats if isinstance(seat, SeatInfo))
        players = _players(context.rules)
        lines = [f"{MAGIC} {self._format_version}"]
        lines += [f'[{name} "{escape_tag(value)}"]' for name, value in self._header_tags()]
        lines += [f'[{name} "{escape_tag(value)}"]' for name, value in self._tags]
        if self._game is not None:
            lines.append(render_result_line("game", self._game))
        lines += [render_result_line("irregularity", item) for item in self._irregularities]
        versions = self._versions()
        position = 0
        if self._preamble:
            lines.append("")
            layout = _Layout(context, players, versions, position)
            layout.run(self._preamble)
            lines += layout.lines
            position += len(self._preamble)
        for section in self._sections:
            context.deal = section.number
            lines += ["", f'[Deal "{section.number}"]']
            items = section.items
            skipped = 0
            if items and items[0][1] == "deal_recorded":
                tags = render_recorded(items[0][2], items[0][3], context)
                if tags is not None:
                    lines += [f'[{name} "{escape_tag(value)}"]' for name, value in tags]
                    skipped = 1
            if section.has_entry:
                lines.append(render_result_line("deal", section.deal))
                lines.append(render_result_line("hands", section.hands))
            layout = _Layout(context, players, versions, position + skipped, section)
            layout.run(items[skipped:])
            lines += layout.lines
            if section.result is not None:
                lines.append(render_result_line("result", section.result))
            position += len(items)
        if self._records is not None:
            lines += ["", "%integrity"]
            kinds = [item[1] for item in self._all_items()]
            previous: Integrity | None = None
            for index, record in enumerate(self._records):
                kind = kinds[index] if index < len(kinds) else ""
                lines.append(render_integrity(record, previous, default_schema(kind)))
                previous = record
        return "\n".join(lines) + "\n"

    def _header_tags(self) -> list[tuple[str, str]]:
        headers = self._headers
        tags: list[tuple[str, str]] = []
        if "game_id" in headers:
            tags.append(("Game", headers["game_id"]))
        if "ruling_texts" in headers:
            tags.append(("RulingTexts", str(headers["ruling_texts"])))
        rules = headers.get("rules")
        if isinstance(rules, RulesBlock):
            tags += encode_rules_tags(rules)
        tags.append(("Seats", encode_seats(headers.get("seats", ()))))
        view = headers.get("view")
        if isinstance(view, ViewInfo):
            tags.append(("View", encode_view(view)))
            if view.as_of is not None:
                tags.append(("AsOf", str(view.as_of)))
            if view.deal is not None:
                tags.append(("ViewDeal", str(view.deal)))
        start = headers.get("start")
        if isinstance(start, StartBlock):
            tags.append(("Start", encode_start(start)))
        if "head" in headers:
            tags.append(("Head", headers["head"]))
        if "checkpoint" in headers:
            tags.append(("Checkpoint", canonical_json(headers["checkpoint"]).decode("utf-8")))
        if "checkpoint_key" in headers:
            tags.append(("CheckpointKey",
                         canonical_json(headers["checkpoint_key"]).decode("utf-8")))
        return tags

    def _all_items(self) -> list[Item]:
        items = list(self._preamble)
        for section in self._sections:
            items += section.items
        return items

    def _versions(self) -> list[int]:
        if self._records is not None:
            return [record.version for record in self._records]
        return list(range(1, len(self._all_items()) + 1))


def _players(rules: RulesBlock | None) -> int | None:
    """Returns the table size the reader will assume for seat rotation."""
    if rules is None:
        return None
    if rules.players is not None:
        return rules.players
    try:
        return profile_players(rules.profile)[0]
    except ProfileError:
        return None


class _Layout:
    """Lays out one deal's events as lines: setup actions, then one trick per line, with each
    derived fact after the line that established it."""

    def __init__(self, context: Context, players: int | None, versions: Sequence[int],
                 start: int, section: _Section | None = None) -> None:
        self.context = context
        self.players = players or 0
        self.versions = versions
        self.index = start
        self.section = section
        self.lines: list[str] = []
        self.current: list[str] | None = None
        self.trick: int | None = None
        self.plays = 0
        self.last_seat: int | None = None
        self.seen_version = 0
        self.version = 0
        """The version of the event being laid out; its facts follow the line it ends up on."""
        self.facts_done = 0

    def run(self, items: Sequence[Item]) -> None:
        for kind, type_name, data, redacted, seat in items:
            self.version = self.versions[self.index] if self.index < len(self.versions) else 0
            self.index += 1
            if kind == "play" and self.play(seat, data["card"]):
                continue
            if kind == "play":
                self.raw(type_name, data, redacted)
                continue
            self.event(type_name, data, redacted)
        self.close()
        if self.section is not None:
            self.flush_facts(final=True)

    def play(self, seat: int | None, card: str) -> bool:
        """Adds a card to the trick line; returns False when it has no compact form."""
        starts = self.players > 0 and self.plays % self.players == 0
        if starts:
            expected = None
        else:
            expected = (self.last_seat + 1) % self.players if (
                self.last_seat is not None and self.players) else None
        token = card if seat == expected else (f"{seat}:{card}" if seat is not None else None)
        if token is None or (seat is not None and self.players and seat >= self.players):
            return False
        try:
            parsed_seat, parsed_card, _ = parse_move(token, self.context)
        except ValueError:
            return False
        if parsed_card != card or (parsed_seat is not None and parsed_seat != seat):
            return False
        if starts:
            self.close()
            self.trick = self.plays // self.players + 1
            self.current = [f"{self.trick}."]
            self.last_seat = None
        elif self.current is None:
            self.current = []
        self.seen()
        self.current.append(token)
        self.last_seat = seat
        self.plays += 1
        if self.players and self.plays % self.players == 0:
            self.close()
        return True

    def event(self, type_name: str, data: Mapping[str, Any], redacted: tuple[str, ...]) -> None:
        token = render_move(type_name, data, redacted, self.context)
        if token is None:
            self.raw(type_name, data, redacted)
            return
        in_trick = self.trick is not None and self.current is not None and self.players and (
            self.plays % self.players != 0)
        if in_trick:
            assert self.current is not None
            self.seen()
            self.current.append(token)
        elif type_name in _OWN_LINE:
            self.close()
            self.seen()
            self.lines.append(token)
            self.flush_facts()
        else:
            if self.current is None or self.trick is not None:
                self.close()
                self.current = []
            self.seen()
            self.current.append(token)

    def seen(self) -> None:
        """Marks the event being laid out as written (its facts may follow its line)."""
        self.seen_version = max(self.seen_version, self.version)

    def raw(self, type_name: str, data: Mapping[str, Any], redacted: tuple[str, ...]) -> None:
        self.close()
        self.seen()
        self.lines.append(render_event_json(type_name, data, redacted))
        self.flush_facts()

    def close(self) -> None:
        if self.current:
            line = " ".join(self.current)
            if self.trick is not None:
                line += self.annotation(self.trick)
            self.lines.append(line)
            self.flush_facts()
        self.current = None
        self.trick = None

    def annotation(self, trick: int) -> str:
        """Returns ``{B +10}``: who won the trick and what it scored, from the facts."""
        section = self.section
        if section is None:
            return ""
        won = [fact for fact in section.facts if isinstance(fact, Mapping)
               and fact.get("kind") == "trick_won" and fact.get("trick") == trick]
        if not won or not isinstance(won[0].get("side"), int):
            return ""
        side = side_name(won[0]["side"])
        ended = section.result.get("ended_at_trick") if isinstance(
            section.result, Mapping) else None
        if isinstance(ended, int) and trick > ended:
            return f" {{{side}, not counted}}"
        bonus = any(isinstance(fact, Mapping) and fact.get("kind") == "bonus_proven"
                    and fact.get("credited_trick") == trick for fact in section.facts)
        return f" {{{side} +{10 if bonus else 5}}}"

    def flush_facts(self, final: bool = False) -> None:
        section = self.section
        if section is None:
            return
        while self.facts_done < len(section.facts):
            fact = section.facts[self.facts_done]
            version = fact.get("version") if isinstance(fact, Mapping) else None
            if not final and not (isinstance(version, int) and version <= self.seen_version):
                return
            self.lines.append(render_result_line("fact", fact))
            self.facts_done += 1


def export_text(history: Any) -> str:
    """Returns the text notation of *history* (a :class:`~replay.formats.document.HandHistory`)."""
    text: str = history.accept(TextExporter())
    return text


