"""Rebuilding a redacted event exactly, where the history itself makes that possible.

A viewer's history hides some fields (an unrevealed seed, a face-down card), so the stored hash
of such an event cannot be recomputed from what the viewer holds. Once a deal is over its seed
is revealed in a public ``seed_revealed`` event, and then:

- the shuffle event is rebuilt by putting the revealed seed back, and its hash is checked;
- with the deal re-derived from that seed, a face-down card (a rob discard, a card buried
  under a turned joker, auction discards) is one of the few cards the player held: each is
  tried, and exactly one must reproduce the stored hash.

Nothing is guessed: a field is filled in only when the stored hash confirms it. A hand recorded
at a real table is never rebuilt: no seed reveals it.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from engine.sides import seat_name
from engine.state import GameState
from events.chain import envelope_hash
from events.envelope import Envelope
from events.types import EVENT_TYPES, compact_data
from replay.formats.document import HistoryEvent

Status = Literal["rebuilt", "impossible", "mismatch"]


@dataclasses.dataclass(frozen=True, slots=True)
class Reconstruction:
    """The outcome of trying to rebuild one redacted event."""

    status: Status
    data: dict[str, Any] | None
    """The event's full data when rebuilt."""
    note: str
    """How it was rebuilt, or why it could not be."""


def stored_hash(game_id: str, event: HistoryEvent, data: Mapping[str, Any]) -> str:
    """Returns the hash the envelope of *event* has with *data* as its data.

    :raises events.codec.CodecError: if *data* has no canonical JSON form.
    """
    assert event.prev_hash is not None and event.occurred_at is not None, "a sealed event"
    envelope = Envelope(
        game_id=game_id, version=event.version, type=event.type, schema=event.schema,
        data=data, actor=event.actor, command_id=event.command_id,
        occurred_at=event.occurred_at, prev_hash=event.prev_hash, hash="",
    )
    return envelope_hash(envelope)


def reconstruct(game_id: str, event: HistoryEvent, state: GameState | None,
                revealed: Mapping[int, tuple[str, int]]) -> Reconstruction:
    """Tries to rebuild redacted *event* exactly.

    *state* is the fully known game before the event (``None`` when it is not known), and
    *revealed* maps each deal whose seed the history reveals to ``(seed, version of the
    reveal)``.
    """
    cls = EVENT_TYPES.get(event.type)
    hidden = ", ".join(event.redacted)
    if event.hash is None or event.prev_hash is None:
        return Reconstruction("impossible", None, (
            f"{hidden} hidden, and the view withholds the hash while the deal is not revealed"))
    if cls is None:
        return Reconstruction("impossible", None, f"{hidden} hidden, and the type is unknown")
    if event.schema != cls.SCHEMA:
        return Reconstruction("impossible", None, (
            f"{hidden} hidden; the event is stored at schema {event.schema} but the view shows "
            f"schema {cls.SCHEMA}, so its stored form cannot be rebuilt"))
    fields = [field.name for field in dataclasses.fields(cls)]
    base = {name: event.data.get(name) for name in fields}
    if event.type in ("deck_shuffled", "board_dealt"):
        deal = event.data.get("deal")
        if not isinstance(deal, int) or deal not in revealed:
            return Reconstruction("impossible", None, (
                f"the seed is hidden from this view and deal {deal} is not over in it "
                "(no seed_revealed event)"))
        seed, at = revealed[deal]
        return _try(game_id, event, [{**base, "seed": seed}],
                    f"rebuilt with the seed revealed at event {at}",
                    f"rebuilt with the seed revealed at event {at}, it does not give the "
                    "stored hash: the event or the reveal was changed")
    if event.type == "cards_discarded" and event.data.get("count") == 0:
        return _try(game_id, event, [{**base, "cards": []}], "nothing was discarded",
                    "discarding nothing does not give the stored hash: the event was changed")
    if event.type == "game_created":
        return Reconstruction("impossible", None, (
            "the secret the bots' and the turn clock's cuts come from is hidden from this view "
            "while the game goes on (its commitment is public); every view shows it once the "
            "game is over"))
    if event.type == "deal_recorded":
        return Reconstruction("impossible", None, (
            "the hands recorded at the table are hidden from this view, and no seed reveals "
            "them (an auditor's history verifies them)"))
    if state is None or state.deal is None:
        return Reconstruction("impossible", None, (
            f"{hidden} hidden from this view, and the deal is not known to it (its seed is not "
            "revealed, or an earlier event could not be rebuilt)"))
    seat = event.data.get("seat")
    hands = state.deal.hands
    if not isinstance(seat, int) or not 0 <= seat < len(hands):
        return Reconstruction("impossible", None, f"{hidden} hidden, and the seat is unknown")
    hand = sorted({card.code() for card in hands[seat]})
    candidates: Iterable[dict[str, Any]]
    if event.type in ("joker_buried", "turn_up_robbed"):
        name = "card" if event.type == "joker_buried" else "discard"
        candidates = ({**base, name: card} for card in hand)
        what = f"the face-down {name}"
    elif event.type == "cards_discarded":
        count = event.data.get("count")
        if not isinstance(count, int) or not 0 <= count <= len(hands[seat]):
            return Reconstruction("mismatch", None,
                                  f"seat {seat_name(seat)} cannot discard {count!r} cards")
        codes = [card.code() for card in hands[seat]]
        orders = sorted(set(itertools.permutations(codes, count)))
        candidates = ({**base, "cards": list(order)} for order in orders)
        what = "the discards"
    else:
        return Reconstruction("impossible", None, f"{hidden} hidden from this view")
    return _try(game_id, event, candidates,
                f"{what} rebuilt from seat {seat_name(seat)}'s re-derived hand",
                f"no choice from seat {seat_name(seat)}'s re-derived hand gives the stored "
                "hash: the event was changed")


def _try(game_id: str, event: HistoryEvent, candidates: Iterable[dict[str, Any]],
         found: str, missing: str) -> Reconstruction:
    for candidate in candidates:
        candidate = compact_data(event.type, candidate)  # Unset optional fields are not stored.
        if stored_hash(game_id, event, candidate) == event.hash:
            return Reconstruction("rebuilt", candidate, found)
    return Reconstruction("mismatch", None, missing)
