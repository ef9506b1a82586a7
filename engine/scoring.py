"""Scoring and the end of a deal: the bonus proven from public knowledge, trick chronology,
jinks, bids made and set, spoil five, and who wins a game.

Every conclusion is a :class:`~engine.state.Fact` with a ruling. A finish by chronology is
declared only once it is certain: the highest-trump bonus may still be unproven, and then both
places it could end up (the trick of the highest trump so far, or a trick not yet played) must
give the same first side to reach the target.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.cards import Rank
from engine.profiles import RuleSet
from engine.ranking import Ranking
from engine.rulings import Ruling, ruling
from engine.state import DealResult, DealState, Fact, Side

TRICKS_PER_DEAL = 5
TRICK_POINTS = 5
BONUS_POINTS = 5
SPOIL_FIVE_TRICKS = 3
"""Under spoil five, the tricks a side must take for the deal to score at all."""


def tricks_won(deal: DealState, rules: RuleSet) -> list[int]:
    """Returns how many completed tricks each side has won in *deal*."""
    won = [0] * rules.sides
    for side in winning_sides(deal, rules):
        won[side] += 1
    return won


def winning_sides(deal: DealState, rules: RuleSet) -> tuple[Side, ...]:
    """Returns the side that won each completed trick of *deal*, in order.

    A deal's end asks this several times of the same tricks (the points with the bonus in
    each place it may lie, the chronology), so the last answer is kept: tricks are immutable
    tuples, so the same object means the same answer."""
    global _last_sides
    tricks = deal.tricks
    last = _last_sides
    if last[0] is tricks and last[1] is rules:
        return last[2]
    side_of = rules.side_of
    sides = []
    for trick in tricks:
        assert trick.winner is not None, "completed tricks have winners"
        sides.append(side_of(trick.winner))
    answer = tuple(sides)
    _last_sides = (tricks, rules, answer)
    return answer


_last_sides: tuple[object, object, tuple[Side, ...]] = (None, None, ())
"""The tricks and rules :func:`winning_sides` last answered, and its answer."""


def prove_bonus(deal: DealState, rules: RuleSet, order: Ranking) -> Ruling | None:
    """Returns the ruling that proves the highest trump played so far is the deal's highest,
    or ``None`` while public knowledge cannot tell.

    Proof comes only from what every player knows: the trump five; every higher trump out of
    play in public (a turn-up nobody robbed, once the first trick is complete or when robbing
    is off); or the hands exhausted. No deeper inference is made.
    """
    highest = deal.highest
    hands_exhausted = len(deal.tricks) == TRICKS_PER_DEAL
    if highest is None:
        return None
    card = highest.card
    if card.suit is order.trump and card.rank is Rank.FIVE:
        return ruling("bonus.proven.five", card=card.code(), trick=highest.trick)
    higher = order.stronger[card]
    # A turn-up nobody robbed is out of play in public once it can no longer be robbed; with
    # several decks another copy of each higher trump may still be held.
    if deal.turn_up is not None and deal.robbed_by is None and (
        deal.tricks or not rules.robbing
    ) and rules.decks == 1:
        higher &= ~(1 << deal.turn_up)
    if not higher:
        return ruling("bonus.proven.higher_out", card=card.code(), trick=highest.trick,
                      higher=tuple(other.code() for other in order.trump_order
                                   if order.stronger[card] >> other & 1))
    if hands_exhausted:
        return ruling("bonus.proven.hands_exhausted", card=card.code(), trick=highest.trick)
    return None


def bonus_scenarios(deal: DealState, rules: RuleSet) -> list[int | None]:
    """Returns where the bonus may lie among the completed tricks: a trick number, or
    ``None`` for "not in a completed trick" (a later trick, or no bonus at all)."""
    highest = deal.highest
    done = len(deal.tricks)
    if not rules.bonus or highest is None or highest.trick > done:
        return [None]
    if deal.bonus_proven:
        return [highest.trick]
    return [highest.trick, None]


def trick_points(
    deal: DealState, rules: RuleSet, bonus_trick: int | None
) -> list[tuple[Side, int]]:
    """Returns (side, points) for each completed trick with the bonus at *bonus_trick*."""
    points = [(side, TRICK_POINTS) for side in winning_sides(deal, rules)]
    if bonus_trick is not None and 1 <= bonus_trick <= len(points):
        side, value = points[bonus_trick - 1]
        points[bonus_trick - 1] = (side, value + BONUS_POINTS)
    return points


def first_to_target(
    deal: DealState, rules: RuleSet, bonus_trick: int | None
) -> tuple[int, Side] | None:
    """Returns (trick, side) where a side's running score first reaches the target, counting
    trick by trick from the deal's starting scores, or ``None``."""
    running = list(deal.start_scores)
    for number, (side, value) in enumerate(trick_points(deal, rules, bonus_trick), start=1):
        running[side] += value
        if running[side] >= rules.target:
            return number, side
    return None


