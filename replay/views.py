"""Views: what one viewer may see of a game and of its events. The only place hands are hidden.

A viewer is a seat number, ``"spectator"`` or ``"auditor"``. A seat sees its own hand and
public play; partners see no more of each other than any other seat. A spectator sees public
play only. An auditor sees everything (the service grants that only with an auditor token or
once the game is over). Face-down cards (a rob discard, a buried card, auction discards) and
an unrevealed shuffle seed are hidden from every seat.

Noninterference is the test of this module: change only what a viewer cannot see, and not one
byte of what that viewer receives may change.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, TypeAlias

from engine.actions import legal_actions
from engine.cards import Card, card_sort_key
from engine.state import DealState, Fact, GameState, Trick
from events.types import (
    BoardDealt,
    CardsDiscarded,
    DealRecorded,
    DeckShuffled,
    Event,
    GameCreated,
    JokerBuried,
    TurnUpRobbed,
    event_to_data,
)

Viewer: TypeAlias = int | Literal["spectator", "auditor"]

PRIVATE_FACTS = frozenset({"renege_allowed"})
"""Facts that reveal a hand: a kept trump is known only to its holder (and auditors)."""


class ViewerError(ValueError):
    """Raised for a viewer that is neither a seat of the game, ``spectator`` nor ``auditor``."""


def check_viewer(state: GameState, viewer: object) -> Viewer:
    """Returns *viewer* if it can view *state*.

    :raises ViewerError: otherwise.
    """
    if viewer in ("spectator", "auditor"):
        return viewer
    if isinstance(viewer, int) and not isinstance(viewer, bool):
        if 0 <= viewer < state.rules.players:
            return viewer
    raise ViewerError(
        f"unknown viewer {viewer!r}: expected a seat 0..{state.rules.players - 1}, "
        "'spectator' or 'auditor'"
    )


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code() for card in cards]


def _sorted_codes(cards: Iterable[Card]) -> list[str]:
    return [card.code() for card in sorted(cards, key=card_sort_key)]


def _trick(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": [
            {"seat": seat, "card": card.code()}
            for seat, card in zip(trick.seats, trick.cards, strict=True)
        ],
        "winner": trick.winner,
    }


def visible_facts(
    facts: Iterable[Fact], viewer: Viewer, texts: int | None = None
) -> list[dict[str, object]]:
    """Returns the facts *viewer* may see, as JSON objects, their sentences in the ruling texts
    of version *texts* (the current ones by default)."""
    return [
        fact.to_dict(texts)
        for fact in facts
        if fact.kind not in PRIVATE_FACTS or viewer == "auditor" or fact.seat == viewer
    ]


def deal_view(
    deal: DealState, state: GameState, viewer: Viewer, texts: int | None = None
) -> dict[str, Any]:
    """Returns what *viewer* may see of one deal (rulings in the texts of version *texts*)."""
    seed_public = deal.seed_revealed or viewer == "auditor"
    view: dict[str, Any] = {
        "number": deal.number,
        "dealer": deal.dealer,
        "phase": deal.phase,
        "commitment": deal.commitment,
        "algorithm": deal.algorithm,
        "seed": deal.seed if seed_public else None,
        "recorded": deal.recorded,
        "cut": deal.cut_position,
        "context": deal.context,
        "contributed": [seat for seat, _ in deal.nonces],
        "trump": deal.trump.name if deal.trump is not None else None,
        "turn_up": deal.turn_up.code() if deal.turn_up is not None else None,
        "robbed_by": deal.robbed_by,
        "hand_sizes": [len(hand) for hand in deal.hands],
        "stock_size": len(deal.stock),
        "face_down_count": len(deal.face_down),
        "auction": _auction(deal),
        "bidder": deal.bidder,
        "bid": deal.bid,
        "discarded": list(deal.discards_done),
        "jink": deal.jink_seat,
        "tricks": [_trick(trick) for trick in deal.tricks],
        "current_trick": _trick(deal.current) if deal.current is not None else None,
        "bonus_proven": deal.bonus_proven,
        "facts": visible_facts(deal.facts, viewer, texts),
        "result": _result(deal, state),
    }
    if viewer == "auditor":
        view["hands"] = [_sorted_codes(hand) for hand in deal.hands]
        view["face_down"] = _codes(deal.face_down)
        view["stock"] = _codes(deal.stock)
    return view


def _auction(deal: DealState) -> dict[str, Any] | None:
    auction = deal.auction
    if auction is None:
        return None
    return {
        "calls": [
            {"seat": seat, "call": call, "amount": amount}
            for seat, call, amount in auction.calls
        ],
        "high": auction.high,
        "high_seat": auction.high_seat,
        "passed": sorted(auction.passed),
    }


def _result(deal: DealState, state: GameState) -> dict[str, Any] | None:
    result = deal.result
    if result is None:
        return None
    return {
        "points": list(result.points),
        "scores": shown_scores(result.scores, state),
        "tricks_won": list(result.tricks_won),
        "ended_at_trick": result.ended_at_trick,
        "winner": result.winner,
    }


def shown_scores(scores: Iterable[int], state: GameState) -> list[int]:
    """Returns *scores* as shown to players: capped at the target with ``cap_at_target``."""
    rules = state.rules
    if rules.cap_at_target:
        return [min(score, rules.target) for score in scores]
    return list(scores)


def game_view(state: GameState, viewer: Viewer) -> dict[str, Any]:
    """Returns the JSON view of *state* for *viewer*: phase, turn, own hand, trump, tricks,
    scores, winner and the viewer's legal actions.

    :raises ViewerError: for a viewer that cannot view this game.
    """
    viewer = check_viewer(state, viewer)
    rules = state.rules
    deal = state.deal
    seat = viewer if isinstance(viewer, int) else None
    hand = _sorted_codes(deal.hands[seat]) if deal is not None and seat is not None else None
    return {
        "version": state.version,
        "viewer": viewer,
        "profile": rules.profile,
        "options": rules.options(),
        "rules_digest": rules.digest(),
        "players": rules.players,
        "seat_types": list(state.seat_types),
        "seat_levels": list(state.seat_levels),
        "names": list(state.names) or [None] * rules.players,
        "sides": [list(rules.seats_of(side)) for side in range(rules.sides)],
        "phase": state.phase,
        "turn": state.turn,
        "dealer": deal.dealer if deal is not None else state.dealer,
        "deal_number": deal.number if deal is not None else 0,
        "game_number": state.game_number,
        "hand": hand,
        "trump": deal.trump.name if deal is not None and deal.trump is not None else None,
        "tricks": [_trick(trick) for trick in deal.tricks] if deal is not None else [],
        "scores": shown_scores(state.scores, state),
        "games_won": list(state.games_won),
        "winner": state.winner,
        "deal": deal_view(deal, state, viewer) if deal is not None else None,
        "legal_actions": list(legal_actions(state, seat)) if seat is not None else [],
    }


def game_over(state: GameState) -> bool:
    """True once *state* is a game that is over (won with its last seed revealed, its boards
    all played, or abandoned): nothing it has yet to deal needs its secrets kept."""
    return state.phase == "over"


def event_view(event: Event, viewer: Viewer, *, over: bool = False) -> dict[str, Any]:
    """Returns the data of *event* as *viewer* may see it, with hidden fields set to ``None``
    and named in ``redacted``; *over* says the game is over where the view is taken
    (:func:`game_over` of the state there).

    A seat sees the face-down cards it put down itself. The seed of a shuffle stays hidden
    from everyone but auditors; its reveal is a separate, public event. The contribution
    secret of ``game_created`` is hidden while the game goes on and shown once it is over.
    """
    data = event_to_data(event)
    if viewer == "auditor":
        return data
    hidden: list[str] = []
    if isinstance(event, DeckShuffled | BoardDealt):
        hidden.append("seed")
    elif isinstance(event, GameCreated) and event.contribution_secret is not None:
        if not over:
            hidden.append("contribution_secret")  # It fixes the bots' cuts of every deal.
    elif isinstance(event, JokerBuried | TurnUpRobbed | CardsDiscarded):
        if event.seat != viewer:
            hidden.extend(event.PRIVATE)
            if isinstance(event, CardsDiscarded):
                data["count"] = len(event.cards)
    elif isinstance(event, DealRecorded):
        data["hands"] = [
            list(hand) if index == viewer else None for index, hand in enumerate(event.hands)
        ]
        data["hand_sizes"] = [len(hand) for hand in event.hands]
        data["stock"] = None
        data["stock_size"] = len(event.stock)
        data["redacted"] = ["hands", "stock"]
        return data
    for name in hidden:
        data[name] = None
    if hidden:
        data["redacted"] = sorted(hidden)
    return data
