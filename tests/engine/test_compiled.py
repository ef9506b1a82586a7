"""The compiled engine's bookkeeping: which modules run compiled, and a stale build refused."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import re
import sys
import types
from pathlib import Path

import pytest

from engine.compiled import compiled_modules, stale_modules

ROOT = Path(__file__).resolve().parents[2]


def _listed() -> set[str]:
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    return {"engine." + name for name in re.findall(r'"engine/(\w+)\.py"', setup)}


def test_the_engine_runs_every_listed_module_compiled_or_none() -> None:
    # Each extension is optional: a module that failed to compile would run as plain Python
    # beside compiled ones, unseen but for this.
    for name in _listed():
        importlib.import_module(name)
    assert set(compiled_modules()) in (set(), _listed())


def test_a_module_loaded_from_an_extension_is_listed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("engine.rules")
    module.__file__ = str(tmp_path / ("rules" + importlib.machinery.EXTENSION_SUFFIXES[0]))
    monkeypatch.setitem(sys.modules, "engine.rules", module)
    assert "engine.rules" in compiled_modules()


def test_a_compiled_module_older_than_its_source_is_stale_imported_or_not(
        tmp_path: Path) -> None:
    package = tmp_path / "engine"
    package.mkdir()
    built = package / ("rules" + importlib.machinery.EXTENSION_SUFFIXES[0])
    source = package / "rules.py"
    built.write_bytes(b"")
    source.write_text("", encoding="utf-8")
    (package / "plain.py").write_text("", encoding="utf-8")  # Not compiled: never stale.
    os.utime(built, (1_000_000, 1_000_000))
    os.utime(source, (2_000_000, 2_000_000))
    assert stale_modules(package) == ("engine.rules",)
    os.utime(built, (3_000_000, 3_000_000))
    assert stale_modules(package) == ()
