"""The pieces of the text notation: values, event tokens, result lines, header tags.

Every compact form here has a parser, and writers use a compact form only after parsing it back
and getting the same canonical JSON (:func:`same`); anything that would not come back exactly
falls back to a JSON escape (``%event``, ``=json``, a JSON tag value). That is what makes
JSON -> text -> JSON give the same bytes for any history, tampered ones included.

The grammar is in docs/hand-history.md; :mod:`replay.formats.text` reads it,
:mod:`replay.formats.export` writes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.errors import InvalidCardError
from engine.sides import side_name, side_number
from events.codec import SAFE_INTEGER_BOUND, CodecError, canonical_json
from events.types import EVENT_TYPES
from replay.formats import jsontext
from replay.formats.document import RulesBlock, SeatInfo, StartBlock, ViewInfo

MAGIC = "% fortyfive hand history"
"""The first line of a history, followed by its format version."""
INTEGRITY = "%integrity"
"""The line that starts the integrity section."""

_BARE = re.compile(r"[A-Za-z0-9_./:+-]+")
_INT = re.compile(r"-?[0-9]+")
_MOVE = re.compile(r"(?:(?P<seat>[0-9]+):)?(?P<name>[A-Za-z0-9]+)(?:\((?P<args>[^()]*)\))?")
_CARD = re.compile(r"(?i)(?:10|[2-9TJQKA])[SCDH]|JK")


class NotationError(ValueError):
    """Raised for text that does not follow the notation; *column* is 0-based within the
    piece that was parsed, for the reader to turn into a position."""

    def __init__(self, message: str, column: int = 0, code: str = "syntax") -> None:
        super().__init__(message)
        self.column = column
        self.code = code


def same(left: Any, right: Any) -> bool:
    """True when *left* and *right* have the same canonical JSON (so ``1`` is not ``True``)."""
    try:
        return canonical_json(left) == canonical_json(right)
    except CodecError:
        return False


def compact_or_none(
    render: Callable[[], str], parse: Callable[[str], Any], value: Any
) -> str | None:
    """Returns ``render()`` when parsing it gives back *value* exactly, else ``None``.

    A compact form must also be printable ASCII: anything else (a line or paragraph separator,
    a control character) could break or blank the line it stands on, so it takes the JSON
    escape instead.
    """
    try:
        text = render()
        back = parse(text)
    except (NotationError, ValueError, TypeError, KeyError, IndexError):
        return None
    if not _PRINTABLE.fullmatch(text):
        return None
    return text if same(back, value) else None


_PRINTABLE = re.compile(r"[ -~]*")


# Scalars and simple values -------------------------------------------------------------------


def encode_scalar(value: Any) -> str:
    """Returns a scalar (int, null, bool or string) as a notation value: bare where that reads
    back as the same value, else as a JSON literal.

    >>> encode_scalar("hmac-sha256-fy/1"), encode_scalar("45"), encode_scalar(None)
    ('hmac-sha256-fy/1', '"45"', 'null')

    :raises TypeError: for a value that is not a scalar.
    """
    if value is None or isinstance(value, bool | int):
        return json.dumps(value)
    if isinstance(value, str):
        if _BARE.fullmatch(value) and not _INT.fullmatch(value) and decode_scalar(value) == value:
            return value
        return json.dumps(value)
    raise TypeError(f"not a scalar: {value!r}")


def decode_scalar(text: str) -> Any:
    """Returns the value of a notation scalar: a JSON literal, an integer, or a bare string.

    :raises NotationError: for a malformed JSON string, or an integer too large.
    """
    if text.startswith('"'):
        try:
            value = json.loads(text)
        except ValueError:
            raise NotationError(f"malformed quoted string {text}") from None
        if not isinstance(value, str):
            raise NotationError(f"malformed quoted string {text}")
        return value
    if text in ("null", "true", "false"):
        return json.loads(text)
    if _INT.fullmatch(text):
        return decode_integer(text)
    return text


def decode_integer(text: str) -> int:
    """Returns the integer written in ASCII digits *text* (a minus sign first allowed).

    :raises NotationError: for anything else, or a number beyond what JSON holds exactly
        (2**53), which no event or result has.
    """
    if not _INT.fullmatch(text):
        raise NotationError(f"expected a whole number, got {text!r}")
    # Compared as text first: int() of thousands of digits is slow, and refused past 4300.
    if len(text.lstrip("-")) > len(str(SAFE_INTEGER_BOUND)) or abs(int(text)) >= SAFE_INTEGER_BOUND:
        shown = text if len(text) <= 24 else text[:20] + "..."
        raise NotationError(f"the number {shown} is too large (at most 2**53 - 1)")
    return int(text)


def encode_ints(values: Sequence[int]) -> str:
    """Returns integers as ``10,15,20`` (``[]`` for none)."""
    return ",".join(str(value) for value in values) if values else "[]"


def decode_ints(text: str) -> list[int]:
    """Returns the integers of ``10,15,20`` (``[]`` for none).

    :raises NotationError: if a part is not an integer.
    """
    if text == "[]":
        return []
    values = []
    for part in text.split(","):
        if not _INT.fullmatch(part):
            raise NotationError(f"expected integers separated by commas, got {text!r}")
        values.append(decode_integer(part))
    return values


def split_fields(text: str) -> list[tuple[str, int]]:
    """Returns the whitespace-separated fields of *text* with their 0-based columns; a double-
    quoted string (JSON escapes allowed) is one field even with spaces in it.

    :raises NotationError: for an unterminated string.
    """
    fields: list[tuple[str, int]] = []
    index = 0
    while index < len(text):
        if text[index].isspace():
            index += 1
            continue
        start = index
        while index < len(text) and not text[index].isspace():
            if text[index] == '"':
                index = _end_of_string(text, index)
            index += 1
        fields.append((text[start:index], start))
    return fields


def _end_of_string(text: str, index: int) -> int:
    """Returns the index of the closing quote of the string opening at *index*."""
    start = index
    index += 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == '"':
            return index
        index += 1
    raise NotationError("unterminated quoted string", start)


def parse_pairs(text: str, allowed: Mapping[str, Callable[[str], Any]]) -> dict[str, Any]:
    """Returns the ``key=value`` fields of *text*, each decoded by its converter in *allowed*.

    :raises NotationError: for an unknown or repeated key or a bad value.
    """
    values: dict[str, Any] = {}
    for field, column in split_fields(text):
        key, sep, raw = field.partition("=")
        if not sep or key not in allowed:
            raise NotationError(
                f"unexpected {field!r}: expected one of {', '.join(k + '=' for k in allowed)}",
                column,
            )
        if key in values:
            raise NotationError(f"{key}= is given twice", column)
        try:
            values[key] = allowed[key](raw)
        except NotationError as error:
            raise NotationError(str(error), column) from None
    return values


def card_code(text: str) -> str:
    """Returns the canonical code of the card written as *text* (``10s`` -> ``TS``).

    :raises NotationError: if *text* is not a card.
    """
    try:
        return Card.parse(text).code()
    except InvalidCardError as error:
        raise NotationError(str(error), code="bad_card") from None


def is_card(text: str) -> bool:
    """True if *text* is written like a card (``5S``, ``10d``, ``JK``)."""
    return _CARD.fullmatch(text) is not None


def decode_seat_or_null(text: str) -> int | None:
    """Returns a seat (or side) number, or ``None`` for ``null``.

    :raises NotationError: for anything else.
    """
    value = decode_scalar(text)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise NotationError(f"expected a number or null, got {text!r}")
    return value


def decode_whole(text: str) -> int:
    """Returns a whole number written in digits.

    :raises NotationError: for anything else.
    """
    return decode_integer(text)


def decode_text(text: str) -> str:
    """Returns a string, bare or quoted.

    :raises NotationError: for a value that is not text.
    """
    value = decode_scalar(text)
    if not isinstance(value, str):
        raise NotationError(f"expected text, got {text!r}")
    return value


def decode_nullable_text(text: str) -> str | None:
    """Returns a string, bare or quoted, or ``None`` for ``null``.

    :raises NotationError: for a value that is neither.
    """
    value = decode_scalar(text)
    if value is not None and not isinstance(value, str):
        raise NotationError(f"expected text or null, got {text!r}")
    return value


# Header tags ---------------------------------------------------------------------------------

HEADER_TAGS = ("Game", "RulingTexts", "Profile", "Players", "Options", "RulesDigest", "Seats",
               "View", "AsOf", "ViewDeal", "Start", "Head", "Checkpoint", "CheckpointKey")
"""Tags that carry the history's own fields, in export order."""
DEAL_TAGS = ("Deal", "Hands", "TurnUp", "Stock")
"""Tags that open a deal or record its hands as dealt at a table."""
RESERVED_TAGS = frozenset(HEADER_TAGS + DEAL_TAGS)


