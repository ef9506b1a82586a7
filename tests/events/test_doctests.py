"""The examples in the docstrings of the events modules (and of a few service modules) run
and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "events.codec", "events.store", "events.envelope", "events.upcasting",
    "service.store_keys", "service.apikeys", "service.limits", "service.cli.serve",
    "workers.keys",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0, f"{name} has no examples"
    assert results.failed == 0
