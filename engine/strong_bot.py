"""The strong bot: a search over the worlds its seat's view allows, under a budget per decision.

For each decision it deals the cards it has not seen anew many times (:mod:`engine.worlds`:
consistent with public play, and picked among a few draws by how likely the other players
were to act as they did with those cards), and in each world plays every candidate action out
to the end of the deal, every seat then following the basic bot's rules (:mod:`engine.bots`).
The candidate with the best mean value wins. A deal's value is the side's points less the
other sides' mean, the highest-trump bonus included as the engine scores it, and a game won or
lost in the deal counts :data:`WIN_VALUE` instead: near the target the bot plays to finish
or to stop a finish, not for points.

Every rule is the engine's: the candidates are :func:`engine.actions.legal_actions`, each
play-out step is :func:`engine.actions.decide_and_apply`. Bids are searched too: in each world
the seat's own contract is played out (the others passing, its best suit named) to see how
many points it makes, which prices every bid level at once, beside passing (the auction then
going on by the basic rules: a partner's standing bid is played by that partner). Robbing is a
candidate beside each play, and the trump named and the cards thrown in the auction's exchange
are chosen by what they lead to.

The budget is a count of play-out steps, calibrated to CPU time (:data:`STEPS_PER_MS`): the
engine holds no clock, and the same view and the same draws always give the same decision.
``fortyfive bench bots`` measures what a decision costs. Randomness comes only from the
injected *chance*.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine import bots
from engine.actions import decide_and_apply, legal_actions
from engine.bots import Chance
from engine.cards import Card
from engine.ranking import Ranking, ranking
from engine.state import DealState, GameState, Seat
from engine.worlds import Knowledge, pick_weighted, plausibility, sample_world

STEPS_PER_MS = 20
"""Play-out steps (an action listed, chosen and applied) one millisecond of CPU buys, measured
by ``fortyfive bench bots`` (its ``cpu_ms_per_decision`` against the budget)."""

WIN_VALUE = 100.0
"""What winning the game is worth, in points of a deal (a deal has at most 30, 60 for a made
bid of 30)."""

PARTNER_MARGIN = 3.0
"""How much better than passing a bid must look to outbid the partner's standing bid."""

PRIOR_SETS = 2
"""Worlds where the contract is set counted into every bid's mean besides those searched."""

WORLD_POOL = 16
"""Worlds drawn for each one searched; the opponent model picks among them by weight."""

MIN_WORLDS = 2
"""Worlds searched whatever the budget."""

_ENTROPY = bytes(32)
"""The shuffle seed a play-out passes for the next deal, which it never looks at."""


class _NoDraws:
    """The chance of the play-outs' basic bots: a play-out ends with its deal, before a cut."""

    def randrange(self, stop: int, /) -> int:
        raise AssertionError("a play-out never reaches a cut")


def choose_action(state: GameState, seat: Seat, chance: Chance, *, budget_ms: int | None = 100,
                  max_worlds: int | None = None) -> dict[str, Any] | None:
    """Returns the action the strong bot in *seat* takes now, or ``None`` if it has nothing
    to do, as :func:`engine.bots.choose_action` does.

    *budget_ms* is the CPU time to spend on a decision (counted in play-out steps, see
    :data:`STEPS_PER_MS`); ``None`` for no limit but *max_worlds*, the number of worlds
    searched (then the decision depends on nothing but the view and *chance*).
    """
    deal = state.deal
    actions = [action for action in legal_actions(state, seat) if action["type"] != "jink"]
    if not actions or deal is None:
        return None
    kind = actions[0]["type"]
    if kind in ("cut", "bury"):
        return bots.choose_action(state, seat, chance)
    candidates = _candidates(state, deal, seat, actions)
    if len(candidates) == 1:
        return candidates[0]
    if budget_ms is None and max_worlds is None:
        raise ValueError("a search needs a budget or a number of worlds")
    search = _Search(state, seat, chance, budget_ms, max_worlds)
    if kind in ("bid", "hold", "pass"):
        return search.bid(candidates)
    return search.best(candidates)


