"""A game state built from one seat's view (:func:`replay.views.game_view`), for a player that
only holds that view: a bot playing a seat over the API.

The seat's own hand, the public play (tricks, trump, turn-up, auction, scores) and the counts of
everything face down come from the view. The cards the seat cannot see (the other hands, the
stock, the face-down cards) are stood in for by the cards it has not seen, in the pack's order:
a filler that depends on the view alone, so nothing hidden can leak into what is decided on it.
The filler is not a guess at where the cards are; a decision that reads another seat's hand
would be wrong on this state, and the engine's bot never reads one.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.cards import Card, Suit
from engine.profiles import RuleSet, make_ruleset
from engine.ranking import ranking
from engine.shuffle import pack
from engine.state import Auction, DealState, GameState, HighestTrump, Seat, Trick


class SeatViewError(ValueError):
    """The view is not a seat's view of a game (no seat, no hand), or is malformed."""


def state_from_view(view: Mapping[str, Any]) -> tuple[GameState, Seat]:
    """Returns the state *view* shows its seat, and that seat.

    :raises SeatViewError: for a spectator's or auditor's view, or one that is malformed.
    """
    seat = view.get("viewer")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise SeatViewError(f"not a seat's view (viewer {seat!r})")
    try:
        rules = make_ruleset(view["profile"], view["options"], view["players"])
        shown = view.get("deal")
        scores = tuple(int(score) for score in view["scores"])
        deal = _deal(shown, view, seat, rules, scores) if shown is not None else None
        return GameState(
            version=int(view["version"]),
            deal=deal,
            rules=rules,
            seat_types=tuple(view["seat_types"]),
            seat_levels=tuple(view.get("seat_levels") or ()),
            game_seed="",
            dealer=int(view["dealer"]),
            scores=scores,
            games_won=tuple(int(won) for won in view["games_won"]),
            game_number=int(view["game_number"]),
            winner=view["winner"],
        ), seat
    except (KeyError, TypeError, ValueError) as error:
        raise SeatViewError(f"malformed view: {error!r}") from None


def _deal(shown: Mapping[str, Any], view: Mapping[str, Any], seat: Seat, rules: RuleSet,
          scores: tuple[int, ...]) -> DealState:
    whole_pack = pack(rules)
    hand = tuple(Card.parse(code) for code in view["hand"] or ())
    tricks = tuple(_trick(trick) for trick in shown["tricks"])
    current = _trick(shown["current_trick"]) if shown["current_trick"] is not None else None
    turn_up = Card.parse(shown["turn_up"]) if shown["turn_up"] is not None else None
    played = (*tricks, current) if current is not None else tricks
    seen = [*hand, *(card for trick in played for card in trick.cards)]
    robber = shown["robbed_by"]
    # The turn-up lies face up until it is robbed; then the robber holds it until played.
    robbed = (turn_up,) if turn_up is not None and robber not in (None, seat) \
        and turn_up not in seen else ()
    if turn_up is not None and (robber is None or robbed):
        seen.append(turn_up)
    unseen = _unseen(whole_pack, seen)
    hands = tuple(hand if other == seat
                  else robbed + _take(unseen, size - len(robbed)) if other == robber
                  else _take(unseen, size)
                  for other, size in enumerate(shown["hand_sizes"]))
    stock = _take(unseen, shown["stock_size"])
    face_down = _take(unseen, shown["face_down_count"])
    trump = Suit[shown["trump"]] if shown["trump"] is not None else None
    return DealState(
        number=int(shown["number"]),
        dealer=int(shown["dealer"]),
        phase=shown["phase"],
        hands=hands,
        tricks=tricks,
        current=current,
        turn=view["turn"],
        algorithm=shown["algorithm"],
        commitment=shown["commitment"],
        context=shown["context"],
        cut_position=shown["cut"],
        turn_up=turn_up,
        stock=stock,
        face_down=face_down,
        robbed_by=shown["robbed_by"],
        trump=trump,
        auction=_auction(shown["auction"], view["turn"]),
        bidder=shown["bidder"],
        bid=shown["bid"],
        discards_done=tuple(shown["discarded"]),
        jink_seat=shown["jink"],
        bonus_proven=bool(shown["bonus_proven"]),
        # The scores move only when a deal ends: a deal in play began at them (the strong
        # bot's play-outs fold this deal to its end, which counts from them).
        start_scores=scores,
        highest=_highest(played, trump, rules),
    )


def _highest(played: Sequence[Trick], trump: Suit | None, rules: RuleSet
             ) -> HighestTrump | None:
    """The highest trump played so far and where, as the fold keeps it (the first of two
    identical cards ranks higher): the bonus of a deal played on from this state counts it."""
    if trump is None:
        return None
    power = ranking(trump, rules).power_of
    highest: HighestTrump | None = None
    for number, trick in enumerate(played, start=1):
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            if power[card] and (highest is None or power[card] > power[highest.card]):
                highest = HighestTrump(card, seat, number)
    return highest


def _trick(shown: Mapping[str, Any]) -> Trick:
    played = shown["cards"]
    return Trick(leader=int(shown["leader"]),
                 seats=tuple(int(card["seat"]) for card in played),
                 cards=tuple(Card.parse(card["card"]) for card in played),
                 winner=shown["winner"])


def _auction(shown: Mapping[str, Any] | None, turn: Seat | None) -> Auction | None:
    if shown is None:
        return None
    calls = tuple((int(call["seat"]), str(call["call"]), call["amount"])
                  for call in shown["calls"])
    return Auction(turn=turn if turn is not None else 0, high=shown["high"],
                   high_seat=shown["high_seat"], passed=frozenset(shown["passed"]), calls=calls)


def _unseen(whole_pack: Sequence[Card], seen: Sequence[Card]) -> Iterator[Card]:
    """The pack's cards the seat has not seen, in the pack's order (each copy once)."""
    left = collections.Counter(seen)
    for card in whole_pack:
        if left[card]:
            left[card] -= 1
        else:
            yield card


def _take(cards: Iterator[Card], count: int) -> tuple[Card, ...]:
    taken = tuple(card for _, card in zip(range(count), cards, strict=False))
    if len(taken) != count:
        raise SeatViewError("the view counts more cards than the pack holds")
    return taken
