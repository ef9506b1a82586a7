"""``fortyfive bench``: run the benchmarks in ``bench/`` and print what they measured.

``fortyfive bench TARGET [--json] [module options]``, TARGET one of engine, store, http,
history, stream, grind, sign, drive, cluster, log, bots, or all.
Each target is a module ``bench.<target>`` exposing ``add_arguments(parser)`` and
``run(args) -> dict``. The modules are imported only when asked for, so a slow or missing one
costs the rest of the command line nothing; a missing one is a one-line error (exit status 2)
naming it. ``all`` runs every target but ``cluster`` (which starts clusters of its own) and
``log`` (a log of a million leaves) and ``bots`` (games of bots, minutes to hours) with its
defaults, and passes on any option that at least
one module knows.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any

from bench import BenchUsageError
from service.cli import UsageError, _Parser

TARGETS = ("engine", "store", "http", "history", "stream", "grind", "sign", "drive")
"""The benchmark modules, in the order ``all`` runs them."""

ON_REQUEST = ("cluster", "log", "bots")
"""The benchmark modules ``all`` leaves out (they start a Redis Cluster of their own, grow
a log of a million leaves, or play games of bots for minutes to hours)."""


def register(subparsers: Any) -> None:
    """Adds ``bench`` to the command line."""
    parser = subparsers.add_parser(
        "bench", help="measure the engine, the event store, the HTTP API, history import, live "
        "streams, seed grinding and checkpoint signing",
        description="Runs a benchmark module from bench/ and prints its figures. Options after "
        "the target go to that module (see: fortyfive bench TARGET --help).",
    )
    parser.add_argument("target", nargs="?", default="all", choices=(*TARGETS, *ON_REQUEST, "all"),
                        help="what to measure (default: all)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Runs the chosen benchmark(s) and prints the result; returns the exit status.

    :raises UsageError: for a missing module, or an option no chosen module knows.
    """
    targets = TARGETS if args.target == "all" else (args.target,)
    modules = {target: load(target) for target in _all_present(targets)}
    as_json = args.json
    runs: list[tuple[str, ModuleType, argparse.Namespace]] = []
    unknown_everywhere: list[str] | None = None
    for target, module in modules.items():
        summary = plain_text(" ".join((module.__doc__ or "").strip().split("\n\n", 1)[0].split()))
        parser = _Parser(prog=f"fortyfive bench {target}", description=summary or None)
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")
        module.add_arguments(parser)
        if len(targets) == 1:
            parsed = parser.parse_args(args.rest)
        else:
            parsed, unknown = parser.parse_known_args(args.rest)
            unknown_everywhere = (
                unknown if unknown_everywhere is None
                else [item for item in unknown_everywhere if item in unknown]
            )
        as_json = as_json or parsed.json
        runs.append((target, module, parsed))
    if unknown_everywhere:
        raise UsageError(
            f"fortyfive bench all: no benchmark knows {' '.join(unknown_everywhere)}"
        )
    results: dict[str, Any] = {}
    for target, module, parsed in runs:
        try:
            results[target] = module.run(parsed)
        except BenchUsageError as error:
            raise UsageError(str(error)) from None
    shown: Mapping[str, Any] = results if args.target == "all" else results[args.target]
    if as_json:
        print(json.dumps(shown, indent=2))
    else:
        print(format_table(shown))
    return 0


def plain_text(docstring: str) -> str:
    """Returns reStructuredText as a terminal shows it: without its inline markup.

    >>> plain_text("many spectators on ``fortyfive serve`` (:mod:`bench.stream`)")
    'many spectators on fortyfive serve (bench.stream)'
    """
    return re.sub(r"(?::[\w:]+:)?`+([^`]*)`+", r"\1", docstring)


def _all_present(targets: tuple[str, ...]) -> tuple[str, ...]:
    """Returns *targets* if every module can be imported, else raises naming the missing."""
    missing = [target for target in targets if not _exists(target)]
    if missing:
        names = ", ".join(f"bench.{target} (bench/{target}.py)" for target in missing)
        some = "module" if len(missing) == 1 else "modules"
        raise UsageError(f"fortyfive bench: missing benchmark {some}: {names}")
    return targets


def _exists(target: str) -> bool:
    try:
        load(target)
    except ModuleNotFoundError as error:
        if error.name in (f"bench.{target}", "bench"):
            return False
        raise
    return True


def load(target: str) -> ModuleType:
    """Returns the module ``bench.<target>``, checking that it has the bench interface.

    :raises ModuleNotFoundError: if it does not exist.
    :raises UsageError: if it lacks ``add_arguments`` or ``run``.
    """
    module = importlib.import_module(f"bench.{target}")
    for name in ("add_arguments", "run"):
        if not callable(getattr(module, name, None)):
            raise UsageError(f"fortyfive bench: bench.{target} has no {name}() function")
    return module


def format_table(figures: Mapping[str, Any]) -> str:
    """Returns *figures* as aligned ``name  value`` lines, nested keys joined with dots."""
    rows = list(_flatten(figures, ""))
    if not rows:
        return "(no figures)"
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name.ljust(width)}  {value}" for name, value in rows)


def _flatten(value: Any, prefix: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            yield from _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list | tuple) and value and all(
        isinstance(item, Mapping) for item in value
    ):
        for index, inner in enumerate(value):
            yield from _flatten(inner, f"{prefix}[{index}]")
    else:
        yield prefix or "value", _show(value)


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.6g}" if abs(value) < 1e6 else f"{value:,.0f}"
    if isinstance(value, list | tuple):
        return ", ".join(_show(item) for item in value)
    return str(value)
