"""A deal as a picture: the hand diagram card players post, as SVG text.

:func:`render_svg` draws one deal of a history as its viewer may see it: the hands as dealt
(a hand the viewer may not see is drawn as hidden), the dealer, trumps and the turn-up, the
tricks in order with their winners, the bonus and the result. Like :mod:`replay.presentation.show`
it reads only the history (its events and derived results), which :mod:`replay.views` has
already cut to the viewer: whatever the history hides, the picture cannot show. Seats are
counted from 1, as people count them and as the ruling texts from version 3 do (the history's
data count them from 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from engine.sides import seat_name, side_name
from replay.formats.document import HandHistory, Section

SUITS = (("S", "\u2660"), ("H", "\u2665"), ("D", "\u2666"), ("C", "\u2663"))
"""The suits in the order a diagram lists them, with their symbols."""
RED = "#c0392b"
BLACK = "#1b1b1b"
WIDTH = 720
LINE = 22
"""The height of a line of text, in pixels."""
HAND_WIDTH = WIDTH // 2 - 30
HAND_LINES = 6
"""A hand's box: a title and a line per suit (and one for the joker)."""


DEALING = frozenset({"deck_cut", "deal_recorded", "board_dealt"})
"""The events after which a deal's hands are dealt."""


class DiagramError(LookupError):
    """Raised for a deal the history does not hold."""


def card_label(code: str) -> str:
    """Returns *code* as people write it: ``TH`` is ``10♥``, ``JK`` the joker.

    >>> card_label("TH"), card_label("AS"), card_label("JK")
    ('10♥', 'A♠', 'Joker')
    """
    if code == "JK":
        return "Joker"
    rank = "10" if code[0] == "T" else code[0]
    return rank + dict(SUITS)[code[1]]


def seat_label(seat: object) -> str:
    """Returns how a person reads a seat number, "Seat 1" for seat 0 of the history."""
    return f"Seat {seat_name(seat)}" if isinstance(seat, int) else "?"


def seat_names(history: HandHistory) -> list[str | None]:
    """Returns each seat's name as the history records it: ``game_created``'s, each replaced
    by the name given when the seat was claimed (``seat_named``), the last one given (empty
    when the history holds none)."""
    names: list[str | None] = []
    for event in history.events:
        if event.type == "game_created":
            given = event.data.get("names")
            if isinstance(given, list):
                names = [name if isinstance(name, str) else None for name in given]
        elif event.type == "seat_named":
            seat, name = event.data.get("seat"), event.data.get("name")
            if isinstance(seat, int) and 0 <= seat < len(history.seats) and isinstance(name, str):
                names += [None] * (seat + 1 - len(names))
                names[seat] = name
    return names


def render_svg(history: HandHistory, deal: int) -> str:
    """Returns the diagram of deal number *deal* of *history* as an SVG document.

    :raises DiagramError: if the history holds no such deal.
    """
    section = next((item for item in history.sections() if item.number == deal), None)
    if section is None:
        raise DiagramError(f"the history holds no deal {deal}")
    players = len(history.seats)
    if history.rules is not None and history.rules.players is not None:
        players = history.rules.players
    picture = _Picture()
    viewer = history.view.viewer
    who = f"{seat_label(viewer)}'s view" if isinstance(viewer, int) else f"{viewer}'s view"
    profile = history.rules.profile if history.rules is not None else "a game"
    picture.text(20, 32, f"Deal {deal} of {profile}", size=20, weight="bold")
    picture.text(20, 54, f"game {history.game_id or '(unnamed)'} · {who}", size=13,
                 color="#555")
    entry = section.entry or {}
    picture.y = 84
    picture.line(_setup_line(entry))
    picture.y += 8
    dealt = any(event.type in DEALING for event in section.events)
    _hands(picture, entry, players, history, dealt)
    _tricks(picture, section, entry, players)
    _result(picture, entry)
    return picture.document()


def _setup_line(entry: Mapping[str, Any]) -> str:
    parts = []
    if entry.get("dealer") is not None:
        parts.append(f"Dealer: {seat_label(entry['dealer'])}")
    trump = entry.get("trump")
    parts.append(f"Trumps: {dict(SUITS)[trump] if trump in dict(SUITS) else 'not named'}")
    if entry.get("turn_up") is not None:
        parts.append(f"Turn-up: {card_label(entry['turn_up'])}")
    return " · ".join(parts)


