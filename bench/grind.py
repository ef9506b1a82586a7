"""Grinding, as an attacker: how far choosing among many seeds moves a chosen seat's hand.

The server draws the seed of a deal. If it knows every other input of the deck when it does,
it can try seeds until one deals a chosen seat a strong hand, then commit to that one: the
commitment proves the seed was not changed afterwards, not that it was not chosen. Each trial
here is one deal of ``bruff`` (6 seats, 53 cards, dealer 0); the event counted is the dealer's
left holding two or more of the four top trumps (the five and the jack of trumps, the joker,
the ace of hearts), whose exact chance in a fair deal is :func:`baseline`. The attacker tries
up to ``--seeds`` seeds per trial and keeps the first that gives the event under what it
knows, else the last. Four cases:

- ``fy1_bot_cut``: ``hmac-sha256-fy/1`` with a bot's cut from ``random.Random`` (the old path:
  the cut was known before the seed was drawn). The attacker knows the deck: steered.
- ``fy2_bots_only``: ``/2`` with no person's contribution: the bots' cuts come from the game's
  committed secret, which the server also knows. Still steered: such a deal is only as fair as
  the server, which is why verification names the deals that had a person's nonce.
- ``fy2_person_nonce``: ``/2`` with a person's nonce sent after the commitment. The attacker
  must guess it; the deck it grinds for is not the one dealt. Not beyond chance.
- ``fy2_person_cut_only`` (with ``--cut-only``; 52 shuffles per seed tried): ``/2`` with a
  person's cut and no nonce. The attacker keeps the seed good for the most cuts: a cut alone
  has 52 values, so some steering remains; the nonce is what removes it.

Each case reports its successes, the rate, and the chance of at least that many successes in
a fair deal (exact binomial upper tail). Every seed and nonce comes from SHA-256 of a label,
so runs repeat exactly.

``--live N`` also plays games live, per profile (``bruff``, ``auction``, ``classic``, people
and bots at one table), on a private redis-server through the command path and the workers'
own planning and jobs (:func:`workers.plan.plan`, :func:`workers.jobs.play_bots`), until N
deals were cut by a bot. The people act as the web table does: each sends its nonce as soon as
its deal waits for its cut (with its cut when it is the cutter), and plays on its turn at once.
For every deal a bot cut it reports whether a person's nonce is in its deck, and grinds it
as the server could have: it tries ``--seeds`` seeds with what it knew when it drew the seed
(the game, the deal, the bot's committed cut; no nonce, since every nonce comes after), keeps
the first that gives the seat at the dealer's left two or more of the four top trumps of
hearts, and deals it with the contributions the deal really got. ``after_a_bot`` counts the
deals whose deal before a bot ended: the ones the bots' loop reaches in the job that played
that last card. The same file runs against an older checkout, for a before-and-after. The
service draws each game's id, on which its decks depend, so the live figures vary a little
from run to run.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import math
import random
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bench import positive_int
from engine.cards import JOKER, Card, Suit
from engine.levels import BASIC
from engine.profiles import RuleSet, make_ruleset
from engine.ranking import ranking
from engine.shuffle import ALGORITHM_2, committed_cut, cut, deal_order, deck_order, pack
from engine.state import DealState, GameState

PROFILE = "bruff"
TOP = 4
"""How many of the highest trumps count as top trumps."""
THRESHOLD = 2
"""How many top trumps the chosen seat must hold for the attacker to win the trial."""
DEALER = 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``fortyfive bench grind``."""
    parser.add_argument("--trials", type=positive_int, default=400,
                        help="deals per case (default: 400)")
    parser.add_argument("--seeds", type=positive_int, default=64,
                        help="seeds the attacker may try per deal (default: 64)")
    parser.add_argument("--cut-only", action="store_true",
                        help="also measure a person's cut without a nonce (52 shuffles a seed)")
    parser.add_argument("--live", type=positive_int, default=None, metavar="DEALS",
                        help="also play games live (people and bots, every profile) until "
                        "DEALS deals per profile were cut by a bot, and grind those deals")



