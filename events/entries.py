"""A game's stream entries as the store holds them: each body checked against its hash,
decoded into its envelope and its event at the current schema, and linked to the one before.

:func:`verified_entries` is how every read of the store turns entries into events; the
functions it is made of (:func:`checked_entries` and :func:`decoded_entries`, the two passes
over entries in the usual form; :func:`checked_entry` and :func:`decoded_entry`, one entry of
any form, for its error) are public for the benchmarks and the tests.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import orjson

from events.chain import check_link, hash_bytes
from events.codec import CodecError, has_float, parse_json, parse_json_fast
from events.envelope import (
    SERVER,
    Envelope,
    RecordedEvent,
    envelope_of,
    recorded_of,
)
from events.errors import CorruptStreamError
from events.upcasting import UPCASTERS, Upcasters


def verified_entries(
    game_id: str,
    entries: Sequence[Any],
    after: int,
    prev_hash: str | None,
    upcasters: Upcasters = UPCASTERS,
) -> list[RecordedEvent]:
    """Returns the events of stream *entries* of *game_id* (versions ``after + 1...``), each
    hash checked against its body and each envelope linked to the one before, the first to
    *prev_hash* (``None``: to whatever it links to).

    Entries in the usual form are checked and decoded in two passes over them:
    :func:`checked_entries` (ids and hashes) then :func:`decoded_entries` (JSON, envelope,
    event, link). The first entry the first pass stops at is read alone by
    :func:`checked_entry` and :func:`decoded_entry`, which give its error (or its event,
    if it is only unusual), and the passes go on after it. Every entry is checked exactly
    as by those two and :func:`events.chain.check_link`, and the error is the one of the
    first entry in order that fails, as when reading them one by one.

    :raises CorruptStreamError: at the first entry that breaks the chain.
    :raises SchemaError: if an event's schema cannot be upcast to the current one.
    """
    recorded: list[RecordedEvent] = []
    done = 0
    while True:
        checked = checked_entries(game_id, entries, after, done)
        batch = decoded_entries(game_id, checked, prev_hash, upcasters)
        recorded += batch
        done += len(checked)
        if batch:
            prev_hash = batch[-1].envelope.hash
        if done >= len(entries):
            return recorded
        event = decoded_entry(game_id, *checked_entry(game_id, entries[done]), upcasters)
        if prev_hash is None:
            prev_hash = event.envelope.prev_hash
        done += 1
        check_link(event.envelope, game_id=game_id, version=after + done, prev_hash=prev_hash)
        prev_hash = event.envelope.hash
        recorded.append(event)


def checked_entries(
    game_id: str, entries: Sequence[Any], after: int, start: int = 0
) -> list[tuple[int, str, str]]:
    """Returns the version, body and hash of each of ``entries[start:]`` (versions
    ``after + start + 1...``) in the usual form, its hash checked against its body, as
    :func:`checked_entry` would; stops before the first that is not in that form or whose
    hash does not match, which the caller reads with :func:`checked_entry` (for its error).

    The usual form: the id ``0-<version>`` of its place, and as fields ``body`` and
    ``hash`` as text, in a flat list (as the read script gives them) or a dict (as
    ``XRANGE`` does).
    """
    checked: list[tuple[int, str, str]] = []
    if after < 0:
        return checked
    sha256 = hashlib.sha256
    version = after + start
    for index in range(start, len(entries)):
        version += 1
        entry = entries[index]
        kind = type(entry)
        if (kind is not tuple and kind is not list) or len(entry) != 2:
            break
        entry_id, fields = entry
        if entry_id != f"0-{version}":
            break
        kind = type(fields)
        if kind is list and len(fields) == 4 and fields[0] == "body" and fields[2] == "hash":
            body, stored = fields[1], fields[3]
        elif kind is dict and len(fields) == 2:
            body, stored = fields.get("body"), fields.get("hash")
        else:
            break
        if type(body) is not str or type(stored) is not str:
            break
        try:
            if sha256(body.encode()).hexdigest() != stored:
                break
        except UnicodeEncodeError:
            break
        checked.append((version, body, stored))
    return checked


def decoded_entries(
    game_id: str,
    checked: Sequence[tuple[int, str, str]],
    prev_hash: str | None,
    upcasters: Upcasters = UPCASTERS,
) -> list[RecordedEvent]:
    """Returns the events of *checked* entries of *game_id* (from :func:`checked_entries`),
    as :func:`decoded_entry` would, each envelope linked to the one before as
    :func:`events.chain.check_link` checks, the first to *prev_hash* (``None``: to
    whatever it links to).

    An envelope in the usual form (exactly its fields, each of its JSON type, the event's
    data at its current schema without a float, every field of its type there) is decoded
    at once: orjson, the fields taken by name and checked on exact types, the event built by
    its type's :func:`events.types.event_builder`. Any other goes through
    :func:`decoded_entry`, for its error or its event.

    :raises CorruptStreamError: at the first entry that is not an envelope of its place,
        or does not link to the one before.
    :raises SchemaError: if an event's schema cannot be upcast to the current one.
    """
    recorded: list[RecordedEvent] = []
    builders = upcasters.builders
    loads = orjson.loads
    for version, body, stored in checked:
        made = None
        try:
            raw = loads(body)
        except ValueError:
            raw = None
        if type(raw) is dict and len(raw) == 9:
            try:
                found_version, schema, type_name = raw["version"], raw["schema"], raw["type"]
                actor, command_id, data = raw["actor"], raw["command_id"], raw["data"]
                found_game, occurred_at, link = raw["game_id"], raw["occurred_at"], raw["prev_hash"]
            except KeyError:
                pass
            else:
                builder = builders.get(type_name) if type(type_name) is str else None
                if (
                    builder is not None and type(schema) is int and schema == builder[0]
                    and type(found_version) is int and found_version == version
                    and found_game == game_id and type(data) is dict
                    and ((type(actor) is int and actor >= 0) or actor == SERVER)
                    and (command_id is None or type(command_id) is str)
                    and type(occurred_at) is str
                    and (link == prev_hash if prev_hash is not None else type(link) is str)
                ):
                    event = builder[1](data)
                    if event is not None:
                        made = recorded_of(envelope_of(
                            found_game, found_version, type_name, schema, data, actor,
                            command_id, occurred_at, link, stored), event)
        if made is None:
            made = decoded_entry(game_id, version, body, stored, upcasters)
            if prev_hash is None:
                prev_hash = made.envelope.prev_hash
            check_link(made.envelope, game_id=game_id, version=version, prev_hash=prev_hash)
        recorded.append(made)
        prev_hash = stored
    return recorded


def checked_entry(game_id: str, entry: Any) -> tuple[int, str, str]:
    """Returns the version, body and hash of a stream *entry* of *game_id*, its hash checked
    against its body (the first half of reading an event; :func:`decoded_entry` the second).

    :raises CorruptStreamError: if the entry is malformed or its hash does not match.
    """
    entry_id, fields = entry
    version = entry_version(game_id, entry_id)
    body, stored_hash = _body_and_hash(fields)
    if body is None or stored_hash is None:
        raise CorruptStreamError(f"event {version} of game {game_id!r} lacks body or hash")
    if hash_bytes(body.encode("utf-8")) != stored_hash:
        raise CorruptStreamError(
            f"event {version} of game {game_id!r}: stored hash does not match its body"
        )
    return version, body, stored_hash


def decoded_entry(
    game_id: str, version: int, body: str, stored_hash: str, upcasters: Upcasters = UPCASTERS
) -> RecordedEvent:
    """Returns the event of entry *version* of *game_id* from its checked *body* and hash.

    :raises CorruptStreamError: if the body is not an envelope of that game and version.
    :raises SchemaError: if its schema cannot be upcast to the current one.
    """
    try:
        raw = parse_json_fast(body)
        if type(raw) is dict and has_float(raw.get("data")):
            raw = parse_json(body)  # Exact integers (the other fields' types are checked).
    except CodecError as error:
        raise CorruptStreamError(f"event {version} of game {game_id!r}: {error}") from None
    if not isinstance(raw, dict):
        raise CorruptStreamError(f"event {version} of game {game_id!r}: body is not a dict")
    envelope = Envelope.from_body(raw, stored_hash)
    if envelope.version != version or envelope.game_id != game_id:
        raise CorruptStreamError(
            f"entry 0-{version} of game {game_id!r} holds event {envelope.version} "
            f"of game {envelope.game_id!r}"
        )
    return RecordedEvent(envelope, upcasters.decode(envelope))


def as_text(value: Any) -> str:
    """Returns *value* as text, decoding bytes (clients may or may not decode replies)."""
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def entry_field(fields: Any, name: str) -> str | None:
    """Returns field *name* of a stream entry, given as a dict or a flat list."""
    if isinstance(fields, dict):
        value = fields.get(name, fields.get(name.encode()))
        return None if value is None else as_text(value)
    pairs = iter(fields)
    for key, value in zip(pairs, pairs, strict=False):
        if as_text(key) == name:
            return as_text(value)
    return None


def _body_and_hash(fields: Any) -> tuple[str | None, str | None]:
    """Returns the ``body`` and ``hash`` fields of a game stream entry (see :func:`entry_field`);
    at once for the flat list ``[body, <body>, hash, <hash>]`` the stream holds."""
    if (type(fields) is list and len(fields) == 4 and fields[0] == "body"
            and fields[2] == "hash" and type(fields[1]) is str and type(fields[3]) is str):
        return fields[1], fields[3]
    return entry_field(fields, "body"), entry_field(fields, "hash")


def entry_version(game_id: str, entry_id: Any) -> int:
    """Returns the version in a game stream entry id ``0-<version>``.

    :raises CorruptStreamError: if the id is not of that form.
    """
    text = as_text(entry_id)
    head, _, version = text.partition("-")
    if head != "0" or not version.isdigit():
        raise CorruptStreamError(f"foreign entry id {text} in game {game_id!r}")
    return int(version)