def encode_options(options: Mapping[str, Any]) -> str:
    """Returns options as ``name=value`` pairs in name order, or as a JSON object where a value
    would not read back the same."""
    def render() -> str:
        return " ".join(f"{name}={encode_scalar(options[name])}" for name in sorted(options))
    return compact_or_none(render, decode_options, dict(options)) or json.dumps(
        dict(options), sort_keys=True)


def decode_options(text: str) -> dict[str, Any]:
    """Returns the options of an ``[Options]`` tag.

    :raises NotationError: for a malformed pair.
    """
    if text.startswith("{"):
        value = decode_json(text)
        if not isinstance(value, dict):
            raise NotationError("expected a JSON object of options")
        return value
    options: dict[str, Any] = {}
    for field, column in split_fields(text):
        name, sep, raw = field.partition("=")
        if not sep or not name:
            raise NotationError(f"expected name=value, got {field!r}", column)
        if name in options:
            raise NotationError(f"option {name!r} is given twice", column)
        options[name] = decode_scalar(raw)
    return options


def encode_seats(seats: Sequence[SeatInfo]) -> str:
    """Returns seats as ``human/A bot/B ...`` (seat numbers by position, sides as letters), or
    JSON where that would not read back the same."""
    plain = [seat.to_dict() for seat in seats]

    def render() -> str:
        parts = []
        for seat in seats:
            side = "" if seat.side is None else "/" + side_name(seat.side)
            parts.append(encode_scalar(seat.type) + side)
        return " ".join(parts)

    return compact_or_none(render, lambda text: [s.to_dict() for s in decode_seats(text)],
                           plain) or json.dumps(plain)