def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs every case and returns the figures."""
    start = time.perf_counter()
    figures = measure(args.trials, args.seeds, cut_only=args.cut_only)
    if args.live is not None:
        figures["live_bot_cuts"] = live(args.live, args.seeds)
    figures["seconds"] = round(time.perf_counter() - start, 2)
    return figures


def measure(trials: int, seeds: int, *, cut_only: bool = False,
            label: str = "grind") -> dict[str, Any]:
    """Returns the baseline and, per case, the attacker's successes over *trials* deals."""
    rules = make_ruleset(PROFILE)
    wins = Wins(rules)
    p = float(baseline(rules))
    cases: dict[str, Callable[[int], bool]] = {
        "fy1_bot_cut": lambda k: fy1_bot_cut(wins, label, k, seeds),
        "fy2_bots_only": lambda k: fy2(wins, label, k, seeds, person_nonce=False),
        "fy2_person_nonce": lambda k: fy2(wins, label, k, seeds, person_nonce=True),
    }
    if cut_only:
        cases["fy2_person_cut_only"] = lambda k: fy2_person_cut(wins, label, k, seeds)
    result: dict[str, Any] = {
        "profile": PROFILE, "event": f"dealer's left holds >= {THRESHOLD} of the top {TOP} "
        "trumps", "baseline": round(p, 5), "trials": trials, "seeds_per_trial": seeds,
    }
    for name, case in cases.items():
        successes = sum(case(k) for k in range(trials))
        result[name] = {"successes": successes, "rate": round(successes / trials, 4),
                        "p_value": float(f"{upper_tail(successes, trials, p):.3g}")}
    return result


