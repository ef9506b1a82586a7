"""Re-folding events with the engine, and the derived results a history carries.

Building a history and verifying one run the same code here, so the results a history
carries are exactly what a fresh fold derives: :class:`Replayer` applies events one by one
(optionally checking each action against the rules first, to report irregular plays of a game
dealt at a real table), and :func:`derive_results` turns the states into the ``results`` of a
history for one viewer, through :mod:`replay.views` only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import action_of, decide
from engine.cards import Card
from engine.errors import ActionRejectedError, FortyFiveError, IllegalPlayError
from engine.fold import apply_event
from engine.legality import check_card
from engine.ranking import ranking
from engine.state import DealState, GameState
from events.types import (
    CardPlayed,
    DealRecorded,
    DeckCut,
    Event,
)
from replay.document import StartBlock, Viewer
from replay.views import deal_view, game_view

IRREGULARITY_RULES: dict[str, str] = {
    "play.turn": "Cards are played clockwise from the leader; the winner of a trick leads next.",
    "play.card_held": "A card played must be in the player's hand.",
    "action.phase": "An action belongs to one phase of the deal.",
    "action.not_allowed": "The rules forbid this action now.",
    "sequence": "The event cannot follow the game so far; nothing after it can be replayed.",
}
"""Rule ids an irregularity may cite besides the engine's own (:data:`engine.rulings.RULE_IDS`),
for breaches no engine ruling names."""

ENGINE_FAILURES = (FortyFiveError, ValueError, TypeError, KeyError, IndexError,
                   AttributeError, AssertionError)
"""What the engine may raise on a log that is not a game (tampered or mistyped data). A
replay reports these as the event that could not be applied; it never lets one escape."""


@dataclasses.dataclass(frozen=True, slots=True)
class Irregularity:
    """An action that broke a rule and was applied anyway, as happens at a real table."""

    version: int
    seat: int | None
    card: str | None
    rule: str
    """The rule it broke: an engine rule id, or one of :data:`IRREGULARITY_RULES`."""
    text: str

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"version": self.version, "seat": self.seat, "card": self.card,
                "rule": self.rule, "text": self.text}


@dataclasses.dataclass(frozen=True, slots=True)
class Failure:
    """The event a replay could not apply, and why."""

    version: int
    type: str
    message: str


def apply_start(state: GameState, start: StartBlock) -> GameState:
    """Returns the freshly created game *state* moved to the point *start* states: its
    version, dealer, scores and games won (the history leaves out what came before).

    :raises ValueError: if the start block does not fit the table (a dealer or a score list
        of the wrong size).
    """
    rules = state.rules
    if not 0 <= start.dealer < rules.players:
        raise ValueError(f"start dealer {start.dealer} is not a seat of {rules.players}")
    if len(start.scores) != rules.sides or len(start.games_won) != rules.sides:
        raise ValueError(f"start scores and games won need {rules.sides} sides")
    return state._replace(
        version=start.version, dealer=start.dealer, scores=tuple(start.scores),
        games_won=tuple(start.games_won), game_number=start.game_number,
    )


class Replayer:
    """Applies events one by one, keeping every state, the state right after each deal was
    dealt, the irregular actions (when asked to look) and the first event it could not apply.
    """

    def __init__(self, *, legality: bool = False) -> None:
        self.legality = legality
        self.states: list[GameState] = []
        self.versions: list[int] = []
        self.dealt: dict[int, GameState] = {}
        self.irregularities: list[Irregularity] = []
        self.failure: Failure | None = None

    @property
    def state(self) -> GameState | None:
        """The state after the last event applied."""
        return self.states[-1] if self.states else None

    def apply(self, version: int, event: Event) -> bool:
        """Applies *event* as *version*; returns False (and records why) if it cannot be.

        Once an event has failed, nothing more is applied.
        """
        if self.failure is not None:
            return False
        state = self.state
        expected = 1 if state is None else state.version + 1
        if version != expected:
            self.failure = Failure(version, event.TYPE,
                                   f"the fold expects event {expected} here, not {version}")
            return False
        if self.legality and state is not None:
            try:
                self.irregularities += check_event(state, version, event)
            except ENGINE_FAILURES:
                pass  # Data the rules cannot judge; applying it says what is wrong.
        try:
            after = apply_event(state, event)
        except ENGINE_FAILURES as error:
            message = f"{type(error).__name__}: {error}" if not isinstance(
                error, FortyFiveError) else str(error)
            self.failure = Failure(version, event.TYPE, message)
            if self.legality:
                self.irregularities.append(Irregularity(
                    version, getattr(event, "seat", None), getattr(event, "card", None),
                    "sequence", f"event {version} ({event.TYPE}) cannot be applied: {message}",
                ))
            return False
        self._record(after, event)
        return True

    def restart(self, state: GameState) -> None:
        """Replaces the last state by *state* (a start block moved the game on)."""
        self.states[-1] = state

    def _record(self, state: GameState, event: Event) -> None:
        self.states.append(state)
        self.versions.append(state.version)
        if isinstance(event, DeckCut | DealRecorded) and state.deal is not None:
            self.dealt[state.deal.number] = state


def check_event(state: GameState, version: int, event: Event) -> list[Irregularity]:
    """Returns how a player's *event* breaks the rules in *state* (empty when it does not).

    A card play is checked with :func:`engine.legality.check_card` and for turn; other player
    actions go through :func:`engine.actions.decide`. Server events are not checked.
    """
    if isinstance(event, CardPlayed):
        return _check_play(state, version, event)
    action = action_of(event)
    if action is None:
        return []
    seat: int = getattr(event, "seat", -1)
    try:
        decide(state, seat, action, entropy=bytes(32))
    except ActionRejectedError as error:
        rule = error.ruling.rule_id if error.ruling is not None else (
            "play.turn" if error.code == "not_your_turn"
            else "action.phase" if error.code in ("wrong_phase", "game_over")
            else "action.not_allowed")
        return [Irregularity(version, seat, None, rule, f"{event.TYPE} by seat {seat}: {error}")]
    except ENGINE_FAILURES:
        return []  # Not an action the rules can judge; applying it will say what is wrong.
    return []


def _check_play(state: GameState, version: int, event: CardPlayed) -> list[Irregularity]:
    deal = state.deal
    seat = event.seat
    found: list[Irregularity] = []
    if deal is None or deal.phase != "play" or deal.current is None or deal.trump is None:
        return [Irregularity(version, seat, event.card, "action.phase",
                             f"seat {seat} played {event.card} when no trick was open")]
    try:
        card = Card.parse(event.card)
    except FortyFiveError:
        return []  # Applying it will report the card that is not a card.
    if deal.turn is not None and seat != deal.turn:
        found.append(Irregularity(
            version, seat, event.card, "play.turn",
            f"seat {seat} played {event.card} out of turn: seat {deal.turn} was to play "
            f"to trick {len(deal.tricks) + 1}",
        ))
    if not 0 <= seat < len(deal.hands):
        return found
    try:
        check_card(deal.hands[seat], deal.current.cards, ranking(deal.trump, state.rules),
                   state.rules, card)
    except IllegalPlayError as error:
        rule = error.ruling.rule_id if error.ruling is not None else "play.card_held"
        found.append(Irregularity(
            version, seat, event.card, rule,
            f"{error} (seat {seat}, trick {len(deal.tricks) + 1}, trump {deal.trump.name})",
        ))
    return found


def derive_results(
    state: GameState,
    dealt: Mapping[int, GameState],
    irregularities: Sequence[Irregularity],
    viewer: Viewer,
    *,
    deal: int | None = None,
) -> dict[str, Any]:
    """Returns the ``results`` of a history of *state* for *viewer*: each deal (or only deal
    number *deal*) with its hands as dealt, facts and result, the game as it stands, and the
    irregularities (for an auditor only: naming the rule a play broke shows the hand).

    Everything a viewer gets here comes from :func:`replay.views.deal_view` and
    :func:`replay.views.game_view`.
    """
    deals: list[DealState] = list(state.past_deals)
    if state.deal is not None:
        deals.append(state.deal)
    if deal is not None:
        deals = [item for item in deals if item.number == deal]
    entries = [_deal_entry(item, state, dealt.get(item.number), viewer) for item in deals]
    view = game_view(state, viewer)
    game = {name: view[name] for name in ("phase", "scores", "games_won", "game_number",
                                          "winner")}
    shown = [item.to_dict() for item in irregularities] if viewer == "auditor" else []
    return {"deals": entries, "game": game, "irregularities": shown}


def _deal_entry(deal: DealState, state: GameState, snapshot: GameState | None,
                viewer: Viewer) -> dict[str, Any]:
    view = deal_view(deal, state, viewer)
    return {
        "number": view["number"], "dealer": view["dealer"], "turn_up": view["turn_up"],
        "trump": view["trump"], "hands": _hands_dealt(snapshot, viewer, state.rules.players),
        "facts": view["facts"], "result": view["result"],
    }


def _hands_dealt(snapshot: GameState | None, viewer: Viewer, players: int) -> list[Any]:
    """Returns the hands as dealt that *viewer* may see (``None`` for each hidden one)."""
    if snapshot is None or snapshot.deal is None:
        return [None] * players
    if viewer == "auditor":
        hands: list[Any] = deal_view(snapshot.deal, snapshot, viewer)["hands"]
        return hands
    if isinstance(viewer, int):
        own = game_view(snapshot, viewer)["hand"]
        return [own if seat == viewer else None for seat in range(players)]
    return [None] * players
