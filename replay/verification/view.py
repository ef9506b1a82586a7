"""Verifying that a hand history is the view it says it is, no more and no less.

The view block must fit the table and the events (its viewer, the event it stops after, the
deal it is cut to), and each event must show exactly what the viewer sees of it
(:func:`replay.views.event_view`): the fields hidden from the viewer are null and named, and
an auditor's history hides nothing.
"""

from __future__ import annotations

from typing import Any

from engine.sides import seat_name, side_name
from events.types import Event
from replay.formats.diagnostics import pointer
from replay.formats.document import DEAL_START_TYPES, HistoryEvent
from replay.formats.notation import same
from replay.verification.fold import ended_over
from replay.verification.state import Run, is_viewer
from replay.views import event_view

CODES = ("view",)
"""``view``: an event shows more or less than its viewer sees, an auditor's history hides
anything, or the view block does not fit the table or the events."""


def check_block(run: Run) -> None:
    """Checks the history's view block: its viewer, ``as_of``, its deal, and notes a start
    block."""
    history = run.history
    view = history.view
    viewer = view.viewer
    if isinstance(viewer, int) and run.rules is not None and not (
            0 <= viewer < run.rules.players):
        run.problem("view", f"the view is for \"viewer\": {viewer}, not a seat at this "
                    f"table (the data counts its {run.rules.players} seats from 0)",
                    pointer="/view/viewer")
    if view.as_of != history.events[-1].version:
        run.problem("view", f"the view says it stops after event {view.as_of} but the last "
                    f"event is {history.events[-1].version}", pointer="/view/as_of")
    if viewer == "auditor":
        for index, event in enumerate(history.events):
            if event.redacted:
                run.problem("view", "an auditor's history hides nothing, but this event hides "
                            f"{', '.join(event.redacted)}", event.version,
                            pointer(["events", index, "redacted"]))
    if view.deal is not None:
        opened = [event for event in history.events if event.type in DEAL_START_TYPES]
        if len(opened) != 1 or opened[0].data.get("deal") != view.deal:
            run.problem("view", f"a history of deal {view.deal} holds that deal's events only",
                        pointer="/view/deal")
    start = history.start
    if start is not None:
        scores = ", ".join(f"{side_name(side)} {points}"
                           for side, points in enumerate(start.scores))
        run.notes.append(
            f"the game before event {start.version + 1} is taken from the history's start "
            f"block (dealer seat {seat_name(start.dealer)}, scores {scores}); "
            + ("the events before it are not in this history, and no hash or signature in "
               "it covers that dealer and those scores: they are the server's statement (the "
               "whole game's history checks them)" if start.version > 1
               else "it was stated with the record, not derived"))


def check_event(run: Run, event: HistoryEvent, decoded: Event | None, where: str) -> None:
    """Checks *event* shows what the history's viewer sees of it, no more, no less."""
    viewer = run.history.view.viewer
    if decoded is None:
        for name in event.redacted:
            value = event.data.get(name)
            if event.type == "deal_recorded" and name == "hands" and isinstance(value, list):
                # A seat sees its own hand as dealt: only the others' are null.
                value = [hand for seat, hand in enumerate(value) if seat != viewer]
                value = None if all(hand is None for hand in value) else value
            if value is not None:
                run.problem("view", f"{event.type}: redacted field {name!r} must be null",
                            event.version, pointer([*_parts(where), "data", name]))
        return
    if not is_viewer(viewer, run.rules):
        return
    # Whether the game is over is known at the end of the fold: here a game_created that
    # shows its contribution secret is taken as of a game over, and check_secret says
    # whether it was.
    view: dict[str, Any] = event_view(decoded, viewer, over=True)
    hidden = tuple(view.pop("redacted", ()))
    expected = view if hidden else event.data
    if hidden != event.redacted or not same(expected, event.data):
        who = f"seat {seat_name(viewer)}" if isinstance(viewer, int) else f"the {viewer}"
        shown = f"hides {', '.join(hidden)}" if hidden else "hides nothing"
        run.problem("view", f"{event.type}: this is not what {who} sees of it (the view "
                    f"{shown})", event.version, where)


def check_secret(run: Run) -> None:
    """Checks that event 1 shows the game's contribution secret exactly when the game is over
    at the history's last event (:func:`replay.views.event_view`), where the fold got there.

    A finished game's history that hides it fails: event 1 (the rules, the seats and the
    commitments) could not be authenticated, and a forger who rewrote it (bots relabelled as
    people, a changed target) would hide the secret again to keep its hash unchecked. Such a
    history written before every view showed the secret is refused too, saying to fetch it
    again: the service now serves every view of a finished game with the secret.
    """
    history = run.history
    first = history.events[0]
    over = ended_over(run)
    if first.type != "game_created" or over is None or history.view.viewer == "auditor":
        return
    if "contribution_secret" in first.redacted and over:
        run.problem("view", "the game is over, but this history hides event 1's contribution "
                    "secret, which every view shows once the game is over: event 1 (the "
                    "rules, the seats and the game's commitments) cannot be authenticated; "
                    "fetch the history again to check it", 1, "/events/0/redacted")
    elif isinstance(first.data.get("contribution_secret"), str) and not over:
        run.problem("view", "game_created shows the contribution secret, but the game is not "
                    f"over at event {history.events[-1].version}: every view but the "
                    "auditor's hides it while the game goes on", 1, "/events/0/data")


def _parts(where: str) -> list[str | int]:
    """Returns the parts of a JSON pointer such as ``/events/3``."""
    return [int(part) if part.isdigit() else part for part in where.split("/")[1:]]
