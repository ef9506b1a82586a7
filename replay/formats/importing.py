"""Importing a history from a file: either encoding, leniently, and real-table records.

:func:`read_history` takes the bytes of a file, tells JSON from text, and reads it with the
lenient reader of that encoding: every problem comes back as a positioned
:class:`~replay.formats.diagnostics.Diagnostic`, never as a traceback.

A text written by hand for a game dealt at a real table (tags, the hands as dealt, the tricks;
no hashes) is a *draft*. :func:`complete_draft` turns it into a sealed history: it creates the
game from the tags, works out whose turn each unmarked card was, replays every action with the
engine and reports each one that broke a rule as an irregularity naming that rule (the action
is applied anyway, as it was at the table), seals the events into a hash chain and derives the
results. Nothing is invented: a gap the record leaves (who dealt, who played a card when the
turn cannot tell) is reported, not filled.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

from engine.errors import ProfileError
from engine.profiles import RuleSet, make_ruleset
from engine.shuffle import ShuffleError, first_dealer, pack, seed_bytes
from engine.sides import seat_name
from events.chain import GENESIS_HASH, seal
from events.codec import canonical_json
from events.envelope import SERVER, RecordedEvent
from events.types import EventDataError, GameCreated, UnknownEventTypeError, event_from_data
from replay.errors import HistoryError
from replay.formats import jsontext
from replay.formats.build import build_history, replay_log
from replay.formats.derive import Replayer, apply_start, start_problem
from replay.formats.diagnostics import Diagnostic, has_errors
from replay.formats.document import FORMAT, HandHistory, HistoryEvent, StartBlock
from replay.formats.jsonformat import read_json
from replay.formats.notation import HEADER_TAGS
from replay.formats.text import TAG, read_hand

Format = Literal["json", "text"]

TABLE_TAGS = ("Dealer", "Scores", "GameSeed")
"""Tags a hand-written record states its game with; the import consumes them."""
NO_SEED = "0" * 64
"""The game seed of a record that gives none: a real table draws its first dealer by hand."""
UNKNOWN_TIME = "unknown"
"""The ``occurred_at`` of an imported event whose record gives no date."""


@dataclasses.dataclass(frozen=True, slots=True)
class ImportResult:
    """What reading a file gave: the history (if any), the problems, and how it was read."""

    history: HandHistory | None
    diagnostics: tuple[Diagnostic, ...]
    format: Format
    completed: bool = False
    """True when a hand-written record was sealed by this import."""

    @property
    def ok(self) -> bool:
        """True when a history was read without errors (warnings allowed)."""
        return self.history is not None and not has_errors(self.diagnostics)

    @property
    def irregularities(self) -> list[Any]:
        """The irregular actions of an imported record (listed in auditors' histories)."""
        if self.history is None or self.history.results is None:
            return []
        return list(self.history.results["irregularities"])


def not_a_history(data: bytes | str) -> str | None:
    """Says why *data* is no hand history at all, or returns ``None`` when it may be one (a
    history with faults included: those are :func:`read_history`'s diagnostics).

    JSON is one when it is an object whose ``format`` is the format's name; text, when it is
    UTF-8 with at least one header tag (``[Profile "bruff"]``: every history has some).

    >>> not_a_history(b'{"format": "fortyfive-hand-history"}') is None
    True
    >>> not_a_history(b"root:x:0:0:root:/root:/bin/bash")
    'it holds no header tag such as [Profile "bruff"] (a text history starts with them)'
    """
    if not data.strip():
        return "it is empty"
    if detect(data) == "json":
        try:
            document = jsontext.loads(data)
        except ValueError:
            return None  # A history cut short, say: its diagnostic says where.
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            return f'its JSON has no "format": "{FORMAT}"'
        return None
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            return "it is not UTF-8 text"
    if not any(match.group(1) in HEADER_TAGS for match in TAG.finditer(data)):
        return 'it holds no header tag such as [Profile "bruff"] (a text history starts with them)'
    return None


def detect(data: bytes | str) -> Format:
    """Returns ``json`` when *data* starts (after blanks) with ``{``, else ``text``."""
    head = data.lstrip()[:1]
    return "json" if head in (b"{", "{") else "text"


def read_history(data: bytes | str, *, format: Format | None = None) -> ImportResult:
    """Reads a history from the bytes (or text) of a file; hand-written records are completed.

    Never raises on bad input: every problem is in the result's diagnostics.
    """
    kind = format or detect(data)
    if kind == "json":
        history, diagnostics = read_json(data)
        return ImportResult(history, tuple(diagnostics), "json")
    if isinstance(data, bytes):
        raw = data
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            return ImportResult(None, (Diagnostic(
                "encoding", f"not UTF-8: {error.reason}",
                line=raw.count(b"\n", 0, error.start) + 1, column=1),), "text")
    history = read_hand(io.StringIO(data))
    if history is None:
        return ImportResult(None, (Diagnostic("empty", "the file holds no history", line=1,
                                              column=1),), "text")
    diagnostics = list(history.errors)
    if history.sealed:
        return ImportResult(history, tuple(diagnostics), "text")
    if any(event.sealed for event in history.events) or history.head is not None:
        diagnostics.append(Diagnostic(
            "unsealed", "this history names hashes but its %integrity section is missing or "
            "incomplete; it is not imported as a new record", line=1, column=1))
        return ImportResult(history, tuple(diagnostics), "text")
    if has_errors(diagnostics):
        return ImportResult(history, tuple(diagnostics), "text")
    completed, problems = complete_draft(history)
    return ImportResult(completed, tuple(diagnostics + problems), "text",
                        completed is not None)


def complete_draft(draft: HandHistory) -> tuple[HandHistory | None, list[Diagnostic]]:
    """Seals a hand-written record and returns it as an auditor's history, with problems.

    See the module docstring; the tags it reads are ``[Profile]``, ``[Players]``,
    ``[Options]``, ``[Seats]``, ``[Game]``, ``[Date]`` and :data:`TABLE_TAGS`.
    """
    return _Completion(draft).run()


class _Completion:
    def __init__(self, draft: HandHistory) -> None:
        self.draft = draft
        self.diagnostics: list[Diagnostic] = []

    def error(self, code: str, message: str, where: tuple[int, int] | None,
              severity: str = "error") -> None:
        line, column = where if where is not None else (1, 1)
        self.diagnostics.append(Diagnostic(
            code, message, "warning" if severity == "warning" else "error",
            line=line, column=column))

    def at(self, name: str) -> tuple[int, int] | None:
        return self.draft.positions.get(name)

    def run(self) -> tuple[HandHistory | None, list[Diagnostic]]:
        draft = self.draft
        rules = self.rules()
        if rules is None:
            return None, self.diagnostics
        created = self.creation(rules)
        start = self.start(rules, created)
        if created is None or has_errors(self.diagnostics):
            return None, self.diagnostics
        events = self.events(rules, created, start)
        if has_errors(self.diagnostics):
            return None, self.diagnostics
        date = self.date()
        recorded: list[RecordedEvent] = []
        game_id = draft.game_id or self.content_id(events, start)
        prev = GENESIS_HASH
        for version, (event, actor) in enumerate(events, start=1):
            envelope, _ = seal(
                game_id=game_id, version=version, event_type=event.TYPE, schema=event.SCHEMA,
                data=_data(event), actor=actor, command_id=None, occurred_at=date,
                prev_hash=prev,
            )
            recorded.append(RecordedEvent(envelope, event))
            prev = envelope.hash
        if start is not None:
            start = dataclasses.replace(start, hash=recorded[0].envelope.hash)
        tags = {name: value for name, value in draft.tags.items() if name not in TABLE_TAGS}
        try:
            history = build_history(game_id, replay_log(recorded, start=start), "auditor",
                                    tags=tags)
        except (HistoryError, ValueError) as error:
            self.error("import", f"the record cannot be built: {error}", None)
            return None, self.diagnostics
        return history, self.diagnostics

    def rules(self) -> RuleSet | None:
        block = self.draft.rules
        if block is None:
            self.error("missing_profile", 'a record needs its rules: give [Profile "bruff"] '
                       "(and [Players], [Options] where they differ from the profile's)", None)
            return None
        try:
            rules = make_ruleset(block.profile, block.options, block.players)
        except ProfileError as error:
            self.error("bad_rules", str(error), self.at("rules"))
            return None
        if block.digest is not None and block.digest != rules.digest():
            self.error("bad_rules", "[RulesDigest] does not match the profile and options",
                       self.at("rules"))
        return rules

    def creation(self, rules: RuleSet) -> GameCreated | None:
        draft = self.draft
        seats = [seat.type for seat in draft.seats] or ["human"] * rules.players
        if len(seats) != rules.players:
            self.error("bad_seats", f"[Seats] lists {len(seats)} seats for {rules.players} "
                       "players", self.at("seats"))
            return None
        for kind in seats:
            if kind not in ("human", "bot"):
                self.error("bad_seats", f"a seat is 'human' or 'bot', not {kind!r}",
                           self.at("seats"))
                return None
        first = draft.events[0] if draft.events else None
        if first is not None and first.type == "game_created":
            try:
                event = event_from_data("game_created", first.data)
            except (UnknownEventTypeError, EventDataError) as error:
                self.error("bad_event", str(error), first.position)
                return None
            assert isinstance(event, GameCreated)
            return event
        seed = draft.tags.get("GameSeed", NO_SEED)
        try:
            seed_bytes(seed)
        except ShuffleError as error:
            self.error("bad_tag", f"[GameSeed]: {error}", self.at("GameSeed"))
            return None
        return GameCreated(rules.profile, rules.options(), tuple(seats), seed)

    def start(self, rules: RuleSet, created: GameCreated | None) -> StartBlock | None:
        tags = self.draft.tags
        recorded = any(event.type == "deal_recorded" for event in self.draft.events)
        if "Dealer" not in tags and "GameSeed" not in tags and recorded:
            self.error("missing_dealer", 'say who dealt the first recorded deal: '
                       '[Dealer "N"] (seats are numbered 0.. clockwise)', None)
            return None
        if "Dealer" not in tags and "Scores" not in tags:
            return None
        dealer_text = tags.get("Dealer")
        if dealer_text is None:
            dealer = first_dealer(created.seed, rules.players) if created is not None else 0
        elif not dealer_text.isdigit() or int(dealer_text) >= rules.players:
            self.error("bad_tag", f"[Dealer] is a seat from 0 to {rules.players - 1}, got "
                       f"{dealer_text!r}", self.at("Dealer"))
            return None
        else:
            dealer = int(dealer_text)
        scores = (0,) * rules.sides
        if "Scores" in tags:
            parts = [part for part in re.split(r"[\s,]+", tags["Scores"]) if part]
            if len(parts) != rules.sides or not all(
                    re.fullmatch(r"-?[0-9]+", part) for part in parts):
                self.error("bad_tag", f"[Scores] gives one whole number per side ("
                           f"{rules.sides} sides, A first), got {tags['Scores']!r}",
                           self.at("Scores"))
                return None
            scores = tuple(int(part) for part in parts)
        start = StartBlock(1, GENESIS_HASH, dealer, scores, (0,) * rules.sides, 1)
        problem = start_problem(rules, start)
        if problem is not None:
            self.error("bad_tag", f"[Scores]: {problem}", self.at("Scores"))
            return None
        return start

    def events(self, rules: RuleSet, created: GameCreated,
               start: StartBlock | None) -> list[tuple[Any, Any]]:
        """Returns the record's events with their actors, each play's seat worked out."""
        replayer = Replayer()
        replayer.apply(1, created)
        if start is not None:
            assert replayer.state is not None
            replayer.restart(apply_start(replayer.state, start))
        events: list[tuple[Any, Any]] = [(created, SERVER)]
        draft_events = list(self.draft.events)
        if draft_events and draft_events[0].type == "game_created":
            draft_events = draft_events[1:]
        for item in draft_events:
            if item.redacted:
                self.error("hidden", f"a record to import shows every card, but this "
                           f"{item.type} hides {', '.join(item.redacted)}", item.position)
                return events
            data = dict(item.data)
            if item.type == "card_played" and data.get("seat") is None:
                seat = self.whose_turn(replayer, item)
                if seat is None:
                    return events
                data["seat"] = seat
            try:
                event = event_from_data(item.type, data)
            except (UnknownEventTypeError, EventDataError) as error:
                self.error("bad_event", str(error), item.position)
                return events
            if item.type == "deal_recorded":
                self.check_deal(rules, data, item)
            seat = data.get("seat")
            actor = seat if isinstance(seat, int) and not isinstance(seat, bool) else SERVER
            events.append((event, actor))
            replayer.apply(len(events), event)
        return events

    def whose_turn(self, replayer: Replayer, item: HistoryEvent) -> int | None:
        state = replayer.state
        deal = state.deal if state is not None else None
        card = item.data.get("card")
        if replayer.failure is not None or deal is None or deal.phase != "play" or (
                deal.turn is None):
            self.error("unknown_seat", f"who played {card}? the record cannot tell from the "
                       f"turn here: write the seat, e.g. '2:{card}'", item.position)
            return None
        return deal.turn

    def check_deal(self, rules: RuleSet, data: Mapping[str, Any], item: HistoryEvent) -> None:
        """Warns of a deal that no pack could give (a misdeal, or a mistyped card)."""
        cards = [card for hand in data["hands"] for card in hand] + list(data["stock"])
        if data.get("turn_up"):
            cards.append(data["turn_up"])
        allowed = Counter(card.code() for card in pack(rules))
        for card, count in sorted(Counter(cards).items()):
            if count > allowed[card]:
                what = "is not in this pack" if not allowed[card] else f"appears {count} times"
                self.error("misdeal", f"{card} {what}", item.position, "warning")
        for seat, hand in enumerate(data["hands"]):
            if len(hand) != 5:
                self.error("misdeal", f"seat {seat_name(seat)} (hand index {seat}) was "
                           f"dealt {len(hand)} cards, not 5",
                           item.position, "warning")

    def date(self) -> str:
        text = self.draft.tags.get("Date", "")
        match = re.fullmatch(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})", text)
        return f"{match.group(1)}-{match.group(2)}-{match.group(3)}" if match else UNKNOWN_TIME

    def content_id(self, events: list[tuple[Any, Any]], start: StartBlock | None) -> str:
        body = [[event.TYPE, _data(event)] for event, _ in events]
        digest = hashlib.sha256(canonical_json(
            {"events": body, "start": start.to_dict() if start else None})).hexdigest()
        return f"table-{digest[:16]}"


def _data(event: Any) -> dict[str, Any]:
    from events.types import event_to_data

    return event_to_data(event)
