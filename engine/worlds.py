"""The worlds a seat's view allows: deals of the cards it has not seen, consistent with what is
public, for the strong bot's search (:mod:`engine.strong_bot`).

A world keeps everything the seat sees (its hand, the tricks, the turn-up, the auction, the
scores, how many cards each place holds) and deals the unseen cards anew among the other
hands, the stock and the face-down cards. It never reads what it replaces: the unseen cards
are worked out from the seat's own hand and the public play, so two states that show the seat
the same view give the same worlds for the same draws (the noninterference test checks it).

Consistency with public play comes from the rules themselves: a card cannot be in a hand if
holding it would have made a card that seat played illegal (:func:`engine.legality.legal_mask`
asked of the hand it held then). That covers the voids shown by failing to follow, a discard
on a trump lead (only protected trumps above the led card can be left in that hand, the renege
privilege) and the follow-suit option, with no second statement of those rules. A robber holds
the turn-up until it plays it.

The opponent model says how likely the other players were to act as they did holding a
world's cards: a sound player plays as the basic bot's rules would, robs with the ace of
trumps, and bids what its best suit is worth. It works twice: the cards that would have made a
seat play another card (asked of :func:`engine.bots.play_choice` with the hand it held then,
one unseen card added at a time) are kept out of that hand when a world is dealt, where the
deal allows (:attr:`Knowledge.unlikely`), which puts nearly all the worlds where the play
seen says the cards are; and :func:`plausibility` weights the world drawn for what a card at a
time cannot see (the bids, two cards together).
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import TypeAlias

from engine.bots import Chance, play_choice
from engine.cards import Card, Rank, Suit, cards_of
from engine.legality import legal_mask
from engine.profiles import RuleSet
from engine.ranking import Ranking, is_protected, ranking
from engine.shuffle import pack
from engine.state import DealState, GameState, Seat

UNLIKELY = 0.03
"""The weight of a world for each action a player took that a sound player holding that
world's cards would not have taken (soft: players err, and not every player is sound)."""

DEALS_CHECKED = 2
"""The past deals, besides the one in play, whose plays tell whether a player plays as the
model expects (:attr:`Knowledge.unmodelled`)."""

SAMPLING_TRIES = 8
"""Draws of a world under the public constraints before they are dropped (a dead end of the
greedy deal, never seen in practice but possible)."""


Play: TypeAlias = tuple[Seat, tuple[Card, ...], tuple[Seat, ...], Card, int]
"""A card played: (its seat, the trick's cards before it, their seats, the card, the trick's
index in the deal)."""


def plays_of(deal: DealState) -> list[Play]:
    """Returns every card played in *deal*, the trick in play included, in the order played."""
    played = [*deal.tricks, deal.current] if deal.current is not None else list(deal.tricks)
    return [(seat, trick.cards[:index], trick.seats[:index], card, number)
            for number, trick in enumerate(played)
            for index, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True))]


def later_plays(plays: Sequence[Play], seat: Seat, index_from: int) -> tuple[Card, ...]:
    """Returns the cards *seat* played from the play numbered *index_from* of *plays* on."""
    return tuple(card for who, _, _, card, _ in plays[index_from:] if who == seat)


