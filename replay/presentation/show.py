"""Showing a history to a person: each deal trick by trick, with the rulings.

:func:`render` reads only the history (events and derived results) and writes what its viewer
may see; it never re-derives anything, so it shows a tampered history as it claims to be
(``fortyfive history verify`` is what checks it). Seats are counted from 1, as people count them
(:func:`engine.sides.seat_name`); the history's data count them from 0. Each line is plain
text: a character of the history that is no text (a control or bidi character in a name
written before names were checked) is shown escaped (:mod:`replay.presentation.printable`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.levels import BotLevelError, recorded_levels, seat_label
from engine.sides import seat_name, side_name
from events.types import EVENT_TYPES
from replay.formats.document import HandHistory, HistoryEvent, Section
from replay.presentation.diagram import seat_names
from replay.presentation.printable import escaped


def render(history: HandHistory, *, deal: int | None = None) -> str:
    """Returns the history as text: a header, then each deal (or only deal *deal*) with its
    setup, tricks, facts and result, then the game's standing."""
    lines = _header(history)
    players = history.rules.players if history.rules is not None else None
    irregular = history.results["irregularities"] if history.results is not None else []
    # The replay stops at the first event the engine cannot apply (a card played after the
    # game was won, at a real table): that event and the rest were never played.
    stopped = min((item["version"] for item in irregular if item["rule"] == "sequence"),
                  default=None)
    for section in history.sections():
        if deal is None or section.number == deal:
            lines += [""] + _deal(section, players or 0, stopped)
    game = history.results["game"] if history.results is not None else None
    if game is not None and deal is None:
        lines += ["", _standing(game)]
    if irregular:
        lines += ["", "Irregularities:"]
        if history.texts_version < 3:
            lines.append(f"  (in the sentences of ruling texts {history.texts_version}, as "
                         "this history states them, seats count from 0)")
        lines += [f"  event {item['version']}: {item['text']} [{item['rule']}]"
                  for item in irregular]
    return "\n".join(map(escaped, lines)) + "\n"


def _header(history: HandHistory) -> list[str]:
    rules = history.rules
    viewer = history.view.viewer
    who = f"seat {seat_name(viewer)}'s view" if isinstance(viewer, int) else f"{viewer}'s view"
    events = history.events
    span = f"events {events[0].version}-{events[-1].version}" if events else "no events"
    lines = [f"Game {history.game_id or '(unnamed)'}"]
    if rules is not None:
        options = ", ".join(f"{name} {value}" for name, value in sorted(rules.options.items()))
        lines.append(f"  {rules.profile}, {rules.players} players; {options}")
    lines.append(f"  {who}; {span}; head {(history.head or '(not sealed)')[:16]}")
    sides: dict[int, list[int]] = {}
    for seat in history.seats:
        if seat.side is not None:
            sides.setdefault(seat.side, []).append(seat.seat)
    names = seat_names(history)

    def labelled(number: int) -> str:
        name = names[number] if number < len(names) else None
        return seat_name(number) + (f" ({name})" if name else "")

    labels = _seat_labels(history)
    if labels:
        lines.append("  seats: " + ", ".join(labels))
    if sides:
        lines.append("  sides: " + "; ".join(
            f"{side_name(side)} = seats {', '.join(map(labelled, seats))}"
            for side, seats in sorted(sides.items())))
    for name, value in sorted(history.tags.items()):
        lines.append(f"  {name}: {value}")
    if history.start is not None:
        start = history.start
        lines.append(f"  starts after event {start.version}: dealer seat "
                     f"{seat_name(start.dealer)}, scores "
                     f"{_scores(start.scores)}")
    return lines


def _seat_labels(history: HandHistory) -> list[str]:
    """Returns ``seat 1 (bot, strong)`` for each seat of a history with a bot (none for a
    table of people): the level as the game's creation records it, or the type alone where
    the history does not hold the creation (one deal's)."""
    if not any(seat.type == "bot" for seat in history.seats):
        return []
    created = next((event for event in history.events if event.type == "game_created"), None)
    levels: Sequence[str | None] = [None] * len(history.seats)
    if created is not None and created.data is not None:
        try:
            levels = recorded_levels([seat.type for seat in history.seats],
                                     created.data.get("bot_levels"))
        except (BotLevelError, TypeError):
            pass  # Not levels this code reads: the types alone ("history verify" says why).
    return [f"seat {seat_name(seat.seat)} ({seat_label(seat.type, level)})"
            for seat, level in zip(history.seats, levels, strict=True)]


