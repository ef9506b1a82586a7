"""Builds games from exact deals for the engine tests: ``recorded_game`` and a ``Table``.

A deal is recorded card by card with ``DealRecorded`` (hands as dealt, the turn-up, the stock
below it), so a test fixes every card. Every action goes through :func:`engine.actions.decide`,
so the rules are checked exactly as for a real player, and its events are folded one by one.

At the end of a deal the server's own step is a new shuffle; the table drops that
``DeckShuffled`` so that the test can record the next deal too (:meth:`Table.record`), or
keeps it when asked (:meth:`Table.shuffle`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.actions import decide, legal_actions, server_events, start_game
from engine.cards import Card, card_sort_key, parse_cards
from engine.fold import apply_event
from engine.profiles import make_ruleset
from engine.shuffle import first_dealer, pack
from engine.state import DealState, Fact, GameState, Trick
from events.types import DealRecorded, DeckShuffled, Event, GameCreated

ENTROPY = bytes(range(32))
"""The fixed 32 bytes the tests hand the engine whenever a new shuffle is due."""

FACT_RULES = {
    "trick_won": {"trick.highest_trump", "trick.highest_of_led_suit", "trick.identical_first"},
    "renege_allowed": {"play.trump_lead.withhold"},
    "bonus_proven": {"bonus.proven.five", "bonus.proven.higher_out",
                     "bonus.proven.hands_exhausted"},
    "bonus_none": {"bonus.none"},
    "target_reached": {"finish.chronology", "finish.deal_end", "finish.counted_first",
                       "finish.bidder_priority"},
    "jink": {"jink.take_all", "jink.announced.made", "jink.announced.failed"},
    "bid_made": {"bid.made", "bid.made_thirty"},
    "bid_set": {"bid.set"},
    "passed_out": {"auction.all_pass"},
    "spoiled": {"spoil_five"},
    "game_won": {"match.game_won"},
}
"""The rule ids each kind of derived fact may carry."""


def game_seed_for_dealer(players: int, dealer: int) -> str:
    """Returns the first game seed (SHA-256 of ``dealer-seed/i``) that draws *dealer*."""
    for index in range(10_000):
        seed = hashlib.sha256(b"dealer-seed/%d" % index).hexdigest()
        if first_dealer(seed, players) == dealer:
            return seed
    raise AssertionError(f"no seed draws dealer {dealer} of {players}")


def cards_in_play(state: GameState) -> Counter[Card]:
    """Returns every card the deal in *state* accounts for: hands, an unrobbed turn-up, the
    stock, the cards face down and the cards played to tricks."""
    deal = state.deal
    assert deal is not None, "a deal is in progress"
    counted: Counter[Card] = Counter()
    for hand in deal.hands:
        counted.update(hand)
    if deal.turn_up is not None and deal.robbed_by is None:
        counted[deal.turn_up] += 1
    counted.update(deal.stock)
    counted.update(deal.face_down)
    for trick in deal.tricks:
        counted.update(trick.cards)
    if deal.current is not None:
        counted.update(deal.current.cards)
    return counted


def rest_of_pack(rules_pack: Iterable[Card], used: Iterable[Card]) -> tuple[Card, ...]:
    """Returns the cards of *rules_pack* not in *used*, in canonical order."""
    left = Counter(rules_pack)
    left.subtract(Counter(used))
    assert all(count >= 0 for count in left.values()), f"cards used twice: {+(-left)}"
    return tuple(sorted(left.elements(), key=card_sort_key))


@dataclasses.dataclass
class Table:
    """A game under test: its events so far and the state they fold to."""

    state: GameState
    events: list[Event]

    @property
    def deal(self) -> DealState:
        """The deal in progress (or the one just finished)."""
        assert self.state.deal is not None, "a deal has been recorded"
        return self.state.deal

    def fold_in(self, events: Iterable[Event]) -> None:
        """Applies *events* one at a time and keeps them."""
        for event in events:
            self.state = apply_event(self.state, event)
            self.events.append(event)

    def act(self, seat: int, action: Mapping[str, Any]) -> tuple[Event, ...]:
        """Lets *seat* take *action* through ``decide``; returns the events kept.

        :raises ActionRejectedError: (or a subclass) when the rules refuse it.
        """
        produced = decide(self.state, seat, action, entropy=ENTROPY)
        kept = tuple(event for event in produced if not isinstance(event, DeckShuffled))
        self.fold_in(kept)
        return kept

    def play(self, seat: int, card: str) -> tuple[Event, ...]:
        """Plays *card* from *seat*."""
        return self.act(seat, {"type": "play", "card": card})

    def play_in_turn(self, cards: str) -> None:
        """Plays the comma-separated *cards* in turn order from the seat to play."""
        for card in cards.split(","):
            seat = self.state.turn
            assert seat is not None, f"nobody is to play {card}: phase {self.state.phase}"
            self.play(seat, card.strip())

    def trick(self, cards: str) -> Trick:
        """Plays the comma-separated *cards* in turn order from the seat to play; returns the
        trick once complete (``cards`` must fill it)."""
        before = len(self.deal.tricks)
        self.play_in_turn(cards)
        tricks = self.deal.tricks
        assert len(tricks) == before + 1, f"{cards} did not complete trick {before + 1}"
        return tricks[-1]

    def record(
        self, hands: Sequence[str], turn_up: str | None, stock: str = "",
    ) -> None:
        """Records the next deal (see :func:`recorded_game`)."""
        number = self.state.deal.number + 1 if self.state.deal is not None else 1
        self.fold_in([recorded_deal(self.state, number, hands, turn_up, stock)])

    def shuffle(self) -> tuple[Event, ...]:
        """Lets the server shuffle the next deal from the fixed entropy."""
        produced = server_events(self.state, ENTROPY)
        self.fold_in(produced)
        return produced

    def play_out(self) -> None:
        """Plays the deal to its end, each seat playing its first legal card."""
        deal_number = self.deal.number
        while self.state.turn is not None and self.deal.number == deal_number:
            seat = self.state.turn
            first = next(a for a in self.legal(seat) if a["type"] == "play")
            self.act(seat, first)
        assert self.deal.phase == "over", f"deal {deal_number} did not end"

    def facts(self, kind: str) -> list[Fact]:
        """Returns the facts of *kind* established in the current deal, in order."""
        return [fact for fact in self.deal.facts if fact.kind == kind]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """Returns ``legal_actions`` for *seat* as a list."""
        return list(legal_actions(self.state, seat))


def plays(*codes: str) -> list[dict[str, str]]:
    """Returns the play actions for *codes*, in the order given."""
    return [{"type": "play", "card": code} for code in codes]


def recorded_deal(
    state: GameState, number: int, hands: Sequence[str], turn_up: str | None, stock: str = "",
) -> DealRecorded:
    """Returns the ``DealRecorded`` event for *hands* (comma-separated codes per seat).

    The stock starts with the comma-separated *stock* (top first) and goes on with the rest of
    the pack in canonical order, so that every card of the pack is accounted for.
    """
    dealt = [parse_cards(hand) for hand in hands]
    up = [Card.parse(turn_up)] if turn_up is not None else []
    top = parse_cards(stock)
    used = [card for hand in dealt for card in hand] + up + list(top)
    below = top + rest_of_pack(pack(state.rules), used)
    return DealRecorded(
        number,
        tuple(tuple(card.code() for card in hand) for hand in dealt),
        turn_up,
        tuple(card.code() for card in below),
    )


def recorded_game(
    profile: str,
    options: Mapping[str, Any] | None,
    hands: Sequence[str],
    turn_up: str | None,
    stock: str = "",
    dealer: int = 0,
    scores: Sequence[int] | None = None,
) -> Table:
    """Returns a table whose first deal is *hands* (comma-separated codes, indexed by seat)
    with *turn_up* exposed (``None`` for the auction) and *stock* on top of the rest of the
    pack below it, dealt by *dealer*.

    The game seed is chosen so that the seed itself draws *dealer*. *scores*, when given,
    replace the game's scores before the deal is recorded (``_replace`` on the
    state), to stand for earlier deals; the events alone then no longer fold to that state.
    """
    players = len(hands)
    rules = make_ruleset(profile, options or {}, players)
    created = GameCreated(
        profile, rules.options(), ("human",) * players, game_seed_for_dealer(players, dealer)
    )
    state = apply_event(None, created)
    assert state.dealer == dealer, "the seed draws the wanted dealer"
    if scores is not None:
        state = state._replace(scores=tuple(scores))
    table = Table(state, [created])
    table.record(hands, turn_up, stock)
    return table


def shuffled_game(
    profile: str, options: Mapping[str, Any] | None, players: int, dealer: int = 0,
    shuffle_seed: bytes = ENTROPY,
) -> Table:
    """Returns a table as the server starts it: created and shuffled from *shuffle_seed*, with
    a game seed that draws *dealer*; the next action is the cut."""
    game_seed = bytes.fromhex(game_seed_for_dealer(players, dealer))
    events = start_game(profile, options or {}, ("human",) * players, game_seed, shuffle_seed)
    table = Table(apply_event(None, events[0]), [events[0]])
    table.fold_in(events[1:])
    assert table.state.dealer == dealer, "the seed draws the wanted dealer"
    return table