class Wins:
    """Tells whether a dealt pack gives the chosen seat the event (top trumps precomputed)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.size = len(pack(rules))
        self.tops = {suit: top_trumps(rules, suit) for suit in Suit}
        positions: list[int] = []
        top = 0
        for batch in rules.deal_pattern:
            for step in range(1, rules.players + 1):
                if (DEALER + step) % rules.players == (DEALER + 1) % rules.players:
                    positions += range(top, top + batch)
                top += batch
        self.positions = tuple(positions)
        self.turn_up = top

    def __call__(self, order: tuple[Card, ...]) -> bool:
        turn_up = order[self.turn_up]
        if turn_up is JOKER:  # The dealer takes it; the next card names trumps.
            turn_up = order[self.turn_up + 1]
        assert turn_up.suit is not None
        tops = self.tops[turn_up.suit]
        return sum(order[i] in tops for i in self.positions) >= THRESHOLD


def top_trumps(rules: RuleSet, suit: Suit) -> frozenset[Card]:
    """Returns the :data:`TOP` highest trumps when *suit* is trumps."""
    power = ranking(suit, rules).trump_power
    return frozenset(sorted(power, key=power.__getitem__, reverse=True)[:TOP])


def baseline(rules: RuleSet) -> Fraction:
    """Returns the exact chance of the event in a fair deal.

    The turn-up is uniform over the pack; the chosen seat's hand is then a uniform choice of 5
    among the cards not turned (and not the joker, which a turned joker gives the dealer).
    """
    cards = pack(rules)
    hand = sum(rules.deal_pattern)
    total = Fraction(0)
    for turned in cards:
        if turned is JOKER:
            for second in cards:
                if second is not JOKER:
                    total += Fraction(1, len(cards) * (len(cards) - 1)) * _holds(
                        rules, second, {JOKER, second}, len(cards) - 2, hand)
        else:
            total += Fraction(1, len(cards)) * _holds(rules, turned, {turned}, len(cards) - 1,
                                                      hand)
    return total


def _holds(rules: RuleSet, turned: Card, out: set[Card], left: int, hand: int) -> Fraction:
    """The chance that *hand* cards drawn from *left* hold THRESHOLD of the top trumps."""
    assert turned.suit is not None
    m = len(top_trumps(rules, turned.suit) - out)
    fewer = sum(math.comb(m, j) * math.comb(left - m, hand - j) for j in range(THRESHOLD))
    return 1 - Fraction(fewer, math.comb(left, hand))


def upper_tail(successes: int, trials: int, p: float) -> float:
    """Returns P(X >= successes) for X binomial(trials, p): the chance of doing as well
    without grinding."""
    if successes <= 0:
        return 1.0
    terms = [math.lgamma(trials + 1) - math.lgamma(x + 1) - math.lgamma(trials - x + 1)
             + x * math.log(p) + (trials - x) * math.log1p(-p)
             for x in range(successes, trials + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(term - top) for term in terms))


def _hex(*parts: object) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def _grind(wins: Wins, label: str, k: int, seeds: int,
           dealt_for: Callable[[str], tuple[Card, ...]]) -> str:
    """Returns the first of *seeds* seeds whose deal, as the attacker computes it, wins."""
    seed = ""
    for i in range(seeds):
        seed = _hex(label, "seed", k, i)
        if wins(dealt_for(seed)):
            break
    return seed


def fy1_bot_cut(wins: Wins, label: str, k: int, seeds: int) -> bool:
    """``/1``, a bot cutting from ``random.Random`` seeded by what the server knows."""
    game_id = _hex(label, "game", k)[:24]
    position = 1 + random.Random(f"bot:{game_id}:2").randrange(wins.size - 1)
    rules = wins.rules
    seed = _grind(wins, label, k, seeds, lambda s: cut(deck_order(rules, s), position))
    return wins(cut(deck_order(rules, seed), position))


def fy2(wins: Wins, label: str, k: int, seeds: int, *, person_nonce: bool) -> bool:
    """``/2``, a bot cutting from the committed secret; with or without a person's nonce,
    which the attacker can only guess when it picks the seed."""
    rules = wins.rules
    context = _hex(label, "game", k)[:24]
    secret = _hex(label, "secret", k)
    position = committed_cut(secret, context, 1, (DEALER - 1) % rules.players, wins.size)
    guess = [(2, _hex(label, "guess", k)[:32])] if person_nonce else []
    actual = [(2, _hex(label, "person", k)[:32])] if person_nonce else []

    def dealt(seed: str, nonces: list[tuple[int, str]]) -> tuple[Card, ...]:
        return cut(deal_order(rules, seed, context, 1, position, nonces), position)

    seed = _grind(wins, label, k, seeds, lambda s: dealt(s, guess))
    return wins(dealt(seed, actual))


def fy2_person_cut(wins: Wins, label: str, k: int, seeds: int) -> bool:
    """``/2``, a person's cut and no nonce: the attacker keeps the seed good for most cuts."""
    rules = wins.rules
    context = _hex(label, "game", k)[:24]

    def dealt(seed: str, position: int) -> tuple[Card, ...]:
        return cut(deal_order(rules, seed, context, 1, position), position)

    best, best_count = "", -1
    for i in range(seeds):
        seed = _hex(label, "seed", k, i)
        count = sum(wins(dealt(seed, position)) for position in range(1, wins.size))
        if count > best_count:
            best, best_count = seed, count
    position = 1 + int(_hex(label, "cut", k), 16) % (wins.size - 1)
    return wins(dealt(best, position))


# Live play --------------------------------------------------------------------------------

LIVE_SEATS = {
    "bruff": ("human", "bot", "bot", "human", "bot", "bot"),
    "auction": ("human", "bot", "bot", "bot"),
    "classic": ("human", "bot"),
}
"""People and bots at each profile's table in the live case."""