class Knowledge:
    """What a seat knows of the cards of one decision, worked out once for all its worlds."""

    def __init__(self, state: GameState, seat: Seat) -> None:
        deal = state.deal
        assert deal is not None
        self.seat = seat
        self.deal = deal
        self.own = tuple(sorted(deal.hands[seat], key=int))
        """The seat's hand in pack order: a world does not depend on the order the view
        lists it in (a state rebuilt from the view may list it otherwise)."""
        self.plays = plays_of(deal)
        """Every card played in the deal (:data:`Play`)."""
        self.played_by: dict[Seat, list[Card]] = {}
        for other, _, _, card, _ in self.plays:
            self.played_by.setdefault(other, []).append(card)
        seen = [*deal.hands[seat], *(card for _, _, _, card, _ in self.plays)]
        robber = deal.robbed_by
        turn_up = deal.turn_up
        self.fixed: dict[Seat, tuple[Card, ...]] = {}
        if turn_up is not None:
            if robber is not None and robber != seat and turn_up not in seen:
                self.fixed[robber] = (turn_up,)  # The robber holds it until it plays it.
                seen.append(turn_up)
            elif robber is None:
                seen.append(turn_up)  # Face up.
        left = collections.Counter(seen)
        unseen: list[Card] = []
        for card in pack(state.rules):
            if left[card]:
                left[card] -= 1
            else:
                unseen.append(card)
        self.unseen = tuple(unseen)
        self.others = tuple(other for other in range(len(deal.hands)) if other != seat)
        self.needs = {other: len(deal.hands[other]) - len(self.fixed.get(other, ()))
                      for other in self.others}
        self.order: Ranking | None = (ranking(deal.trump, state.rules)
                                      if deal.trump is not None else None)
        self.unmodelled = self._unmodelled(state)
        """The other seats whose play has shown they do not play as the model expects
        (:func:`unexplained`): the model says nothing of their cards."""
        self.excluded, self.unlikely = self._exclusions(state)
        self.both = {other: self.excluded[other] | self.unlikely[other]
                     for other in self.others}
        # The most constrained cards are dealt first; ties in pack order (a public order).
        self.dealing_order = sorted(
            self.unseen, key=lambda card: (sum(card not in self.excluded[other]
                                               for other in self.others), int(card)))
        self.model_order = sorted(
            self.unseen, key=lambda card: (sum(card not in self.both[other]
                                               for other in self.others), int(card)))

    def later_plays(self, other: Seat, index_from: int) -> tuple[Card, ...]:
        """Returns the cards *other* played from the play numbered *index_from* on."""
        return later_plays(self.plays, other, index_from)

    def _unmodelled(self, state: GameState) -> frozenset[Seat]:
        """Returns the other seats that made a play in this deal or the :data:`DEALS_CHECKED`
        before it that the model cannot explain from the cards that seat is known to have
        held then (a random player shows itself within a deal or two; a sound one never)."""
        past = state.past_deals[-DEALS_CHECKED:] if DEALS_CHECKED else ()
        found: set[Seat] = set()
        for deal in (*past, self.deal):
            if deal.trump is None:
                continue
            order = ranking(deal.trump, state.rules)
            found |= unexplained(deal, order, state.rules, set(self.others) - found)
        return frozenset(found)

    def _exclusions(self, state: GameState) -> tuple[dict[Seat, set[Card]],
                                                     dict[Seat, set[Card]]]:
        """Returns, for each other seat, the unseen cards it cannot hold (holding one would
        have made a card it played illegal) and those it unlikely holds (holding one, a
        sound player, following the basic bot's rules, would have played another card, or
        robbed with the ace of trumps)."""
        excluded: dict[Seat, set[Card]] = {other: set() for other in self.others}
        unlikely: dict[Seat, set[Card]] = {other: set() for other in self.others}
        order = self.order
        self.exclusion_checks = 0
        if order is None:
            return excluded, unlikely
        rules = state.rules
        candidates = set(self.unseen)
        checks = 0
        for index, (other, before, seats, card, _) in enumerate(self.plays):
            if other == self.seat:
                continue
            held = self.later_plays(other, index) + self.fixed.get(other, ())
            legal = cards_of(legal_mask(held, before, order, rules))
            # A play the model explains from the cards known to be held tells which others
            # would have been played instead; one it cannot explain tells nothing of them.
            sound = other not in self.unmodelled and (
                len(legal) == 1 or play_choice(legal, before, seats, other, order, rules) == card)
            for unseen in candidates - excluded[other]:
                checks += 1
                mask = legal_mask((*held, unseen), before, order, rules)
                if not mask >> card & 1:
                    excluded[other].add(unseen)
                elif sound and unseen not in unlikely[other]:
                    choices = cards_of(mask)
                    if len(choices) > 1 and play_choice(
                            choices, before, seats, other, order, rules) != card:
                        unlikely[other].add(unseen)
        if rules.robbing and self.deal.turn_up is not None:
            ace = Card(Rank.ACE, order.trump)
            for other in self.others:
                if other != self.deal.robbed_by and other in self.played_by \
                        and other not in self.unmodelled:
                    unlikely[other].add(ace)
        self.exclusion_checks = checks
        return excluded, unlikely


