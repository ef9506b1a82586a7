"""The memory an object graph holds: what bounds the fold cache by bytes.

:func:`deep_size` adds up :func:`sys.getsizeof` of every object reachable from a value through
containers (tuples, lists, dicts, sets) and instance fields (``__slots__`` and ``__dict__``),
each object once. Objects shared with other values (interned strings, small ints, a card
used by many states) are counted for each value they are reachable from, so a cache bounded
by these sizes holds at most that much, usually less.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable
from typing import Any

_ATOMS = (str, bytes, int, float, bool, type(None), complex)
"""Types that refer to nothing else."""


def deep_size(value: Any) -> int:
    """Returns the bytes of *value* and of everything it refers to, each object once."""
    seen: set[int] = set()
    pending = [value]
    total = 0
    getsizeof, pop, extend, add = sys.getsizeof, pending.pop, pending.extend, seen.add
    fields_of = _FIELD_GETTERS.get
    while pending:
        item = pop()
        ident = id(item)
        if ident in seen:
            continue
        add(ident)
        total += getsizeof(item)
        kind = type(item)
        if kind in _ATOM_TYPES:
            continue
        if kind is tuple or kind is list:
            extend(item)
            continue
        if kind is dict:
            extend(item.keys())
            extend(item.values())
            continue
        getter = fields_of(kind)
        if getter is not None:
            try:
                extend(getter(item))
            except AttributeError:  # A slot not set: skip it, as _fields does.
                extend(_fields(item))
            continue
        if isinstance(item, _ATOMS) or isinstance(item, type):
            continue
        if isinstance(item, tuple | list | set | frozenset):
            extend(item)
        elif isinstance(item, dict):
            extend(item.keys())
            extend(item.values())
        else:
            getter = _field_getter(kind)
            if getter is not None:
                _FIELD_GETTERS[kind] = getter
            extend(_fields(item))
    return total


def _fields(item: Any) -> list[Any]:
    """Returns the values of *item*'s instance fields (slots and ``__dict__``)."""
    values: list[Any] = []
    names = [name for cls in type(item).__mro__ for name in cls.__dict__.get("__slots__", ())]
    if not names and not hasattr(item, "__dict__"):
        # A class compiled by mypyc keeps its fields in C, without slots: its dataclass names them.
        names = list(getattr(type(item), "__dataclass_fields__", ()))
    for name in names:
        if name in ("__dict__", "__weakref__"):
            continue
        try:
            values.append(getattr(item, name))
        except AttributeError:
            continue
    instance = getattr(item, "__dict__", None)
    if isinstance(instance, dict):
        values.append(instance)
    return values


def _field_getter(kind: type) -> Callable[[Any], tuple[Any, ...]] | None:
    """Returns a function giving the values of the slots :func:`_fields` reads of an
    instance of *kind*, as a tuple, if that is all it reads: a class whose every base but
    ``object`` has ``__slots__`` (so no ``__dict__``), with no attribute hooks of its own,
    and at least one slot; else ``None``. It raises ``AttributeError`` for a slot not set."""
    hooked = getattr(kind, "__getattribute__", None) is not _GETATTRIBUTE
    if hooked or hasattr(kind, "__getattr__") or kind.__dictoffset__:
        return None
    names: list[str] = []
    for cls in kind.__mro__:
        if cls is object:
            continue
        slots = cls.__dict__.get("__slots__")
        if slots is None or isinstance(slots, str) or "__dict__" in cls.__dict__:
            return None
        names += [name for name in slots if name not in ("__dict__", "__weakref__")]
    if not names or any(not isinstance(name, str) for name in names):
        return None
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda item: (one(item),)
    getter: Callable[[Any], tuple[Any, ...]] = operator.attrgetter(*names)
    return getter


_GETATTRIBUTE: Any = object.__getattribute__

_ATOM_TYPES = frozenset(_ATOMS)
"""The exact types of :data:`_ATOMS`, tested first (subclasses take the general path)."""

_FIELD_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}
"""The :func:`_field_getter` of each class of slots met so far."""
