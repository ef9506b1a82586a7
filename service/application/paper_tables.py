"""Paper tables: enter, confirm and dispute a paper table's score card (engine.paper).

A player of the table enters the card of the round in play with their drive token (the one
their table's seat token is in every round); a player of another side confirms it, or
disputes it, with theirs; the director may enter, correct and confirm any card with the
director's token. Each is a drive event (``score_card_entered``, ``score_card_confirmed``,
``score_card_disputed``) whose actor is ``player:<index>`` or ``director``, so the drive's
history says who entered and who confirmed every hand-entered result. Every event is applied
through the drive's fold before it is appended, and the fold is where a card is held to the
game's rules (:func:`engine.paper.score_card_result`, refused as
:class:`engine.drives.ScoreCardRefused`), here as in ``drive verify``: one home for the rule.
"""

from __future__ import annotations

import dataclasses
import hmac
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.drive_state import DriveState, ScoreCard
from engine.drives import ScoreCardRefused, apply_drive_event
from engine.errors import DriveError
from engine.profiles import make_ruleset
from engine.seating import partner_pairs
from events.drive_store import DriveStore
from events.drive_types import ScoreCardConfirmed, ScoreCardDisputed, ScoreCardEntered
from events.envelope import DIRECTOR
from events.errors import ConcurrencyError
from events.types import Event
from service.application.drives import DIRECTOR_SECRET, load
from service.application.tokens import TokenRefusedError, token_digest

PLAYER_ACTOR = "player:"
"""The actor of a drive event a player decided: ``player:`` and their index in the drive."""


class ScoreCardTokenError(TokenRefusedError):
    """Raised for a token that is neither the director's nor a drive player's."""


class NotAtTableError(PermissionError):
    """Raised for a player's token at a table they do not sit at in the round in play."""


class RecordNotFoundError(LookupError):
    """Raised for a score card naming a record (a kept history) that is not kept."""


@dataclasses.dataclass(frozen=True, slots=True)
class Writer:
    """Who acts on a score card: a player of the table (their index and side) or the
    director (``player`` and ``side`` ``None``)."""

    player: int | None
    side: int | None

    @property
    def actor(self) -> str:
        """The actor of the drive events they decide."""
        return DIRECTOR if self.player is None else f"{PLAYER_ACTOR}{self.player}"


def writer_of(drives: DriveStore, drive: DriveState, token: str | None, table: int) -> Writer:
    """Returns who *token* is at *table* (1-based) of the round in play.

    :raises ScoreCardTokenError: if it is no token of the drive.
    :raises NotAtTableError: if it is a player's who does not sit at that table now.
    :raises DriveError: if no round is in play or there is no such table.
    """
    kept = drives.secrets(drive.drive_id)
    digest = token_digest(token) if token is not None else ""
    director = kept.get(DIRECTOR_SECRET)
    if director is not None and token is not None and hmac.compare_digest(director, digest):
        return Writer(None, None)
    player = next((int(field.split(":", 1)[1]) for field, value in kept.items()
                   if field.startswith("token:") and token is not None
                   and hmac.compare_digest(value, digest)), None)
    if token is None:
        raise ScoreCardTokenError("a score card needs a token: Authorization: Bearer <a "
                                  "player's drive token or the director's>", missing=True)
    if player is None:
        raise ScoreCardTokenError(f"that is no token of drive {drive.drive_id!r}: send a "
                                  "player's drive token or the director's", missing=False)
    seated = _seated(drive, table)
    for side, members in enumerate(partner_pairs(seated, drive.sides)):
        if player in members:
            return Writer(player, side)
    raise NotAtTableError(f"{drive.players[player]['name']} does not sit at table {table} "
                          "this round: a player of the table, or the director, enters its card")


def _seated(drive: DriveState, table: int) -> tuple[int, ...]:
    """Returns the players of *table* in the round in play.

    :raises DriveError: if no round is in play or it has no such table.
    """
    current = drive.current
    if current is None or current.ended:
        raise DriveError("no round is in play: score cards are entered during their round")
    tables = drive.schedule[current.number - 1]
    if not 1 <= table <= len(tables):
        raise DriveError(f"round {current.number} has no table {table} (tables 1 to "
                         f"{len(tables)})")
    return tables[table - 1]


