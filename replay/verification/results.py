"""Verifying a hand history's derived results against what the engine derives again.

Each deal's facts with their rulings, hands and result, the game's standing and the irregularities
must equal what :func:`replay.formats.derive.derive_results` derives from the re-folded events: rule
ids always, sentences as the history's version of the ruling texts writes them. Each difference is
reported with the event it concerns (the first :data:`MAX_DIFFERENCES`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replay.formats.derive import derive_results
from replay.formats.diagnostics import pointer
from replay.formats.notation import same
from replay.verification.findings import Unchecked
from replay.verification.state import Run, is_viewer

MAX_DIFFERENCES = 50
"""The most result differences reported one by one (the rest are counted)."""


CODES = ("result",)
"""``result``: a result the history states (a fact, a ruling, a deal's hands, scores, the
winner, the irregularities listed) differs from what re-folding the events derives."""


def check(run: Run) -> None:
    """Compares the history's results with those the engine derives from the re-folded events
    (as far as the fold went)."""
    history = run.history
    state = run.replayer.state
    results = history.results
    assert results is not None
    if state is None:
        return
    viewer = history.view.viewer
    if not is_viewer(viewer, run.rules):
        return  # Reported by check_view.
    # Rule ids are compared whatever the version; sentences as the history's version of
    # the ruling texts writes them.
    texts = history.texts_version
    derived = derive_results(state, run.replayer.dealt, run.replayer.irregularities,
                             viewer, deal=history.view.deal, texts=texts)
    run.irregularities = [item.to_dict(texts) for item in
                                  run.replayer.irregularities] if viewer == "auditor" else []
    claimed: Sequence[Mapping[str, Any]] = results["deals"]
    ranges = {section.number: section.events for section in history.sections()}
    blocked_deal = None if run.blocked is None else run.blocked[1]
    differences: list[tuple[str, int | None, str]] = []
    if run.blocked is None:
        if len(claimed) != len(derived["deals"]):
            run.problem("result", f"the history has results for {len(claimed)} deals; the "
                        f"engine derives {len(derived['deals'])}", None, "/results/deals")
        compare = range(min(len(claimed), len(derived["deals"])))
    else:
        comparable = [index for index, entry in enumerate(derived["deals"])
                      if blocked_deal is None or entry["number"] < blocked_deal]
        compare = range(min(len(comparable), len(claimed)))
        run.unchecked.append(Unchecked(
            run.blocked[0], history.events[-1].version, "the derived results of "
            + (f"deal {blocked_deal} and after" if blocked_deal else "the rest")
            + " and the game's standing", run.blocked[2]))
    for index in compare:
        mine, theirs = claimed[index], derived["deals"][index]
        events = ranges.get(mine.get("number", -1), ())
        last = events[-1].version if events else None
        diff(run, mine, theirs, ["results", "deals", index], last, differences)
    if run.blocked is None:
        last = history.events[-1].version
        diff(run, results["game"], derived["game"], ["results", "game"], last, differences)
        diff(run, results["irregularities"], derived["irregularities"],
                  ["results", "irregularities"], last, differences)
    for message, version, where in differences[:MAX_DIFFERENCES]:
        run.problem("result", message, version, where)
    if len(differences) > MAX_DIFFERENCES:
        run.problem("result", f"{len(differences) - MAX_DIFFERENCES} more derived results "
                    "differ", None, "/results")


def diff(run: Run, claimed: Any, derived: Any, path: list[str | int], version: int | None,
         out: list[tuple[str, int | None, str]]) -> None:
    """Compares a claimed result with the derived one, recording each difference with the
    event it concerns."""
    if isinstance(claimed, Mapping) and "ruling" in claimed and isinstance(
            claimed.get("version"), int):
        version = claimed["version"]
    if isinstance(claimed, Mapping) and isinstance(derived, Mapping):
        for key in sorted(set(claimed) | set(derived), key=str):
            if key not in claimed or key not in derived:
                out.append((f"{_label(path)}: {key!r} is "
                            + ("missing from the history" if key not in claimed
                               else "not something the engine derives"),
                            version, pointer([*path, key])))
            else:
                diff(run, claimed[key], derived[key], [*path, key], version, out)
        return
    if isinstance(claimed, list) and isinstance(derived, list):
        if same(claimed, derived):
            run.checked["results"] += _leaves(derived)
            return
        if not any(isinstance(item, Mapping | list) for item in (*claimed, *derived)):
            out.append((f"{_label(path)}: the history says {_short(claimed)}, the engine "
                        f"derives {_short(derived)}", version, pointer(path)))
            return
        if len(claimed) != len(derived):
            out.append((f"{_label(path)}: the history has {len(claimed)} entries, the "
                        f"engine derives {len(derived)}", version, pointer(path)))
        for index, (left, right) in enumerate(zip(claimed, derived, strict=False)):
            diff(run, left, right, [*path, index], version, out)
        return
    run.checked["results"] += 1
    if not same(claimed, derived):
        out.append((f"{_label(path)}: the history says {_short(claimed)}, the engine "
                    f"derives {_short(derived)}", version, pointer(path)))


def _leaves(value: Any) -> int:
    """Returns how many scalar values *value* holds (one for a scalar)."""
    if isinstance(value, Mapping):
        return sum(_leaves(item) for item in value.values())
    if isinstance(value, list):
        return sum(_leaves(item) for item in value)
    return 1


def _label(path: Sequence[str | int]) -> str:
    """Returns a readable name for a results path: ``deal 1 result scores``."""
    parts: list[str] = []
    rest = list(path[1:]) if path and path[0] == "results" else list(path)
    if len(rest) >= 2 and rest[0] == "deals":
        parts.append(f"deal entry {int(rest[1]) + 1}")
        rest = rest[2:]
    for part in rest:
        parts.append(f"[{part}]" if isinstance(part, int) else str(part))
    return " ".join(parts) or "results"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