def _deal(section: Section, players: int, stopped: int | None = None) -> list[str]:
    entry = section.entry
    title = f"Deal {section.number}"
    if entry is not None:
        title += f": dealer seat {_seat(entry['dealer'])}"
        if entry["turn_up"] is not None:
            title += f", turn-up {entry['turn_up']}"
        title += f", trumps {entry['trump'] or 'not named'}"
    lines = [title]
    if entry is not None:
        shown = [f"seat {seat_name(seat)}: {' '.join(hand)}"
                 for seat, hand in enumerate(entry["hands"])
                 if hand is not None]
        hidden = sum(1 for hand in entry["hands"] if hand is None)
        if shown:
            lines.append("  hands as dealt: " + "; ".join(shown)
                         + (f" ({hidden} hidden from this view)" if hidden else ""))
    facts: Sequence[Mapping[str, Any]] = entry["facts"] if entry is not None else ()
    by_version: dict[int, list[Mapping[str, Any]]] = {}
    for fact in facts:
        by_version.setdefault(fact["version"], []).append(fact)
    trick: list[tuple[Any, Any]] = []
    waiting: list[str] = []
    number = 0
    refused: list[HistoryEvent] = []
    for event in section.events:
        if stopped is not None and event.version >= stopped:
            refused.append(event)
            continue
        if event.type == "card_played" and not event.redacted:
            if not trick:
                number += 1
            trick.append((event.data.get("seat"), event.data.get("card")))
            won = [f for f in by_version.get(event.version, ()) if f["kind"] == "trick_won"]
            if won or (players and len(trick) == players):
                lines.append(_trick_line(number, trick, won[0] if won else None))
                trick = []
        else:
            lines.append("  " + describe(event))
        # A fact established in the middle of a trick is shown once the trick is complete.
        waiting += ["      " + _fact(fact) for fact in by_version.pop(event.version, ())
                    if fact["kind"] != "trick_won"]
        if not trick:
            lines += waiting
            waiting = []
    if trick:
        lines.append(_trick_line(number, trick, None, open_trick=True))
    lines += waiting
    for leftover in by_version.values():
        lines += ["      " + _fact(fact) for fact in leftover if fact["kind"] != "trick_won"]
    if refused:
        listed = " · ".join(
            f"{_seat(event.data.get('seat'))} {event.data.get('card')}"
            if event.type == "card_played"
            else describe(event) for event in refused)
        lines.append(f"  not played (refused from event {refused[0].version} on, see the "
                     f"irregularities): {listed}")
    if entry is not None and entry["result"] is not None:
        result = entry["result"]
        gained = ", ".join(f"{side_name(side)} {points:+d}"
                           for side, points in enumerate(result["points"]))
        lines.append(f"  result: {gained}; scores {_scores(result['scores'])}; tricks "
                     f"{_scores(result['tricks_won'])}; counted to trick "
                     f"{result['ended_at_trick']}"
                     + (f"; side {side_name(result['winner'])} wins the game"
                        if result["winner"] is not None else ""))
    return lines


def _trick_line(number: int, plays: Sequence[tuple[Any, Any]], won: Mapping[str, Any] | None,
                open_trick: bool = False) -> str:
    cards = " · ".join(f"{_seat(seat)} {card}" for seat, card in plays)
    line = f"  trick {number}: {cards}"
    if won is not None:
        side = side_name(won["side"]) if isinstance(won.get("side"), int) else "?"
        ruling = won["ruling"]
        line += (f" → seat {_seat(won.get('seat'))} ({side}) wins: {ruling['text']} "
                 f"[{ruling['rule']}]")
    elif open_trick:
        line += " (not finished)"
    return line


def _fact(fact: Mapping[str, Any]) -> str:
    ruling = fact["ruling"]
    where = ""
    if fact["kind"] == "bonus_proven":
        where = (f"bonus proven at trick {fact.get('trick')}, credited to trick "
                 f"{fact.get('credited_trick')}: ")
    else:
        where = fact["kind"].replace("_", " ") + ": "
    return f"{where}{ruling['text']} [{ruling['rule']}]"


def describe(event: HistoryEvent) -> str:
    """Returns one line saying what a (non-play) event was, as its viewer may see it: the
    event type's own sentence (:attr:`events.types.Event.SAYS`) filled with its data."""
    kind = EVENT_TYPES.get(event.type)
    if kind is None or not kind.SAYS:
        return f"{event.type} {dict(event.data)}"
    template = kind.SAYS_HIDDEN if event.redacted and kind.SAYS_HIDDEN else kind.SAYS
    if "{seed:" in template and event.data.get("seed") is None and kind.SAYS_HIDDEN:
        template = kind.SAYS_HIDDEN
    values: dict[str, Any] = {}
    for name, value in event.data.items():
        if isinstance(value, list):
            values[name] = " ".join(map(str, value)) or "nothing"
            values[f"{name}_count"] = len(value)
        elif name == "seat":
            values[name] = _seat(value)
        else:
            values[name] = "none" if value is None else value
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, TypeError):
        return f"{event.type} {dict(event.data)}"  # Data not of its type's shape (tampered).


def _seat(seat: object) -> object:
    """Returns a seat as people count it (from 1), or a tampered value as it is."""
    return seat_name(seat) if isinstance(seat, int) and not isinstance(seat, bool) else seat


def _standing(game: Mapping[str, Any]) -> str:
    state = "over" if game["phase"] == "over" else f"in progress (next: {game['phase']})"
    line = f"Game {state}: scores {_scores(game['scores'])}"
    if game["winner"] is not None:
        line += f"; side {side_name(game['winner'])} wins"
    return line


def _scores(values: Sequence[int]) -> str:
    return ", ".join(f"{side_name(side)} {value}" for side, value in enumerate(values))
