"""The strong bot: a search over the worlds its seat's view allows, under a budget per decision.

For each decision it deals the cards it has not seen anew many times (:mod:`engine.worlds`:
consistent with public play, the cards that would have made another player play otherwise
kept out of its hand, and picked among a few draws by how likely the other players were to
act as they did with those cards), and in each world plays every candidate action out
to the end of the deal, every seat then following the basic bot's rules (:mod:`engine.bots`).
The candidate with the best mean value wins. A deal's value is the side's points less the
other sides' mean, the highest-trump bonus included as the engine scores it, and a game won or
lost in the deal counts :data:`WIN_VALUE` instead: near the target the bot plays to finish
or to stop a finish, not for points.

Every rule is the engine's: the candidates are :func:`engine.actions.legal_moves`, each
play-out step is :func:`engine.actions.decide_and_apply`, on the engine's typed actions (the
JSON object is made once, for the answer). Only the plays are searched, robbing
a candidate beside each (:data:`SEARCHED`); every other decision is the basic rules' (the
calls of the auction, the trump named and the cards thrown in its exchange: searched, they
did worse).

The budget is a count of play-out steps, calibrated to CPU time (:data:`STEPS_PER_MS`): the
engine holds no clock, and the same view and the same draws always give the same decision.
``fortyfive bench bots`` measures what a decision costs. Randomness comes only from the
injected *chance*.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine import bots
from engine.action_values import Action, action_json
from engine.actions import decide_and_apply, legal_moves
from engine.bots import Chance, card_of
from engine.cards import Card
from engine.ranking import Ranking, ranking
from engine.state import DealState, GameState, Seat
from engine.worlds import Knowledge, pick_weighted, plausibility, sample_world

STEPS_PER_MS = 110
"""Play-out steps (an action listed, chosen and applied) one millisecond of CPU buys with the
compiled engine, what an install builds: ``fortyfive bench bots`` measures it over the
decisions that searched (``strong_search.steps_per_ms``: 122 in classic and 132 in bruff, so
a search spends 84 to 90 ms of a 100 ms budget; 84 and 94 with the plain engine, 118 to 131
ms; docs/bots.md, "Per-decision cost"). One constant for both builds, so that the same view
and draws give the same decision wherever it runs."""

WIN_VALUE = 100.0
"""What winning the game is worth, in points of a deal (a deal has at most 30, 60 for a made
bid of 30)."""

WORLD_POOL = 2
"""Worlds drawn for each one searched; the opponent model picks among them by weight. The
worlds are dealt with the cards the model finds unlikely kept out already (:data:`MODELLED`),
so nearly all agree with every play seen and a small pool is enough."""

WORLD_POOL_BEFORE_PLAY = 16
"""Worlds drawn for each one searched before the deal's first card: the bids and the exchange
are weighed only (:func:`engine.worlds.plausibility`), nothing is kept out of a hand."""

POOL_CHUNK = 8
"""Searched worlds whose pools are drawn together (in a budget's search, the pool is drawn
again when they are used up)."""

WEIGHT_SCALE = 10**6
"""The opponent model's weights are scaled by this to whole numbers (at least 1) to be drawn
by :func:`engine.worlds.pick_weighted`."""

MODELLED = True
"""Whether worlds are dealt keeping the cards the opponent model finds unlikely out of each
hand (:attr:`engine.worlds.Knowledge.unlikely`), not only the cards the rules exclude."""

EXCLUSION_CHECKS_PER_STEP = 10
"""Hands asked which card they would have played (working out a decision's exclusions,
:class:`engine.worlds.Knowledge`) that cost about one play-out step."""

SEARCHED = ("rob", "play")
"""The decisions the strong level searches; every other is the basic rules', unsearched.
Searched, the others did worse than the basic rules' in the auction against the basic bots
(docs/bots.md, "The strong level, measured"): the worlds before the first card know only the
bids, and the exchange's draws swing a deal more than the choice does. The calls: passing
where the worlds showed the basic rule's call losing (by 2 points a deal on the mean) won 105
of 200 games, 110 with 6 points, 112 never passing (seeds e1/auction/strong-basic/0..199, 10
worlds; a bid 5 above the basic rule's won 90, passing over the partner's standing bid 108);
searched, the trump and the exchange won 41.5% of 200 games, 54% by the basic rules."""

MIN_WORLDS = 2
"""Worlds searched whatever the budget."""

_ENTROPY = bytes(32)
"""The shuffle seed a play-out passes for the next deal, which it never looks at."""


class _NoDraws:
    """The chance of the play-outs' basic bots: a play-out ends with its deal, before a cut."""

    def randrange(self, stop: int, /) -> int:
        raise AssertionError("a play-out never reaches a cut")