def _candidates(state: GameState, deal: DealState, seat: Seat,
                actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns the actions worth searching, the basic bot's choice first (it wins ties)."""
    basic = bots.choose_action(state, seat, _NoDraws())
    assert basic is not None
    kind = actions[0]["type"]
    listed: list[dict[str, Any]]
    if kind == "discard":
        listed = _discards(state, deal, seat, actions)
    elif kind in ("rob", "play"):
        assert deal.trump is not None
        order = ranking(deal.trump, state.rules)
        robs = sorted((action for action in actions if action["type"] == "rob"),
                      key=lambda action: _keep_value(Card.parse(action["discard"]), order))
        listed = [*robs[:2], *(action for action in actions if action["type"] == "play")]
    else:
        listed = actions
    return [basic, *(action for action in listed if action != basic)]


def _keep_value(card: Card, order: Ranking) -> tuple[int, int]:
    """How much a card is worth keeping once trumps are known: trumps by power, then the
    others by their strength in their suit."""
    return order.power_of[card], order.plain_power.get(card, 0)


def _discards(state: GameState, deal: DealState, seat: Seat,
              actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns the exchanges worth trying: throwing the 0, 1, 2... weakest non-trumps."""
    assert deal.trump is not None
    order = ranking(deal.trump, state.rules)
    plain = sorted((card for card in deal.hands[seat] if card not in order.trump_power),
                   key=lambda card: order.plain_power.get(card, 0))
    allowed = {tuple(sorted(action["cards"])): action for action in actions}
    wanted = (tuple(sorted(card.code() for card in plain[:count]))
              for count in range(len(plain) + 1))
    return [allowed[cards] for cards in wanted if cards in allowed]


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
        self.steps = 0
        self.searched = 0
        self.against = 0.0
        """The other sides' mean points summed over the contracts played out."""
        self.budget = None if budget_ms is None else budget_ms * STEPS_PER_MS
        self.max_worlds = max_worlds
        self.knowledge = Knowledge(state, seat)

    def worlds(self) -> Iterator[GameState]:
        """Yields worlds until the budget is spent (at least :data:`MIN_WORLDS`)."""
        while True:
            searched = self.searched
            if self.max_worlds is not None and searched >= self.max_worlds:
                return
            if self.budget is not None and searched >= MIN_WORLDS and self.steps >= self.budget:
                return
            pool = [sample_world(self.root, self.knowledge, self.chance)
                    for _ in range(WORLD_POOL)]
            weights = [plausibility(world, self.knowledge) for world in pool]
            self.steps += WORLD_POOL * (1 + len(self.knowledge.plays) // 4)
            scaled = [max(1, round(weight * 1000)) for weight in weights]
            self.searched += 1
            yield pool[pick_weighted(scaled, self.chance)]

    def best(self, candidates: list[dict[str, Any]]) -> dict[str, Any]:
        """Returns the candidate with the best mean value over the worlds."""
        totals = [0.0] * len(candidates)
        for world in self.worlds():
            for index, action in enumerate(candidates):
                totals[index] += self.value_after(world, self.seat, action)
        return candidates[totals.index(max(totals))]

    def bid(self, candidates: list[dict[str, Any]]) -> dict[str, Any]:
        """Returns the call whose mean value is best: a bid priced by the seat's own contract
        played out in each world, passing by the auction going on without it."""
        deal = self.root.deal
        assert deal is not None and deal.auction is not None
        auction = deal.auction
        calls = [action for action in candidates if action["type"] in ("bid", "hold")]
        passing = {"type": "pass"}
        if not calls:
            return passing
        amounts = [action["amount"] if action["type"] == "bid" else auction.high or 0
                   for action in calls]
        opening = calls[amounts.index(min(amounts))]
        pass_total = 0.0
        totals = [0.0] * len(calls)
        for world in self.worlds():
            pass_total += self.value_after(world, self.seat, passing)
            contract = self.contract(world, opening)
            for index, amount in enumerate(amounts):
                totals[index] += contract(amount)
        partner_high = (auction.high_seat is not None and auction.high_seat != self.seat
                        and self.root.rules.side_of(auction.high_seat) == self.side)
        margin = PARTNER_MARGIN if partner_high else 0.0
        # Pessimistic worlds for each bid, the contract set: a prior against the luck of a few
        # worlds, which would otherwise favour the highest bids.
        worlds = self.searched
        set_value = [-amount - self.against / max(1, worlds) for amount in amounts]
        means = [(totals[index] + PRIOR_SETS * set_value[index]) / (worlds + PRIOR_SETS)
                 for index in range(len(calls))]
        best = max(range(len(calls)), key=lambda index: (means[index], -amounts[index]))
        if means[best] > pass_total / max(1, worlds) + margin:
            return calls[best]
        return passing

    def contract(self, world: GameState, opening: dict[str, Any]) -> Any:
        """Plays out the seat's own contract in *world* (it calls *opening*, the others pass)
        and returns the value of having bid each amount."""
        _, state = decide_and_apply(world, self.seat, opening, entropy=_ENTROPY)
        while state.phase == "bidding" and state.turn is not None and state.turn != self.seat:
            _, state = decide_and_apply(state, state.turn, {"type": "pass"}, entropy=_ENTROPY)
            self.steps += 1
        ended = self.play_out(state)
        result = ended.result
        assert result is not None
        rules = self.root.rules
        opened = ended.bid if ended.bidder == self.seat else None
        points = result.points
        others = [side for side in range(rules.sides) if side != self.side]
        against = sum(points[side] for side in others) / len(others)
        self.against += against
        made = opened is not None and points[self.side] >= 0
        taken = (points[self.side] // 2 if opened == 30 else points[self.side]) if made else -1
        scores = self.root.scores
        target = rules.target

        def value(amount: int) -> float:
            own = (60 if amount == 30 else taken) if taken >= amount else -amount
            if scores[self.side] + own >= target:
                return WIN_VALUE
            if any(scores[side] + points[side] >= target for side in others):
                return -WIN_VALUE
            return own - against

        return value

    def value_after(self, world: GameState, seat: Seat, action: dict[str, Any]) -> float:
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
            action = bots.choose_action(state, seat, chance)
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