def decode_seats(text: str) -> list[SeatInfo]:
    """Returns the seats of a ``[Seats]`` tag (a hand-written one may leave out the sides).

    :raises NotationError: for a malformed seat.
    """
    if text.startswith("["):
        value = decode_json(text)
        try:
            return [SeatInfo(item["seat"], item["type"], item["side"]) for item in value]
        except (TypeError, KeyError):
            raise NotationError("expected a JSON list of seats") from None
    seats = []
    for index, (field, column) in enumerate(split_fields(text)):
        kind, sep, side = field.rpartition("/") if "/" in field else (field, "", "")
        if sep and not re.fullmatch(r"[A-Z]+", side):
            raise NotationError(f"side {side!r} is not a letter", column)
        seats.append(SeatInfo(index, decode_text(kind), side_number(side) if sep else None))
    return seats


def encode_view(view: ViewInfo) -> str:
    """Returns ``auditor``, ``spectator`` or ``seat 2``."""
    viewer = view.viewer
    return f"seat {viewer}" if isinstance(viewer, int) else viewer


def decode_viewer(text: str) -> int | str:
    """Returns the viewer of a ``[View]`` tag.

    :raises NotationError: for anything but ``auditor``, ``spectator`` or ``seat N``.
    """
    if text in ("auditor", "spectator"):
        return text
    match = re.fullmatch(r"seat ([0-9]+)", text)
    if match is None:
        raise NotationError(f"view must be auditor, spectator or 'seat N', got {text!r}")
    return decode_integer(match.group(1))


_START_FIELDS: dict[str, Callable[[str], Any]] = {
    "version": decode_whole, "hash": decode_text, "dealer": decode_whole, "scores": decode_ints,
    "games_won": decode_ints, "game_number": decode_whole,
}


def encode_start(start: StartBlock) -> str:
    """Returns the ``[Start]`` tag value, or JSON where that would not read back the same."""
    plain = start.to_dict()

    def render() -> str:
        return (
            f"version={start.version} hash={encode_scalar(start.hash)} dealer={start.dealer} "
            f"scores={encode_ints(start.scores)} games_won={encode_ints(start.games_won)} "
            f"game_number={start.game_number}"
        )

    return compact_or_none(render, lambda t: decode_start(t).to_dict(), plain) or json.dumps(plain)