def enter(drives: DriveStore, drive_id: str, token: str | None, table: int,
          deals: Sequence[Mapping[str, Any]], winner: int | None = None,
          record: str | None = None,
          is_kept: Callable[[str], bool] = lambda _record: True) -> DriveState:
    """Enters (or corrects) the score card of paper *table* in the round in play: *deals*
    each ``{"dealer", "points"}``, and *record* the id of a kept hand history of its deals,
    which *is_kept* must know (once the token is known to be the table's); returns the drive
    after it.

    :raises RecordNotFoundError: for a record that is not kept (checked once the card is
        known to fit the rules).
    :raises ScoreCardRefused: for a card its rules do not allow (nothing is appended).
    :raises DriveError: for a table that is no paper table in play, or a confirmed card a
        player tries to change.
    """
    def decide(drive: DriveState, writer: Writer) -> Event:
        assert drive.current is not None, "a round is in play"
        return ScoreCardEntered(drive.current.number, table, writer.side, tuple(
            {"dealer": d["dealer"], "points": list(d["points"])} for d in deals), winner,
            record)

    def kept(_after: DriveState) -> None:
        if record is not None and not is_kept(record):
            raise RecordNotFoundError(f"no history {record!r} is kept: keep the table's record "
                                      "first (POST /v1/histories?mode=keep) and name the id it "
                                      "answers")

    return _append(drives, drive_id, token, table, decide, kept)


def confirm(drives: DriveStore, drive_id: str, token: str | None, table: int) -> DriveState:
    """Confirms the score card of paper *table* entered last (a player of another side than
    its writer's, or the director); returns the drive after it."""
    def decide(drive: DriveState, writer: Writer) -> Event:
        assert drive.current is not None, "a round is in play"
        return ScoreCardConfirmed(drive.current.number, table, writer.side)

    return _append(drives, drive_id, token, table, decide)


def dispute(drives: DriveStore, drive_id: str, token: str | None, table: int,
            reason: str) -> DriveState:
    """Disputes the score card of paper *table* entered last (a player of another side than
    its writer's); returns the drive after it."""
    def decide(drive: DriveState, writer: Writer) -> Event:
        assert drive.current is not None, "a round is in play"
        if writer.side is None:
            raise DriveError("the director settles a disputed card by confirming it or "
                             "entering it again, not by disputing it")
        return ScoreCardDisputed(drive.current.number, table, writer.side, reason)

    return _append(drives, drive_id, token, table, decide)


def _append(drives: DriveStore, drive_id: str, token: str | None, table: int,
            decide: Callable[[DriveState, Writer], Event],
            check: Callable[[DriveState], None] | None = None) -> DriveState:
    """Appends the event *decide* makes of the drive and the writer once the drive's fold
    takes it (the fold holds it to the rules) and *check* passes the drive after it,
    deciding again if the drive moved on meanwhile; returns the drive after it."""
    while True:
        drive, head = load(drives, drive_id)
        if drive.finished:
            raise DriveError(f"drive {drive_id!r} is finished: its score cards are final")
        writer = writer_of(drives, drive, token, table)
        event = decide(drive, writer)
        after = apply_drive_event(drive, event)
        if check is not None:
            check(after)
        try:
            drives.append(drive_id, drive.version, [event], head=head, actor=writer.actor)
        except ConcurrencyError:
            continue
        return after


def card_view(drive: DriveState, round_number: int, table: int) -> dict[str, Any]:
    """Returns a paper table's score card as the API shows it: its players by side, the card
    entered last (deals, totals, winner), who entered and confirmed it, and any dispute."""
    seated = drive.schedule[round_number - 1][table - 1]
    card = drive.score_card(round_number, table)
    sides = [{"side": side, "players": [{"name": drive.players[p]["name"], "player": p,
                                         "seat": seated.index(p)} for p in members]}
             for side, members in enumerate(partner_pairs(seated, drive.sides))]
    return {"round": round_number, "table": table, "paper": drive.is_paper(table),
            "target": make_ruleset(drive.profile, drive.options, drive.size).target,
            "sides": sides, "status": _status(drive, round_number, table, card),
            "card": None if card is None else _card(card)}


def _status(drive: DriveState, round_number: int, table: int, card: ScoreCard | None) -> str:
    if drive.adjustment(round_number, table) is not None:
        return "abandoned"
    if card is None:
        return "empty"
    if card.confirmed:
        return "confirmed"
    return "disputed" if card.disputed is not None else "entered"


def _card(card: ScoreCard) -> dict[str, Any]:
    return {
        "deals": [{"deal": n, "dealer": d.dealer, "points": list(d.points)}
                  for n, d in enumerate(card.deals, start=1)],
        "scores": list(card.result.scores), "winner": card.result.winner,
        "entered_by": "director" if card.side is None else {"side": card.side},
        "confirmed": card.confirmed,
        "confirmed_by": None if not card.confirmed else (
            "director" if card.confirmed_by is None else {"side": card.confirmed_by}),
        "dispute": card.disputed,
        "record": card.record,
    }


__all__ = ["NotAtTableError", "RecordNotFoundError", "ScoreCardRefused", "ScoreCardTokenError",
           "Writer", "card_view", "confirm", "dispute", "enter", "writer_of"]