def _hands(picture: _Picture, entry: Mapping[str, Any], players: int,
           history: HandHistory, dealt: bool) -> None:
    hands: Sequence[Any] = entry.get("hands") or [None] * players
    sides = {seat.seat: seat.side for seat in history.seats}
    names = seat_names(history)
    top = picture.y
    for seat in range(players):
        column, row = seat % 2, seat // 2
        x = 20 + column * (HAND_WIDTH + 20)
        y = top + row * (HAND_LINES * LINE + 16)
        picture.box(x, y, HAND_WIDTH, HAND_LINES * LINE + 6)
        side = sides.get(seat)
        title = seat_label(seat)
        if seat < len(names) and names[seat]:
            title += f" · {names[seat]}"
        title += f" · side {side_name(side)}" if side is not None else ""
        if seat == entry.get("dealer"):
            title += " · dealer"
        picture.text(x + 10, y + LINE, title, weight="bold")
        hand = hands[seat] if seat < len(hands) else None
        if hand is None:
            picture.text(x + 10, y + 2 * LINE,
                         "hidden from this view" if dealt else "not dealt yet", color="#777",
                         italic=True)
            continue
        for index, (suit, symbol) in enumerate(SUITS):
            cards = [card_label(code)[:-1] for code in hand if code != "JK" and code[1] == suit]
            picture.suit_line(x + 10, y + (index + 2) * LINE, symbol, suit, cards)
        if "JK" in hand:
            picture.text(x + 10, y + 6 * LINE, "Joker", weight="bold")
    rows = (players + 1) // 2
    picture.y = top + rows * (HAND_LINES * LINE + 16) + 10


def _tricks(picture: _Picture, section: Section, entry: Mapping[str, Any],
            players: int) -> None:
    won = {fact["version"]: fact for fact in entry.get("facts", ())
           if fact.get("kind") == "trick_won"}
    tricks: list[tuple[list[tuple[Any, Any]], Mapping[str, Any] | None]] = []
    current: list[tuple[Any, Any]] = []
    for event in section.events:
        if event.type != "card_played" or event.redacted:
            continue
        current.append((event.data.get("seat"), event.data.get("card")))
        fact = won.get(event.version)
        if fact is not None or len(current) == players:
            tricks.append((current, fact))
            current = []
    if current:
        tricks.append((current, None))
    picture.text(20, picture.y + LINE, "Tricks", size=16, weight="bold")
    picture.y += LINE + 6
    if not tricks:
        picture.line("no card played yet", color="#777")
    for number, (plays, fact) in enumerate(tricks, 1):
        picture.trick_line(number, plays, fact)


def _result(picture: _Picture, entry: Mapping[str, Any]) -> None:
    picture.y += 8
    for fact in entry.get("facts", ()):
        if fact.get("kind") == "bonus_proven":
            picture.line(f"Bonus: {fact['ruling']['text']}")
    result = entry.get("result")
    if result is None:
        picture.line("The deal is not over.", color="#555")
        return
    gained = ", ".join(f"side {side_name(side)} {points:+d}"
                       for side, points in enumerate(result["points"]))
    tricks = ", ".join(f"{side_name(side)} {count}"
                       for side, count in enumerate(result["tricks_won"]))
    scores = ", ".join(f"{side_name(side)} {score}"
                       for side, score in enumerate(result["scores"]))
    picture.line(f"Points: {gained} (tricks {tricks})", weight="bold")
    line = f"Scores: {scores}"
    if result.get("winner") is not None:
        line += f" · side {side_name(result['winner'])} wins the game"
    picture.line(line, weight="bold")


class _Picture:
    """The SVG elements of a diagram, drawn top to bottom."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = 0

    def text(self, x: int, y: int, text: str, *, size: int = 14, weight: str = "normal",
             color: str = BLACK, italic: bool = False) -> None:
        style = ' font-style="italic"' if italic else ""
        self.parts.append(
            f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
            f'fill="{color}"{style}>{escape(text)}</text>')

    def line(self, text: str, *, color: str = BLACK, weight: str = "normal") -> None:
        self.y += LINE
        self.text(20, self.y, text, color=color, weight=weight)

    def box(self, x: int, y: int, width: int, height: int) -> None:
        self.parts.append(f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="8" '
                          'fill="#ffffff" stroke="#9aa5a0"/>')

    def suit_line(self, x: int, y: int, symbol: str, suit: str, ranks: Sequence[str]) -> None:
        color = RED if suit in "HD" else BLACK
        shown = " ".join(ranks) if ranks else "\u2014"
        self.parts.append(
            f'<text x="{x}" y="{y}" font-size="15"><tspan fill="{color}">{symbol}</tspan> '
            f'<tspan fill="{BLACK}">{escape(shown)}</tspan></text>')

    def trick_line(self, number: int, plays: Sequence[tuple[Any, Any]],
                   fact: Mapping[str, Any] | None) -> None:
        self.y += LINE
        spans = [f'<tspan font-weight="bold">{number}.</tspan>']
        for seat, card in plays:
            label = card_label(card) if isinstance(card, str) else "?"
            color = RED if isinstance(card, str) and card[-1] in "HD" else BLACK
            spans.append(f' <tspan fill="#555">{escape(seat_label(seat))}</tspan> '
                         f'<tspan fill="{color}">{escape(label)}</tspan>')
        if fact is not None:
            winner = escape(seat_label(fact.get("seat")))
            spans.append(f' <tspan font-weight="bold"> \u2192 {winner}</tspan>')
        self.parts.append(f'<text x="20" y="{self.y}" font-size="14">{"".join(spans)}</text>')

    def document(self) -> str:
        height = self.y + 24
        title = quoteattr("hand diagram")
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label={title} '
            'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">\n'
            f'<rect width="{WIDTH}" height="{height}" fill="#eef5f0"/>\n'
            + "\n".join(self.parts) + "\n</svg>\n")