def certain_finish(deal: DealState, rules: RuleSet) -> tuple[int, Side] | None:
    """Returns (trick, side) once a chronology finish is certain, else ``None``.

    Certain means every place the unproven bonus could lie gives the same first side to reach
    the target; the trick reported is the latest of those, the one certain in every case.
    """
    outcomes = [first_to_target(deal, rules, place) for place in bonus_scenarios(deal, rules)]
    if any(outcome is None for outcome in outcomes):
        return None
    sides = {outcome[1] for outcome in outcomes if outcome is not None}
    if len(sides) != 1:
        return None
    return max(outcome for outcome in outcomes if outcome is not None)


def deal_points(deal: DealState, rules: RuleSet) -> tuple[list[int], int | None]:
    """Returns the points each side took in a complete deal and the bonus trick (or None)."""
    highest = deal.highest
    bonus_trick = highest.trick if rules.bonus and highest is not None else None
    points = [0] * rules.sides
    for side, value in trick_points(deal, rules, bonus_trick):
        points[side] += value
    return points, bonus_trick


def counting_order(rules: RuleSet, dealer: int) -> list[Side]:
    """Returns the sides in counting order: from the dealer's left, the dealer's side last."""
    order: list[Side] = []
    for step in range(1, rules.players + 1):
        side = rules.side_of((dealer + step) % rules.players)
        if side not in order:
            order.append(side)
    return order


@dataclasses.dataclass(frozen=True, slots=True)
class Settlement:
    """How a deal ends: points, new scores, the game's winner if any, and the facts why."""

    result: DealResult
    facts: tuple[Fact, ...]

    def __copy__(self) -> Settlement:
        return self

    def __deepcopy__(self, memo: object) -> Settlement:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


def settle_chronology(
    deal: DealState, rules: RuleSet, finish: tuple[int, Side], version: int
) -> Settlement:
    """Returns the settlement of a deal whose chronology finish is certain."""
    trick, side = finish
    scenarios = bonus_scenarios(deal, rules)
    certain_bonus = scenarios[0] if len(scenarios) == 1 else None
    running = list(deal.start_scores)
    for number, (winner_side, value) in enumerate(
        trick_points(deal, rules, certain_bonus), start=1
    ):
        if number > trick:
            break
        running[winner_side] += value
    points = [now - before for now, before in zip(running, deal.start_scores, strict=True)]
    why = ruling("finish.chronology", side=side, target=rules.target, trick=trick)
    if certain_bonus is None and len(scenarios) > 1 and scenarios[0] is not None and (
            scenarios[0] <= trick):
        # The bonus is unproven and may lie in a completed trick: say where, and how early
        # the finish would then have been.
        placed = first_to_target(deal, rules, scenarios[0])
        earliest = placed[0] if placed is not None else trick
        why = why.with_args(earliest=min(earliest, trick), bonus_trick=scenarios[0])
    fact = Fact(
        "target_reached",
        why,
        version,
        trick=trick,
        side=side,
        points=running[side],
    )
    result = DealResult(
        tuple(points), tuple(running), tuple(tricks_won(deal, rules)), trick, winner=side
    )
    return Settlement(result, (fact,))


def nobody_took_three(won: Sequence[int], rules: RuleSet) -> bool:
    """Whether spoil five is played and no side has taken three tricks (*won*, by side): at
    the end of a deal it is spoiled and nobody scores; before the end it may still be, so the
    deal cannot be settled early."""
    return rules.spoil_five and max(won) < SPOIL_FIVE_TRICKS


