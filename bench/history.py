"""Hand histories: verifications per second of a complete 6-player bruff game, next to folding.

One complete ``bruff`` game (six seats, played to its end by a seeded policy through the
engine's own commands) is cut as the auditor's history, and timed in one run:

- ``verify``: :func:`replay.verification.verify.verify` of the history already read: every hash
  recomputed (RFC 8785 canonical JSON + SHA-256), every seed checked against its commitment, the
  events re-folded with every action checked against the rules, and every derived result compared.
- ``read_and_verify_json`` / ``read_and_verify_text``: the same, starting from the bytes of
  each encoding (schema validation, or the notation reader, included).
- ``verify_seat_view``: a seat's history, whose redacted events are first rebuilt from the
  revealed seeds.
- ``fold``: :func:`engine.fold.fold` of the same events, already decoded: the engine alone,
  with no verification, as the service folds a game it trusts.

Each figure is the best of ``--repeat`` timings of ``--rounds`` calls, reported per second. The
timings take turns (each repeat times every figure once, one after another), so that other load
on the machine falls on all of them alike; ``verify_cost_in_folds`` is how many folds one
verification costs, a ratio measured side by side.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from bench import best_times_in_turns, positive_int
from engine.fold import fold
from replay.formats.build import build_history, replay_log
from replay.formats.export import export_text
from replay.formats.importing import read_history
from replay.formats.jsonformat import dumps
from replay.sample import GameDriver, seeded_choice
from replay.verification.verify import verify


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--seed", default="bench-history",
                        help="any text: the game played (default 'bench-history')")
    parser.add_argument("--repeat", type=positive_int, default=5,
                        help="timing repeats; the best is kept (default 5)")
    parser.add_argument("--rounds", type=positive_int, default=20,
                        help="verifications per timing (default 20)")



def run(args: argparse.Namespace) -> dict[str, Any]:
    """Plays the game, times verification and folding, and returns the figures."""
    driver = GameDriver(f"bench-{args.seed}", args.seed).start("bruff", ["human"] * 6)
    driver.play(seeded_choice(args.seed))
    assert driver.state is not None and driver.state.phase == "over", "a complete game"
    replay = replay_log(driver.recorded)
    history = build_history(driver.game_id, replay, "auditor")
    seat_view = build_history(driver.game_id, replay, 0)
    as_json = dumps(history)
    as_text = export_text(history).encode()
    events = [item.event for item in driver.recorded]
    report = verify(history)
    # Nothing contradicted and nothing cut: it carries no signed checkpoint (no service signed
    # it), so its events are vouched for by no signature, the only thing left unchecked.
    assert report.ok and report.prefix is None and all(
        item.what == "signature" for item in report.unchecked), report.format()
    rounds: int = args.rounds
    repeat: int = args.repeat

    works: dict[str, Callable[[], object]] = {
        "verify_per_second": lambda: verify(history),
        "read_and_verify_json_per_second": lambda: _checked(read_history(as_json).history),
        "read_and_verify_text_per_second": lambda: _checked(read_history(as_text).history),
        "verify_seat_view_per_second": lambda: verify(seat_view),
        "fold_per_second": lambda: fold(events),
    }
    timings = best_times_in_turns(works, rounds, repeat)
    figures: dict[str, Any] = {
        "game": {
            "events": len(events), "deals": len(driver.state.past_deals) + 1,
            "json_bytes": len(as_json), "text_bytes": len(as_text),
        },
        **{name: rounds / seconds for name, seconds in timings.items()},
    }
    folds, verifications = figures["fold_per_second"], figures["verify_per_second"]
    assert isinstance(folds, float) and isinstance(verifications, float)
    figures["verify_cost_in_folds"] = round(folds / verifications, 1)
    return figures


def _checked(history: Any) -> None:
    assert history is not None and verify(history).ok

