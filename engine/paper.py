"""Paper tables: a drive's table played with real cards, whose score card is entered by hand.

A score card lists the table's deals in order, each with the seat that dealt it and the points
each side made in it. This module holds a card to the rules of the game's profile, the same
rules :mod:`engine.scoring` settles a dealt game by (its points per trick and for the highest
trump, spoil five, the jink, who wins when several sides reach the target), and returns what
the table's game gave: each side's score and the winner.

Only what a score card can show is checked: a deal's points must be some split of its tricks
(five points a trick) and of the highest trump's bonus (five more, to a side that took a
trick); the game ends in the deal where a side reaches the target, and not before; the dealer
passes to the left each deal. Which card took which trick is not on a score card, so a
table's dispute over the play itself is settled by the director.

Paper tables play the profiles whose deals score by tricks alone: the auction (its bids on
each deal) and an announced jink (a declaration during the play) are not on a score card, and
a match of several games has one card per game; :func:`check_paper_rules` refuses them.

>>> from engine.profiles import make_ruleset
>>> rules = make_ruleset("classic", {"target": 45}, 4)
>>> card = [ScoreCardDeal(0, (20, 10)), ScoreCardDeal(1, (15, 15)), ScoreCardDeal(2, (15, 15))]
>>> score_card_result(rules, card)
PaperResult(scores=(50, 40), winner=0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.errors import FortyFiveError
from engine.profiles import RuleSet
from engine.scoring import (
    BONUS_POINTS,
    SPOIL_FIVE_TRICKS,
    TRICK_POINTS,
    TRICKS_PER_DEAL,
    counting_order,
)
from engine.sides import side_name


class ScoreCardError(FortyFiveError, ValueError):
    """Raised for a score card the rules of its game do not allow, saying which deal and why."""


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreCardDeal:
    """One deal of a score card."""

    dealer: int
    """The seat that dealt (0-based, as the API numbers seats)."""
    points: tuple[int, ...]
    """The points each side made in the deal, side A first."""


@dataclasses.dataclass(frozen=True, slots=True)
class PaperResult:
    """What a paper table's game gave."""

    scores: tuple[int, ...]
    winner: int | None
    """The winning side (``None``: boards played out with equal best totals)."""


def check_paper_rules(rules: RuleSet) -> None:
    """Checks a game under *rules* can be scored from a score card.

    :raises ScoreCardError: if it cannot, saying why.
    """
    if rules.auction:
        raise ScoreCardError("an auction table scores each deal by its bid, which a score card "
                             "of points does not carry: paper tables play classic or bruff")
    if rules.jink == "announced":
        raise ScoreCardError("an announced jink is declared during the play and wins or loses "
                             "the game, which a score card of points does not carry: paper "
                             "tables need jink none or take_all")
    if rules.match_games != 1:
        raise ScoreCardError("a paper table enters one game's card: match_games must be 1")


