"""Reading the text notation, leniently, as :func:`chess.pgn.read_game` reads PGN.

:func:`read_hand` walks the text once and calls a :class:`~replay.formats.document.HandVisitor` (by
default a :class:`~replay.formats.visitor.HandBuilder`) for each header, deal, trick, card, event,
result and integrity record. A problem is passed to the visitor's ``handle_error`` with its
line and column, and reading goes on with the next piece: nothing is invented to fill the gap.

The notation itself is described in docs/hand-history.md; the encoding of each piece is in
:mod:`replay.formats.notation`, the writer in :mod:`replay.formats.export`.

>>> import io
>>> hand = read_hand(io.StringIO('[Profile "bruff"]\\n[Deal "1"]\\n1. 7S 5S KD\\n'))
>>> [event.data["card"] for event in hand.events], hand.errors
(['7S', '5S', 'KD'], ())
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TextIO, TypeVar, overload

from engine.errors import ProfileError
from engine.profiles import profile_players
from replay.formats import jsontext
from replay.formats.diagnostics import Diagnostic
from replay.formats.document import HandHistory, HandVisitor, Integrity, RulesBlock, ViewInfo
from replay.formats.notation import (
    DEAL_TAGS,
    HEADER_TAGS,
    INTEGRITY,
    MAGIC,
    Context,
    NotationError,
    decode_integer,
    decode_options,
    decode_seats,
    decode_start,
    decode_viewer,
    parse_event_json,
    parse_move,
    parse_recorded,
)
from replay.formats.notation_lines import parse_integrity, parse_result_line
from replay.formats.visitor import HandBuilder, default_schema

T = TypeVar("T")

SUPPORTED_MAJOR = "1"
"""The format major version this reader understands."""

TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
"""A tag, ``[Profile "bruff"]``: its name and its quoted value."""
_TRICK = re.compile(r"([0-9]+)\.")


@overload
def read_hand(handle: TextIO) -> HandHistory | None: ...


@overload
def read_hand(
    handle: TextIO, *, Visitor: Callable[[], HandVisitor[T]]  # noqa: N803
) -> T | None: ...


def read_hand(
    handle: TextIO, *, Visitor: Callable[[], HandVisitor[Any]] = HandBuilder  # noqa: N803
) -> Any:
    """Reads one history from *handle* (the rest of the stream) and returns the visitor's
    result, or ``None`` when nothing but blank lines is left.

    A :class:`HandBuilder` result carries the problems met in ``errors``, each with its line
    and column.

    :raises HistoryFormatError: only from a visitor whose ``handle_error`` raises (the default
        :class:`HandBuilder` collects instead).
    """
    # Lines end at a newline only: str.splitlines would also break at separators (U+0085,
    # U+2028, ...) that may stand inside a quoted value.
    lines = [line.removesuffix("\r") for line in handle.read().split("\n")]
    if not any(line.strip() for line in lines):
        return None
    visitor = Visitor()
    _Reader(visitor, lines).run()
    return visitor.result()


def read_text(text: str) -> HandHistory:
    """Returns the history in *text* (an empty history with one error for an empty text)."""
    import io

    hand = read_hand(io.StringIO(text))
    if hand is None:
        return HandHistory(
            game_id=None, rules=None, seats=(), view=ViewInfo("auditor", None), events=(),
            errors=(Diagnostic("empty", "the text holds no history", line=1, column=1),),
        )
    return hand


class _Reader:
    """One pass over the lines of a history, calling the visitor as it goes."""

    def __init__(self, visitor: HandVisitor[Any], lines: list[str]) -> None:
        self.visitor = visitor
        self.lines = lines
        self.context = Context()
        self.headers: dict[str, tuple[str, int, int]] = {}
        self.header_done = False
        self.format_version = "1.0"
        self.seen_content = False
        self.section: int | None = None
        self.deal_tags: dict[str, tuple[str, int, int]] = {}
        self.players: int | None = None
        self.last_seat: int | None = None
        self.event_types: list[str] = []
        self.integrity: list[tuple[str, int]] | None = None
        self.comment: tuple[int, int, list[str]] | None = None

    # Reporting -------------------------------------------------------------------------------

    def error(self, code: str, message: str, line: int, column: int,
              severity: str = "error") -> None:
        self.visitor.handle_error(Diagnostic(
            code, message, "warning" if severity == "warning" else "error",
            line=line, column=column,
        ))

    # The pass --------------------------------------------------------------------------------

    def run(self) -> None:
        self.visitor.begin_hand()
        for number, text in enumerate(self.lines, start=1):
            if not self.line(number, text):
                break
        last = len(self.lines)
        if self.comment is not None:
            line, column, _ = self.comment
            self.error("unterminated_comment", "a '{' comment is never closed", line, column)
        self.flush_header()
        self.flush_deal_tags()
        if self.integrity is not None:
            self.read_integrity()
        elif self.event_types and self.header_done and "Head" in self.headers:
            self.error("missing_integrity",
                       "the history names its head but has no %integrity section", last, 1)
        self.visitor.end_hand()

    def line(self, number: int, text: str) -> bool:
        """Reads one line; returns False to stop reading."""
        if self.comment is not None:
            end = text.find("}")
            if end < 0:
                self.comment[2].append(text)
                return True
            self.comment[2].append(text[:end])
            self.visitor.visit_comment("\n".join(self.comment[2]).strip())
            self.comment = None
            self.movetext(number, text, end + 1)
            return True
        stripped = text.strip()
        if not stripped:
            return True
        column = len(text) - len(text.lstrip()) + 1
        if self.integrity is not None and not stripped.startswith("%"):
            content = _before_comment(stripped).strip()
            if content:
                self.integrity.append((content, number))
            return True
        if stripped.startswith("%"):
            return self.escape(number, column, stripped)
        if stripped.startswith(";"):
            self.visitor.visit_comment(stripped[1:].strip())
            return True
        self.seen_content = True
        if stripped.startswith("["):
            self.tags(number, text)
        elif stripped.startswith("="):
            self.flush_header()
            self.flush_deal_tags()
            self.result_line(number, column, stripped)
        else:
            self.flush_header()
            self.flush_deal_tags()
            self.movetext(number, text, 0)
        return True

    def escape(self, number: int, column: int, stripped: str) -> bool:
        if stripped.startswith(MAGIC):
            if self.seen_content:
                self.error("second_history",
                           "a second history starts here; give one history per file",
                           number, column)
                return False
            self.seen_content = True
            version = stripped[len(MAGIC):].strip()
            if version.split(".")[0] != SUPPORTED_MAJOR:
                self.error("format_version",
                           f"format version {version!r} is not supported (this reader knows "
                           f"{SUPPORTED_MAJOR}.x)", number, column)
            self.format_version = version or "1.0"
            return True
        self.seen_content = True
        self.flush_header()
        self.flush_deal_tags()
        if stripped == INTEGRITY:
            if self.integrity is not None:
                self.error("duplicate_integrity", "a second %integrity section", number, column)
            self.integrity = []
        elif stripped.startswith("%event"):
            self.visitor.locate(number, column)
            try:
                kind, data, redacted = parse_event_json(stripped[len("%event"):].strip())
            except NotationError as error:
                self.error("bad_event", str(error), number, column)
                return True
            self.event(kind, data, redacted)
        else:
            self.error("unknown_escape", f"unknown line {stripped.split()[0]!r} is ignored",
                       number, column, "warning")
        return True

    # Tags ------------------------------------------------------------------------------------

    def tags(self, number: int, text: str) -> None:
        index = text.index("[")
        while index < len(text):
            if text[index].isspace():
                index += 1
                continue
            match = TAG.match(text, index)
            if match is None:
                self.error("bad_tag", 'a tag is written [Name "value"]', number, index + 1)
                return
            value = _unescape_tag(match.group(2))
            self.tag(match.group(1), value, number, match.start(2) + 1)
            index = match.end()

    def tag(self, name: str, value: str, line: int, column: int) -> None:
        if name in HEADER_TAGS:
            if self.header_done:
                self.error("late_header", f"[{name}] belongs to the header, before any deal or "
                           "move; it is ignored here", line, column)
            elif name in self.headers:
                self.error("duplicate_header", f"[{name}] is given twice; the first is kept",
                           line, column)
            else:
                self.headers[name] = (value, line, column)
            return
        if name == "Deal":
            self.flush_header()
            self.flush_deal_tags()
            number = _whole_or_none(value)
            if number is None or number < 1:
                self.error("bad_tag", f"[Deal] is a deal number from 1, got {value!r}",
                           line, column)
                return
            self.open_deal(number, line, column)
            return
        if name in DEAL_TAGS:
            self.flush_header()
            if self.section is None:
                self.open_deal(1, line, column)
            if name in self.deal_tags:
                self.error("duplicate_tag", f"[{name}] is given twice in this deal", line, column)
            else:
                self.deal_tags[name] = (value, line, column)
            return
        self.visitor.locate(line, column)
        self.visitor.visit_tag(name, value)

    def open_deal(self, number: int, line: int, column: int) -> None:
        self.section = number
        self.context.deal = number
        self.last_seat = None
        self.visitor.locate(line, column)
        self.visitor.visit_deal(number)

    def flush_deal_tags(self) -> None:
        if not self.deal_tags:
            return
        tags = {name: value for name, (value, _, _) in self.deal_tags.items()}
        _, line, column = self.deal_tags.get("Hands", next(iter(self.deal_tags.values())))
        self.deal_tags = {}
        self.visitor.locate(line, column)
        try:
            kind, data, redacted = parse_recorded(tags, self.context)
        except NotationError as error:
            self.error(error.code if error.code != "syntax" else "bad_deal", str(error),
                       line, column + error.column)
            return
        self.event(kind, data, redacted)

    def flush_header(self) -> None:
        if self.header_done:
            return
        self.header_done = True
        visitor = self.visitor
        visitor.visit_header("format_version", self.format_version)
        values = self.headers

        def decode(name: str, parse: Callable[[str], Any]) -> Any:
            if name not in values:
                return None
            text, line, column = values[name]
            try:
                return parse(text)
            except NotationError as error:
                self.error("bad_header", f"[{name}]: {error}", line, column + error.column)
            except ValueError as error:
                self.error("bad_header", f"[{name}]: {error}", line, column)
            return None

        def place(name: str) -> None:
            _, line, column = values[name]
            visitor.locate(line, column)

        texts = decode("RulingTexts", _whole)
        if texts is not None:
            place("RulingTexts")
            visitor.visit_header("ruling_texts", texts)
        if "Game" in values:
            place("Game")
            visitor.visit_header("game_id", values["Game"][0])
        self.rules_header(decode)
        seats = decode("Seats", decode_seats)
        if seats is not None:
            place("Seats")
            visitor.visit_header("seats", tuple(seats))
            self.context.seats = tuple(seats)
        viewer = decode("View", decode_viewer)
        as_of = decode("AsOf", _whole)
        view_deal = decode("ViewDeal", _whole)
        if viewer is not None or as_of is not None:
            place("View" if "View" in values else "AsOf")
            visitor.visit_header("view", ViewInfo(viewer if viewer is not None else "auditor",
                                                  as_of, view_deal))
        start = decode("Start", decode_start)
        if start is not None:
            place("Start")
            visitor.visit_header("start", start)
        if "Head" in values:
            place("Head")
            visitor.visit_header("head", values["Head"][0])
        checkpoint = decode("Checkpoint", _json_object)
        if checkpoint is not None:
            place("Checkpoint")
            visitor.visit_header("checkpoint", checkpoint)
        checkpoint_key = decode("CheckpointKey", _json_object)
        if checkpoint_key is not None:
            place("CheckpointKey")
            visitor.visit_header("checkpoint_key", checkpoint_key)

    def rules_header(self, decode: Callable[[str, Callable[[str], Any]], Any]) -> None:
        values = self.headers
        if "Profile" not in values:
            others = [name for name in ("Players", "Options", "RulesDigest") if name in values]
            if others:
                _, line, column = values[others[0]]
                self.error("missing_profile", "the rules need a [Profile] tag", line, column)
            return
        profile, line, column = values["Profile"]
        players = decode("Players", _whole)
        options = decode("Options", decode_options)
        digest = values["RulesDigest"][0] if "RulesDigest" in values else None
        rules = RulesBlock(profile, players, options or {}, digest)
        self.visitor.locate(line, column)
        self.visitor.visit_header("rules", rules)
        self.context.rules = rules
        if players is None:
            try:
                players = profile_players(profile)[0]
            except ProfileError as error:
                self.error("bad_header", f"[Profile]: {error}", line, column)
        self.players = players

    # Results and moves -----------------------------------------------------------------------

    def result_line(self, number: int, column: int, stripped: str) -> None:
        self.visitor.locate(number, column)
        try:
            kind, value = parse_result_line(stripped)
        except NotationError as error:
            self.error(error.code, str(error), number, column + error.column)
            return
        self.visitor.visit_result(kind, value)

    def movetext(self, number: int, text: str, index: int) -> None:
        while index < len(text):
            char = text[index]
            if char.isspace():
                index += 1
                continue
            if char == "{":
                end = text.find("}", index + 1)
                if end < 0:
                    self.comment = (number, index + 1, [text[index + 1:]])
                    return
                self.visitor.visit_comment(text[index + 1:end].strip())
                index = end + 1
                continue
            if char == ";":
                self.visitor.visit_comment(text[index + 1:].strip())
                return
            if char == "}":
                self.error("syntax", "'}' without a '{' before it", number, index + 1)
                index += 1
                continue
            end, depth, quoted = index, 0, False
            while end < len(text):
                current = text[end]
                if quoted:
                    if current == "\\":
                        end += 1  # An escaped character, a quote included, stays quoted.
                    elif current == '"':
                        quoted = False
                elif current == '"':
                    quoted = True
                elif current == "(":
                    depth += 1
                elif current == ")":
                    depth -= 1
                elif depth <= 0 and (current.isspace() or current in "{;"):
                    break
                end += 1
            token = _without_spaces(text[index:end])
            if depth > 0:
                self.error("bad_token", f"unclosed '(' in {token!r}", number, index + 1)
            else:
                self.token(token, number, index + 1)
            index = end

    def token(self, token: str, line: int, column: int) -> None:
        self.visitor.locate(line, column)
        trick = _TRICK.fullmatch(token)
        if trick is not None:
            self.last_seat = None
            number = _whole_or_none(trick.group(1))
            if number is None:
                self.error("bad_token", f"not a trick number: {token!r}", line, column)
                return
            self.visitor.visit_trick(number)
            return
        try:
            seat, card, event = parse_move(token, self.context)
        except NotationError as error:
            self.error(error.code, str(error), line, column + error.column)
            return
        if event is not None:
            self.event(*event)
            return
        assert card is not None, "a move is a card or an event"
        if seat is None and self.last_seat is not None and self.players:
            seat = (self.last_seat + 1) % self.players
        if seat is not None and self.players and seat >= self.players:
            self.error("bad_seat", f"seat {seat} is not at this table of {self.players} "
                       f"(the notation counts seats from 0, to {self.players - 1})",
                       line, column)
            return
        self.last_seat = seat
        self.event_types.append("card_played")
        self.visitor.visit_play(seat, card)

    def event(self, kind: str, data: dict[str, Any], redacted: tuple[str, ...]) -> None:
        self.event_types.append(kind)
        self.visitor.visit_event(kind, data, redacted)

    # Integrity -------------------------------------------------------------------------------

    def read_integrity(self) -> None:
        assert self.integrity is not None
        records: list[Integrity] = []
        previous: Integrity | None = None
        for index, (text, line) in enumerate(self.integrity):
            kind = self.event_types[index] if index < len(self.event_types) else ""
            try:
                record = parse_integrity(text, previous, default_schema(kind))
            except NotationError as error:
                self.error(error.code, str(error), line, 1 + error.column)
                continue
            records.append(record)
            previous = record
        self.visitor.visit_integrity(records)


def _whole(text: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise NotationError(f"expected a whole number, got {text!r}")
    return decode_integer(text)


def _json_object(text: str) -> dict[str, Any]:
    """Returns the JSON object in *text* (the ``[Checkpoint]`` header)."""
    try:
        value = jsontext.loads(text)
    except jsontext.JSONTooDeepError as error:
        raise NotationError(str(error)) from None
    except ValueError as error:
        raise NotationError(f"expected a JSON object: {error}") from None
    if not isinstance(value, dict):
        raise NotationError(f"expected a JSON object, got {text!r}")
    return value


def _whole_or_none(text: str) -> int | None:
    """Returns the whole number in *text*, or ``None`` for anything else."""
    try:
        return _whole(text)
    except NotationError:
        return None


def _before_comment(text: str) -> str:
    """Returns *text* up to a ``;`` comment, ignoring any ``;`` inside a quoted string."""
    quoted = False
    index = 0
    while index < len(text):
        char = text[index]
        if quoted and char == "\\":
            index += 2
            continue
        if char == '"':
            quoted = not quoted
        elif char == ";" and not quoted:
            return text[:index]
        index += 1
    return text


def _unescape_tag(text: str) -> str:
    """Returns a tag value with its ``\\x`` and ``\\uXXXX`` escapes undone."""
    return re.sub(
        r"\\(u[0-9a-fA-F]{4}|.)",
        lambda match: chr(int(match.group(1)[1:], 16)) if len(match.group(1)) == 5
        else match.group(1),
        text,
    )


def _without_spaces(token: str) -> str:
    """Returns *token* without the white space a writer may put between its parts, keeping
    every character inside double quotes (a quoted value may hold spaces)."""
    kept: list[str] = []
    quoted = escaped = False
    for char in token:
        if quoted:
            kept.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
            kept.append(char)
        elif not char.isspace():
            kept.append(char)
    return "".join(kept)
