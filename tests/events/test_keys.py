"""Every Redis key name is made in events/keys.py: no other module of the project writes a
``f45:`` key literal (docstrings aside), so the key names can be read, and moved, in one place."""

from __future__ import annotations

import ast
from pathlib import Path

from events import keys

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "events", "replay", "service", "workers")


def _key_literals(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                "f45:" in node.value) and id(node) not in docstrings:
            found.append(node.lineno)
    return found


def test_no_module_but_events_keys_writes_a_key_name() -> None:
    offenders = {
        str(path.relative_to(ROOT)): lines
        for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
        if path != ROOT / "events" / "keys.py" and (lines := _key_literals(path))
    }
    assert offenders == {}


def test_the_keys_of_one_game_share_its_partition_tag() -> None:
    tag = keys.partition_tag("g1")
    assert tag == "f45:{p165}"
    for key in (keys.game_key("g1"), keys.command_key("g1"), keys.archive_key("g1"),
                keys.seats_key("g1"), keys.sealed_key("g1", 1), keys.checkpoints_key("g1")):
        assert key.startswith(tag + ":")
    assert keys.feed_key(165).startswith(tag) and keys.cursor_key(165, "d").startswith(tag)
