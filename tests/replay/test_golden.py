"""The golden corpus: every committed history verifies, converts both ways to the committed
bytes, and is what tests/replay/make_golden.py generates again; each pins its situation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import make_golden
import pytest
from replay_helpers import GOLDEN, golden, golden_files, golden_names, raw

from replay.formats.document import HandHistory
from replay.formats.export import export_text
from replay.formats.importing import read_history
from replay.formats.jsonformat import dumps, read_json
from replay.formats.text import read_text
from replay.verification.verify import verify

EXPECTED_GAMES = {
    "seed-000-09", "seed-001-06", "turned-joker", "dealer-robs-turned-ace",
    "bonus-proven-at-end", "chronology-finish", "jink", "all-pass-redeal", "set-bid",
    "made-thirty", "both-over-target",
}


def test_the_corpus_has_every_situation_of_the_brief() -> None:
    assert set(golden_names()) == EXPECTED_GAMES


def _verifies(path: Path) -> HandHistory:
    """Returns the history of *path* once it has verified (leaving nothing unchecked, for an
    auditor's; complete only when the game is over at its last event)."""
    history, diagnostics = read_json(path.read_bytes())
    assert history is not None and diagnostics == []
    report = verify(history)
    assert report.ok, report.format()
    if history.view.viewer == "auditor":
        assert not report.unchecked, report.format()
        assert report.complete is (report.prefix is None), report.format()
    return history


@pytest.mark.parametrize("path", golden_files(".json"), ids=lambda p: p.name)
def test_each_committed_history_verifies(path: Path) -> None:
    _verifies(path)


@pytest.mark.parametrize("path", golden_files(".json"), ids=lambda p: p.name)
def test_json_converts_to_the_committed_text(path: Path) -> None:
    history, _ = read_json(path.read_bytes())
    assert history is not None
    assert export_text(history) == path.with_suffix(".txt").read_text()


@pytest.mark.parametrize("path", golden_files(".txt"), ids=lambda p: p.name)
def test_text_converts_to_the_committed_json(path: Path) -> None:
    history = read_text(path.read_text())
    assert history.errors == ()
    assert dumps(history) + b"\n" == path.with_suffix(".json").read_bytes()


@pytest.mark.parametrize("table", sorted(GOLDEN.glob("*.table.txt")), ids=lambda p: p.name)
def test_table_records_import_to_the_committed_history(table: Path) -> None:
    name = table.name.removesuffix(".table.txt")
    result = read_history(table.read_bytes())
    assert result.ok and result.completed, result.diagnostics
    assert result.history is not None
    assert dumps(result.history) + b"\n" == (GOLDEN / f"{name}.json").read_bytes()


def test_regenerating_gives_the_same_bytes() -> None:
    generated = make_golden.generate()
    committed = {path.name: path.read_bytes() for path in GOLDEN.iterdir()
                 if path.suffix in (".json", ".txt")}
    assert sorted(generated) == sorted(committed)
    for name, data in generated.items():
        assert data == committed[name], name


# What each game pins ------------------------------------------------------------------------


def _facts(name: str, deal: int = 0) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = raw(f"{name}.json")["results"]["deals"][deal]["facts"]
    return facts


def _kinds(name: str, deal: int = 0) -> list[str]:
    return [fact["kind"] for fact in _facts(name, deal)]


def test_seed_000_section_09_first_trick_is_the_worked_example() -> None:
    history = golden("seed-000-09")
    plays = [(e.data["seat"], e.data["card"]) for e in history.events
             if e.type == "card_played"][:6]
    assert plays == [(0, "7S"), (1, "5S"), (2, "KD"), (3, "2S"), (4, "QC"), (5, "4D")]
    facts = _facts("seed-000-09")
    kept = next(f for f in facts if f["kind"] == "renege_allowed")
    assert (kept["seat"], kept["trick"], kept["ruling"]["rule"]) == (
        2, 1, "play.trump_lead.withhold")
    assert "AH" in kept["ruling"]["text"] and "7S" in kept["ruling"]["text"]
    won = next(f for f in facts if f["kind"] == "trick_won" and f["trick"] == 1)
    bonus = next(f for f in facts if f["kind"] == "bonus_proven")
    assert (won["seat"], won["side"]) == (1, 1)
    assert (bonus["credited_trick"], bonus["side"], bonus["ruling"]["rule"]) == (
        1, 1, "bonus.proven.five")
    assert "{B +10}" in (GOLDEN / "seed-000-09.txt").read_text().splitlines()[
        next(i for i, line in enumerate((GOLDEN / "seed-000-09.txt").read_text().splitlines())
             if line.startswith("1. "))]


def test_seed_000_section_09_renege_is_private_to_its_holder() -> None:
    seat_view = raw("seed-000-09.seat2.json")["results"]["deals"][0]["facts"]
    assert any(f["kind"] == "renege_allowed" for f in seat_view)
    spectator = [f for f in _facts("seed-000-09") if f["kind"] != "renege_allowed"]
    assert spectator, "other facts stay public"


def test_seed_001_section_06_bid_made_and_scores() -> None:
    deal = raw("seed-001-06.json")["results"]["deals"][0]
    assert deal["result"]["scores"] == [90, 95] and deal["result"]["points"] == [20, 10]
    made = next(f for f in deal["facts"] if f["kind"] == "bid_made")
    assert (made["side"], made["points"], made["ruling"]["rule"]) == (0, 20, "bid.made")
    first = next(f for f in deal["facts"] if f["kind"] == "trick_won")
    assert (first["seat"], first["ruling"]["text"]) == (
        2, "5S is the highest of the 4 trumps played: it wins the trick.")


def test_turned_joker_is_buried_and_hidden_from_other_seats() -> None:
    history = golden("turned-joker")
    buried = next(e for e in history.events if e.type == "joker_buried")
    seat_view = raw("turned-joker.seat0.json")
    hidden = next(e for e in seat_view["events"] if e["type"] == "joker_buried")
    assert buried.data["seat"] == raw("turned-joker.json")["results"]["deals"][0]["dealer"]
    assert hidden["redacted"] == ["card"] and hidden["data"]["card"] is None


def test_dealer_robs_the_turned_ace() -> None:
    deal = raw("dealer-robs-turned-ace.json")["results"]["deals"][0]
    robbed = next(e for e in golden("dealer-robs-turned-ace").events
                  if e.type == "turn_up_robbed")
    assert robbed.data["seat"] == deal["dealer"]
    assert deal["turn_up"][0] == "A" and deal["turn_up"][1] == deal["trump"]


def test_bonus_proven_at_the_end_is_credited_back() -> None:
    bonus = next(f for f in _facts("bonus-proven-at-end") if f["kind"] == "bonus_proven")
    assert bonus["ruling"]["rule"] == "bonus.proven.hands_exhausted"
    assert bonus["trick"] == 5 and bonus["credited_trick"] < 5


def test_chronology_first_to_the_target_wins_though_another_side_went_over_later() -> None:
    deal = raw("chronology-finish.json")["results"]["deals"][0]
    reached = next(f for f in deal["facts"] if f["kind"] == "target_reached")
    assert (reached["side"], reached["trick"], reached["ruling"]["rule"]) == (
        0, 1, "finish.chronology")
    later = [f for f in deal["facts"] if f["kind"] == "trick_won" and f["trick"] == 2]
    assert later[0]["side"] == 1, "B took trick 2, reaching 45 after A"
    assert deal["result"]["winner"] == 0 and deal["result"]["ended_at_trick"] == 1


def test_jink_wins_the_game() -> None:
    jink = next(f for f in _facts("jink") if f["kind"] == "jink")
    assert (jink["side"], jink["ruling"]["rule"]) == (0, "jink.take_all")
    assert raw("jink.json")["results"]["game"]["winner"] == 0


def test_all_pass_redeal_scores_nothing_and_deals_again() -> None:
    deals = raw("all-pass-redeal.json")["results"]["deals"]
    assert [f["kind"] for f in deals[0]["facts"]] == ["passed_out"]
    assert deals[0]["result"]["points"] == [0, 0]
    assert deals[1]["dealer"] == (deals[0]["dealer"] + 1) % 4


def test_set_bid_loses_its_amount() -> None:
    bid = next(f for f in _facts("set-bid") if f["kind"] == "bid_set")
    assert (bid["points"], bid["ruling"]["rule"]) == (-30, "bid.set")


def test_made_thirty_scores_sixty() -> None:
    made = next(f for f in _facts("made-thirty") if f["kind"] == "bid_made")
    assert (made["points"], made["ruling"]["rule"]) == (60, "bid.made_thirty")


def test_both_over_120_the_bidder_wins() -> None:
    deal = raw("both-over-target.json")["results"]["deals"][0]
    reached = next(f for f in deal["facts"] if f["kind"] == "target_reached")
    assert reached["ruling"]["rule"] == "finish.bidder_priority"
    assert deal["result"]["scores"] == [135, 120] and deal["result"]["winner"] == 0


# Histories of format 1.0, written with the ruling texts of version 1 --------------------------

OLD = GOLDEN / "v1.0"


def test_the_old_corpus_is_format_1_0_with_the_first_ruling_texts() -> None:
    paths = sorted(OLD.glob("*.json"))
    assert len(paths) == 22
    for path in paths:
        history, _ = read_json(path.read_bytes())
        assert history is not None
        assert (history.format_version, history.ruling_texts, history.texts_version) == (
            "1.0", None, 1)


@pytest.mark.parametrize("path", sorted(OLD.glob("*.json")), ids=lambda p: p.name)
def test_each_old_history_still_verifies_with_its_own_sentences(path: Path) -> None:
    history = _verifies(path)
    assert export_text(history) == path.with_suffix(".txt").read_text()
    assert dumps(read_text(path.with_suffix(".txt").read_text())) + b"\n" == path.read_bytes()


# Histories written with the ruling texts of version 2 (seats not yet counted from 1) ---------

TEXTS_2 = GOLDEN / "texts-2"


def test_the_corpus_of_ruling_texts_2_is_the_previous_corpus() -> None:
    paths = sorted(TEXTS_2.glob("*.json"))
    assert {path.name for path in paths} == {path.name for path in golden_files(".json")}
    for path in paths:
        history, _ = read_json(path.read_bytes())
        assert history is not None
        assert (history.format_version, history.ruling_texts) == ("1.1", 2)


@pytest.mark.parametrize("path", sorted(TEXTS_2.glob("*.json")), ids=lambda p: p.name)
def test_each_history_of_ruling_texts_2_still_verifies_with_its_own_sentences(
        path: Path) -> None:
    history = _verifies(path)
    assert export_text(history) == path.with_suffix(".txt").read_text()
    assert dumps(read_text(path.with_suffix(".txt").read_text())) + b"\n" == path.read_bytes()


def _first_fact(document: dict[str, Any], rule: str) -> dict[str, Any]:
    for deal in document["results"]["deals"]:
        for fact in deal["facts"]:
            if fact["ruling"]["rule"] == rule:
                found: dict[str, Any] = fact
                return found
    raise AssertionError(f"no {rule} fact")


def test_an_old_history_fails_when_given_a_sentence_of_another_version() -> None:
    import json

    document = json.loads((OLD / "chronology-finish.json").read_bytes())
    fact = _first_fact(document, "match.game_won")
    assert fact["ruling"]["text"] == "Side 0 wins game 1."
    fact["ruling"]["text"] = "Side A wins game 1."  # The version 2 sentence.
    history, _ = read_json(json.dumps(document))
    assert history is not None
    report = verify(history)
    assert not report.ok
    assert "'Side A wins game 1.', the engine derives 'Side 0 wins game 1.'" in report.format()


def test_a_new_history_names_its_ruling_texts_and_fails_with_an_old_sentence() -> None:
    import json

    document = raw("chronology-finish.json")
    assert (document["format_version"], document["ruling_texts"]) == ("1.1", 3)
    assert '[RulingTexts "3"]' in (GOLDEN / "chronology-finish.txt").read_text()
    fact = _first_fact(document, "match.game_won")
    assert fact["ruling"]["text"] == "Side A wins game 1."
    fact["ruling"]["text"] = "Side 0 wins game 1."
    history, _ = read_json(json.dumps(document))
    assert history is not None and not verify(history).ok


def test_a_rule_id_is_compared_whatever_the_version() -> None:
    import json

    document = json.loads((OLD / "chronology-finish.json").read_bytes())
    _first_fact(document, "match.game_won")["ruling"]["rule"] = "finish.deal_end"
    history, _ = read_json(json.dumps(document))
    assert history is not None
    assert "ruling rule: the history says 'finish.deal_end'" in verify(history).format()


def test_a_history_in_ruling_texts_this_code_does_not_know_is_refused() -> None:
    import json

    document = raw("chronology-finish.json")
    document["ruling_texts"] = 99
    history, _ = read_json(json.dumps(document))
    assert history is not None
    report = verify(history)
    assert [problem.code for problem in report.problems] == ["format"]
    assert "ruling texts version 99" in report.problems[0].message


def test_the_schema_requires_ruling_texts_from_format_1_1_and_refuses_them_in_1_0() -> None:
    import json

    document = raw("chronology-finish.json")
    del document["ruling_texts"]
    assert read_json(json.dumps(document))[0] is None
    old = json.loads((OLD / "chronology-finish.json").read_bytes())
    old["ruling_texts"] = 1
    assert read_json(json.dumps(old))[0] is None
