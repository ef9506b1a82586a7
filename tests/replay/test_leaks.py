"""No viewer ever receives a card it may not see, in either encoding, at any point of a game.

For every golden game, every view and every prefix of its events, the forbidden cards come
from the auditor's state at that point: the cards in other seats' hands, the face-down cards
the viewer did not put down itself, the stock, and any seed not yet revealed. Each deal's part
of the history (its events and results, its section of the text) must not name a card that was
hidden in that deal; no part may hold an unrevealed seed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from replay_helpers import golden, golden_names, recorded

from engine.state import DealState, GameState
from events.codec import canonical_json
from events.envelope import RecordedEvent
from replay.formats.build import Replay, build_history, replay_log
from replay.formats.document import HandHistory
from replay.formats.export import export_text

VIEWERS_OF = {4: [0, 1, 2, 3, "spectator"], 6: [0, 1, 2, 3, 4, 5, "spectator"]}


def _codes(cards: Iterable[object]) -> set[str]:
    return {card.code() for card in cards}  # type: ignore[attr-defined]


def forbidden(deal: DealState, viewer: object, events: list[RecordedEvent]) -> set[str]:
    """Returns the cards of *deal* that *viewer* may not see at the end of *events*."""
    hidden: set[str] = set()
    for seat, hand in enumerate(deal.hands):
        if seat != viewer:
            hidden |= _codes(hand)
    own = set()
    joker_turned = False
    deal_events = _deal_events(deal.number, events)
    for item in deal_events:
        data = item.envelope.data
        if item.envelope.type == "joker_buried":
            joker_turned = True
        if item.envelope.type in ("joker_buried", "turn_up_robbed", "cards_discarded") and (
                data["seat"] == viewer):
            own |= set(data.get("cards") or []) | {data.get("card"), data.get("discard")}
    hidden |= _codes(deal.face_down) - own
    hidden |= _codes(deal.stock)
    if deal.turn_up is not None:
        hidden.discard(deal.turn_up.code())  # A robbed turn-up was seen by everyone.
    if joker_turned:
        hidden.discard("JK")  # So was a turned joker.
    return hidden


def _deal_events(number: int, events: list[RecordedEvent]) -> list[RecordedEvent]:
    out: list[RecordedEvent] = []
    current = None
    for item in events:
        if item.envelope.type in ("deck_shuffled", "deal_recorded"):
            current = item.envelope.data["deal"]
        if current == number:
            out.append(item)
    return out


_CARD = re.compile(r"(?<![0-9A-Z])(?:[2-9TJQKA][SCDH]|JK)(?![0-9A-Z])")


def _mentions(text: str, cards: set[str]) -> set[str]:
    """Returns the cards of *cards* that *text* names as a whole word."""
    return set(_CARD.findall(text)) & cards


def check(history: HandHistory, state: GameState, events: list[RecordedEvent]) -> None:
    viewer = history.view.viewer
    deals = {deal.number: deal for deal in (*state.past_deals, state.deal) if deal}
    hidden = {number: forbidden(deal, viewer, events) for number, deal in deals.items()}
    seeds = {deal.seed for deal in deals.values() if deal.seed and not deal.seed_revealed}
    everywhere = set().union(*hidden.values()) if hidden else set()
    _check_hashes(history, state)
    body = canonical_json(history.to_dict()).decode()
    text = export_text(history)
    for seed in seeds:
        assert seed not in body and seed not in text, "an unrevealed seed leaked"
    # The JSON: each deal's events and results against that deal's hidden cards.
    for section in history.sections():
        part = canonical_json({
            "events": [event.to_dict() for event in section.events],
            "entry": section.entry,
        }).decode()
        leaked = _mentions(part, hidden.get(section.number, set()))
        assert not leaked, f"{viewer} sees {leaked} in deal {section.number}"
    outside = canonical_json({
        "events": [event.to_dict() for event in history.preamble()],
        "game": (history.results or {}).get("game"),
        "irregularities": (history.results or {}).get("irregularities"),
        "rules": history.to_dict()["rules"],
    }).decode()
    assert not _mentions(outside, everywhere)
    # The text: each [Deal] section, and the header and integrity lines outside them.
    parts = re.split(r'^(?=\[Deal ")', text, flags=re.MULTILINE)
    head, sections = parts[0], parts[1:]
    tail = ""
    if sections and "%integrity" in sections[-1]:
        sections[-1], tail = sections[-1].split("%integrity", 1)
    assert not _mentions(head + tail, everywhere)
    for section_text in sections:
        number = int(re.match(r'\[Deal "([0-9]+)"\]', section_text).group(1))  # type: ignore[union-attr]
        leaked = _mentions(section_text, hidden.get(number, set()))
        assert not leaked, f"{viewer} sees {leaked} in the text of deal {number}"


def _check_hashes(history: HandHistory, state: GameState) -> None:
    """No hash covers another seat's face-down card in a deal the history does not reveal:
    with few candidates for the card, the hash would give it away."""
    viewer = history.view.viewer
    if viewer == "auditor":
        return
    revealed = {e.data["deal"] for e in history.events if e.type == "seed_revealed"}
    deal = None
    hidden_from: int | None = None
    for event in history.events:
        if event.type in ("deck_shuffled", "deal_recorded"):
            deal = event.data["deal"]
        if hidden_from is None and event.redacted and deal not in revealed and (
                event.type in ("joker_buried", "turn_up_robbed")
                or (event.type == "cards_discarded" and event.data.get("count"))):
            hidden_from = event.version
        if hidden_from is not None:
            assert event.hash is None, f"event {event.version}'s hash covers a hidden card"
            if event.version > hidden_from:
                assert event.prev_hash is None
    if hidden_from is not None:
        assert history.head is None


def _replay(name: str) -> Replay:
    history = golden(name)
    return replay_log(recorded(history), start=history.start)


@pytest.mark.parametrize("name", golden_names())
def test_no_view_of_any_prefix_shows_a_hidden_card(name: str) -> None:
    replay = _replay(name)
    assert replay.applied == len(replay.recorded)
    game_id = golden(name).game_id
    assert game_id is not None
    players = replay.states[0].rules.players
    events = list(replay.recorded)
    for as_of in range(1, len(events) + 1):
        state = replay.states[as_of - 1]
        for viewer in VIEWERS_OF[players]:
            history = build_history(game_id, replay, viewer, as_of=as_of)
            check(history, state, events[:as_of])


def test_the_check_catches_a_leak() -> None:
    replay = _replay("seed-000-09")
    state = replay.states[-1]
    history = build_history("golden-000-09", replay, "auditor")
    as_seat = HandHistory(**{**{f: getattr(history, f) for f in (
        "game_id", "rules", "seats", "events", "head", "results", "start", "tags")},
        "view": history.view.__class__(0, history.view.as_of)})
    with pytest.raises(AssertionError, match="sees"):
        check(as_seat, state, list(replay.recorded))
