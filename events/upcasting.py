"""Upcasting: stored events of an older schema are read as the current one.

Stored events are never rewritten. When a type's data changes shape its ``SCHEMA`` goes up and
a pure step ``data -> data`` from the old schema to the next is registered here; reading loops
over the steps until the data is current. The golden logs in ``tests/events/golden/`` prove
every released schema still reads (``tests/replay/golden/drives/`` for drives'). A drive's
events have a registry of their own (:data:`DRIVE_UPCASTERS`), over their own types.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from events.drive_types import DRIVE_EVENT_TYPES
from events.envelope import DriveEnvelope, Envelope
from events.errors import CorruptStreamError, SchemaError
from events.types import (
    EVENT_TYPES,
    Event,
    EventDataError,
    UnknownEventTypeError,
    event_builder,
    event_from_data,
)

Step: TypeAlias = Callable[[dict[str, Any]], dict[str, Any]]
"""A pure function from one schema's data to the next schema's data."""


class Upcasters:
    """A registry of upcasting steps, keyed by event type and the schema they start from."""

    def __init__(self, types: Mapping[str, type[Event]] = EVENT_TYPES) -> None:
        self._types = types
        self._steps: dict[tuple[str, int], Step] = {}
        self.builders: dict[str, tuple[int, Callable[[dict[str, Any]], Event | None]]] = {
            name: (cls.SCHEMA, event_builder(cls))
            for name, cls in types.items() if EVENT_TYPES.get(name) is cls and cls.SCHEMA >= 1
        }
        """For each type :meth:`decode` reads with :func:`events.types.event_from_data`: its
        current schema and its :func:`events.types.event_builder`, which builds what
        :meth:`decode` does from data at that schema as orjson decodes it (or ``None``)."""

    def register(self, type_name: str, from_schema: int) -> Callable[[Step], Step]:
        """Returns a decorator registering a step from *from_schema* to ``from_schema + 1``.

        :raises ValueError: if the type is unknown, the schema is not below the type's current
            one, or a step is already registered for it.
        """
        cls = self._types.get(type_name)
        if cls is None or not 1 <= from_schema < cls.SCHEMA:
            raise ValueError(
                f"cannot register an upcaster for {type_name!r} from schema {from_schema}: "
                "the type must exist and the schema must be below its current one"
            )
        if (type_name, from_schema) in self._steps:
            raise ValueError(f"upcaster for {type_name!r} from schema {from_schema} exists")

        def decorator(step: Step) -> Step:
            self._steps[type_name, from_schema] = step
            return step

        return decorator

    def upcast(self, type_name: str, schema: int, data: Mapping[str, Any]) -> dict[str, Any]:
        """Returns *data*, stored at *schema*, as data of the type's current schema.

        *data* itself is never modified: steps work on a deep copy.

        :raises SchemaError: if the type is unknown, *schema* is newer than this code knows,
            a step is missing, or a step fails on *data*.
        """
        cls = self._types.get(type_name)
        if cls is None:
            known = ", ".join(sorted(self._types))
            raise SchemaError(
                f"unknown event type {type_name!r} (this code knows {known}): "
                "upgrade fortyfive to read it"
            )
        if schema > cls.SCHEMA:
            raise SchemaError(
                f"{type_name} event has schema {schema} but this code knows schema {cls.SCHEMA} "
                "at most; upgrade fortyfive to read it"
            )
        if schema == cls.SCHEMA:
            return dict(data)
        current = copy.deepcopy(dict(data))
        for from_schema in range(schema, cls.SCHEMA):
            step = self._steps.get((type_name, from_schema))
            if step is None:
                raise SchemaError(
                    f"no upcaster for {type_name} from schema {from_schema} to "
                    f"{from_schema + 1}: register one in events.upcasting"
                )
            try:
                current = step(current)
            except (KeyError, TypeError, ValueError) as error:
                raise SchemaError(
                    f"cannot upcast {type_name} from schema {from_schema} to "
                    f"{from_schema + 1}: {type(error).__name__}: {error}"
                ) from None
        return current

    def decode(self, envelope: Envelope | DriveEnvelope) -> Event:
        """Returns the event stored in *envelope*, upcast to its type's current schema.

        :raises SchemaError: if the data cannot be upcast (see :meth:`upcast`).
        :raises CorruptStreamError: if the upcast data does not fit the event type.
        """
        cls = self._types.get(envelope.type)
        if cls is not None and envelope.schema == cls.SCHEMA:
            data = envelope.data  # Current already: read as it is, not copied.
        else:
            data = self.upcast(envelope.type, envelope.schema, envelope.data)
        try:
            return event_from_data(envelope.type, data, self._types)
        except (UnknownEventTypeError, EventDataError) as error:
            raise CorruptStreamError(
                f"event {envelope.version} of {envelope.STREAM} {envelope.stream_id!r}: {error}"
            ) from None


UPCASTERS = Upcasters()
"""The upcasters of the released schemas; the store reads through these."""


@UPCASTERS.register("game_created", 1)
def upcast_game_created_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Returns schema-1 ``game_created`` data as schema 2.

    Schema 1 (the pre-release prototype) stored a player count and had no bots, so every seat
    becomes ``"human"``.

    >>> upcast_game_created_v1_v2({"profile": "p", "options": {}, "players": 2, "seed": "ab"})
    {'profile': 'p', 'options': {}, 'seed': 'ab', 'seats': ['human', 'human']}
    """
    players = data.pop("players")
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise ValueError(f"players must be a positive integer, got {players!r}")
    return {**data, "seats": ["human"] * players}


DRIVE_UPCASTERS = Upcasters(DRIVE_EVENT_TYPES)
"""The upcasters of the released schemas of drive events; drives are read through these."""


@DRIVE_UPCASTERS.register("round_ended", 1)
def upcast_round_ended_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Returns schema-1 ``round_ended`` data as schema 2.

    Schema 1 recorded the round only; schema 2 also pins each game's head when the round
    ended. A schema-1 round has none to give: ``heads`` is ``None`` (not recorded), never a
    guess.

    >>> upcast_round_ended_v1_v2({"round": 2})
    {'round': 2, 'heads': None}
    """
    return {**data, "heads": None}


def upcast(type_name: str, schema: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """Returns *data* of *type_name* at *schema* as current data (see :meth:`Upcasters.upcast`).

    :raises SchemaError: if it cannot be upcast.
    """
    return UPCASTERS.upcast(type_name, schema, data)


def decode(envelope: Envelope) -> Event:
    """Returns the event in *envelope* at the current schema (see :meth:`Upcasters.decode`).

    :raises SchemaError: if its data cannot be upcast.
    :raises CorruptStreamError: if the upcast data does not fit the event type.
    """
    return UPCASTERS.decode(envelope)


def decode_drive(envelope: DriveEnvelope) -> Event:
    """Returns the drive event in *envelope* at the current schema (see
    :meth:`Upcasters.decode`).

    :raises SchemaError: if its data cannot be upcast, or its type is not a drive's.
    :raises CorruptStreamError: if the upcast data does not fit the event type.
    """
    return DRIVE_UPCASTERS.decode(envelope)