def choose_action(state: GameState, seat: Seat, chance: Chance, *, budget_ms: int | None = 100,
                  max_worlds: int | None = None,
                  searched: Callable[[int], object] | None = None) -> dict[str, Any] | None:
    """Returns the action the strong bot in *seat* takes now, or ``None`` if it has nothing
    to do, as :func:`engine.bots.choose_action` does.

    *budget_ms* is the CPU time to spend on a decision (counted in play-out steps, see
    :data:`STEPS_PER_MS`); ``None`` for no limit but *max_worlds*, the number of worlds
    searched (then the decision depends on nothing but the view and *chance*). *searched*, if
    given, is called with the play-out steps counted by a decision that searched (one with a
    single sensible candidate does not): ``fortyfive bench bots`` reports the steps a
    millisecond of CPU buys, :data:`STEPS_PER_MS`'s calibration, from it.
    """
    move = choose_move(state, seat, chance, budget_ms=budget_ms, max_worlds=max_worlds,
                       searched=searched)
    return None if move is None else action_json(move)


def choose_move(state: GameState, seat: Seat, chance: Chance, *, budget_ms: int | None = 100,
                max_worlds: int | None = None,
                searched: Callable[[int], object] | None = None) -> Action | None:
    """:func:`choose_action` as the engine's typed value, one of :func:`legal_moves`."""
    deal = state.deal
    moves = [move for move in legal_moves(state, seat) if move.type != "jink"]
    if not moves or deal is None:
        return None
    if moves[0].type not in SEARCHED:
        return bots.choose_move(state, seat, chance)
    candidates = _candidates(state, deal, seat, moves)
    if len(candidates) == 1:
        return candidates[0]
    if budget_ms is None and max_worlds is None:
        raise ValueError("a search needs a budget or a number of worlds")
    search = _Search(state, seat, chance, budget_ms, max_worlds)
    best = search.best(candidates)
    if searched is not None:
        searched(search.steps)
    return best


def _candidates(state: GameState, deal: DealState, seat: Seat,
                moves: list[Action]) -> list[Action]:
    """Returns the plays worth searching, and robbing with the two weakest discards, the basic
    bot's choice first (it wins ties)."""
    basic = bots.choose_move(state, seat, _NoDraws())
    assert basic is not None
    assert deal.trump is not None
    order = ranking(deal.trump, state.rules)
    robs = sorted((move for move in moves if move.type == "rob"),
                  key=lambda move: _keep_value(card_of(move), order))
    listed = [*robs[:2], *(move for move in moves if move.type == "play")]
    # The rest in an order of their own (ties go to the first): not the hand's order, which
    # a state rebuilt from the view may list otherwise.
    rest = sorted((move for move in listed if move != basic), key=_canonical)
    return [basic, *rest]


def _canonical(move: Action) -> tuple[str, ...]:
    """Returns a key ordering actions by their content alone (their JSON objects')."""
    return tuple(f"{key}={value}" for key, value in sorted(action_json(move).items()))


def _keep_value(card: Card, order: Ranking) -> tuple[int, int]:
    """How much a card is worth keeping once trumps are known: trumps by power, then the
    others by their strength in their suit."""
    return order.power_of[card], order.plain_power.get(card, 0)


