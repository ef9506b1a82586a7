"""The examples in the docstrings of every module of events, engine, replay, service and
workers run and hold (python-chess doctests its modules the same way)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("events", "engine", "replay", "service", "workers")


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        path = importlib.import_module(package).__path__
        names += [info.name for info in pkgutil.walk_packages(path, f"{package}.")]
    return sorted(names)


MODULES = _modules()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.failed == 0


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_has_examples(package: str) -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS,
                        report=False).attempted
        for name in MODULES if name.startswith(f"{package}."))
    assert attempted > 0, f"{package} has no docstring examples"