def live(deals: int, seeds: int, label: str = "live") -> dict[str, Any]:
    """Plays each profile live until *deals* deals were cut by a bot, and returns, per
    profile and in all, what their decks rest on and how grinding them fares."""
    # Imported here: the other cases need neither Redis nor the workers.
    from service.processes.embedded_redis import EmbeddedRedis
    from workers import context

    result: dict[str, Any] = {"deals_per_profile": deals, "event": "dealer's left holds >= "
                              f"{THRESHOLD} of the top {TOP} trumps of hearts"}
    rows: list[tuple[bool, float]] = []
    with tempfile.TemporaryDirectory(prefix="fortyfive-grind-") as data_dir, \
            EmbeddedRedis(data_dir, appendfsync="everysec") as server:
        context.configure(server.url)
        for profile, seats in LIVE_SEATS.items():
            found = _play_live(profile, seats, deals, label)
            rules = make_ruleset(profile, {}, len(seats))
            p = _hearts_baseline(rules)
            wins = [_grind_live(rules, deal, seeds, label) for deal in found]
            rows += [(won, p) for won in wins]
            result[profile] = {
                "bot_cut_deals": len(found),
                "after_a_bot": sum(after for _, after in found),
                "person_nonce": sum(bool(_person_nonces(deal, seats)) for deal, _ in found),
                "server_only": sum(not _person_nonces(deal, seats) for deal, _ in found),
                "successes": sum(wins), "rate": round(sum(wins) / len(found), 4),
                "baseline": round(p, 5),
            }
    successes = sum(won for won, _ in rows)
    result["all"] = {"bot_cut_deals": len(rows), "successes": successes,
                     "rate": round(successes / len(rows), 4),
                     "baseline": round(sum(p for _, p in rows) / len(rows), 5),
                     "p_value": float(f"{_poisson_binomial_tail(successes, rows):.3g}")}
    return result


def _play_live(profile: str, seats: tuple[str, ...], deals: int,
               label: str) -> list[tuple[DealState, bool]]:
    """Plays games of *profile* until *deals* deals were cut by a bot; returns each such deal
    as it ended up, and whether a bot's play ended the deal before it."""
    from service.application import commands
    from workers import context, jobs
    from workers.plan import plan

    store, games = context.store(), context.games()
    found: list[tuple[DealState, bool]] = []
    chance = random.Random(f"{label}/{profile}")
    counter = itertools.count()
    late: set[tuple[str, int, int]] = set()

    def entropy() -> bytes:
        return hashlib.sha256(f"{label}/{profile}/{next(counter)}".encode()).digest()

    while len(found) < deals:
        # Basic bots: the case measures what the decks rest on, not how well the bots play.
        game_id = commands.create_game(
            store, profile, {}, seats, entropy=entropy,
            bot_levels=[BASIC if kind == "bot" else None for kind in seats]).game_id
        for _ in range(100_000):
            state = commands.load(games, game_id).state
            due = [job for job in plan(game_id, state) if job.name in ("play_bots", "turn_clock")]
            if any(job.delay is None for job in due):
                for job in due:
                    if job.delay is None:
                        getattr(jobs, job.name)(*job.args)
                continue
            if state.phase == "over" or not _person_acts(store, games, game_id, state,
                                                         chance, late):
                if due and state.phase != "over":  # Nobody else can: the window closes.
                    getattr(jobs, due[0].name)(*due[0].args)
                    continue
                break
        found += _bot_cut_deals(store, game_id, commands.load(games, game_id).state)
    return found[:deals]


def _person_acts(store: Any, games: Any, game_id: str, state: GameState,
                 chance: random.Random, late: set[tuple[str, int, int]]) -> bool:
    """Takes the people's next step as the web table would; False if none is theirs. A nonce
    the service refuses (a client too slow for the window) is noted in *late* and not sent
    again, as the web table does not."""
    from engine.bots import choose_action
    from engine.rejections import ContributionRefusedError
    from service.application import commands

    deal = state.deal
    if deal is None:
        return False
    humans = [seat for seat, kind in enumerate(state.seat_types) if kind == "human"]
    waiting = state.phase == "cut" and deal.algorithm == ALGORITHM_2
    nonce = hashlib.sha256(f"{game_id}/{state.version}".encode()).hexdigest()
    if waiting:
        sent = {seat for seat, _ in deal.nonces}
        for other in humans:
            if other not in sent and other != state.turn and (
                    game_id, deal.number, other) not in late:
                try:
                    commands.act(store, games, game_id, other,
                                 {"type": "contribute", "nonce": nonce},
                                 expected_version=state.version)
                except ContributionRefusedError:
                    late.add((game_id, deal.number, other))
                return True
    seat = state.turn
    if seat is None or seat not in humans:
        return False
    action = choose_action(state, seat, chance)
    if action is None:
        return False
    if waiting:
        action = {**action, "nonce": nonce}
    commands.act(store, games, game_id, seat, action, expected_version=state.version)
    return True