def decode_start(text: str) -> StartBlock:
    """Returns the start block of a ``[Start]`` tag.

    :raises NotationError: for a missing or malformed field.
    """
    values = decode_json(text) if text.startswith("{") else parse_pairs(text, _START_FIELDS)
    missing = [name for name in _START_FIELDS if name not in values]
    if missing:
        raise NotationError(f"[Start] lacks {', '.join(missing)}")
    try:
        return StartBlock(values["version"], values["hash"], values["dealer"],
                          tuple(values["scores"]), tuple(values["games_won"]),
                          values["game_number"])
    except TypeError as error:
        raise NotationError(f"malformed [Start]: {error}") from None


def encode_rules_tags(rules: RulesBlock) -> list[tuple[str, str]]:
    """Returns the ``Profile``, ``Players``, ``Options`` and ``RulesDigest`` tags of *rules*."""
    tags = [("Profile", rules.profile)]
    if rules.players is not None:
        tags.append(("Players", str(rules.players)))
    tags.append(("Options", encode_options(rules.options)))
    if rules.digest is not None:
        tags.append(("RulesDigest", rules.digest))
    return tags


# Event tokens --------------------------------------------------------------------------------


class Context:
    """What a token may leave out because the text already says it: the deal being read and the
    header's rules and seats."""

    def __init__(self) -> None:
        self.deal: int | None = None
        self.rules: RulesBlock | None = None
        self.seats: tuple[SeatInfo, ...] = ()


_SEAT_EVENTS: dict[str, str] = {
    cls.TOKEN: cls.TYPE for cls in EVENT_TYPES.values() if cls.TOKEN and cls.ACTION
}
"""Token -> event type of the seats' actions (``2:bid(20)``), from each type's ``TOKEN``."""
_SERVER_EVENTS: dict[str, str] = {
    cls.TOKEN: cls.TYPE for cls in EVENT_TYPES.values() if cls.TOKEN and not cls.ACTION
}
"""Token -> event type of the server's own steps (``reveal(...)``)."""
_NAMES = {kind: name for name, kind in (*_SEAT_EVENTS.items(), *_SERVER_EVENTS.items())}

Parsed = tuple[str, dict[str, Any], tuple[str, ...]]
"""An event read from a token: its type, its data and the names of its redacted fields."""


def parse_move(token: str, context: Context) -> tuple[int | None, str | None, Parsed | None]:
    """Returns what a movetext token says: ``(seat, card, None)`` for a card played (seat
    ``None`` when not written), or ``(None, None, event)`` for any other event.

    :raises NotationError: for a token that is neither.
    """
    match = _MOVE.fullmatch(token)
    if match is None:
        raise NotationError(f"not a card or an action: {token!r}", code="bad_token")
    seat = decode_integer(match.group("seat")) if match.group("seat") is not None else None
    name = match.group("name")
    args = match.group("args")
    if args is None and is_card(name):
        return seat, card_code(name), None
    lowered = name.lower()
    if lowered in _SEAT_EVENTS:
        if seat is None:
            raise NotationError(f"{lowered} needs the seat that acted, e.g. '2:{lowered}'",
                                code="bad_token")
        return None, None, _seat_event(_SEAT_EVENTS[lowered], seat, args)
    if lowered in _SERVER_EVENTS:
        if seat is not None:
            raise NotationError(f"{lowered} is the server's, not a seat's", code="bad_token")
        return None, None, _server_event(_SERVER_EVENTS[lowered], args, context)
    if is_card(name):
        raise NotationError(f"a card takes no arguments: {token!r}", code="bad_token")
    raise NotationError(
        f"unknown action {name!r}: expected a card or one of "
        f"{', '.join(sorted((*_SEAT_EVENTS, *_SERVER_EVENTS)))}",
        code="bad_token",
    )


def _args(args: str | None, count: int, kind: str) -> list[str]:
    parts = [] if args is None or not args.strip() else [a.strip() for a in args.split(",")]
    if len(parts) != count:
        raise NotationError(f"{_NAMES[kind]} takes {count} argument(s), got {len(parts)}",
                            code="bad_token")
    return parts


