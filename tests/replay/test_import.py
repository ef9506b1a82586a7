"""Importing records of games dealt at a real table: each illegal action is reported as an
irregularity with the rule it broke, and applied anyway, as it was at the table."""

from __future__ import annotations

from replay_helpers import GOLDEN, recorded

from replay.formats.build import build_history, replay_log
from replay.formats.importing import read_history
from replay.formats.irregularities import irregularity
from replay.verification.verify import verify

HANDS = ('[Hands "0:7S 2C 3C 8H 9D 1:5S 6C 7C 8C 9C 2:AH KD 3D 4C 2H 3:2S 6D 7D 8D TC '
         '4:QC QD JD 3H 4H 5:4D 5D 6H 7H 9H"]')


def _record(tricks: str, extra: str = "") -> str:
    return (f'[Profile "bruff"]\n[Dealer "5"]\n{extra}[Deal "1"]\n{HANDS}\n[TurnUp "9S"]\n'
            f"{tricks}\n")


def test_a_legal_record_imports_without_irregularities() -> None:
    result = read_history(_record("1. 7S 5S KD 2S QC 4D\n2. 1:6C 4C TC QD 5D 2C"))
    assert result.ok and result.completed
    assert result.irregularities == []
    assert verify(result.history).ok  # type: ignore[arg-type]


def test_that_ah_could_not_be_kept_is_an_irregularity_naming_the_rule() -> None:
    # 5S led: AH is protected but the lead outranks it, so C had to play AH, not KD.
    result = read_history(_record("1. 5S 7S KD 2S QC 4D").replace("0:7S", "0:5S").replace(
        "1:5S", "1:7S"))
    assert result.ok, result.diagnostics
    (irregular,) = result.irregularities
    assert irregular["seat"] == 2 and irregular["card"] == "KD"
    assert irregular["rule"] == "play.trump_lead.must_trump"
    assert "AH" in irregular["text"]


def test_an_irregular_play_is_applied_anyway_and_the_game_goes_on() -> None:
    result = read_history(_record("1. 1:5S KD 2S QC 4D 7S\n2. 6C 4C TC QD 5D 2C"))
    history = result.history
    assert history is not None and history.results is not None
    deal = history.results["deals"][0]
    assert [f["trick"] for f in deal["facts"] if f["kind"] == "trick_won"] == [1, 2]
    report = verify(history)
    assert report.ok and not report.unchecked, report.format()
    assert [item["rule"] for item in report.irregularities] == [
        "play.turn", "play.trump_lead.must_trump"]


def test_a_play_out_of_turn_is_an_irregularity() -> None:
    result = read_history(_record("1. 0:7S 5S KD 2S 5:4D 4:QC"))
    rules = [(item["seat"], item["rule"]) for item in result.irregularities]
    assert rules == [(5, "play.turn"), (4, "play.turn")]


def test_irregularities_count_seats_from_1_from_ruling_texts_3_and_older_texts_stay() -> None:
    result = read_history(_record("1. 0:7S 5S KD 2S 5:4D 4:QC"))
    assert result.history is not None and result.history.ruling_texts == 3
    # The data keep the API's seats (from 0); the sentences count them as people do.
    assert [(item["seat"], item["text"]) for item in result.irregularities] == [
        (5, "seat 6 played 4D out of turn: seat 5 was to play to trick 1"),
        (4, "seat 5 played QC out of turn: seat 1 was to play to trick 1")]
    late = irregularity(8, 4, "QC", "play.turn", "out_of_turn", seat=4, card="QC", turn=0,
                        trick=1)
    assert late.text_in(2) == "seat 4 played QC out of turn: seat 0 was to play to trick 1"
    refused = irregularity(5, 2, None, "play.turn", "refused", type="turn_up_robbed", seat=2,
                           message="not your turn: seat 4 is to act, not seat 2",
                           reason="out_of_turn", turn=4)
    assert refused.text_in(2) == (
        "turn_up_robbed by seat 2: not your turn: seat 4 is to act, not seat 2")
    assert refused.text == "turn_up_robbed by seat 3: not their turn: seat 5 was to act"


def test_a_rob_without_the_ace_is_an_irregularity() -> None:
    result = read_history(_record("1. 0:7S 5S 2:rob(2H) KD 2S QC 4D"))
    (irregular,) = [item for item in result.irregularities if item["card"] is None]
    assert irregular["seat"] == 2 and irregular["rule"] == "action.not_allowed"
    assert "rob" in irregular["text"]


def test_irregularities_are_shown_to_auditors_only() -> None:
    result = read_history(_record("1. 1:5S KD 2S QC 4D 7S"))
    history = result.history
    assert history is not None and history.game_id is not None
    replay = replay_log(recorded(history), start=history.start)
    seat = build_history(history.game_id, replay, 2)
    assert seat.results is not None and seat.results["irregularities"] == []


def test_a_misdeal_is_warned_about_and_still_imported() -> None:
    text = _record("1. 7S 5S KD 2S QC 4D").replace("1:5S 6C", "1:5S 7S")
    result = read_history(text)
    assert result.ok and result.history is not None
    assert [(d.code, d.severity) for d in result.diagnostics] == [("misdeal", "warning")]
    assert "7S appears 2 times" in result.diagnostics[0].message


def test_a_misdealt_hand_names_its_seat_as_people_count_it() -> None:
    # The [Hands] tag writes seats from 0 ("2:AH KD..."): the person's seat 3.
    result = read_history(_record("1. 7S 5S KD 2S QC 4D").replace(" 2H 3:", " 2H TH 3:"))
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("misdeal", "seat 3 (hand index 2) was dealt 6 cards, not 5")]


def test_a_card_not_held_stops_the_replay_and_verification_says_where() -> None:
    result = read_history(_record("1. 7S 5S KD 2S QC 9S"))
    assert result.history is not None
    rules = [item["rule"] for item in result.irregularities]
    assert rules == ["play.card_held", "sequence"]
    report = verify(result.history)
    assert not report.ok and report.problems[0].version == 8
    assert "does not hold 9S" in report.problems[0].message


def test_the_record_keeps_its_metadata_and_date() -> None:
    result = read_history(_record("1. 7S", '[Event "Club night"]\n[Date "2024.03.01"]\n'))
    history = result.history
    assert history is not None
    assert history.tags == {"Event": "Club night", "Date": "2024.03.01"}
    assert {event.occurred_at for event in history.events} == {"2024-03-01"}


def test_the_record_without_a_date_says_its_time_is_unknown() -> None:
    result = read_history(_record("1. 7S"))
    assert result.history is not None
    assert {event.occurred_at for event in result.history.events} == {"unknown"}


def test_a_record_starting_from_scores_no_game_reaches_is_refused_not_raised() -> None:
    """The same start rule as verification's: bruff scores never go below 0 (was a
    ValueError out of read_history, which never raises)."""
    text = (GOLDEN / "chronology-finish.table.txt").read_text("utf-8")
    assert '[Scores "35 40 0"]' in text and read_history(text).ok
    result = read_history(text.replace('[Scores "35 40 0"]', '[Scores "-5 0 0"]'))
    assert result.history is None
    assert [str(d) for d in result.diagnostics] == [
        "line 10, column 10: error: [Scores]: start scores [-5, 0, 0] go below 0, which no "
        "bruff game reaches: only an auction's set bid loses points [bad_tag]"]
