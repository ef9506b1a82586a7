"""The rules vectors of docs/vectors/rules/: every rule id of docs/rules.md has cases, every
profile and option value is played, ``fortyfive rules vectors`` writes the committed bytes
again, and an engine written from docs/rules.md alone (below, nothing of ours) agrees with
every position and every trick."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.profiles import PROFILES, option_specs
from replay.verification.rules_vectors import KINDS, rule_ids
from service.cli import main

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "docs" / "vectors" / "rules"


def _committed() -> dict[str, bytes]:
    return {f"{kind}.json": (VECTORS / f"{kind}.json").read_bytes() for kind in KINDS}


def _load(kind: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VECTORS / f"{kind}.json").read_text())
    return data


def _reference_rule_ids() -> set[str]:
    """Every rule id docs/rules.md lists in its tables of rule ids and irregularities."""
    text = (ROOT / "docs" / "rules.md").read_text()
    found: set[str] = set()
    for heading in ("### Rule ids", "### Irregularities"):
        section = text.split(heading, 1)[1].split("\n### ", 1)[0]
        found |= set(re.findall(r"^\| `([a-z_.]+)` \|", section, flags=re.MULTILINE))
    return found


def test_every_rule_id_of_the_rules_reference_has_a_case() -> None:
    reference = _reference_rule_ids()
    assert len(reference) == 35  # The 30 rule ids and the 5 irregularities' rule ids.
    covered = rule_ids(_committed())
    missing = sorted(reference - set(covered))
    assert not missing, f"rule ids without a case in docs/vectors/rules: {missing}"
    assert set(covered) <= reference, "a case names a rule id docs/rules.md does not list"


def test_every_profile_and_every_option_value_is_played_in_the_deals() -> None:
    tables = _load("deals")["tables"]
    assert {table["profile"] for table in tables.values()} == set(PROFILES)
    for profile in PROFILES:
        played = [table["options"] for table in tables.values() if table["profile"] == profile]
        for name, spec in option_specs(profile).items():
            for value in spec["values"] or []:
                assert any(options[name] == value and type(options[name]) is type(value)
                           for options in played), f"{profile} {name}={value!r} is not played"
        assert any(options["target"] != option_specs(profile)["target"]["default"]
                   for options in played), f"{profile} is played only to its default target"


def test_every_table_has_positions_tricks_and_deals_and_every_auction_table_auctions() -> None:
    for kind in ("positions", "tricks", "deals", "irregularities"):
        data = _load(kind)
        named = {case["table"] for case in data["cases"]}
        assert named == set(_load("deals")["tables"]), kind
    auctions = _load("auctions")
    assert {case["table"] for case in auctions["cases"]} == {
        name for name, table in _load("deals")["tables"].items()
        if table["profile"] == "auction"}


def test_a_record_of_irregularities_uses_the_hands_of_a_deal_of_the_deals_file() -> None:
    deals = {case["id"]: case for case in _load("deals")["cases"]}
    for case in _load("irregularities")["cases"]:
        deal_id, _, breach = case["id"].rpartition("/")
        assert breach in ("out_of_turn", "not_held", "renege", "wrong_phase", "refused_rob",
                          "refused_hold", "after_won"), case["id"]
        deal = deals[deal_id]
        assert (case["hands"], case["dealer"]) == (deal["hands"], deal["dealer"]), case["id"]
        assert case["actions"][:-1] == [
            {key: value for key, value in action.items() if key not in ("rule", "text")}
            for action in deal["actions"][:len(case["actions"]) - 1]], case["id"]
        assert case["irregularities"], case["id"]
        assert {item["action"] for item in case["irregularities"]} == {len(case["actions"])}


def test_ids_are_unique_and_files_state_their_kind_and_texts_version() -> None:
    for kind in KINDS:
        data = _load(kind)
        assert (data["kind"], data["format"], data["ruling_texts"]) == (kind, 1, 3)
        ids = [case["id"] for case in data["cases"]]
        assert len(ids) == len(set(ids)), kind


def test_the_readme_counts_the_cases_of_each_file() -> None:
    readme = (VECTORS / "README.md").read_text()
    for kind in KINDS:
        count = len(_load(kind)["cases"])
        assert f"| `{kind}.json` | {count:,} |" in readme, kind


def test_a_position_rules_every_distinct_card_of_its_hand_once() -> None:
    for case in _load("positions")["cases"]:
        refused = [item["card"] for item in case["refused"]]
        assert sorted(case["legal"] + refused) == sorted(set(case["hand"])), case["id"]
        assert all(item["rule"] == case["rule"] for item in case["refused"]), case["id"]


def test_the_command_writes_the_committed_files_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rules"
    assert main(["rules", "vectors", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {len(KINDS)} files")
    for name, data in _committed().items():
        assert (out / name).read_bytes() == data, f"{name}: run fortyfive rules vectors"
    assert sorted(path.name for path in out.iterdir()) == sorted(_committed())
    assert main(["rules", "vectors", "--out", str(out), "--check"]) == 0
    (out / "tricks.json").write_text("{}")
    assert main(["rules", "vectors", "--out", str(out), "--check"]) == 1
    assert "tricks.json not current" in capsys.readouterr().err


def test_an_out_path_that_is_a_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "taken"
    taken.write_text("x")
    assert main(["rules", "vectors", "--out", str(taken)]) == 2
    err = capsys.readouterr().err
    assert err == f"fortyfive rules vectors: --out {taken} is not a directory\n"
    assert taken.read_text() == "x"
    below = taken / "rules"
    assert main(["rules", "vectors", "--out", str(below)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"fortyfive rules vectors: --out {below}: ") and err.count("\n") == 1


# An engine written from docs/rules.md alone ---------------------------------------------------

PLAIN = {"S": "KQJA23456789T", "C": "KQJA23456789T", "H": "KQJT98765432"}
DIAMONDS = {"low": "KQJT98765432A", "below_jack": "KQJAT98765432"}
"""Plain suits, high to low (docs/rules.md, Ranking)."""


def spec_trumps(trump: str, table: dict[str, Any]) -> list[str]:
    """Trumps high to low (docs/rules.md, Ranking)."""
    joker = ("above_ah" if table["profile"] == "bruff"
             else table["options"].get("joker", "none"))
    order = ["5" + trump, "J" + trump] + (["JK"] if joker == "above_ah" else []) + ["AH"]
    order += (["JK"] if joker == "below_ah" else []) + (["A" + trump] if trump != "H" else [])
    tail = "2346789T" if trump in "SC" else "T9876432"
    return order + ["K" + trump, "Q" + trump] + [rank + trump for rank in tail]


def spec_legal(hand: list[str], trick: list[str], trump: str,
               table: dict[str, Any]) -> tuple[set[str], str]:
    """The cards of *hand* that may be played, and the rule id (docs/rules.md, Play)."""
    trumps = spec_trumps(trump, table)
    if not trick:
        return set(hand), "play.lead"
    led = trick[0]
    held = {card for card in hand if card in trumps}
    if led in trumps:
        if not held:
            return set(hand), "play.trump_lead.void"
        protected = {"5" + trump, "J" + trump, "AH", "JK"}
        if all(card in protected and trumps.index(card) < trumps.index(led) for card in held):
            return set(hand), "play.trump_lead.withhold"
        return held, "play.trump_lead.must_trump"
    followers = {card for card in hand if card not in trumps and card[1] == led[1]}
    if not followers:
        return set(hand), "play.plain_lead.void"
    if table["options"].get("follow") == "must_follow":
        return followers, "play.plain_lead.must_follow"
    return followers | held, "play.plain_lead.trump_or_follow"


def spec_winner(cards: list[str], trump: str, table: dict[str, Any]) -> tuple[int, str]:
    """The index of the winning card and the rule id (docs/rules.md, Play and Ranking)."""
    trumps = spec_trumps(trump, table)
    played = [card for card in cards if card in trumps]
    if played:
        best = min(played, key=trumps.index)
        rule = "trick.highest_trump"
    else:
        suit = cards[0][1]
        letters = PLAIN.get(suit) or DIAMONDS[table["options"].get("diamond_ace", "low")]
        best = min((card for card in cards if card[1] == suit),
                   key=lambda card: letters.index(card[0]))
        rule = "trick.highest_of_led_suit"
    index = cards.index(best)
    if best in cards[index + 1:]:
        rule = "trick.identical_first"
    return index, rule


def test_an_engine_written_from_the_rules_reference_agrees_with_every_position() -> None:
    data = _load("positions")
    for case in data["cases"]:
        table = data["tables"][case["table"]]
        legal, rule = spec_legal(case["hand"], case["trick"], case["trump"], table)
        assert (set(case["legal"]), case["rule"]) == (legal, rule), case["id"]


def test_an_engine_written_from_the_rules_reference_agrees_with_every_trick() -> None:
    data = _load("tricks")
    for case in data["cases"]:
        table = data["tables"][case["table"]]
        index, rule = spec_winner(case["cards"], case["trump"], table)
        assert (case["winner"], case["card"], case["rule"]) == (
            index, case["cards"][index], rule), case["id"]


def test_an_engine_written_from_the_rules_reference_agrees_with_every_trick_of_the_deals(
) -> None:
    data = _load("deals")
    for case in data["cases"]:
        table = data["tables"][case["table"]]
        for trick in case["tricks"]:
            index, rule = spec_winner(trick["cards"], case["trump"], table)
            assert (trick["seats"][index], trick["rule"]) == (trick["winner"], rule), case["id"]


def spec_play_deal(case: dict[str, Any], table: dict[str, Any]) -> None:
    """Replays a deal's actions from docs/rules.md alone: every card played is held and legal,
    every seat plays in turn, and the tricks and the interrupted trick are the case's."""
    players = table["players"]
    hands = [list(hand) for hand in case["hands"]]
    stock = list(case["stock"])
    turn_up = case["turn_up"]
    if turn_up == "JK":  # The dealer takes a turned joker; the next card is turned up.
        hands[case["dealer"]].append("JK")
        turn_up = stock.pop(0)
    trump = case["trump"]
    tricks: list[dict[str, Any]] = []
    current: list[tuple[int, str]] = []
    leader = (case["dealer"] + 1) % players
    for action in case["actions"]:
        seat, kind = action["seat"], action["type"]
        if kind == "bury":
            hands[seat].remove(action["card"])
        elif kind == "rob":
            hands[seat].remove(action["discard"])
            hands[seat].append(turn_up)
        elif kind == "discard":
            for card in action["cards"]:
                hands[seat].remove(card)
            hands[seat] += stock[:len(action["cards"])]
            del stock[:len(action["cards"])]
        elif kind == "bid" or kind == "hold":
            leader = (seat + 1) % players  # The last bidder standing: its left leads.
        elif kind == "play":
            assert seat == (leader + len(current)) % players, "plays go clockwise"
            legal, _ = spec_legal(hands[seat], [card for _, card in current], trump, table)
            assert action["card"] in legal, (action, hands[seat], current)
            hands[seat].remove(action["card"])
            current.append((seat, action["card"]))
            if len(current) == players:
                cards = [card for _, card in current]
                index, rule = spec_winner(cards, trump, table)
                leader = current[index][0]
                tricks.append({"seats": [s for s, _ in current], "cards": cards,
                               "winner": leader, "rule": rule})
                current = []
    assert [{key: trick[key] for key in ("seats", "cards", "winner", "rule")}
            for trick in case["tricks"]] == tricks
    assert (case["interrupted"] or {"cards": []})["cards"] == [card for _, card in current]


