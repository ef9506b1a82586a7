"""``fortyfive history show`` (:func:`replay.presentation.show.render`): a table record with
cards played after the game was won shows them as not played, and its irregularity says the game
was won."""

from __future__ import annotations

import dataclasses

from replay.formats.importing import read_history
from replay.presentation.show import render

HANDS = ('[Hands "0:5S,KH,2C,3C,4C 1:2H,3H,5C,6C,7C 2:4H,5H,8C,9C,TC 3:6H,7H,2D,3D,4D '
         '4:8H,9H,5D,6D,7D 5:TH,JH,8D,9D,TD"]')


def _shown(scores: str, tricks: str) -> str:
    """Returns ``show`` of a bruff table record dealt HANDS, from *scores*."""
    text = (f'[Profile "bruff"]\n[Dealer "5"]\n[Scores "{scores}"]\n\n[Deal "1"]\n{HANDS}\n'
            f'[TurnUp "9S"]\n{tricks}\n')
    result = read_history(text)
    assert result.ok and result.history is not None, result.diagnostics
    return render(result.history)


def test_whole_tricks_played_after_the_finish_are_shown_as_not_played() -> None:
    out = _shown("40 0 0", "1. 5S 2H 4H 6H 8H TH\n2. 0:KH 1:3H 2:5H 3:7H 4:9H 5:JH")

    assert "trick 2:" not in out
    assert ("  not played (refused from event 9 on, see the irregularities): 1 KH · 2 3H · "
            "3 5H · 4 7H · 5 9H · 6 JH") in out
    assert ("event 9: seat 1 played KH after the game was won (side A won it at trick 1 of "
            "deal 1): the card was refused, it is in no trick and counts for nothing "
            "[action.phase]") in out
    assert "no trick was open" not in out
    # Seats are counted from 1 wherever show names one, as the table does (dealer 5 is seat 6).
    assert "Deal 1: dealer seat 6, turn-up 9S" in out and "A = seats 1, 4" in out, out


def test_cards_after_a_finish_in_the_middle_of_a_trick_do_not_join_it() -> None:
    # Spades trumps; A (seats 0, 3) on 35, B (1, 4) on 40. A's KS takes trick 1, unproven;
    # B's KH takes trick 2 (45 for B unless KS's bonus gave A 45 at trick 1). Seat 4's 5S in
    # trick 3 proves the bonus is not in trick 1: B won at trick 2, mid-trick 3.
    hands = ('[Hands "0:KS,2H,3C,4D,6H 1:KH,7C,8C,TD,2D 2:3H,QC,5C,7D,8D 3:4H,9C,6C,3D,6D '
             '4:5S,5H,TC,JD,KD 5:7H,8H,9D,2C,4C"]')
    text = (f'[Profile "bruff"]\n[Dealer "5"]\n[Scores "35 40 0"]\n\n[Deal "1"]\n{hands}\n'
            '[TurnUp "9S"]\n1. KS 2D 8D 6D JD 9D\n2. 2H KH 3H 4H 5H 8H\n'
            '3. 1:7C 2:QC 3:9C 4:5S 5:2C 0:3C\n')
    result = read_history(text)
    assert result.ok and result.history is not None, result.diagnostics
    out = render(result.history)

    assert "  trick 3: 2 7C · 3 QC · 4 9C · 5 5S (not finished)" in out
    assert "not played (refused from event 19 on, see the irregularities): 6 2C · 1 3C" in out
    assert ("the bonus belongs to trick 3, but the game ended before that trick was "
            "completed: nobody scores it. [bonus.proven.five]") in out
    assert "trick 4:" not in out


def test_the_irregularities_of_an_older_history_say_their_seats_count_from_0() -> None:
    text = (f'[Profile "bruff"]\n[Dealer "5"]\n[Scores "40 0 0"]\n\n[Deal "1"]\n{HANDS}\n'
            '[TurnUp "9S"]\n1. 5S 2H 4H 6H 8H TH\n2. 0:KH 1:3H 2:5H 3:7H 4:9H 5:JH\n')
    history = read_history(text).history
    assert history is not None and history.ruling_texts == 3
    note = "(in the sentences of ruling texts 2, as this history states them, seats count from 0)"
    assert note not in render(history)
    assert note in render(dataclasses.replace(history, ruling_texts=2))
