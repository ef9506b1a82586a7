"""The memory an object graph holds: what bounds the fold cache by bytes.

:func:`deep_size` adds up :func:`sys.getsizeof` of every object reachable from a value through
containers (tuples, lists, dicts, sets) and instance fields (``__slots__`` and ``__dict__``),
each object once. Objects shared with other values (interned strings, small ints, a card
used by many states) are counted for each value they are reachable from, so a cache bounded
by these sizes holds at most that much, usually less.
"""

from __future__ import annotations

import sys
from typing import Any

_ATOMS = (str, bytes, int, float, bool, type(None), complex)
"""Types that refer to nothing else."""


_ATOM, _ITEMS, _MAPPING, _FIELDS = range(4)
_KINDS: dict[type, tuple[int, tuple[str, ...]]] = {}
"""Per type: how :func:`deep_size` walks its instances (what ``isinstance`` says of a type
holds for all its instances), and for :data:`_FIELDS` the slot names of its classes."""


def _kind(kind: type) -> tuple[int, tuple[str, ...]]:
    """Returns how :func:`deep_size` walks instances of *kind* (and remembers it)."""
    found = _KINDS.get(kind)
    if found is None:
        if issubclass(kind, _ATOMS) or issubclass(kind, type):
            found = (_ATOM, ())
        elif issubclass(kind, tuple | list | set | frozenset):
            found = (_ITEMS, ())
        elif issubclass(kind, dict):
            found = (_MAPPING, ())
        else:
            found = (_FIELDS, tuple(
                name for cls in kind.__mro__ for name in cls.__dict__.get("__slots__", ())
                if name not in ("__dict__", "__weakref__")))
        _KINDS[kind] = found
    return found


def deep_size(value: Any) -> int:
    """Returns the bytes of *value* and of everything it refers to, each object once."""
    seen: set[int] = set()
    pending = [value]
    total = 0
    getsizeof = sys.getsizeof
    kinds = _KINDS
    while pending:
        item = pending.pop()
        ident = id(item)
        if ident in seen:
            continue
        seen.add(ident)
        total += getsizeof(item)
        kind, slots = kinds.get(type(item)) or _kind(type(item))
        if kind == _ATOM:
            continue
        if kind == _ITEMS:
            pending.extend(item)
        elif kind == _MAPPING:
            pending.extend(item.keys())
            pending.extend(item.values())
        else:
            for name in slots:
                try:
                    pending.append(getattr(item, name))
                except AttributeError:
                    continue
            instance = getattr(item, "__dict__", None)
            if isinstance(instance, dict):
                pending.append(instance)
    return total
