"""deep_size: its fast paths (exact types, a cached getter per class of slots) count what
the plain walk over every object counts."""

from __future__ import annotations

import dataclasses
import enum
import sys
from typing import Any, NamedTuple

import pytest

from events.sizing import deep_size


def _reference(value: Any) -> int:
    """The plain walk: isinstance tests and each object's slots looked up on its class."""
    seen: set[int] = set()
    pending = [value]
    total = 0
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, str | bytes | int | float | bool | type(None) | complex | type):
            continue
        if isinstance(item, tuple | list | set | frozenset):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        else:
            names = [name for cls in type(item).__mro__
                     for name in cls.__dict__.get("__slots__", ())]
            if not names and not hasattr(item, "__dict__"):  # compiled: the dataclass's fields
                names = list(getattr(type(item), "__dataclass_fields__", ()))
            for name in names:
                if name not in ("__dict__", "__weakref__") and hasattr(item, name):
                    pending.append(getattr(item, name))
            instance = getattr(item, "__dict__", None)
            if isinstance(instance, dict):
                pending.append(instance)
    return total


@dataclasses.dataclass(frozen=True, slots=True)
class One:
    only: Any


@dataclasses.dataclass(frozen=True, slots=True)
class Two(One):
    more: Any


class Unset:
    __slots__ = ("a", "b")


class Mangled:
    __slots__ = ("__hidden", "shown")

    def __init__(self) -> None:
        self.__hidden = ["hidden" * 10]
        self.shown = "shown"


class Hooked:
    __slots__ = ("a",)

    def __init__(self) -> None:
        self.a = "a" * 50

    def __getattr__(self, name: str) -> Any:
        return {"made": ["for", name]}  # Even for __dict__, which the walk then counts.


class Open:
    def __init__(self) -> None:
        self.a = ("x" * 30, 5)


class Mixed(Open):
    __slots__ = ("b",)


class Pair(NamedTuple):
    left: Any
    right: Any


class Suit(enum.IntEnum):
    SPADES = 1


class Text(str):
    pass


def _values() -> list[Any]:
    unset = Unset()
    unset.a = ("set", 1)
    mixed = Mixed()
    mixed.b = {"k": [1, 2]}
    shared = ("s" * 40,)
    return [
        One((1, 2, ("x",))), One("a"), One(One(None)), Two([shared], (shared, shared)),
        unset, Unset(), Mangled(), Hooked(), Open(), mixed, Pair(shared, [shared]),
        Suit.SPADES, Text("text"), {frozenset({1, "a"}), (2,)}, {"a": {"b": [One(3.5)]}},
        One, [One, int], bytearray(b"abc"), complex(1, 2), 10**40, True, None, b"x" * 10,
    ]


@pytest.mark.parametrize("value", _values(), ids=lambda value: type(value).__name__)
def test_deep_size_counts_what_the_plain_walk_counts(value: Any) -> None:
    assert deep_size(value) == _reference(value)
    assert deep_size(value) == _reference(value)  # Once the getters are cached, too.


def test_deep_size_of_engine_states_counts_what_the_plain_walk_counts() -> None:
    pytest.importorskip("engine.fold")
    from bench.store import _engine_game
    from engine.fold import apply_event

    _, game = _engine_game(300)
    state = None
    for index, event in enumerate(game):
        state = apply_event(state, event)
        if index % 50 == 0 or index == len(game) - 1:
            assert deep_size(state) == _reference(state)
    values = _values()
    assert deep_size(values) == _reference(values)
