"""The line-level pieces of the text notation: derived results (``= ...``) and the
integrity records of the closing ``%integrity`` section.

Like the rest of :mod:`replay.formats.notation`, each compact line is written only when it reads
back as exactly the same value; otherwise the ``=json`` escape is used.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from events.codec import canonical_json
from replay.formats.document import Integrity
from replay.formats.notation import (
    NotationError,
    compact_or_none,
    decode_ints,
    decode_json,
    decode_nullable_text,
    decode_scalar,
    decode_seat_or_null,
    decode_text,
    decode_whole,
    encode_ints,
    encode_scalar,
    parse_pairs,
    split_fields,
)

# Result lines --------------------------------------------------------------------------------

_GAME_FIELDS: dict[str, Callable[[str], Any]] = {
    "phase": decode_text, "scores": decode_ints, "games_won": decode_ints,
    "game_number": decode_whole, "winner": decode_seat_or_null,
}
_DEAL_FIELDS: dict[str, Callable[[str], Any]] = {
    "dealer": decode_whole, "turn_up": decode_nullable_text, "trump": decode_nullable_text,
}
_RESULT_FIELDS: dict[str, Callable[[str], Any]] = {
    "points": decode_ints, "scores": decode_ints, "tricks_won": decode_ints,
    "ended_at_trick": decode_whole, "winner": decode_seat_or_null,
}
_FACT_FIELDS: dict[str, Callable[[str], Any]] = {
    name: decode_whole for name in ("trick", "seat", "side", "points", "credited_trick")
}
_IRREGULAR_FIELDS: dict[str, Callable[[str], Any]] = {
    "version": decode_whole, "seat": decode_seat_or_null, "card": decode_nullable_text,
    "rule": decode_text,
}
_LINE_KINDS = {"game": "game", "irregular": "irregularity", "deal": "deal", "hands": "hands",
               "fact": "fact", "result": "result"}
_KIND_NAMES = {kind: name for name, kind in _LINE_KINDS.items()}


def parse_result_line(text: str) -> tuple[str, Any]:
    """Returns the kind and value of a result line (``= fact ...``; ``=json kind {...}``).

    :raises NotationError: for a malformed line; the column is within *text*.
    """
    if text.startswith("=json"):
        fields = text[5:].strip().split(" ", 1)
        if len(fields) != 2 or fields[0] not in _KIND_NAMES:
            raise NotationError("=json needs a kind and a JSON value", code="bad_result")
        return fields[0], decode_json(fields[1])
    body = text[1:]
    stripped = body.lstrip()
    offset = 1 + len(body) - len(stripped)
    name, _, rest = stripped.partition(" ")
    kind = _LINE_KINDS.get(name)
    if kind is None:
        raise NotationError(f"unknown result {name!r}: expected {', '.join(_LINE_KINDS)}",
                            offset, "bad_result")
    rest_offset = offset + len(name) + 1
    try:
        return kind, _parse_result(kind, rest)
    except NotationError as error:
        raise NotationError(str(error), rest_offset + error.column, "bad_result") from None


def _parse_result(kind: str, text: str) -> Any:
    if kind == "game":
        return _complete(parse_pairs(text, _GAME_FIELDS), _GAME_FIELDS)
    if kind == "deal":
        return _complete(parse_pairs(text, _DEAL_FIELDS), _DEAL_FIELDS)
    if kind == "result":
        return _complete(parse_pairs(text, _RESULT_FIELDS), _RESULT_FIELDS)
    if kind == "hands":
        hands: list[list[str] | None] = []
        for index, (field, column) in enumerate(split_fields(text)):
            seat, sep, cards = field.partition(":")
            if not sep or seat != str(index):
                raise NotationError(f"expected '{index}:cards', got {field!r}", column)
            hands.append(None if cards == "?" else cards.split(",") if cards else [])
        return hands
    head, text_part = _split_quoted_tail(text)
    if kind == "irregularity":
        value = _complete(parse_pairs(head, _IRREGULAR_FIELDS), _IRREGULAR_FIELDS)
        return {**value, "text": text_part}
    fields = split_fields(head)
    if len(fields) < 3:
        raise NotationError("a fact is '= fact VERSION KIND [field=n...] rule=ID \"text\"'")
    (version, _), (fact_kind, _) = fields[0], fields[1]
    rule_field, rule_column = fields[-1]
    if not rule_field.startswith("rule="):
        raise NotationError("a fact ends with rule=ID and its quoted text", rule_column)
    extra = parse_pairs(" ".join(field for field, _ in fields[2:-1]), _FACT_FIELDS)
    return {"kind": decode_text(fact_kind), "version": decode_whole(version), **extra,
            "ruling": {"rule": decode_text(rule_field[5:]), "text": text_part}}


def _split_quoted_tail(text: str) -> tuple[str, str]:
    """Returns the fields before a trailing quoted string, and that string."""
    index = text.find('"')
    if index < 0 or not text.rstrip().endswith('"'):
        raise NotationError("expected the text in double quotes at the end of the line",
                            len(text))
    return text[:index], decode_text(text[index:].strip())


def _complete(values: dict[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    missing = [name for name in fields if name not in values]
    if missing:
        raise NotationError(f"missing {', '.join(name + '=' for name in missing)}")
    return values


def render_result_line(kind: str, value: Any) -> str:
    """Returns the line of a derived result: compact where it reads back exactly, else
    ``=json``."""
    def render() -> str:
        name = _KIND_NAMES[kind]
        if kind == "game":
            return (f"= game phase={encode_scalar(value['phase'])} "
                    f"scores={encode_ints(value['scores'])} "
                    f"games_won={encode_ints(value['games_won'])} "
                    f"game_number={value['game_number']} winner={encode_scalar(value['winner'])}")
        if kind == "deal":
            return (f"= deal dealer={value['dealer']} turn_up={encode_scalar(value['turn_up'])} "
                    f"trump={encode_scalar(value['trump'])}")
        if kind == "result":
            return (f"= result points={encode_ints(value['points'])} "
                    f"scores={encode_ints(value['scores'])} "
                    f"tricks_won={encode_ints(value['tricks_won'])} "
                    f"ended_at_trick={value['ended_at_trick']} "
                    f"winner={encode_scalar(value['winner'])}")
        if kind == "hands":
            parts = []
            for seat, hand in enumerate(value):
                parts.append(f"{seat}:{'?' if hand is None else ','.join(hand)}")
            return "= hands " + " ".join(parts)
        if kind == "irregularity":
            return (f"= irregular version={value['version']} seat={encode_scalar(value['seat'])} "
                    f"card={encode_scalar(value['card'])} rule={encode_scalar(value['rule'])} "
                    f"{json.dumps(value['text'])}")
        extra = " ".join(f"{field}={value[field]}" for field in _FACT_FIELDS if field in value)
        ruling = value["ruling"]
        return " ".join(part for part in (
            f"= {name} {value['version']} {encode_scalar(value['kind'])}", extra,
            f"rule={encode_scalar(ruling['rule'])}", json.dumps(ruling["text"]),
        ) if part)

    def parse(text: str) -> Any:
        parsed_kind, parsed = parse_result_line(text)
        if parsed_kind != kind:
            raise NotationError("kind changed")
        return parsed

    compact = compact_or_none(render, parse, value)
    if compact is not None:
        return compact
    return f"=json {_KIND_NAMES[kind]} {canonical_json(value).decode()}"


# Integrity records ---------------------------------------------------------------------------


def render_integrity(record: Integrity, previous: Integrity | None, default_schema: int) -> str:
    """Returns the integrity line of one event: version, actor, command id, time, hash
    (``null`` where withheld), then ``schema=`` and ``prev=`` only where they differ from what
    the reader assumes."""
    from replay.formats.visitor import default_prev

    parts = [str(record.version), encode_scalar(record.actor), encode_scalar(record.command_id),
             encode_scalar(record.occurred_at), encode_scalar(record.hash)]
    if record.schema != default_schema:
        parts.append(f"schema={record.schema}")
    if record.prev_hash != default_prev(previous):
        parts.append(f"prev={encode_scalar(record.prev_hash)}")
    return " ".join(parts)


def parse_integrity(text: str, previous: Integrity | None, default_schema: int) -> Integrity:
    """Returns the record of an integrity line; *default_schema* is its event type's current
    schema, assumed when the line gives none.

    :raises NotationError: for a malformed line.
    """
    from replay.formats.visitor import default_prev

    fields = split_fields(text)
    if len(fields) < 5:
        raise NotationError("an integrity line is 'VERSION ACTOR COMMAND TIME HASH "
                            "[schema=N] [prev=HASH]'", code="bad_integrity")
    try:
        version = decode_whole(fields[0][0])
        actor = decode_scalar(fields[1][0])
        command_id = decode_scalar(fields[2][0])
        occurred_at = decode_text(fields[3][0])
        digest = decode_nullable_text(fields[4][0])
        extra = parse_pairs(" ".join(f for f, _ in fields[5:]),
                            {"schema": decode_whole, "prev": decode_nullable_text})
    except NotationError as error:
        raise NotationError(str(error), error.column, "bad_integrity") from None
    if isinstance(actor, bool) or not isinstance(actor, int | str):
        raise NotationError(f"actor must be a seat or a name, got {fields[1][0]!r}",
                            fields[1][1], "bad_integrity")
    if command_id is not None and not isinstance(command_id, str):
        raise NotationError("command id must be text or null", fields[2][1], "bad_integrity")
    return Integrity(version, actor, command_id, occurred_at, digest,
                     extra.get("schema", default_schema),
                     extra.get("prev", default_prev(previous)))
