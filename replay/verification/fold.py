"""Re-folding a hand history with the engine, and judging who made each event.

Each event is read from its full data and applied by the engine
(:class:`replay.formats.derive.Replayer`
with its legality checks); from the first event the engine cannot apply or this view does not
fully know, the fold stops and the rest is listed as unchecked. In a server-dealt game every
event must also be made by whom the rules say, where they call for it: an irregularity there
is a problem, while a deal recorded at a table only reports it.
"""

from __future__ import annotations

from typing import Any

from engine.actions import action_of
from events.envelope import SERVER
from events.errors import StoreError
from events.types import Event, EventDataError, UnknownEventTypeError, event_from_data
from events.upcasting import upcast
from replay.formats.derive import apply_start
from replay.formats.document import DEAL_START_TYPES, HistoryEvent
from replay.verification.state import VerifierState


class FoldChecks(VerifierState):
    """Reading and applying each event, and judging its actor and place."""

    def decode(self, event: HistoryEvent, data: dict[str, Any] | None,
               where: str) -> Event | None:
        """Returns the event read from its full *data* (None when unknown or unreadable)."""
        if data is None:
            return None
        try:
            return event_from_data(event.type, upcast(event.type, event.schema, data))
        except (StoreError, UnknownEventTypeError, EventDataError) as error:
            self.problem("data", f"{event.type}: {error}", event.version, where + "/data")
            return None

    def fold(self, event: HistoryEvent, data: dict[str, Any] | None, decoded: Event | None,
             where: str) -> None:
        if self.blocked is not None:
            return
        state = self.replayer.state
        deal = event.data.get("deal") if event.type in DEAL_START_TYPES else (
            state.deal.number if state is not None and state.deal is not None else None)
        if data is None:
            self.blocked = (event.version, deal if isinstance(deal, int) else None,
                            f"event {event.version} ({event.type}) is not fully known to this "
                            "view, so the engine cannot go on from it")
            return
        if decoded is None:
            self.blocked = (event.version, deal if isinstance(deal, int) else None,
                            "an event could not be read")
            return
        if event.type == "deck_shuffled":
            self.dealt_by = "server"
        elif event.type == "deal_recorded":
            self.dealt_by = "table"
        found = len(self.replayer.irregularities)
        if self.dealt_by == "server" or (event.version == 1 and self.server_dealt()):
            self.judge(event, decoded, where)
        applied = self.replayer.apply(event.version, decoded)
        if self.dealt_by == "server":
            texts = self.history.texts_version
            for item in self.replayer.irregularities[found:]:
                if item.kind != "sequence":  # An event the engine cannot apply: see below.
                    self.problem("irregular", f"{event.type}: {item.text_in(texts)} (a "
                                 "server-dealt game allows no irregularity)", event.version,
                                 where)
        if not applied:
            failure = self.replayer.failure
            assert failure is not None
            self.problem("fold", f"{event.type} cannot be applied by the engine: "
                         f"{failure.message}", event.version, where)
            self.blocked = (event.version, deal if isinstance(deal, int) else None,
                            "the engine could not apply an event")
            return
        self.report.checked["events_folded"] += 1
        start = self.history.start
        if event.version == 1 and start is not None:
            current = self.replayer.state
            assert current is not None
            try:
                self.replayer.restart(apply_start(current, start))
            except ValueError as error:
                self.problem("start", f"the start block does not fit the table: {error}",
                             None, "/start")
                self.blocked = (1, None, "the start block does not fit the table")

    def server_dealt(self) -> bool:
        """True when the history's deals are shuffled by the server (not recorded at a
        table)."""
        return any(event.type == "deck_shuffled" for event in self.history.events)

    def judge(self, event: HistoryEvent, decoded: Event, where: str) -> None:
        """Checks who made *event* of a server-dealt game, and that the rules call for it
        there (the rules of its action are checked by the replay's legality checks)."""
        state = self.replayer.state
        actor = event.actor
        action = action_of(decoded)
        seat = getattr(decoded, "seat", None)
        if action is not None:
            if actor == SERVER:
                clock = self.rules is not None and self.rules.options().get("turn_seconds")
                if not clock:
                    self.problem("irregular", f"{event.type} of seat {seat} is recorded as the "
                                 "server's, but the server acts for a seat only on the turn "
                                 "clock, and this game has none", event.version,
                                 where + "/actor")
                elif state is not None and state.turn != seat:
                    self.problem("irregular", f"{event.type} of seat {seat} is recorded as the "
                                 f"turn clock's, but seat {state.turn} was to act",
                                 event.version, where + "/actor")
            elif actor != seat:
                self.problem("irregular", f"{event.type} of seat {seat} is recorded as made by "
                             f"{_who(actor)}: an action's actor is its seat (or the server's "
                             "turn clock)", event.version, where + "/actor")
            return
        previous = self.previous(event)
        with_action = previous is not None and (previous.actor, previous.command_id,
                                                previous.occurred_at) == (
            actor, event.command_id, event.occurred_at)
        if event.type == "game_created" or event.type == "game_abandoned":
            if actor != SERVER:
                self.problem("irregular", f"{event.type} is recorded as made by {_who(actor)}; "
                             "only the server makes it", event.version, where + "/actor")
        elif actor != SERVER and not with_action and previous is not None:
            self.problem("irregular", f"{event.type} is recorded as made by {_who(actor)}, "
                         "but it is the server's, made by itself or with the action that "
                         "called for it (same actor, command and time)", event.version,
                         where + "/actor")
        due = {"deck_shuffled": "shuffle", "seed_revealed": "reveal"}.get(event.type)
        if due == "reveal" and state is not None and state.seed_due:
            pass  # A finished deal's, or the deal in progress of an abandoned game.
        elif due is not None and state is not None and state.phase != due:
            self.problem("irregular", f"{event.type}: the rules call for no "
                         f"{'shuffle' if due == 'shuffle' else 'seed reveal'} here (the game "
                         f"is in phase {state.phase!r})", event.version, where)
        cut_short = self.history.start is not None and self.history.start.version > 1
        if event.type == "deck_shuffled" and state is not None and not (
                state.deal is None and cut_short):  # One deal: the deals before are left out.
            number = state.deal.number + 1 if state.deal is not None else 1
            if getattr(decoded, "deal", None) != number:
                self.problem("irregular", f"deck_shuffled opens deal "
                             f"{getattr(decoded, 'deal', None)}, but the next deal is {number}",
                             event.version, where + "/data/deal")

    def previous(self, event: HistoryEvent) -> HistoryEvent | None:
        """Returns the event just before *event* in the history, if it holds it (a one-deal
        history leaves out the events before its deal)."""
        for before in self.history.events:
            if before.version == event.version - 1:
                return before
        return None


def _who(actor: object) -> str:
    """Returns an actor as a sentence names it."""
    return f"seat {actor}" if isinstance(actor, int) else f"the {actor}"