def test_an_engine_written_from_the_rules_reference_replays_every_deal() -> None:
    data = _load("deals")
    for case in data["cases"]:
        spec_play_deal(case, data["tables"][case["table"]])


def spec_bonus_rule(case: dict[str, Any], table: dict[str, Any]) -> tuple[str, int] | None:
    """The rule that proves the bonus from public knowledge, and the trick at which it is
    proven (docs/rules.md, Scoring), or ``None`` while it is unproven."""
    highest = case["highest_trump"]
    trump = case["trump"]
    if highest is None:
        return None
    if highest["card"] == "5" + trump:
        return "bonus.proven.five", highest["trick"]
    trumps = spec_trumps(trump, table)
    higher = set(trumps[:trumps.index(highest["card"])])
    turn_up = case["turn_up"] if case["turn_up"] != "JK" else case["stock"][0]
    robbed = any(action["type"] == "rob" for action in case["actions"])
    if table["options"].get("decks", 1) == 1 and not robbed and higher <= {turn_up}:
        return "bonus.proven.higher_out", highest["trick"]
    if len(case["tricks"]) == 5:
        return "bonus.proven.hands_exhausted", 5
    return None


def test_an_engine_written_from_the_rules_reference_proves_every_bonus_alike() -> None:
    data = _load("deals")
    for case in data["cases"]:
        table = data["tables"][case["table"]]
        bonus = case["bonus"]
        if not table["options"].get("bonus", True):
            assert bonus["rule"] == "bonus.disabled", case["id"]
        elif case["highest_trump"] is None and len(case["tricks"]) == 5:
            assert bonus["rule"] == "bonus.none", case["id"]
        elif (proof := spec_bonus_rule(case, table)) is None:
            assert bonus["proven"] is False and bonus["rule"] is None, case["id"]
        else:
            assert (bonus["rule"], bonus["trick"], bonus["credited_trick"]) == (
                *proof, case["highest_trump"]["trick"]), case["id"]


