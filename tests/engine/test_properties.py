"""Properties of random legal games over every profile, player count, layout and option.

Each game is played by a seeded ``random.Random``: every action is chosen uniformly from
``legal_actions``, except that in the auction a player mostly passes and otherwise holds or
makes the lowest bid (so the auction stays short and bids are often made), and a seat out of
turn sometimes announces a jink where it may. The server's
steps get fresh entropy from the same generator. After every event the pack must be whole;
after every deal its points must follow from its tricks by the rules, computed here
independently of :mod:`engine.scoring` from the cards played and the cards still held.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections import Counter
from typing import Any

from deals import FACT_RULES, cards_in_play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.action_values import action_json, parse_action
from engine.actions import (
    decide,
    decide_and_apply,
    legal_actions,
    legal_moves,
    refusals,
    server_events,
    start_game,
    start_game_and_apply,
)
from engine.cards import Card
from engine.fold import apply_event, fold
from engine.profiles import LAYOUT_SIZE
from engine.ranking import Ranking, ranking
from engine.rejections import IllegalPlayError
from engine.shuffle import pack
from engine.state import DealState, GameState
from events.types import Event

MAX_STEPS = 6000
"""No game here needs more actions than this; a game that does has not ended."""

PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def configurations(draw: st.DrawFn) -> tuple[str, dict[str, Any], int]:
    """Draws a profile, its options and a player count that make a valid game."""
    profile = draw(st.sampled_from(["bruff", "auction", "classic", "classic", "classic"]))
    match_games = draw(st.sampled_from([1, 1, 2]))
    if profile == "bruff":
        return profile, {"match_games": match_games}, 6
    if profile == "auction":
        return profile, {"match_games": match_games,
                         "min_bid": draw(st.sampled_from([5, 15]))}, 4
    players = draw(st.integers(2, 10))
    layouts = [name for name, size in LAYOUT_SIZE.items()
               if players % size == 0 and players // size >= 2]
    layout = draw(st.sampled_from(layouts))
    sides = players // LAYOUT_SIZE[layout]
    options: dict[str, Any] = {
        "layout": layout,
        "match_games": match_games,
        "joker": draw(st.sampled_from(["none", "below_ah"])),
        "finish": draw(st.sampled_from(["trick", "deal_end"])),
        "follow": draw(st.sampled_from(["trump_or_follow", "must_follow"])),
        "deal_pattern": draw(st.sampled_from(["3-2", "2-3"])),
        # With more than four sides most deals would be spoiled and a game would drag on.
        "spoil_five": sides <= 4 and draw(st.booleans()),
        "bonus": draw(st.sampled_from([True, True, False])),
        "robbing": draw(st.sampled_from([True, True, False])),
        "diamond_ace": draw(st.sampled_from(["low", "below_jack"])),
    }
    if players >= 7:
        options["decks"] = draw(st.sampled_from([1, 2]))
    if sides == 2:
        options["jink"] = draw(st.sampled_from(["none", "announced"]))
    return profile, options, players


@dataclasses.dataclass
class Game:
    """A random game: its events and the state after each (``states[i]`` follows event i)."""

    events: list[Event]
    states: list[GameState]

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def deals(self) -> list[DealState]:
        """Every deal of the game that ended, in order."""
        final = self.state
        deals = [*final.past_deals, *([final.deal] if final.deal is not None else [])]
        return [deal for deal in deals if deal.result is not None]


def _choose(state: GameState, rnd: random.Random) -> tuple[int, dict[str, Any]]:
    """Returns a seat and a legal action for it."""
    players = state.rules.players
    if state.rules.jink == "announced" and rnd.random() < 0.05:
        jinkers = [seat for seat in range(players) if {"type": "jink"} in
                   legal_actions(state, seat)]
        if jinkers:
            return rnd.choice(jinkers), {"type": "jink"}
    seat = state.turn
    assert seat is not None, f"nobody is to act in phase {state.phase}"
    legal = legal_actions(state, seat)
    assert legal, f"seat {seat} is to act in phase {state.phase} but has no legal action"
    if state.phase == "bidding":
        # Mostly pass; otherwise hold or make the lowest bid, so bids are often made and the
        # game moves on (random bids up to 30 are mostly set, and scores would drift).
        calls = [action for action in legal if action["type"] == "hold"]
        calls += [action for action in legal if action["type"] == "bid"][:1]
        if not calls or rnd.random() < 0.6:
            return seat, {"type": "pass"}
        return seat, rnd.choice(calls)
    return seat, rnd.choice(legal)


def _check_refusals(state: GameState, seat: int, rnd: random.Random) -> None:
    """Checks that every card of the hand that is not listed as legal is refused."""
    deal = state.deal
    assert deal is not None
    legal = legal_actions(state, seat)
    for card in set(deal.hands[seat]):
        action = {"type": "play", "card": card.code()}
        if action not in legal:
            try:
                decide(state, seat, action, entropy=rnd.randbytes(32))
            except IllegalPlayError:
                continue
            raise AssertionError(f"{card} was accepted but not listed: {legal}")


def _check_cards(state: GameState) -> None:
    """Checks that the deal accounts for the whole pack, no card more or less."""
    deal = state.deal
    if deal is None:
        return
    whole = Counter(pack(state.rules))
    if deal.phase == "cut":
        assert Counter(deal.order) == whole
        return
    counted = cards_in_play(state)
    assert counted == whole, f"lost {whole - counted}, created {counted - whole}"


def play_random_game(
    profile: str, options: dict[str, Any], players: int, seed: int
) -> Game:
    """Plays a whole random game from *seed*, checking the pack after every event."""
    rnd = random.Random(seed)
    opening, started = start_game_and_apply(
        profile, options, ["bot"] * players, rnd.randbytes(32), rnd.randbytes(32)
    )
    decided: GameState | None = started
    events = list(opening)
    state = apply_event(None, events[0])
    states = [state]
    pending = events[1:]
    for _ in range(MAX_STEPS):
        for event in pending:
            state = apply_event(state, event)
            _check_cards(state)
            states.append(state)
        # What the engine decided and applied at once is what folding its events gives.
        assert decided is None or state == decided, (
            f"the state decided with events {pending} is not their fold")
        if state.phase == "over":
            return Game(events, states)
        if state.phase in ("shuffle", "reveal"):
            pending = list(server_events(state, rnd.randbytes(32)))
            decided = None
        else:
            seat, action = _choose(state, rnd)
            if state.phase == "play" and seat == state.turn and rnd.random() < 0.2:
                _check_refusals(state, seat, rnd)
            made, decided = decide_and_apply(state, seat, action, entropy=rnd.randbytes(32))
            pending = list(made)
        events += pending
    raise AssertionError(f"the game did not end within {MAX_STEPS} actions")


# Independent bookkeeping of a deal's points.


def _played(deal: DealState) -> list[tuple[int, Card]]:
    """Returns (trick number, card) for every card played in *deal*, in play order, the cards
    of an unfinished (or interrupted) trick numbered after the completed ones."""
    played = [(number, card) for number, trick in enumerate(deal.tricks, start=1)
              for card in trick.cards]
    if deal.current is not None:
        played += [(len(deal.tricks) + 1, card) for card in deal.current.cards]
    return played


def _highest_played(deal: DealState, order: Ranking) -> tuple[int, Card] | None:
    """Returns (trick number, card) of the highest trump played so far: of two identical
    cards the first played ranks higher."""
    best: tuple[int, Card] | None = None
    for number, card in _played(deal):
        if order.is_trump(card) and (
            best is None or order.trump_power[card] > order.trump_power[best[1]]
        ):
            best = (number, card)
    return best


def _true_bonus_trick(deal: DealState, rules: Any) -> int | None:
    """Returns the trick (possibly an unfinished one) that holds the deal's highest trump, from
    every card dealt (the server's knowledge), or ``None`` when that trump is still held, no
    trump was dealt, or the game has no bonus."""
    assert deal.trump is not None
    order = ranking(deal.trump, rules)
    highest = _highest_played(deal, order)
    if not rules.bonus or highest is None:
        return None
    held = [card for hand in deal.hands for card in hand if order.is_trump(card)]
    if any(order.trump_power[card] > order.trump_power[highest[1]] for card in held):
        return None
    return highest[0]


def _publicly_proven(deal: DealState, rules: Any) -> bool:
    """True when public knowledge proves the highest trump played is the deal's highest
    (docs/rules.md: the trump five; every higher trump the unrobbed turn-up, once the first trick
    is complete or without robbing; or the hands exhausted)."""
    assert deal.trump is not None
    order = ranking(deal.trump, rules)
    highest = _highest_played(deal, order)
    if not rules.bonus or highest is None:
        return False
    card = highest[1]
    if card.suit is deal.trump and card.code()[0] == "5":
        return True
    higher = [other for other in order.trump_order
              if order.trump_power[other] > order.trump_power[card]]
    turn_up_out = (
        deal.turn_up is not None and deal.robbed_by is None
        and (bool(deal.tricks) or not rules.robbing)
    )
    if rules.decks == 1 and turn_up_out and higher == [deal.turn_up]:
        return True
    return len(deal.tricks) == 5


def _facts(deal: DealState, kind: str) -> list[Any]:
    return [fact for fact in deal.facts if fact.kind == kind]


def _check_deal_points(deal: DealState, rules: Any) -> None:
    """Checks a finished deal's points against its tricks and the rules."""
    result = deal.result
    assert result is not None
    if deal.trump is None:  # passed out
        assert result.points == (0,) * rules.sides
        assert [fact.ruling.rule_id for fact in deal.facts] == ["auction.all_pass"]
        return
    bonus_trick = _true_bonus_trick(deal, rules)
    for proven in _facts(deal, "bonus_proven"):
        assert proven.credited_trick == bonus_trick, "a proven bonus is where it truly lies"
    took = [0] * rules.sides
    for number, trick in enumerate(deal.tricks[:result.ended_at_trick], start=1):
        assert trick.winner is not None
        took[rules.side_of(trick.winner)] += 5 + (5 if number == bonus_trick else 0)
    complete = len(deal.tricks) == 5 and result.ended_at_trick == 5
    if complete:
        any_trump = bonus_trick is not None
        assert sum(took) == (30 if any_trump else 25), "30 a deal, 25 with no trump in play"
        assert bool(_facts(deal, "bonus_none")) == (rules.bonus and not any_trump)
    failed_jink = [f for f in _facts(deal, "jink") if f.ruling.rule_id == "jink.announced.failed"]
    expected = list(took)
    if failed_jink:
        expected = [0] * rules.sides
    elif rules.spoil_five and complete and max(result.tricks_won) < 3:
        expected = [0] * rules.sides
        assert _facts(deal, "spoiled")
    elif deal.jink_seat is not None and rules.jink == "announced":
        side = rules.side_of(deal.jink_seat)
        assert result.tricks_won[side] == 5
        expected[side] *= 2
    if rules.auction:
        assert deal.bid is not None and deal.bidder is not None
        side = rules.side_of(deal.bidder)
        if took[side] >= deal.bid:
            expected[side] = 60 if deal.bid == 30 else took[side]
        else:
            expected[side] = -deal.bid
    if not complete and not failed_jink:
        # A chronology finish mid-deal counts the bonus only once proven.
        proven = _facts(deal, "bonus_proven")
        if not proven or proven[0].credited_trick > result.ended_at_trick:
            expected = [0] * rules.sides
            for trick in deal.tricks[:result.ended_at_trick]:
                expected[rules.side_of(trick.winner)] += 5
    assert list(result.points) == expected, f"{result} for tricks worth {took}"
    assert list(result.scores) == [
        before + gained for before, gained in zip(deal.start_scores, expected, strict=True)
    ]


def _check_finish(deal: DealState, rules: Any) -> None:
    """Checks who won in a deal against the rules, with the true place of the bonus."""
    result = deal.result
    assert result is not None
    reached = _facts(deal, "target_reached")
    if result.winner is None:
        assert all(score < rules.target for score in result.scores)
        assert not reached
        return
    if any(f.ruling.rule_id in ("jink.take_all", "jink.announced.failed")
           for f in _facts(deal, "jink")):
        return
    [fact] = reached
    assert fact.side == result.winner
    assert result.scores[result.winner] >= rules.target
    if fact.ruling.rule_id != "finish.chronology":
        return
    # The true first side to the target, trick by trick, with the bonus where it truly lies.
    bonus_trick = _true_bonus_trick(deal, rules)
    running = list(deal.start_scores)
    for number, trick in enumerate(deal.tricks, start=1):
        assert trick.winner is not None
        side = rules.side_of(trick.winner)
        running[side] += 5 + (5 if number == bonus_trick else 0)
        if running[side] >= rules.target:
            assert (side, number <= fact.trick) == (result.winner, True), (
                f"side {side} truly reached {rules.target} first, at trick {number}"
            )
            return
    raise AssertionError("a chronology finish was declared but no side truly reached it")


# The properties.


@PROPERTY_SETTINGS
@given(configurations(), st.integers(0, 2**32))
def test_random_legal_games_end_and_never_create_or_lose_a_card(
    configuration: tuple[str, dict[str, Any], int], seed: int
) -> None:
    profile, options, players = configuration
    game = play_random_game(profile, options, players, seed)

    assert game.state.phase == "over"
    assert game.state.winner is not None
    assert game.state.games_won[game.state.winner] == game.state.rules.match_games


@PROPERTY_SETTINGS
@given(configurations(), st.integers(0, 2**32))
def test_every_deal_scores_its_tricks_by_the_rules(
    configuration: tuple[str, dict[str, Any], int], seed: int
) -> None:
    profile, options, players = configuration
    game = play_random_game(profile, options, players, seed)

    rules = game.state.rules
    for deal in game.deals():
        _check_deal_points(deal, rules)
        _check_finish(deal, rules)
        for fact in deal.facts:
            assert fact.ruling.rule_id in FACT_RULES[fact.kind], fact


@settings(max_examples=25, deadline=None)
@given(configurations(), st.integers(0, 2**32), st.data())
def test_folding_all_events_at_once_equals_folding_them_one_at_a_time(
    configuration: tuple[str, dict[str, Any], int], seed: int, data: st.DataObject
) -> None:
    profile, options, players = configuration
    game = play_random_game(profile, options, players, seed)

    assert fold(game.events) == game.state
    cut = data.draw(st.integers(1, len(game.events)))
    assert fold(game.events[:cut]) == game.states[cut - 1]
    assert fold(game.events[cut:], game.states[cut - 1]) == game.state


@settings(max_examples=10, deadline=None)
@given(configurations(), st.integers(0, 2**32))
def test_every_typed_move_is_accepted_and_decides_as_its_json_object(
    configuration: tuple[str, dict[str, Any], int], seed: int
) -> None:
    profile, options, players = configuration
    game = play_random_game(profile, options, players, seed)
    entropy = hashlib.sha256(str(seed).encode()).digest()

    for state in game.states[::3]:
        for seat in range(players):
            moves = legal_moves(state, seat)
            for move in moves[:12]:
                posted = action_json(move)
                assert parse_action(posted) == move
                assert refusals(state, seat, move) == []  # The long way round agrees.
                assert decide_and_apply(state, seat, move, entropy=entropy) == (
                    decide_and_apply(state, seat, posted, entropy=entropy))


@settings(max_examples=15, deadline=None)
@given(configurations(), st.integers(0, 2**32))
def test_the_same_seeds_give_the_same_game(
    configuration: tuple[str, dict[str, Any], int], seed: int
) -> None:
    profile, options, players = configuration
    first = play_random_game(profile, options, players, seed)
    again = play_random_game(profile, options, players, seed)

    assert again.events == first.events
    assert again.state == first.state


def test_a_bruff_deal_gives_five_cards_to_each_of_six_players_and_leaves_23() -> None:
    jokers_turned = 0
    for index in range(200):
        seed = hashlib.sha256(b"bruff-deal/%d" % index).digest()
        events = start_game("bruff", {}, ["bot"] * 6, seed[:16] * 2, seed)
        state = fold(events)
        cutter = (state.dealer - 1) % 6
        for event in decide(state, cutter, {"type": "cut", "position": 1 + index % 52}):
            state = apply_event(state, event)
        deal = state.deal
        assert deal is not None
        if deal.phase == "joker":
            jokers_turned += 1
            assert len(deal.hands[deal.dealer]) == 6
            state = fold(decide(state, deal.dealer, {"type": "bury", "card": "JK"}), state)
            deal = state.deal
            assert deal is not None
        assert [len(hand) for hand in deal.hands] == [5] * 6
        assert deal.turn_up is not None
        assert len(deal.stock) + 1 + len(deal.face_down) == 23
        assert cards_in_play(state) == Counter(pack(state.rules))
    assert jokers_turned > 0, "some seed turns the joker"


@settings(max_examples=30, deadline=None)
@given(configurations(), st.integers(0, 2**32))
def test_the_bonus_is_proven_exactly_when_public_knowledge_proves_it(
    configuration: tuple[str, dict[str, Any], int], seed: int
) -> None:
    profile, options, players = configuration
    game = play_random_game(profile, options, players, seed)

    for state in game.states:
        deal = state.deal
        if deal is None or deal.trump is None or deal.phase not in ("play", "over"):
            continue
        assert deal.bonus_proven == _publicly_proven(deal, state.rules), (
            f"deal {deal.number} after event {state.version}"
        )
