"""The import rules of docs/architecture.md hold: the import-linter contracts in pyproject.toml
(the layers, no web framework below the HTTP layer, a pure engine, no import circles) are kept,
and a worker starts without loading Flask or marshmallow.

The contracts are checked by running ``lint-imports`` itself on the checkout, and on a copy
with one bad import added per contract, so that a broken rule is shown to fail the suite."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("events", "engine", "replay", "service", "workers", "bench")
CONTRACTS = {
    contract["id"]: contract["name"]
    for contract in tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    ["tool"]["importlinter"]["contracts"]
}


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    """Runs ``lint-imports`` on the checkout at *root* (no cache: nothing is written there)."""
    code = "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache", str(root / "pyproject.toml")],
        cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True, text=True, timeout=300, check=False)


def test_every_contract_is_kept() -> None:
    linted = _lint(ROOT)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    for name in CONTRACTS.values():
        assert " ".join(f"{name} KEPT".split()) in " ".join(linted.stdout.split())


BAD_IMPORTS = {
    "layers": ("engine/cards.py", "import replay.errors"),
    "no-web-below-http": ("service/application/backoff.py", "import werkzeug"),
    "pure-engine": ("engine/tricks.py", "import redis"),
    "acyclic": ("engine/errors.py", "import engine.cards"),
}
"""Per contract, a module and an import that breaks it (and no other contract)."""


def test_each_contract_has_a_bad_import_to_show_it_breaks() -> None:
    assert set(BAD_IMPORTS) == set(CONTRACTS)


@pytest.mark.parametrize("contract", sorted(BAD_IMPORTS))
def test_a_bad_import_breaks_its_contract(contract: str, tmp_path: Path) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "web"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    module, line = BAD_IMPORTS[contract]
    with (tmp_path / module).open("a", encoding="utf-8") as written:
        written.write(f"\n{line}  # A bad import, for this test.\n")
    linted = _lint(tmp_path)
    said = " ".join(linted.stdout.split())
    assert linted.returncode == 1, linted.stdout + linted.stderr
    assert " ".join(f"{CONTRACTS[contract]} BROKEN".split()) in said
    assert f"Contracts: {len(CONTRACTS) - 1} kept, 1 broken." in said


@pytest.mark.parametrize("module", ["workers.jobs", "workers.runner", "workers"])
def test_a_worker_loads_no_web_framework(module: str) -> None:
    code = (f"import json, sys; import {module}; "
            "print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=120, check=True).stdout)
    assert module in loaded
    web = [name for name in loaded
           if name.split(".")[0] in ("flask", "flask_smorest", "marshmallow", "werkzeug",
                                     "webargs") or name.startswith("service.http")]
    assert web == [], f"importing {module} loads {web}"