def test_an_engine_written_from_the_rules_reference_scores_every_complete_deal() -> None:
    data = _load("deals")
    checked = 0
    for case in data["cases"]:
        table = data["tables"][case["table"]]
        sides = table["players"] // {"individuals": 1, "pairs": 2, "triples": 3}[
            table["options"].get("layout", "pairs")]
        rules = {fact["rule"] for fact in case["facts"]}
        if (len(case["tricks"]) < 5 or table["profile"] == "auction"
                or "finish.chronology" in rules):
            continue
        points = [0] * sides
        for trick in case["tricks"]:
            points[trick["winner"] % sides] += 5
        if case["bonus"]["proven"]:
            points[case["bonus"]["side"]] += 5
        if "spoil_five" in rules:
            points = [0] * sides
        for fact in case["facts"]:
            if fact["rule"] == "jink.announced.made":
                points[fact["side"]] *= 2
        result = case["result"]
        assert result["points"] == points, case["id"]
        assert result["scores"] == [a + b for a, b in zip(case["start_scores"], points,
                                                          strict=True)], case["id"]
        checked += 1
    assert checked > 200


def test_an_engine_written_from_the_rules_reference_settles_every_auction() -> None:
    data = _load("auctions")
    for case in data["cases"]:
        if case["bid"] is None:
            assert (case["rule"], case["points"]) == ("auction.all_pass", [0, 0]), case["id"]
            continue
        side, bid, took = case["bidder_side"], case["bid"], case["took"]
        points = list(took)
        if took[side] >= bid:
            rule = "bid.made_thirty" if bid == 30 else "bid.made"
            points[side] = 60 if bid == 30 else took[side]
        else:
            rule, points[side] = "bid.set", -bid
        assert (case["rule"], case["points"]) == (rule, points), case["id"]
        assert case["scores"] == [a + b for a, b in zip(case["start_scores"], points,
                                                        strict=True)], case["id"]
