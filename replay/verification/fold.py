"""Re-folding a hand history with the engine, and judging who made each event.

Each event is read from its full data and applied by the engine
(:class:`replay.formats.derive.Replayer` with its legality checks); from the first event the engine
cannot apply or this view does not fully know, the fold stops and the rest is listed as unchecked.
In a server-dealt game every event must also be made by whom the rules say, where they call for it:
an irregularity there is a problem, while a deal recorded at a table only reports it.
"""

from __future__ import annotations

from typing import Any

from engine.action_values import action_of
from engine.boards import PLAYED_OUT
from engine.sides import seat_name
from events.envelope import SERVER
from events.errors import StoreError
from events.types import Event, EventDataError, UnknownEventTypeError, event_from_data
from events.upcasting import upcast
from replay.formats.derive import apply_start
from replay.formats.document import DEAL_START_TYPES, HistoryEvent
from replay.verification.state import Run
from replay.views import game_over

CODES = ("data", "fold", "irregular")
"""``data``: an event's data cannot be read as its type; ``fold``: the engine cannot apply an
event (the log does not form a game); ``irregular``: in a server-dealt deal, any irregularity,
or an event made by someone the rules do not call on."""


def decode(run: Run, event: HistoryEvent, data: dict[str, Any] | None,
           where: str) -> Event | None:
    """Returns the event read from its full *data* (None when unknown or unreadable)."""
    if data is None:
        return None
    try:
        return event_from_data(event.type, upcast(event.type, event.schema, data))
    except (StoreError, UnknownEventTypeError, EventDataError) as error:
        run.problem("data", f"{event.type}: {error}", event.version, where + "/data")
        return None


def foldable(event: HistoryEvent) -> dict[str, Any] | None:
    """Returns what the fold needs of *event* when the view hides part of it and its hash
    could not be rebuilt, or None when the fold cannot go on without the hidden part.

    The one such event is a ``game_created`` that hides only its contribution secret: the fold
    never reads the secret (the cuts it fixes are in their own events), so the game folds on,
    while event 1's hash stays unchecked.
    """
    if event.type == "game_created" and event.redacted == ("contribution_secret",):
        return dict(event.data)
    return None


def apply(run: Run, event: HistoryEvent, data: dict[str, Any] | None, decoded: Event | None,
          where: str) -> None:
    """Applies *event* with the engine (judging who made it, in a server-dealt game); from the
    first event this view does not fully know, or the engine cannot apply, the fold stops."""
    if run.blocked is not None:
        return
    state = run.replayer.state
    deal = event.data.get("deal") if event.type in DEAL_START_TYPES else (
        state.deal.number if state is not None and state.deal is not None else None)
    if data is None:
        run.blocked = (event.version, deal if isinstance(deal, int) else None,
                       f"event {event.version} ({event.type}) is not fully known to this "
                       "view, so the engine cannot go on from it")
        return
    if decoded is None:
        run.blocked = (event.version, deal if isinstance(deal, int) else None,
                       "an event could not be read")
        return
    if event.type == "deck_shuffled":
        run.dealt_by = "server"
    elif event.type == "deal_recorded":
        run.dealt_by = "table"
    found = len(run.replayer.irregularities)
    if run.dealt_by == "server" or (event.version == 1 and server_dealt(run)):
        judge(run, event, decoded, where)
    applied = run.replayer.apply(event.version, decoded)
    if run.dealt_by == "server":
        texts = run.history.texts_version
        for item in run.replayer.irregularities[found:]:
            if item.kind != "sequence":  # An event the engine cannot apply: see below.
                run.problem("irregular", f"{event.type}: {item.text_in(texts)} (a "
                            "server-dealt game allows no irregularity)", event.version,
                            where)
    if not applied:
        failure = run.replayer.failure
        assert failure is not None
        run.problem("fold", f"{event.type} cannot be applied by the engine: "
                    f"{failure.message}", event.version, where)
        run.blocked = (event.version, deal if isinstance(deal, int) else None,
                       "the engine could not apply an event")
        return
    run.checked["events_folded"] += 1
    start = run.history.start
    if event.version == 1 and start is not None:
        current = run.replayer.state
        assert current is not None
        try:
            played_out = any(item.type == "board_dealt" and item.data.get("finish") == PLAYED_OUT
                             for item in run.history.events)
            run.replayer.restart(apply_start(current, start, played_out=played_out))
        except ValueError as error:
            run.problem("start", f"the start block does not fit the table: {error}",
                        None, "/start")
            run.blocked = (1, None, "the start block does not fit the table")