def unexplained(deal: DealState, order: Ranking, rules: RuleSet,
                seats: set[Seat]) -> set[Seat]:
    """Returns those of *seats* that played a card in *deal* (trumps *order*) that the basic
    rules (:func:`engine.bots.play_choice`) would not have played from the cards the seat is
    known to have held then: the card itself and those it played later in the deal, all
    public. The rules pick the strongest or the cheapest card of a kind, so a better card
    among those known held is one in the whole hand too: the play is not the rules'."""
    plays = plays_of(deal)
    found: set[Seat] = set()
    for index, (seat, before, seated, card, _) in enumerate(plays):
        if seat not in seats or seat in found:
            continue
        held = later_plays(plays, seat, index)
        legal = cards_of(legal_mask(held, before, order, rules))
        if len(legal) > 1 and play_choice(legal, before, seated, seat, order, rules) != card:
            found.add(seat)
    return found


def sample_world(state: GameState, knowledge: Knowledge, chance: Chance, *,
                 modelled: bool = False) -> GameState:
    """Returns *state* with the unseen cards dealt anew, consistently with public play
    (within :data:`SAMPLING_TRIES`; then without the constraints). *modelled*: first try
    :data:`SAMPLING_TRIES` times to keep out of each hand the cards the opponent model finds
    unlikely there too (:attr:`Knowledge.unlikely`)."""
    if modelled:
        for _ in range(SAMPLING_TRIES):
            dealt = _deal(knowledge, chance, constrained=True, modelled=True)
            if dealt is not None:
                return _world(state, knowledge, dealt)
    for _ in range(SAMPLING_TRIES):
        dealt = _deal(knowledge, chance, constrained=True)
        if dealt is not None:
            return _world(state, knowledge, dealt)
    dealt = _deal(knowledge, chance, constrained=False)
    assert dealt is not None
    return _world(state, knowledge, dealt)


def _deal(knowledge: Knowledge, chance: Chance, *, constrained: bool, modelled: bool = False
          ) -> dict[object, list[Card]] | None:
    deal = knowledge.deal
    room: dict[object, int] = {other: need for other, need in knowledge.needs.items()}
    room.update(stock=len(deal.stock), face_down=len(deal.face_down))
    dealt: dict[object, list[Card]] = {place: [] for place in room}
    kept_out = knowledge.both if modelled else knowledge.excluded
    order = knowledge.model_order if modelled else knowledge.dealing_order
    for card in order:
        places = [place for place, free in room.items() if free > 0 and not (
            constrained and isinstance(place, int) and card in kept_out[place])]
        if not places:
            return None
        place = places[pick_weighted([room[place] for place in places], chance)]
        dealt[place].append(card)
        room[place] -= 1
    # The cards reach each place in the dealing order (pack order among equals); the stock
    # is drawn from in that order, so it is shuffled: a stock in pack order would hand every
    # world's exchange the same few suits.
    stock = dealt["stock"]
    for index in range(len(stock) - 1, 0, -1):
        other = chance.randrange(index + 1)
        stock[index], stock[other] = stock[other], stock[index]
    return dealt