def splits(rules: RuleSet, points: Sequence[int]) -> list[tuple[tuple[int, ...], int | None]]:
    """Returns every way *points* (per side) can come from tricks and the bonus under *rules*:
    each as (tricks per side, the side with the bonus or ``None``). The bonus goes with a
    trick, so only to a side that took one.

    >>> from engine.profiles import make_ruleset
    >>> splits(make_ruleset("classic", {}, 4), (15, 15))
    [((2, 3), 0), ((3, 2), 1)]
    """
    found = []
    bonus_sides: list[int | None] = [None]
    if rules.bonus:
        bonus_sides += list(range(rules.sides))
    for bonus in bonus_sides:
        tricks = []
        for side, value in enumerate(points):
            rest = value - (BONUS_POINTS if side == bonus else 0)
            if rest < 0 or rest % TRICK_POINTS:
                break
            tricks.append(rest // TRICK_POINTS)
        else:
            if sum(tricks) <= TRICKS_PER_DEAL and (bonus is None or tricks[bonus] > 0):
                found.append((tuple(tricks), bonus))
    return found


def next_dealer(rules: RuleSet, dealer: int) -> int:
    """Returns the seat that deals after *dealer*: the deal passes to the dealer's left, as
    the game's fold passes it (:mod:`engine.fold`)."""
    return (dealer + 1) % rules.players


def score_card_result(rules: RuleSet, deals: Sequence[ScoreCardDeal], *,
                      boards: int | None = None, winner: int | None = None,
                      called: bool = False) -> PaperResult:
    """Returns the result of a game whose score card is *deals*, held to *rules*.

    *boards*: the game plays that many boards out (a duplicate drive's table): every deal is
    complete, and the side with the most points over them wins. Otherwise the game ends in the
    deal where a side reaches the target (or takes every trick, under jink ``take_all``), and
    the winner follows the rules; when only the order of the tricks could tell (a game ending
    by chronology where two sides pass the target in its last deal), the card's *winner*
    names it, and it is otherwise checked against the rules.

    *called*: the director (or the drive's clock) ended the round at its time, so the game
    ends as it stands (``engine.drive_state.CALLED_RULE``): the card lists the deals finished (the
    deal in play does not count) and may stop before any side reached the target; the
    standings then give the game to the side ahead (the result's winner is ``None`` when no
    deal reached the target).

    :raises ScoreCardError: naming the first deal, or the end, that the rules do not allow.
    """
    check_paper_rules(rules)
    if not deals:
        raise ScoreCardError("a score card lists at least one deal")
    if boards is not None and len(deals) != boards:
        raise ScoreCardError(f"a table of {boards} boards plays every one of them out: the card "
                             f"lists {len(deals)} deals")
    scores = [0] * rules.sides
    by_chronology = rules.finish == "trick" and boards is None
    for number, deal in enumerate(deals, start=1):
        last = number == len(deals)
        if type(deal.dealer) is not int or not 0 <= deal.dealer < rules.players:
            raise ScoreCardError(f"deal {number}: the dealer is a seat 0 to "
                                 f"{rules.players - 1}, not {deal.dealer!r}")
        if number > 1 and deal.dealer != next_dealer(rules, deals[number - 2].dealer):
            raise ScoreCardError(
                f"deal {number}: dealt by seat {deal.dealer}, but the deal passes to the "
                f"dealer's left: seat {next_dealer(rules, deals[number - 2].dealer)} deals after "
                f"seat {deals[number - 2].dealer}")
        if len(deal.points) != rules.sides or not all(
                type(p) is int for p in deal.points):
            raise ScoreCardError(f"deal {number}: give whole points for each of the "
                                 f"{rules.sides} sides")
        ways = _legal_splits(rules, deal.points,
                             complete=called or not (last and by_chronology))
        if not ways:
            raise ScoreCardError(f"deal {number}: {_shown(deal.points)} is not a split of "
                                 f"{TRICKS_PER_DEAL} tricks at {TRICK_POINTS} points"
                                 + (f" and {BONUS_POINTS} for the highest trump" if rules.bonus
                                    else "")
                                 + (" (or nothing, when spoil five spoils the deal)"
                                    if rules.spoil_five else ""))
        scores = [s + p for s, p in zip(scores, deal.points, strict=True)]
        if boards is not None:
            continue
        took_all = rules.jink == "take_all" and all(
            TRICKS_PER_DEAL in tricks for tricks, _ in ways)
        reached = [side for side in range(rules.sides) if scores[side] >= rules.target]
        ends = took_all or bool(reached)
        if ends and not last:
            raise ScoreCardError(f"deal {number}: the game ends here ("
                                 + ("a side took every trick" if took_all else
                                    f"side {side_name(reached[0])} reached {rules.target}")
                                 + f"), but the card goes on to deal {len(deals)}")
        if last and not ends and called:
            return PaperResult(tuple(scores), None)
        if last and not ends:
            raise ScoreCardError(f"the card ends after deal {number} at {_shown(scores)}, "
                                 f"before any side reached {rules.target}")
        if last and not all(sum(tricks) == TRICKS_PER_DEAL for tricks, _ in ways) and (
                not reached):
            raise ScoreCardError(f"deal {number}: a deal ends before its last trick only "
                                 f"when a side reaches {rules.target}")
    if boards is not None:
        best = [side for side, total in enumerate(scores) if total == max(scores)]
        derived = best[0] if len(best) == 1 else None
        if winner is not None and winner != derived:
            raise ScoreCardError(f"the card names side {side_name(winner)} the winner, but "
                                 "the side with the most points over the boards is "
                                 + (side_name(derived) if derived is not None else "none (a tie)"))
        return PaperResult(tuple(scores), derived)
    return PaperResult(tuple(scores), _winner(rules, deals[-1], scores, winner))


def _legal_splits(rules: RuleSet, points: Sequence[int],
                  complete: bool) -> list[tuple[tuple[int, ...], int | None]]:
    """Returns the splits of a deal's *points* its rules allow: every trick played when
    *complete* (else some may not be, the game having ended by chronology); under spoil five a
    deal where no side took three tricks scores nothing."""
    ways = [(tricks, bonus) for tricks, bonus in splits(rules, points)
            if not complete or sum(tricks) == TRICKS_PER_DEAL]
    if rules.spoil_five:
        if not any(points):
            return [((0,) * rules.sides, None)]
        ways = [(tricks, bonus) for tricks, bonus in ways if max(tricks) >= SPOIL_FIVE_TRICKS
                or sum(tricks) < TRICKS_PER_DEAL]
    return ways


def _winner(rules: RuleSet, deal: ScoreCardDeal, scores: Sequence[int],
            named: int | None) -> int:
    """Returns the side that wins a game whose last deal is *deal*, with *scores* after it."""
    ways = _legal_splits(rules, deal.points, complete=rules.finish != "trick")
    if rules.jink == "take_all" and all(TRICKS_PER_DEAL in tricks for tricks, _ in ways):
        candidates = [ways[0][0].index(TRICKS_PER_DEAL)]
    else:
        candidates = [side for side in range(rules.sides) if scores[side] >= rules.target]
        if len(candidates) > 1 and rules.finish == "deal_end":
            candidates = [next(side for side in counting_order(rules, deal.dealer)
                               if side in candidates)]
    if len(candidates) == 1:
        if named is not None and named != candidates[0]:
            raise ScoreCardError(f"the card names side {side_name(named)} the winner, but "
                                 f"the rules give the game to side {side_name(candidates[0])}")
        return candidates[0]
    if named is None or named not in candidates:
        raise ScoreCardError(
            f"sides {' and '.join(side_name(s) for s in candidates)} both reach {rules.target} in "
            "the last deal, and the game goes to the first to get there trick by trick: "
            "the card must name which (winner)")
    return named


def _shown(points: Sequence[int]) -> str:
    """Returns points per side as the pages show them (A 20, B 10)."""
    return ", ".join(f"{side_name(s)} {p}" for s, p in enumerate(points))


__all__ = ["PaperResult", "ScoreCardDeal", "ScoreCardError", "check_paper_rules",
           "next_dealer", "score_card_result", "splits"]