def _seat_event(kind: str, seat: int, args: str | None) -> Parsed:
    if kind in ("bid_passed", "bid_held", "jink_announced"):
        _args(args, 0, kind)
        return kind, {"seat": seat}, ()
    if kind == "cards_discarded":
        text = (args or "").strip()
        if text.startswith("#"):
            return kind, {"seat": seat, "cards": None, "count": decode_whole(text[1:])}, ("cards",)
        cards = [card_code(part.strip()) for part in text.split(",")] if text else []
        return kind, {"seat": seat, "cards": cards}, ()
    (value,) = _args(args, 1, kind)
    if kind == "deck_cut":
        return kind, {"seat": seat, "position": decode_whole(value)}, ()
    if kind == "bid_made":
        return kind, {"seat": seat, "amount": decode_whole(value)}, ()
    if kind == "trump_named":
        if value.upper() not in ("S", "C", "D", "H"):
            raise NotationError(f"trump must be S, C, D or H, got {value!r}", code="bad_token")
        return kind, {"seat": seat, "suit": value.upper()}, ()
    field = "card" if kind == "joker_buried" else "discard"
    if value == "?":
        return kind, {"seat": seat, field: None}, (field,)
    return kind, {"seat": seat, field: card_code(value)}, ()


def _server_event(kind: str, args: str | None, context: Context) -> Parsed:
    if kind == "game_created":
        (seed,) = _args(args, 1, kind)
        rules = context.rules
        if rules is None:
            raise NotationError("create(...) needs the [Profile] and [Options] tags before it")
        return kind, {
            "profile": rules.profile, "options": dict(rules.options),
            "seats": [seat.type for seat in context.seats], "seed": decode_scalar(seed),
        }, ()
    if context.deal is None:
        raise NotationError(f"{_NAMES[kind]}(...) belongs to a deal: give [Deal \"N\"] first")
    if kind == "deck_shuffled":
        algorithm, commitment, seed = _args(args, 3, kind)
        data = {"deal": context.deal, "algorithm": decode_scalar(algorithm),
                "commitment": decode_scalar(commitment)}
        if seed == "?":
            return kind, {**data, "seed": None}, ("seed",)
        return kind, {**data, "seed": decode_scalar(seed)}, ()
    (seed,) = _args(args, 1, kind)
    return kind, {"deal": context.deal, "seed": decode_scalar(seed)}, ()


def render_move(kind: str, data: Mapping[str, Any], redacted: Sequence[str],
                context: Context) -> str | None:
    """Returns the token for an event other than a plain card play, or ``None`` when no token
    reads back as exactly this event (the writer then uses ``%event``)."""
    name = _NAMES.get(kind)
    if name is None:
        return None
    seat = data.get("seat")

    def render() -> str:
        if kind in _SERVER_EVENTS.values():
            return name + "(" + ",".join(_server_args(kind, data)) + ")"
        prefix = f"{seat}:{name}"
        if kind in ("bid_passed", "bid_held", "jink_announced"):
            return prefix
        if kind == "cards_discarded":
            if "cards" in redacted:
                return f"{prefix}(#{data['count']})"
            return f"{prefix}({','.join(data['cards'])})"
        field = {"deck_cut": "position", "bid_made": "amount", "trump_named": "suit",
                 "joker_buried": "card", "turn_up_robbed": "discard"}[kind]
        value = data[field]
        return f"{prefix}({'?' if value is None and field in redacted else value})"

    def parse(text: str) -> Parsed | None:
        return parse_move(text, context)[2]

    return compact_or_none(render, parse, (kind, dict(data), tuple(redacted)))


def _server_args(kind: str, data: Mapping[str, Any]) -> list[str]:
    if kind == "game_created":
        return [encode_scalar(data["seed"])]
    if kind == "deck_shuffled":
        seed = "?" if data["seed"] is None else encode_scalar(data["seed"])
        return [encode_scalar(data["algorithm"]), encode_scalar(data["commitment"]), seed]
    return [encode_scalar(data["seed"])]


def parse_event_json(text: str) -> Parsed:
    """Returns the event of a ``%event`` line: ``{"type", "data", "redacted"?}``.

    :raises NotationError: if it is not such an object.
    """
    value = decode_json(text)
    if not isinstance(value, dict) or set(value) - {"type", "data", "redacted"} or not (
        isinstance(value.get("type"), str) and isinstance(value.get("data"), dict)
    ):
        raise NotationError('%event needs {"type": ..., "data": {...}, "redacted": [...]}')
    redacted = value.get("redacted", [])
    if not isinstance(redacted, list) or not all(isinstance(n, str) for n in redacted):
        raise NotationError("%event redacted must be a list of field names")
    return value["type"], value["data"], tuple(redacted)