def pick_weighted(weights: Sequence[int], chance: Chance) -> int:
    """Returns an index of *weights* (whole numbers, not all 0) drawn in proportion to them."""
    pick = chance.randrange(sum(weights))
    for index, weight in enumerate(weights):
        pick -= weight
        if pick < 0:
            return index
    raise AssertionError("a draw below the sum of the weights")


def _world(state: GameState, knowledge: Knowledge, dealt: dict[object, list[Card]]
           ) -> GameState:
    deal = knowledge.deal
    hands = tuple(knowledge.own if other == knowledge.seat
                  else knowledge.fixed.get(other, ()) + tuple(dealt[other])
                  for other in range(len(deal.hands)))
    return state._replace(deal=deal._replace(
        hands=hands, stock=tuple(dealt["stock"]), face_down=tuple(dealt["face_down"]),
        seed=None, order=()), contribution_secret=None)


def plausibility(world: GameState, knowledge: Knowledge) -> float:
    """Returns how likely the other players' public actions are if they hold the cards they
    hold in *world*, up to a constant: :data:`UNLIKELY` for each play the basic rules
    (:func:`engine.bots.play_choice`) would not have made from that hand, and for each bid or
    pass that does not match what the hand's best suit is worth."""
    deal = world.deal
    assert deal is not None
    weight = 1.0
    order = knowledge.order
    rules = world.rules
    if deal.phase == "bidding" and deal.auction is not None:
        weight *= _bids_plausibility(world, deal, knowledge)
    elif deal.auction is not None and deal.bidder is not None and deal.bid is not None \
            and deal.bidder != knowledge.seat and order is not None:
        # A declarer who bid b kept and drew trumps: about one for every 10 points bid.
        held = deal.hands[deal.bidder] + knowledge.later_plays(deal.bidder, 0)
        trumps = sum(1 for card in held if card in order.trump_power)
        if trumps * 10 < deal.bid:
            weight *= UNLIKELY
    if order is None:
        return weight
    if rules.robbing and deal.turn_up is not None:
        # The holder of the ace of trumps may rob before its first play, and a sound player
        # does: a seat that played without robbing likely lacks it.
        ace = Card(Rank.ACE, order.trump)
        for other in knowledge.others:
            if other != deal.robbed_by and other in knowledge.played_by \
                    and other not in knowledge.unmodelled and (
                    ace in deal.hands[other] or ace in knowledge.played_by[other]):
                weight *= UNLIKELY
    for index, (other, before, seats, card, _) in enumerate(knowledge.plays):
        if other == knowledge.seat or other in knowledge.unmodelled:
            continue
        held = deal.hands[other] + knowledge.later_plays(other, index)
        legal = cards_of(legal_mask(held, before, order, rules))
        if len(legal) > 1 and play_choice(legal, before, seats, other, order, rules) != card:
            weight *= UNLIKELY
    return weight


def _bids_plausibility(world: GameState, deal: DealState, knowledge: Knowledge) -> float:
    assert deal.auction is not None
    weight = 1.0
    high = 0
    for other, call, amount in deal.auction.calls:
        if other != knowledge.seat and other not in knowledge.unmodelled:
            worth = hand_worth(deal.hands[other], world)
            if call == "bid" and amount is not None and worth < amount:
                weight *= UNLIKELY
            elif call == "pass" and worth > high + 5:
                weight *= UNLIKELY
        if call == "bid" and amount is not None:
            high = amount
    return weight


def hand_worth(hand: Sequence[Card], state: GameState) -> int:
    """Returns what the basic bot thinks a hand is worth in the auction: 5 x (protected
    trumps + trumps) in its best suit."""
    best = 0
    for order in _rankings(state):
        trumps = [card for card in hand if card in order.trump_power]
        tops = sum(1 for card in trumps if is_protected(card, order.trump))
        best = max(best, 5 * (tops + len(trumps)))
    return best


def _rankings(state: GameState) -> tuple[Ranking, ...]:
    return tuple(ranking(suit, state.rules) for suit in Suit)
