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


def stale_modules(package: pathlib.Path = pathlib.Path(__file__).parent) -> tuple[str, ...]:
    """Returns the modules of *package* (the engine's folder) built for this interpreter whose
    source changed after they were compiled: in a checkout, the source a developer edited
    would silently not be what runs. It reads the files, so a module not yet imported counts.
    """
    stale = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for built in sorted(package.glob("*" + suffix)):
            source = built.with_name(built.name[:-len(suffix)] + ".py")
            if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
                stale.append(f"{package.name}.{source.stem}")
    return tuple(stale)
