"""Re-folding events with the engine, and the derived results a history carries.

Building a history and verifying one run the same code here, so the results a history
carries are exactly what a fresh fold derives: :class:`Replayer` applies events one by one
(optionally checking each action against the rules first, to report irregular plays of a game
dealt at a real table: :mod:`replay.formats.irregularities`), and :func:`derive_results` turns the
states into the ``results`` of a history for one viewer, through :mod:`replay.views` only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import FortyFiveError
from engine.fold import apply_event
from engine.profiles import RuleSet
from engine.state import DealState, GameState
from events.types import BoardDealt, DealRecorded, DeckCut, Event
from replay.formats.document import StartBlock, Viewer
from replay.formats.irregularities import ENGINE_FAILURES, Irregularity, check_event, unappliable
from replay.views import deal_view, game_view


@dataclasses.dataclass(frozen=True, slots=True)
class Failure:
    """The event a replay could not apply, and why."""

    version: int
    type: str
    message: str


def apply_start(state: GameState, start: StartBlock, *, played_out: bool = False) -> GameState:
    """Returns the freshly created game *state* moved to the point *start* states: its
    version, dealer, scores and games won (the history leaves out what came before).

    :raises ValueError: if the start block does not fit the table (:func:`start_problem`).
    """
    problem = start_problem(state.rules, start, played_out=played_out)
    if problem is not None:
        raise ValueError(problem)
    return state._replace(
        version=start.version, dealer=start.dealer, scores=tuple(start.scores),
        games_won=tuple(start.games_won), game_number=start.game_number,
    )


def start_problem(rules: RuleSet, start: StartBlock, *, played_out: bool = False) -> str | None:
    """Says why *start* cannot be a point of a game under *rules* (a dealer or a score list
    of the wrong size, a score below 0 where only an auction can lose points, a score at the
    target, which would have ended the game before, or games won or a game number the match
    never reaches), or ``None``. *played_out*: the game's boards are played out, so no target
    ends it."""
    if not 0 <= start.dealer < rules.players:
        return f"start dealer {start.dealer} is not a seat of {rules.players}"
    if len(start.scores) != rules.sides or len(start.games_won) != rules.sides:
        return f"start scores and games won need {rules.sides} sides"
    if not rules.auction and any(score < 0 for score in start.scores):
        # Only a set bid of the auction takes points away: elsewhere scores only grow from 0.
        return (f"start scores {list(start.scores)} go below 0, which no {rules.profile} "
                "game reaches: only an auction's set bid loses points")
    if not played_out and any(score >= rules.target for score in start.scores):
        return (f"start scores {list(start.scores)} reach the target {rules.target}: the "
                "game would have been won before this deal")
    if any(not 0 <= won < rules.match_games for won in start.games_won):
        return (f"start games won {list(start.games_won)}: each side has won 0 to "
                f"{rules.match_games - 1} games of a match of {rules.match_games} before "
                "it is won")
    if start.game_number != sum(start.games_won) + 1:
        return (f"start game number {start.game_number}: after "
                f"{sum(start.games_won)} games won, the game being played is "
                f"{sum(start.games_won) + 1}")
    return None


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
                self.irregularities.append(unappliable(version, event, message))
            return False
        self._record(after, event)
        return True

    def restart(self, state: GameState) -> None:
        """Replaces the last state by *state* (a start block moved the game on)."""
        self.states[-1] = state

    def _record(self, state: GameState, event: Event) -> None:
        self.states.append(state)
        self.versions.append(state.version)
        if isinstance(event, DeckCut | DealRecorded | BoardDealt) and state.deal is not None:
            self.dealt[state.deal.number] = state


def derive_results(
    state: GameState,
    dealt: Mapping[int, GameState],
    irregularities: Sequence[Irregularity],
    viewer: Viewer,
    *,
    deal: int | None = None,
    texts: int | None = None,
) -> dict[str, Any]:
    """Returns the ``results`` of a history of *state* for *viewer*: each deal (or only deal
    number *deal*) with its hands as dealt, facts and result, the game as it stands, and the
    irregularities (for an auditor only: naming the rule a play broke shows the hand). Every
    sentence is in the ruling texts of version *texts* (the current ones by default).

    Everything a viewer gets here comes from :func:`replay.views.deal_view` and
    :func:`replay.views.game_view`.
    """
    deals: list[DealState] = list(state.past_deals)
    if state.deal is not None:
        deals.append(state.deal)
    if deal is not None:
        deals = [item for item in deals if item.number == deal]
    entries = [_deal_entry(item, state, dealt.get(item.number), viewer, texts)
               for item in deals]
    view = game_view(state, viewer)
    game = {name: view[name] for name in ("phase", "scores", "games_won", "game_number",
                                          "winner")}
    shown = [item.to_dict(texts) for item in irregularities] if viewer == "auditor" else []
    return {"deals": entries, "game": game, "irregularities": shown}


def _deal_entry(deal: DealState, state: GameState, snapshot: GameState | None,
                viewer: Viewer, texts: int | None) -> dict[str, Any]:
    view = deal_view(deal, state, viewer, texts)
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