def ended_over(run: Run) -> bool | None:
    """Says whether the game is over at the history's last event: True or False where the
    history shows it, None where this view cannot tell.

    Where the fold went to the end, its state says. Where it stopped at a deal whose seed the
    history does not reveal, the game was not over: a game ends won with its last seed
    revealed, or abandoned (``game_abandoned``, the last event).
    """
    history = run.history
    last = history.events[-1]
    if last.type == "game_abandoned":
        return True
    state = run.replayer.state
    if run.blocked is None:
        return state is not None and game_over(state)
    version, deal, _ = run.blocked
    stopped = next((event for event in history.events if event.version == version), None)
    # Only whole numbers: the data is the history's, and a deal named by a list or an object
    # is a problem reported elsewhere, never a crash here.
    named = (event.data.get("deal") for event in history.events
             if event.type == "seed_revealed")
    revealed = {number for number in named if isinstance(number, int)}
    if stopped is not None and stopped.type in ("deck_shuffled", "board_dealt") and (
            deal not in revealed):
        return False
    return None


def deal_ended(run: Run) -> bool | None:
    """Says whether the deal of a one-deal history has ended at the history's last event (its
    seed revealed, or the game over): True or False where the history shows it, None where
    this view cannot tell."""
    over = ended_over(run)
    if over:
        return True
    state = run.replayer.state
    if run.blocked is None:
        return state is not None and state.phase in ("shuffle", "over")
    return None if over is None else False


def server_dealt(run: Run) -> bool:
    """True when the history's deals are shuffled by the server (not recorded at a
    table)."""
    return any(event.type == "deck_shuffled" for event in run.history.events)


def judge(run: Run, event: HistoryEvent, decoded: Event, where: str) -> None:
    """Checks who made *event* of a server-dealt game, and that the rules call for it
    there (the rules of its action are checked by the replay's legality checks)."""
    state = run.replayer.state
    actor = event.actor
    action = action_of(decoded)
    seat = getattr(decoded, "seat", None)
    if action is not None:
        if actor == SERVER:
            clock = run.rules is not None and run.rules.options().get("turn_seconds")
            if not clock:
                run.problem("irregular", f"{event.type} of {_who(seat)} is recorded as the "
                            "server's, but the server acts for a seat only on the turn "
                            "clock, and this game has none", event.version,
                            where + "/actor")
            elif state is not None and state.turn != seat:
                run.problem("irregular", f"{event.type} of {_who(seat)} is recorded as the "
                            f"turn clock's, but {_who(state.turn)} was to act",
                            event.version, where + "/actor")
        elif actor != seat:
            run.problem("irregular", f"{event.type} of {_who(seat)} is recorded as made by "
                        f"{_who(actor)}: an action's actor is its seat (or the server's "
                        "turn clock)", event.version, where + "/actor")
        return
    before = previous(run, event)
    with_action = before is not None and (before.actor, before.command_id,
                                          before.occurred_at) == (
        actor, event.command_id, event.occurred_at)
    if event.type == "game_created" or event.type == "game_abandoned":
        if actor != SERVER:
            run.problem("irregular", f"{event.type} is recorded as made by {_who(actor)}; "
                        "only the server makes it", event.version, where + "/actor")
    elif actor != SERVER and not with_action and before is not None:
        run.problem("irregular", f"{event.type} is recorded as made by {_who(actor)}, "
                    "but it is the server's, made by itself or with the action that "
                    "called for it (same actor, command and time)", event.version,
                    where + "/actor")
    due = {"deck_shuffled": "shuffle", "seed_revealed": "reveal"}.get(event.type)
    if due == "reveal" and state is not None and state.seed_due:
        pass  # A finished deal's, or the deal in progress of an abandoned game.
    elif due is not None and state is not None and state.phase != due:
        run.problem("irregular", f"{event.type}: the rules call for no "
                    f"{'shuffle' if due == 'shuffle' else 'seed reveal'} here (the game "
                    f"is in phase {state.phase!r})", event.version, where)
    cut_short = run.history.start is not None and run.history.start.version > 1
    if event.type == "deck_shuffled" and state is not None and not (
            state.deal is None and cut_short):  # One deal: the deals before are left out.
        number = state.deal.number + 1 if state.deal is not None else 1
        if getattr(decoded, "deal", None) != number:
            run.problem("irregular", f"deck_shuffled opens deal "
                        f"{getattr(decoded, 'deal', None)}, but the next deal is {number}",
                        event.version, where + "/data/deal")


def previous(run: Run, event: HistoryEvent) -> HistoryEvent | None:
    """Returns the event just before *event* in the history, if it holds it (a one-deal
    history leaves out the events before its deal)."""
    for before in run.history.events:
        if before.version == event.version - 1:
            return before
    return None


def _who(actor: object) -> str:
    """Returns an actor as a sentence names it (a seat counted from 1, as people count)."""
    return f"seat {seat_name(actor)}" if isinstance(actor, int) else f"the {actor}"
