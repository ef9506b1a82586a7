"""Which of the engine's modules run compiled by mypyc (setup.py says which are built so),
for the benches' figures and the test run's header: a figure means little without it."""

from __future__ import annotations

import importlib.machinery
import pathlib
import sys


def compiled_modules() -> tuple[str, ...]:
    """Returns the names of the engine's imported modules that were loaded from C extensions."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return tuple(sorted(
        name for name, module in list(sys.modules.items())
        if name.startswith("engine.") and str(getattr(module, "__file__", "")).endswith(suffixes)
    ))


def stale_modules() -> tuple[str, ...]:
    """Returns the compiled modules whose source changed after they were compiled: in a
    checkout, the source a developer edited would silently not be what runs."""
    stale = []
    for name in compiled_modules():
        built = pathlib.Path(str(sys.modules[name].__file__))
        source = built.with_name(name.rpartition(".")[2] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            stale.append(name)
    return tuple(stale)
