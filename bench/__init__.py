"""The benchmarks behind ``fortyfive bench``: one module per target (service/cli/bench.py)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Mapping


class BenchUsageError(Exception):
    """Raised by a benchmark for options it cannot run with; ``fortyfive bench`` prints it as
    one line and exits with status 2, as any usage error of the command line."""


def positive_int(text: str) -> int:
    """Returns *text* as a whole number of 1 or more: the type of every count option.

    :raises argparse.ArgumentTypeError: for anything else, in words argparse prints as is.
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return value


def best_time(work: Callable[[], object], rounds: int, repeat: int) -> float:
    """Returns the fastest of *repeat* timings of *rounds* calls of *work*, in seconds (the
    fastest is the one least disturbed by other load)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(rounds):
            work()
        best = min(best, time.perf_counter() - start)
    return best


def best_times_in_turns(works: Mapping[str, Callable[[], object]], rounds: int,
                        repeat: int) -> dict[str, float]:
    """Returns, for each of *works*, the fastest of *repeat* timings of *rounds* calls, in
    seconds, the works taking turns: each repeat times every work once, one after another, so
    that a burst of other load on the machine falls on all of them alike and their ratios are
    measured side by side (not one work's timings in one block, then the next's)."""
    best = dict.fromkeys(works, float("inf"))
    for _ in range(repeat):
        for name, work in works.items():
            start = time.perf_counter()
            for _ in range(rounds):
                work()
            best[name] = min(best[name], time.perf_counter() - start)
    return best