def _bot_cut_deals(store: Any, game_id: str, state: GameState) -> list[tuple[DealState, bool]]:
    """Returns the deals of *game_id* a bot cut, each with whether a bot ended the deal
    before (the seat that made the event just before the deal's shuffle)."""
    envelopes = [item.envelope for item in store.read(game_id)]
    deals = [*state.past_deals, *(() if state.deal is None else (state.deal,))]
    by_number = {deal.number: deal for deal in deals}
    found = []
    for index, envelope in enumerate(envelopes):
        if envelope.type != "deck_cut" or not isinstance(envelope.actor, int) or (
                state.seat_types[envelope.actor] != "bot"):
            continue
        shuffle = max(i for i in range(index) if envelopes[i].type == "deck_shuffled")
        number = envelopes[shuffle].data["deal"]
        before = envelopes[shuffle - 1].actor if shuffle > 0 else None
        after_bot = isinstance(before, int) and state.seat_types[before] == "bot"
        if number in by_number:
            found.append((by_number[number], after_bot))
    return found


def _person_nonces(deal: DealState, seats: tuple[str, ...]) -> list[int]:
    return [seat for seat, _ in deal.nonces if seats[seat] == "human"]


def _hand_positions(rules: RuleSet, dealer: int) -> tuple[int, ...]:
    """Returns the places in the cut deck of the cards dealt to the dealer's left."""
    positions: list[int] = []
    top = 0
    for batch in rules.deal_pattern:
        for step in range(1, rules.players + 1):
            if (dealer + step) % rules.players == (dealer + 1) % rules.players:
                positions += range(top, top + batch)
            top += batch
    return tuple(positions)


def _grind_live(rules: RuleSet, found: tuple[DealState, bool], seeds: int, label: str) -> bool:
    """Grinds one live deal a bot cut: the first of *seeds* seeds whose deck, as the server
    could compute it when drawing the seed (no nonce), gives the event; then that seed's deck
    with the contributions the deal really got. True if it gives the event."""
    deal, _ = found
    assert deal.context is not None and deal.cut_position is not None
    tops = top_trumps(rules, Suit.H)
    positions = _hand_positions(rules, deal.dealer)

    def event(nonces: tuple[tuple[int, str], ...], seed: str) -> bool:
        assert deal.context is not None and deal.cut_position is not None
        order = cut(deal_order(rules, seed, deal.context, deal.number, deal.cut_position,
                               nonces), deal.cut_position)
        return sum(order[i] in tops for i in positions) >= THRESHOLD

    seed = ""
    for i in range(seeds):
        seed = _hex(label, deal.context, deal.number, i)
        if event((), seed):
            break
    return event(deal.nonces, seed)


def _hearts_baseline(rules: RuleSet) -> float:
    """The chance of the live event in a fair deal: a hand of the first deal's size holds
    THRESHOLD or more of the TOP top trumps of hearts."""
    n, hand = len(pack(rules)), sum(rules.deal_pattern)
    fewer = sum(math.comb(TOP, j) * math.comb(n - TOP, hand - j) for j in range(THRESHOLD))
    return 1 - fewer / math.comb(n, hand)


def _poisson_binomial_tail(successes: int, rows: list[tuple[bool, float]]) -> float:
    """P(X >= successes) for X the number of events among deals of chances *rows*."""
    dist = [1.0]
    for _, p in rows:
        dist = [a * (1 - p) + b * p for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
    return min(1.0, sum(dist[successes:]))
