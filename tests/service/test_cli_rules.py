"""``fortyfive rules legal|winner``: the JSON contract other tools rely on, and one-line errors."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
from cli_helpers import installed_script

from service.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["rules", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = _run(capsys, *argv, "--json")
    assert (status, err) == (0, "")
    assert out.endswith("\n") and out.count("\n") == 1
    data: dict[str, Any] = json.loads(out)
    return data


# rules legal.


def test_legal_prints_the_contract_json_for_the_bruff_worked_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "legal", "--profile", "bruff", "--trump", "S", "--trick", "7S,5S",
                 "--hand", "AH,KD")
    assert list(data) == ["legal", "ruling", "rule", "trumps", "top_trumps", "refusals"]
    assert data["refusals"] == {}
    assert data["legal"] == ["AH", "KD"]
    assert data["trumps"] == data["top_trumps"] == ["AH"]
    assert data["rule"] == "play.trump_lead.withhold"
    assert data["ruling"] == (
        "AH may be withheld: every trump held is protected and outranks the 7S led (compare "
        "with the lead only)."
    )


def test_legal_forces_the_jack_on_a_five_lead_in_the_auction(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "legal", "--profile", "auction", "--trump", "S", "--trick", "5S",
                 "--hand", "JS,2D")
    assert data == {
        "legal": ["JS"],
        "ruling": "JS must be played: a 5S lead forces the trump jack (a protected trump may "
                  "only be withheld from a lower lead).",
        "rule": "play.trump_lead.must_trump",
        "trumps": ["JS"],
        "top_trumps": ["JS"],
        "refusals": {"2D": "2\u2666 may not be played: a trump was led (5\u2660), so you must "
                           "play a trump. Your J\u2660 is a top trump, but a top trump may be "
                           "held back only from a lower trump, and the 5\u2660 led is higher. "
                           "You may play J\u2660."},
    }


def test_legal_lets_the_jack_be_kept_on_a_nine_lead_in_the_auction(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "legal", "--profile", "auction", "--trump", "S", "--trick", "9S",
                 "--hand", "JS,2D")
    assert data["legal"] == ["JS", "2D"] and data["rule"] == "play.trump_lead.withhold"


@pytest.mark.parametrize("trick", [[], ["--trick", ""]], ids=["omitted", "empty"])
def test_legal_with_no_trick_is_a_lead_of_any_card(
    capsys: pytest.CaptureFixture[str], trick: list[str]
) -> None:
    data = _json(capsys, "legal", "--profile", "bruff", "--trump", "S", *trick,
                 "--hand", "2C,5S,JK")
    assert data["legal"] == ["2C", "5S", "JK"]
    assert data["rule"] == "play.lead"


def test_legal_keeps_the_order_of_the_hand_and_lists_each_card_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "legal", "--profile", "classic", "--players", "8", "--option",
                 "decks=2", "--trump", "S", "--trick", "QD", "--hand", "KD,2S,QC,KD,3D")
    assert data["legal"] == ["KD", "2S", "3D"]
    assert data["rule"] == "play.plain_lead.trump_or_follow"


def test_legal_applies_options_given_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "legal", "--profile", "classic", "--option", "follow=must_follow",
                 "--trump", "S", "--trick", "KD", "--hand", "3D,2S,QC")
    assert data["legal"] == ["3D"] and data["rule"] == "play.plain_lead.must_follow"
    data = _json(capsys, "legal", "--profile", "classic", "--option", "joker=below_ah",
                 "--trump", "S", "--trick", "AH", "--hand", "JK,2D")
    assert data["legal"] == ["JK"] and data["rule"] == "play.trump_lead.must_trump"


def test_legal_accepts_lower_case_and_ten_as_10(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "legal", "--profile", "bruff", "--trump", "d", "--trick", "kh",
                 "--hand", "ah,10h,2c")
    assert data["legal"] == ["AH", "TH"]


def test_legal_without_json_prints_one_readable_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "legal", "--profile", "bruff", "--trump", "S", "--trick",
                            "7S,5S", "--hand", "AH,KD")
    assert (status, err) == (0, "")
    assert out.startswith("legal: AH KD. AH may be withheld")
    assert out.rstrip().endswith("[play.trump_lead.withhold]")
    assert out.count("\n") == 1


# rules winner.


def test_winner_prints_the_contract_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "winner", "--profile", "bruff", "--trump", "S", "--trick",
                 "7S,5S,KD")
    assert list(data) == ["winner", "card", "ruling", "rule"]
    assert (data["winner"], data["card"], data["rule"]) == (1, "5S", "trick.highest_trump")
    assert "5S" in data["ruling"]


def test_winner_of_a_trick_without_trumps_is_the_highest_of_the_led_suit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "winner", "--profile", "auction", "--trump", "H", "--trick",
                 "TS,2S,KD,AS")
    assert (data["winner"], data["card"], data["rule"]) == (
        3, "AS", "trick.highest_of_led_suit"
    )
    assert data["ruling"] == (
        "No trump was played and AS is the highest spade (the suit led): it wins the trick."
    )


def test_winner_of_two_identical_cards_is_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "winner", "--profile", "classic", "--players", "8", "--option",
                 "decks=2", "--trump", "S", "--trick", "KD,5S,2S,5S")
    assert (data["winner"], data["card"], data["rule"]) == (1, "5S", "trick.identical_first")


def test_winner_of_a_partial_trick_is_the_card_winning_so_far(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "winner", "--profile", "bruff", "--trump", "C", "--trick", "KH")
    assert (data["winner"], data["card"]) == (0, "KH")


def test_winner_without_json_prints_one_readable_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "winner", "--profile", "bruff", "--trump", "S",
                            "--trick", "7S,5S,KD")
    assert (status, err) == (0, "")
    assert out == (
        "winner: 1 (5S). 5S is the highest of the 2 trumps played: it wins the trick. "
        "[trick.highest_trump]\n"
    )


# Refusals: exit status 2, one line on stderr, nothing on stdout.

BRUFF_LEGAL = ["legal", "--profile", "bruff", "--trump", "S"]
BRUFF_WINNER = ["winner", "--profile", "bruff", "--trump", "S"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (BRUFF_LEGAL + ["--hand", "AH,5X"], "--hand: invalid card '5X'"),
        (BRUFF_WINNER + ["--trick", "7S,1S"], "--trick: invalid card '1S'"),
        (["legal", "--profile", "bruff", "--trump", "X", "--hand", "AH"],
         "invalid suit 'X': expected one of S, C, D, H"),
        (["legal", "--profile", "x", "--trump", "S", "--hand", "AH"],
         "unsupported ruleset: 'x'"),
        (BRUFF_LEGAL + ["--option", "colour=red", "--hand", "AH"],
         "unknown option 'colour' for profile 'bruff'"),
        (BRUFF_LEGAL + ["--option", "joker=below_ah", "--hand", "AH"],
         "unknown option 'joker' for profile 'bruff'"),
        (BRUFF_LEGAL + ["--option", "target", "--hand", "AH"], "--option expects K=V"),
        (BRUFF_LEGAL + ["--option", "target=47", "--hand", "AH"],
         "option 'target' must be a positive multiple of 5"),
        (BRUFF_LEGAL + ["--option", "target=--5", "--hand", "AH"], "option 'target'"),
        (BRUFF_LEGAL + ["--option", "target=50", "--option", "target=55", "--hand", "AH"],
         "--option 'target' is given more than once"),
        (BRUFF_LEGAL + ["--players", "4", "--hand", "AH"],
         "bruff is played by exactly 6 players, got 4"),
        (BRUFF_LEGAL + ["--players", "six", "--hand", "AH"], "invalid int value: 'six'"),
        (BRUFF_WINNER + ["--trick", ""], "--trick is empty"),
        (BRUFF_WINNER + ["--trick", "2S,3S,4S,6S,7S,8S,9S"],
         "--trick has 7 cards, but a trick has one card from each of the 6 players"),
        (BRUFF_LEGAL + ["--trick", "2S,3S,4S,6S,7S,8S", "--hand", "AH"],
         "--trick has 6 cards: with 6 players the trick is complete"),
        (BRUFF_WINNER + ["--trick", "7S,5S,7S"],
         "--trick: 7S appears 2 times, but a one-pack game has only one 7S"),
        (BRUFF_LEGAL + ["--hand", "AH,AH"],
         "--hand: AH appears 2 times, but a one-pack game has only one AH"),
        (BRUFF_LEGAL + ["--trick", "7S,5S", "--hand", "5S,KD"],
         "5S is both in --trick and in --hand, but a one-pack game has only one 5S"),
        (["legal", "--profile", "auction", "--trump", "S", "--hand", "JK,2D"],
         "--hand: JK is not in the pack: auction is played here without a joker"),
        (BRUFF_LEGAL + ["--hand", ""], "--hand is empty"),
        (BRUFF_LEGAL + ["--hand", "2S,3S,4S,6S,7S,8S"],
         "--hand has 6 cards, but a hand holds at most 5"),
        (["legal", "--profile", "bruff", "--hand", "AH"],
         "the following arguments are required: --trump"),
        (["winner", "--profile", "bruff", "--trump", "S"],
         "the following arguments are required: --trick"),
        ([], "the following arguments are required: {legal,winner,doc,vectors}"),
    ],
)
def test_bad_input_exits_2_with_one_line_saying_what_is_wrong(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith(f"fortyfive rules{' ' + argv[0] if argv else ''}: "), err
    assert message in err


def test_installed_script_exits_2_with_one_line_and_no_traceback() -> None:
    done = subprocess.run(
        [str(installed_script()), "rules", "legal", "--profile", "bruff", "--trump", "S",
         "--trick", "7S,5S", "--hand", "AH,5X", "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "fortyfive rules legal: --hand: invalid card '5X': expected a rank (2-9, T or 10, J, Q, "
        "K, A) and a suit (S, C, D, H), e.g. '5S', or 'JK' for the joker"
    ]


def test_installed_script_prints_the_contract_json() -> None:
    done = subprocess.run(
        [str(installed_script()), "rules", "winner", "--profile", "bruff", "--trump", "S",
         "--trick", "7S,5S,KD", "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["winner"] == 1
