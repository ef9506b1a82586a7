"""The full, explained audit of a game: everything an auditor needs in one document.

An audit is the auditor's history of the game, its verification report, and per deal the
proof of the shuffle (commitment, revealed seed, the deck order re-derived from it and the cut)
and every ruling with the general rule it applies. The service grants it to an auditor token,
or to anyone once the game is over (when nothing is secret any more).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import FortyFiveError
from engine.profiles import make_ruleset
from engine.rule_ids import RULE_IDS
from engine.shuffle import ALGORITHM_2, commitment, deal_order, deck_order
from events.envelope import RecordedEvent
from replay.formats.build import build_history
from replay.formats.document import HandHistory, Section
from replay.formats.irregularities import IRREGULARITY_RULES
from replay.verification.verify import verify

AUDIT_FORMAT = "fortyfive-audit"
AUDIT_VERSION = "1.0"


def audit_game(game_id: str, recorded: Sequence[RecordedEvent]) -> dict[str, Any]:
    """Returns the audit of a game from its stored events (see the module docstring).

    :raises replay.errors.HistoryError: if the events do not form a history.
    """
    return explain(build_history(game_id, recorded, "auditor"))


def explain(history: HandHistory) -> dict[str, Any]:
    """Returns the audit of an auditor's *history*: the history, its verification and, per
    deal, the shuffle proof and the rulings explained."""
    report = verify(history)
    return {
        "format": AUDIT_FORMAT,
        "format_version": AUDIT_VERSION,
        "game_id": history.game_id,
        "verification": report.to_dict(),
        "deals": [_deal(history, section) for section in history.sections()],
        "rules": {rule: text for rule, text in sorted({**RULE_IDS, **IRREGULARITY_RULES}.items())},
        "history": history.to_dict(),
    }


def _deal(history: HandHistory, section: Section) -> dict[str, Any]:
    entry = section.entry or {}
    facts = entry.get("facts", [])
    irregular = [item for item in (history.results or {}).get("irregularities", [])
                 if section.events and section.events[0].version <= item["version"]
                 <= section.events[-1].version]
    return {
        "number": section.number,
        "events": [section.events[0].version, section.events[-1].version]
        if section.events else None,
        "dealer": entry.get("dealer"),
        "trump": entry.get("trump"),
        "shuffle": _shuffle(history, section),
        "rulings": [
            {"version": fact["version"], "kind": fact["kind"], "rule": fact["ruling"]["rule"],
             "rule_text": RULE_IDS.get(fact["ruling"]["rule"], ""),
             "decision": fact["ruling"]["text"]}
            for fact in facts
        ],
        "irregularities": [
            {**item, "rule_text": RULE_IDS.get(item["rule"],
                                               IRREGULARITY_RULES.get(item["rule"], ""))}
            for item in irregular
        ],
        "result": entry.get("result"),
    }


def _shuffle(history: HandHistory, section: Section) -> dict[str, Any] | None:
    """Returns the proof of a deal's shuffle: the commitment, the seed, whether they match,
    and the deck order the seed gives (or the recorded deal, for a real-table deal)."""
    shuffled = next((e for e in section.events if e.type == "deck_shuffled"), None)
    if shuffled is None:
        recorded = next((e for e in section.events if e.type == "deal_recorded"), None)
        if recorded is None:
            return None
        return {"recorded": True, "version": recorded.version,
                "note": "dealt at a real table: the hands are as recorded, there is no seed"}
    data = shuffled.data
    reveal = next((e for e in section.events if e.type == "seed_revealed"), None)
    cut = next((e for e in section.events if e.type == "deck_cut"), None)
    seed = data.get("seed")
    proof: dict[str, Any] = {
        "recorded": False, "version": shuffled.version, "algorithm": data.get("algorithm"),
        "commitment": data.get("commitment"), "seed": seed,
        "revealed_at": reveal.version if reveal is not None else None,
        "cut": cut.data.get("position") if cut is not None else None,
        "matches": None, "deck": None,
    }
    if not isinstance(seed, str) or history.rules is None:
        return proof
    try:
        proof["matches"] = commitment(seed) == data.get("commitment")
        rules = make_ruleset(history.rules.profile, history.rules.options,
                             history.rules.players)
        algorithm = str(data.get("algorithm"))
        if algorithm == ALGORITHM_2:
            if cut is None:
                proof["error"] = f"a {ALGORITHM_2} deck is known only from its cut"
                return proof
            nonces: list[tuple[int, str]] = [
                (e.data["seat"], e.data["nonce"]) for e in section.events
                if e.type == "deal_contributed"]
            if cut.data.get("nonce") is not None:
                nonces.append((cut.data["seat"], cut.data["nonce"]))
            order = deal_order(rules, seed, str(data.get("context")), int(data["deal"]),
                               cut.data["position"], nonces)
        else:
            order = deck_order(rules, seed, algorithm)
    except FortyFiveError as error:
        proof["error"] = str(error)
        return proof
    proof["deck"] = [card.code() for card in order]
    return proof
