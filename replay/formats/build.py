"""Building a hand history from a game's stored events, for one viewer.

Every per-view history comes from the one view function: each event through
:func:`replay.views.event_view`, the results through :mod:`replay.formats.derive`, which uses
:func:`replay.views.deal_view` and :func:`replay.views.game_view`. Nothing here decides on its
own what a viewer may see.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engine.ruling_texts import TEXTS_VERSION
from engine.state import GameState
from events.envelope import RecordedEvent
from replay.errors import HistoryError, HistoryRangeError
from replay.formats.derive import Replayer, apply_start, derive_results
from replay.formats.document import (
    DEAL_START_TYPES,
    HandHistory,
    HistoryEvent,
    RulesBlock,
    SeatInfo,
    StartBlock,
    Viewer,
    ViewInfo,
)
from replay.formats.irregularities import Irregularity
from replay.views import check_viewer, event_view, game_over

FACE_DOWN_TYPES = frozenset({"joker_buried", "turn_up_robbed", "cards_discarded"})
"""Events that put a card face down: only the player who did it (and auditors) see it."""


@dataclasses.dataclass(frozen=True, slots=True)
class Replay:
    """A whole log folded once: reused to cut a history at any event for any viewer."""

    recorded: tuple[RecordedEvent, ...]
    states: tuple[GameState, ...]
    """The state after each event, index 0 being event 1."""
    dealt: Mapping[int, GameState]
    irregularities: tuple[Irregularity, ...]
    start: StartBlock | None = None

    @property
    def applied(self) -> int:
        """How many events the engine could apply (all of them, for a log it wrote)."""
        return len(self.states)


def replay_log(recorded: Sequence[RecordedEvent], *, start: StartBlock | None = None) -> Replay:
    """Folds *recorded* (a game's events from version 1) once, checking each action's
    legality, and returns every state along the way.

    *start* moves the game to a stated point right after its creation (a real-table record
    that starts from given scores and dealer).

    :raises HistoryRangeError: if there are no events or they are not versions 1, 2, 3...
    """
    if not recorded:
        raise HistoryRangeError("a history needs at least the game's first event")
    for index, item in enumerate(recorded, start=1):
        if item.version != index:
            raise HistoryRangeError(f"events must be versions 1, 2, 3...: found {item.version} "
                                    f"at position {index}")
    replayer = Replayer(legality=True)
    for index, item in enumerate(recorded):
        if not replayer.apply(item.version, item.event):
            break
        if index == 0 and start is not None:
            assert replayer.state is not None
            replayer.restart(apply_start(replayer.state, start))
    return Replay(tuple(recorded), tuple(replayer.states), dict(replayer.dealt),
                  tuple(replayer.irregularities), start)


def build_history(
    game_id: str,
    recorded: Sequence[RecordedEvent] | Replay,
    viewer: object,
    *,
    deal: int | None = None,
    as_of: int | None = None,
    tags: Mapping[str, str] | None = None,
) -> HandHistory:
    """Returns the history of a game as *viewer* may see it.

    *recorded* is the game's events from version 1 (or a :class:`Replay` of them, to cut many
    histories from one fold). *as_of* cuts the history after that event; *deal* keeps only
    that deal's events (plus the game's creation), with a start block stating the game before
    it.

    :raises HistoryRangeError: for an *as_of* or *deal* the game does not have, or events that
        are not versions 1, 2, 3...
    :raises HistoryError: if the engine cannot apply even the game's first event.
    :raises replay.views.ViewerError: for a viewer that is not a seat, ``spectator`` or
        ``auditor``.
    """
    replay = recorded if isinstance(recorded, Replay) else replay_log(recorded)
    total = len(replay.recorded)
    last = total if as_of is None else as_of
    if not 1 <= last <= total:
        raise HistoryRangeError(f"event {as_of} is not in this game of {total} events")
    if not replay.applied:
        raise HistoryError("the game's first event cannot be applied by the engine")
    included = list(range(last))
    start = replay.start
    low = 1
    if deal is not None:
        first, last = _deal_range(replay.recorded[:last], deal, as_of)
        included = [0, *range(first, last)]
        low = replay.recorded[first].version
        if first > 1:
            before = replay.states[first - 1]
            start = StartBlock(before.version, replay.recorded[first - 1].envelope.hash,
                               before.dealer, before.scores, before.games_won,
                               before.game_number)
    # An imported record may hold events the engine could not apply: the state is the last
    # one it reached, and the irregularities say where it stopped.
    state = replay.states[min(last, replay.applied) - 1]
    view_of = check_viewer(state, viewer)
    chosen = [replay.recorded[index] for index in included]
    over = {past.number for past in state.past_deals}
    if state.deal is not None and state.deal.phase == "over":
        over.add(state.deal.number)
    withheld = _withheld_from(chosen, view_of, over)
    ended = game_over(state)
    events = tuple(
        _event(item, view_of, ended, hash_shown=withheld is None or position < withheld,
               prev_shown=withheld is None or position <= withheld)
        for position, item in enumerate(chosen)
    )
    dealt = {number: snap for number, snap in replay.dealt.items() if snap.version <= last}
    irregular = [item for item in replay.irregularities if low <= item.version <= last]
    results = derive_results(state, dealt, irregular, view_of, deal=deal)
    rules = state.rules
    return HandHistory(
        game_id=game_id,
        rules=RulesBlock(rules.profile, rules.players, rules.options(), rules.digest()),
        seats=tuple(SeatInfo(seat, kind, rules.side_of(seat))
                    for seat, kind in enumerate(state.seat_types)),
        view=ViewInfo(view_of, events[-1].version, deal),
        events=events,
        head=events[-1].hash,
        results=results,
        start=start,
        tags=dict(tags or {}),
        ruling_texts=TEXTS_VERSION,
    )


def _deal_range(recorded: Sequence[RecordedEvent], deal: int,
                as_of: int | None = None) -> tuple[int, int]:
    """Returns the index of deal *deal*'s first event and the index just past its last (of
    the events up to *as_of*, when the history is cut there)."""
    first = None
    for index, item in enumerate(recorded):
        if item.envelope.type in DEAL_START_TYPES:
            if first is not None:
                return first, index
            if getattr(item.event, "deal", None) == deal:
                first = index
    if first is None:
        where = f" up to event {as_of}" if as_of is not None else " yet"
        raise HistoryRangeError(f"deal {deal} is not in this game{where}")
    return first, len(recorded)


def _withheld_from(chosen: Sequence[RecordedEvent], viewer: Viewer,
                   over: Collection[int] = ()) -> int | None:
    """Returns the position from which *viewer* gets no hashes, or ``None``.

    A hash over a face-down card gives the card away: there are few candidates, and each can
    be hashed and compared with the stored hash (or with any later hash, which covers it
    through ``prev_hash``). So from the first face-down card of another seat in a deal whose
    seed the history does not reveal (a deal in progress, or one recorded at a table, which is
    never revealed), the hashes are withheld. A deal recorded at a table covers every hand
    and the stock in its ``deal_recorded`` event: from it on, while that deal is live (not in
    *over*), the hashes are withheld too. An auditor sees the cards, and so every hash.
    """
    if viewer == "auditor":
        return None
    revealed = {getattr(item.event, "deal", None) for item in chosen
                if item.envelope.type == "seed_revealed"}
    deal = None
    for position, item in enumerate(chosen):
        if item.envelope.type in DEAL_START_TYPES:
            deal = getattr(item.event, "deal", None)
        if item.envelope.type == "deal_recorded" and deal not in over:
            return position
        hides_a_card = item.envelope.type != "cards_discarded" or bool(
            getattr(item.event, "cards", ()))  # Discarding nothing hides nothing.
        if item.envelope.type in FACE_DOWN_TYPES and hides_a_card and deal not in revealed and (
                getattr(item.event, "seat", None) != viewer):
            return position
    return None


def _event(item: RecordedEvent, viewer: Viewer, over: bool, *, hash_shown: bool = True,
           prev_shown: bool = True) -> HistoryEvent:
    """Returns one stored event as *viewer* may see it in a history that ends *over* (the game
    over at its last event): as written, unless the view hides a field, in which case the
    view's data and the names of the hidden fields; and with its chain fields unless they are
    withheld (see :func:`_withheld_from`)."""
    envelope = item.envelope
    view: dict[str, Any] = event_view(item.event, viewer, over=over)
    redacted: tuple[str, ...] = ()
    data: Mapping[str, Any] = envelope.data
    if "redacted" in view:
        redacted = tuple(view.pop("redacted"))
        data = view
    return HistoryEvent(
        version=envelope.version, type=envelope.type, schema=envelope.schema,
        actor=envelope.actor, command_id=envelope.command_id,
        occurred_at=envelope.occurred_at, data=data,
        prev_hash=envelope.prev_hash if prev_shown else None,
        hash=envelope.hash if hash_shown else None, redacted=redacted,
    )