def settle_complete(deal: DealState, rules: RuleSet, version: int) -> Settlement:
    """Returns the settlement of a deal whose five tricks have all been played."""
    won = tricks_won(deal, rules)
    points, bonus_trick = deal_points(deal, rules)
    facts: list[Fact] = []
    if rules.bonus and bonus_trick is None:
        facts.append(Fact("bonus_none", ruling("bonus.none"), version))
    winner: Side | None = None
    spoiled = nobody_took_three(won, rules)
    if spoiled:
        facts.append(Fact("spoiled", ruling("spoil_five"), version))
        points = [0] * rules.sides
    if rules.jink == "announced" and deal.jink_seat is not None:
        side = rules.side_of(deal.jink_seat)
        points[side] *= 2
        facts.append(Fact("jink", ruling(
            "jink.announced.made", side=side, base=points[side] // 2, points=points[side],
        ), version, side=side, points=points[side]))
    if rules.auction:
        points, bid_fact = _settle_bid(deal, rules, points, version)
        facts.append(bid_fact)
    scores = [before + gained for before, gained in zip(deal.start_scores, points, strict=True)]
    by_chronology = rules.finish == "trick" and not rules.auction and deal.jink_seat is None
    if by_chronology and not spoiled:
        finish = first_to_target(deal, rules, bonus_trick)
        if finish is not None:
            settlement = settle_chronology(
                deal._replace(bonus_proven=True), rules, finish, version
            )
            return Settlement(settlement.result, tuple(facts) + settlement.facts)
    reached = [side for side in range(rules.sides) if scores[side] >= rules.target]
    if rules.jink == "take_all" and max(won) == TRICKS_PER_DEAL:
        winner = won.index(TRICKS_PER_DEAL)
        facts.append(Fact("jink", ruling("jink.take_all", side=winner), version, side=winner))
    elif len(reached) == 1:
        winner = reached[0]
        facts.append(Fact("target_reached", ruling(
            "finish.deal_end", side=winner, target=rules.target,
        ), version, trick=TRICKS_PER_DEAL, side=winner, points=scores[winner]))
    elif reached and rules.auction:
        bidder_side = rules.side_of(deal.bidder if deal.bidder is not None else 0)
        winner = bidder_side if bidder_side in reached else reached[0]
        facts.append(Fact("target_reached", ruling(
            "finish.bidder_priority", target=rules.target, bidder_side=bidder_side,
            won=winner == bidder_side,
        ), version, trick=TRICKS_PER_DEAL, side=winner, points=scores[winner]))
    elif reached:
        winner = next(side for side in counting_order(rules, deal.dealer) if side in reached)
        facts.append(Fact("target_reached", ruling(
            "finish.counted_first", sides=tuple(sorted(reached)), target=rules.target,
            side=winner,
        ), version, trick=TRICKS_PER_DEAL, side=winner, points=scores[winner]))
    result = DealResult(tuple(points), tuple(scores), tuple(won), TRICKS_PER_DEAL, winner)
    return Settlement(result, tuple(facts))


def _settle_bid(
    deal: DealState, rules: RuleSet, points: list[int], version: int
) -> tuple[list[int], Fact]:
    """Returns the points after the bid is made or set, and the fact that says which."""
    assert deal.bidder is not None and deal.bid is not None, "an auction deal has a bidder"
    side = rules.side_of(deal.bidder)
    took = points[side]
    settled = list(points)
    if took >= deal.bid:
        settled[side] = 60 if deal.bid == 30 else took
        rule = "bid.made_thirty" if deal.bid == 30 else "bid.made"
        return settled, Fact("bid_made", ruling(rule, side=side, bid=deal.bid, took=took),
                             version, side=side, points=settled[side])
    settled[side] = -deal.bid
    return settled, Fact("bid_set", ruling("bid.set", side=side, bid=deal.bid, took=took),
                         version, side=side, points=-deal.bid)


def settle_failed_jink(deal: DealState, rules: RuleSet, version: int) -> Settlement:
    """Returns the settlement when an announced jink fails: the other side wins the game."""
    assert deal.jink_seat is not None, "only an announced jink can fail"
    jinker = rules.side_of(deal.jink_seat)
    assert rules.sides == 2, "an announced jink needs exactly two sides"
    other = (jinker + 1) % rules.sides
    fact = Fact("jink", ruling(
        "jink.announced.failed", side=jinker, trick=len(deal.tricks), other=other,
    ), version, trick=len(deal.tricks), side=other)
    result = DealResult(
        (0,) * rules.sides, deal.start_scores, tuple(tricks_won(deal, rules)),
        len(deal.tricks), winner=other,
    )
    return Settlement(result, (fact,))