def render_event_json(kind: str, data: Mapping[str, Any], redacted: Sequence[str]) -> str:
    """Returns the ``%event`` line of any event."""
    body: dict[str, Any] = {"type": kind, "data": dict(data)}
    if redacted:
        body["redacted"] = list(redacted)
    return "%event " + canonical_json(body).decode()


# Deals recorded at a table ------------------------------------------------------------------


def render_recorded(data: Mapping[str, Any], redacted: Sequence[str],
                    context: Context) -> list[tuple[str, str]] | None:
    """Returns the ``Hands``, ``TurnUp`` and ``Stock`` tags of a ``deal_recorded`` event, or
    ``None`` when they would not read back as exactly this event."""
    def render() -> list[tuple[str, str]]:
        hands = data["hands"]
        sizes = data.get("hand_sizes") or []
        parts = []
        for seat, hand in enumerate(hands):
            shown = f"#{sizes[seat]}" if hand is None else ",".join(hand)
            parts.append(f"{seat}:{shown}")
        tags = [("Hands", " ".join(parts))]
        if data["turn_up"] is not None:
            tags.append(("TurnUp", data["turn_up"]))
        if data["stock"] is None:
            tags.append(("Stock", f"#{data['stock_size']}"))
        elif data["stock"]:
            tags.append(("Stock", ",".join(data["stock"])))
        return tags

    try:
        tags = render()
        back = parse_recorded(dict(tags), context)
    except (NotationError, KeyError, TypeError, IndexError, ValueError):
        return None
    return tags if same(back, ("deal_recorded", dict(data), tuple(redacted))) else None


def parse_recorded(tags: Mapping[str, str], context: Context) -> Parsed:
    """Returns the ``deal_recorded`` event that a deal's ``Hands``, ``TurnUp`` and ``Stock``
    tags describe (a hidden hand or stock is ``#n``: n cards not shown).

    :raises NotationError: for a malformed tag.
    """
    if "Hands" not in tags:
        raise NotationError("a recorded deal needs a [Hands] tag")
    hands: list[list[str] | None] = []
    sizes: list[int] = []
    for field, column in split_fields(tags["Hands"]):
        seat, sep, cards = field.partition(":")
        try:
            if sep:
                if not _INT.fullmatch(seat) or decode_integer(seat) != len(hands):
                    raise NotationError(
                        f"hands are written seat by seat from 0, as '0:5S,KD,... 1:...'; "
                        f"expected seat {len(hands)}, got {field!r}")
                if cards.startswith("#"):
                    hands.append(None)
                    sizes.append(decode_whole(cards[1:]))
                    continue
                hands.append([])
                sizes.append(0)
            elif not hands or hands[-1] is None:
                raise NotationError(f"{field!r} does not follow a seat such as '0:'")
            else:
                cards = field
            hand = hands[-1]
            assert hand is not None, "checked above"
            hand.extend(card_code(code) for code in cards.split(",") if code)
            sizes[-1] = len(hand)
        except NotationError as error:
            raise NotationError(str(error), column, error.code) from None
    turn_up = tags.get("TurnUp")
    stock_text = tags.get("Stock", "")
    data: dict[str, Any] = {
        "deal": context.deal, "hands": hands,
        "turn_up": card_code(turn_up) if turn_up not in (None, "") else None,
    }
    if stock_text.startswith("#") or None in hands:
        if not stock_text.startswith("#"):
            raise NotationError("a record with hidden hands writes its stock as #n too")
        return "deal_recorded", {
            **data, "hand_sizes": sizes, "stock": None, "stock_size": decode_whole(stock_text[1:]),
        }, ("hands", "stock")
    stock = [card_code(code) for code in stock_text.replace(" ", ",").split(",") if code]
    return "deal_recorded", {**data, "stock": stock}, ()


def decode_json(text: str) -> Any:
    """Returns the JSON value of *text*.

    :raises NotationError: for malformed JSON.
    """
    try:
        return jsontext.loads(text)
    except jsontext.JSONTooDeepError as error:
        raise NotationError(str(error)) from None
    except ValueError as error:
        raise NotationError(f"malformed JSON: {error}") from None
