"""How a deal ends: the highest-trump bonus proven, the settlement a play brings about, and
the game after it (the scores, the next dealer, a game or a match won).

The fold (:mod:`engine.fold`) asks after every trick and every new highest trump whether the
deal is settled, and ends it here; a passed-out auction and a skipped board end here too.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from engine import scoring
from engine.profiles import RuleSet
from engine.ranking import Ranking
from engine.rulings import ruling
from engine.state import DealState, Fact, GameState, replaced


def check_bonus(deal: DealState, rules: RuleSet, order: Ranking, version: int,
                trick_done: bool) -> DealState:
    """Returns *deal* with the bonus marked proven (and a fact) once public knowledge proves it."""
    if not rules.bonus or deal.bonus_proven or deal.highest is None:
        return deal
    proof = scoring.prove_bonus(deal, rules, order)
    if proof is None:
        return deal
    highest = deal.highest
    at_trick = len(deal.tricks) if trick_done else len(deal.tricks) + 1
    fact = Fact("bonus_proven", proof, version, trick=at_trick, seat=highest.seat,
                side=rules.side_of(highest.seat), points=scoring.BONUS_POINTS,
                credited_trick=highest.trick)
    return replaced(deal, bonus_proven=True, facts=deal.facts + (fact,))


BOARD_TARGET: Final = 1 << 30
"""The target a played-out board is scored against: none a deal can reach, so no board stops
at the game's target (every table plays it out and every board compares); the game of boards
is decided after its last board (:func:`end_deal`)."""


def settlement_after(deal: DealState, rules: RuleSet, version: int) -> scoring.Settlement | None:
    """Returns how the deal ends after this play, or ``None`` while it goes on."""
    if deal.played_out:
        # Taking all five tricks of a board is its points, not the game (bruff's jink).
        rules = dataclasses.replace(rules, target=BOARD_TARGET, jink="none")
    if deal.jink_seat is not None and rules.jink == "announced":
        jinker = rules.side_of(deal.jink_seat)
        if any(rules.side_of(t.winner) != jinker for t in deal.tricks if t.winner is not None):
            return scoring.settle_failed_jink(deal, rules, version)
    if len(deal.tricks) == scoring.TRICKS_PER_DEAL:
        return scoring.settle_complete(deal, rules, version)
    if rules.finish != "trick" or rules.auction or deal.jink_seat is not None:
        return None
    # No side can have reached the target yet, wherever the bonus lies: nothing to settle.
    # First the bound of a side that won every trick so far, then each side's own count.
    reach = rules.target - (scoring.BONUS_POINTS if rules.bonus else 0)
    if max(deal.start_scores) + scoring.TRICK_POINTS * len(deal.tricks) < reach:
        return None
    won = scoring.tricks_won(deal, rules)
    if scoring.nobody_took_three(won, rules):
        return None  # The deal may yet be spoiled.
    for start, tricks in zip(deal.start_scores, won, strict=True):
        if start + scoring.TRICK_POINTS * tricks >= reach:
            break
    else:
        return None
    finish = scoring.certain_finish(deal, rules)
    if finish is None:
        return None
    return scoring.settle_chronology(deal, rules, finish, version)


def end_deal(
    state: GameState, deal: DealState, settlement: scoring.Settlement, add_facts: bool = True
) -> GameState:
    """Returns the game after *deal* ends: scores, the next dealer, a game or match won."""
    rules = state.rules
    result = settlement.result
    facts = bonus_counted(deal.facts, result.ended_at_trick, len(deal.tricks))
    facts += settlement.facts if add_facts else ()
    version = state.version + 1
    scores = result.scores
    games_won = state.games_won
    game_number = state.game_number
    winner = state.winner
    game_winners = state.game_winners
    if deal.played_out:
        result = dataclasses.replace(result, winner=boards_winner(deal, scores))
    if result.winner is not None:
        won = game_won(state, result.winner, scores, version)
        games_won, game_winners, winner, scores, game_number = won[:5]
        facts += won[5]
    # A finish can be declared in the middle of a trick: its cards stay on the table as the
    # interrupted trick (they have left the hands), though it has no winner and does not count.
    interrupted = deal.current if deal.current is not None and deal.current.cards else None
    deal = replaced(
        deal, phase="over", turn=None, current=interrupted, result=result, facts=facts
    )
    return replaced(
        state, version=version, deal=deal, scores=scores, games_won=games_won,
        game_number=game_number, winner=winner, game_winners=game_winners,
        deals_played=state.deals_played + 1, dealer=(deal.dealer + 1) % rules.players,
    )


def boards_winner(deal: DealState, scores: tuple[int, ...]) -> int | None:
    """Returns the side that wins a game of played-out boards as *deal* ends with the game at
    *scores*: after its last board, whatever the scores, the side with the most points over
    the boards (equal best: nobody); before it, nobody yet."""
    best = max(scores)
    leaders = [side for side, score in enumerate(scores) if score == best]
    return leaders[0] if deal.number >= deal.boards and len(leaders) == 1 else None


def game_won(state: GameState, side: int, scores: tuple[int, ...], version: int) -> tuple[
        tuple[int, ...], tuple[int, ...], int | None, tuple[int, ...], int, tuple[Fact, ...]]:
    """Returns the game's ``games_won``, ``game_winners``, ``winner``, ``scores`` and
    ``game_number`` once *side* has won a game at *scores* (event *version*), and the fact
    that says so: the match is won, or the next game starts from nothing."""
    rules = state.rules
    games_won = state.games_won[:side] + (state.games_won[side] + 1,) + state.games_won[side + 1:]
    fact = Fact("game_won", ruling("match.game_won", side=side, game=state.game_number),
                version, side=side, points=scores[side])
    if games_won[side] >= rules.match_games:
        return (games_won, state.game_winners + (side,), side, scores, state.game_number,
                (fact,))
    return (games_won, state.game_winners + (side,), state.winner, (0,) * rules.sides,
            state.game_number + 1, (fact,))


def bonus_counted(facts: tuple[Fact, ...], ended_at: int, completed: int) -> tuple[Fact, ...]:
    """Returns *facts* with the bonus's ruling saying so when its trick does not count: a
    game decided before that trick, or ended before it was completed."""
    amended = []
    for fact in facts:
        credited = fact.credited_trick
        if fact.kind == "bonus_proven" and credited is not None and credited > ended_at:
            why = "not_completed" if credited > completed else "not_counted"
            fact = fact._replace(ruling=fact.ruling.with_args(uncounted=why, ended=ended_at))
        amended.append(fact)
    return tuple(amended)
