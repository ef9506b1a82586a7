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


def deep_size(value: Any) -> int:
    """Returns the bytes of *value* and of everything it refers to, each object once."""
    seen: set[int] = set()
    pending = [value]
    total = 0
    getsizeof = sys.getsizeof
    while pending:
        item = pending.pop()
        ident = id(item)
        if ident in seen:
            continue
        seen.add(ident)
        total += getsizeof(item)
        if isinstance(item, _ATOMS) or isinstance(item, type):
            continue
        if isinstance(item, tuple | list | set | frozenset):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        else:
            pending.extend(_fields(item))
    return total


def _fields(item: Any) -> list[Any]:
    """Returns the values of *item*'s instance fields (slots and ``__dict__``)."""
    values: list[Any] = []
    for cls in type(item).__mro__:
        for name in cls.__dict__.get("__slots__", ()):
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
