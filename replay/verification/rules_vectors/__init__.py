"""The rules vectors (docs/vectors/rules/): positions with their legal plays, complete tricks
with their winner, deals with the bonus's proof, the finish and the scores, auctions with their
settlement, and table records ending with an irregular action, drawn at every table of
:data:`~.tables.TABLES` from seeded chance, each answer the engine's own.

:func:`generate` returns the files' bytes; ``fortyfive rules vectors`` writes them, and a test
holds the committed files to what it returns. Every rule id of docs/rules.md has cases
(:func:`rule_ids`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from engine.ruling_texts import TEXTS_VERSION
from replay.verification.rules_vectors.auctions import auction_case
from replay.verification.rules_vectors.deals import deal_case, rare_features
from replay.verification.rules_vectors.games import PlayedDeal, play_table
from replay.verification.rules_vectors.irregularities import irregularity_cases
from replay.verification.rules_vectors.positions import position_cases
from replay.verification.rules_vectors.tables import TABLES, Table
from replay.verification.rules_vectors.tricks import trick_cases

FORMAT = 1
"""The version of the vector files' format (docs/vectors/rules/README.md)."""

KINDS = ("positions", "tricks", "deals", "auctions", "irregularities")
"""The kinds of case, one file each (``<kind>.json``)."""


@functools.cache
def generate() -> Mapping[str, bytes]:
    """Returns each vector file's name and bytes, read-only: drawn once a process, since they
    follow from the engine alone (a ``--check`` after a write compares without drawing again)."""
    cases: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
    for table in TABLES:
        cases["positions"] += position_cases(table)
        cases["tricks"] += trick_cases(table)
        deals = play_table(table)
        for played in deals + _rare_deals(table):
            cases["deals"].append(deal_case(played))
            if played.calls:
                cases["auctions"].append(auction_case(played))
        cases["irregularities"] += irregularity_cases(deals)
    return MappingProxyType({f"{kind}.json": _file(kind, cases[kind]) for kind in KINDS})


RARE_DEALS = 3
"""How many deals of each rare kind (:func:`~.deals.rare_features`) are kept at a table."""


def _rare_deals(table: Table) -> list[PlayedDeal]:
    """Returns the deals of a further series at *table* that show something rare, while fewer
    than :data:`RARE_DEALS` deals kept show it."""
    kept: list[PlayedDeal] = []
    seen: dict[str, int] = {}
    for played in play_table(table, "r", table.search):
        found = rare_features(played)
        if any(seen.get(feature, 0) < RARE_DEALS for feature in found):
            kept.append(played)
            for feature in found:
                seen[feature] = seen.get(feature, 0) + 1
    return kept


def _file(kind: str, cases: list[dict[str, Any]]) -> bytes:
    """Returns a vector file: its header, then one case per line (small diffs, easy greps)."""
    tables = {table.name: table.described() for table in TABLES
              if any(case["table"] == table.name for case in cases)}
    head = {"kind": kind, "format": FORMAT, "ruling_texts": TEXTS_VERSION, "tables": tables}
    lines = [json.dumps(head, separators=(",", ":"), ensure_ascii=False)[:-1]
             + ',"cases":[']
    lines += [json.dumps(case, separators=(",", ":"), ensure_ascii=False) + ","
              for case in cases]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("]}")
    return ("\n".join(lines) + "\n").encode()


def rule_ids(files: Mapping[str, bytes]) -> dict[str, int]:
    """Returns each rule id the vector *files* give a case of, with how many cases name it."""
    counts: dict[str, int] = {}
    for data in files.values():
        for case in json.loads(data)["cases"]:
            for rule in _rules_of(case):
                counts[rule] = counts.get(rule, 0) + 1
    return counts


def _rules_of(case: Mapping[str, Any]) -> Iterable[str]:
    """Yields every rule id *case* states (each once)."""
    found: set[str] = set()
    stack: list[Any] = [case]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            rule = value.get("rule")
            if isinstance(rule, str):
                found.add(rule)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return sorted(found)