class _Search:
    """One decision's search: its worlds, its budget, and the play-outs."""

    def __init__(self, state: GameState, seat: Seat, chance: Chance, budget_ms: int | None,
                 max_worlds: int | None) -> None:
        deal = state.deal
        assert deal is not None
        self.root = state
        self.seat = seat
        self.chance = chance
        self.side = state.rules.side_of(seat)
        self.number = deal.number
        self.searched = 0
        self.budget = None if budget_ms is None else budget_ms * STEPS_PER_MS
        self.max_worlds = max_worlds
        self.knowledge = Knowledge(state, seat)
        self.steps = self.knowledge.exclusion_checks // EXCLUSION_CHECKS_PER_STEP

    def worlds(self) -> Iterator[GameState]:
        """Yields worlds until the budget is spent (at least :data:`MIN_WORLDS`): drawn from a
        pool of :data:`WORLD_POOL` worlds for each one to be searched
        (:data:`WORLD_POOL_BEFORE_PLAY` before the first card; :data:`POOL_CHUNK` searched
        worlds' pools at a time), without putting back, each in proportion to how likely the
        opponent model finds it. A pool shared by several searched worlds lets the worlds
        that agree with all public play be searched, not just one of them per pool."""
        pool: list[GameState] = []
        weights: list[int] = []
        while True:
            searched = self.searched
            if self.max_worlds is not None and searched >= self.max_worlds:
                return
            if self.budget is not None and searched >= MIN_WORLDS and self.steps >= self.budget:
                return
            if not pool:
                wanted = POOL_CHUNK if self.max_worlds is None else min(
                    POOL_CHUNK, self.max_worlds - searched)
                size = WORLD_POOL if self.knowledge.plays else WORLD_POOL_BEFORE_PLAY
                pool = [sample_world(self.root, self.knowledge, self.chance, modelled=MODELLED)
                        for _ in range(size * wanted)]
                weights = [max(1, round(plausibility(world, self.knowledge) * WEIGHT_SCALE))
                           for world in pool]
                self.steps += len(pool) * (1 + len(self.knowledge.plays) // 4)
            index = pick_weighted(weights, self.chance)
            weights.pop(index)
            self.searched += 1
            yield pool.pop(index)

    def best(self, candidates: list[Action]) -> Action:
        """Returns the candidate with the best mean value over the worlds."""
        totals = [0.0] * len(candidates)
        for world in self.worlds():
            for index, action in enumerate(candidates):
                totals[index] += self.value_after(world, self.seat, action)
        return candidates[totals.index(max(totals))]

    def value_after(self, world: GameState, seat: Seat, action: Action) -> float:
        """Returns the value to the searching side of *seat* taking *action* in *world*."""
        _, state = decide_and_apply(world, seat, action, entropy=_ENTROPY)
        self.steps += 1
        ended = self.play_out(state)
        return self.deal_value(ended)

    def play_out(self, state: GameState) -> DealState:
        """Plays the deal of *state* to its end by the basic rules; returns the ended deal."""
        chance = _NoDraws()
        while True:
            deal = state.deal
            assert deal is not None
            if deal.number != self.number or deal.phase == "over" or state.turn is None:
                break
            seat = state.turn
            action = bots.choose_move(state, seat, chance)
            assert action is not None
            _, state = decide_and_apply(state, seat, action, entropy=_ENTROPY)
            self.steps += 1
        for ended in (state.deal, *reversed(state.past_deals)):
            if ended is not None and ended.number == self.number and ended.result is not None:
                return ended
        raise AssertionError("a play-out ended without its deal's result")

    def deal_value(self, ended: DealState) -> float:
        """Returns what the ended deal is worth to the searching side."""
        result = ended.result
        assert result is not None
        if result.winner is not None:
            return WIN_VALUE if result.winner == self.side else -WIN_VALUE
        points = result.points
        others = [points[side] for side in range(len(points)) if side != self.side]
        return points[self.side] - sum(others) / len(others)

