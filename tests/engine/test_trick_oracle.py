"""Runs the hand-checked trick oracle in tests/data/tricks/*.txt (format in its README)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from engine.cards import Card, Suit, format_cards, parse_cards
from engine.legality import legal_cards
from engine.profiles import RuleSet, make_ruleset, parse_option_text
from engine.ranking import ranking
from engine.rule_ids import RULE_IDS
from engine.shuffle import pack
from engine.tricks import winner_ruling

DATA = Path(__file__).resolve().parent.parent / "data" / "tricks"


@dataclasses.dataclass(frozen=True)
class Case:
    """One oracle line: a trick (and a hand to play to it) with the expected answer."""

    where: str
    rules: RuleSet
    trump: Suit
    trick: tuple[Card, ...]
    hand: tuple[Card, ...] | None
    answer: str
    rule_id: str


def _rules(spec: str) -> RuleSet:
    spec, _, players = spec.partition("@")
    profile, _, option_text = spec.partition(":")
    options = {}
    for item in filter(None, option_text.split(",")):
        name, _, value = item.partition("=")
        options[name] = parse_option_text(profile, name, value)
    return make_ruleset(profile, options, int(players) if players else None)


def _load() -> list[Case]:
    cases = []
    for path in sorted(DATA.glob("*.txt")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            question, arrow, answer = text.partition(" -> ")
            assert arrow, f"{path.name}:{number}: no ' -> ' in {line!r}"
            fields = question.split()
            assert len(fields) in (3, 4), f"{path.name}:{number}: {line!r}"
            result, rule_id = answer.split()
            trick = () if fields[2] == "-" else parse_cards(fields[2])
            hand = parse_cards(fields[3]) if len(fields) == 4 else None
            cases.append(Case(f"{path.name}:{number}", _rules(fields[0]),
                              Suit.parse(fields[1]), trick, hand, result, rule_id))
    return cases


CASES = _load()


def test_the_oracle_has_a_few_dozen_cases_of_each_kind() -> None:
    assert sum(case.hand is None for case in CASES) >= 30
    assert sum(case.hand is not None for case in CASES) >= 30


def test_the_oracle_exercises_every_play_and_trick_ruling() -> None:
    wanted = {rule for rule in RULE_IDS if rule.startswith(("play.", "trick."))}
    assert {case.rule_id for case in CASES} == wanted


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.where)
def test_oracle_case_is_a_position_that_can_arise(case: Case) -> None:
    # A hand-written case must respect the table: cards from the pack, no more copies than
    # packs, a trick no longer than the table (shorter when a hand is still to play).
    cards = case.trick + (case.hand or ())
    in_pack = Counter(pack(case.rules))
    for card, count in Counter(cards).items():
        assert count <= in_pack[card], f"{card.code()} appears {count} times"
    limit = case.rules.players - (1 if case.hand is not None else 0)
    assert len(case.trick) <= limit
    assert case.hand is not None or case.trick
    assert case.hand is None or 1 <= len(case.hand) <= 5


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.where)
def test_oracle_case(case: Case) -> None:
    order = ranking(case.trump, case.rules)
    if case.hand is None:
        index, ruling = winner_ruling(case.trick, order)
        assert (index, ruling.rule_id) == (int(case.answer), case.rule_id)
        assert case.trick[index].code() in ruling.text
    else:
        legal, ruling = legal_cards(case.hand, case.trick, order, case.rules)
        expected = set(parse_cards(case.answer))
        assert (set(legal), ruling.rule_id) == (expected, case.rule_id), format_cards(legal)
