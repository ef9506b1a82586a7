"""The benchmarks behind ``fortyfive bench``: one module per target (service/cli/bench.py)."""

from __future__ import annotations

import argparse


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
