"""Offline verification of a drive's history (``fortyfive drive verify``).

It trusts nothing in the document that it can derive: the drive's chain (sealed as a game's,
:func:`events.chain.verify_drive`) and fold, every checkpoint against that chain (one given
by the user, and the one the document carries; every signature present checked, with the
keys given or else the key the document carries, as a game history's:
:func:`replay.verification.checkpoint.check_signature`), every game of an ended round against
the head the drive pinned it at, the round each game is listed in (once), the table each
round started it at and the players it seats, every listed game's chain
and result (re-folded from its events), every revealed board against its commitment, every
board a game was dealt against the board the drive committed to (so every table of a round had
the same cards), every game of boards played out against the rule (every board played, won on
the total), and every part of the standings: the players derived again on a path of their own
(:mod:`replay.verification.drive_standings`), around them what the drive's events decide
(:func:`engine.standings.standings_document`), each compared with the part the document
states. A history that is not of a finished drive verifies as a prefix, which the report says;
so are the drive events no checked signature vouches for.
A paper table's result is its confirmed score card, which the drive's fold holds to the
game's rules (:mod:`engine.paper`); the result listed must be the card's.

A checkpoint pins the drive's events up to its version (the players' names, the schedule,
every round's games and boards, and from each round's end each game's head, so each result):
rewriting any of them, even with every hash recomputed, fails against a checkpoint kept from
the service.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence, Set
from typing import Any

from engine.boards import PLAYED_OUT
from engine.drive_state import DriveState
from engine.drives import apply_drive_event, fold_drive, game_id_of
from engine.errors import DriveError, FortyFiveError, shown
from engine.fold import fold
from engine.seating import SEATED_AT_START, choose_sit_outs, mover, seat_present, winners_move
from engine.sides import side_name
from engine.standings import TableResult, paper_results, standings_document
from events import checkpoints
from events.chain import verify as verify_game_chain
from events.chain import verify_drive as verify_drive_chain
from events.drive_types import RoundStarted
from events.envelope import DriveEnvelope, Envelope
from events.errors import CorruptStreamError, SchemaError
from events.types import BoardDealt, BoardSkipped, Event, GameCreated
from events.upcasting import decode, decode_drive
from replay.formats.document import FORMAT as HAND_HISTORY_FORMAT
from replay.verification.checkpoint import CarriedKeyError, check_signature
from replay.verification.drive_standings import Outcome, derive
from replay.verification.findings import Signature, vouched_beyond

FORMAT = "fortyfive-drive-history"
"""The ``format`` of a drive's history (``GET /v1/drives/{id}/history``)."""
VERSION = 1
"""Its ``version``: the one this module verifies."""


@dataclasses.dataclass(frozen=True, slots=True)
class DrivePrefix:
    """A drive history that is not of a finished drive: where it stops, and how far a
    checkpoint shows the drive went on."""

    last: int
    """The history's last drive event."""
    ended: int
    """The rounds ended in it."""
    rounds: int
    """The rounds the drive was to play."""
    vouched: int | None = None
    """The latest drive event a checkpoint given or carried vouches for, when after
    :attr:`last`."""

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form."""
        return {"last": self.last, "rounds_ended": self.ended, "rounds": self.rounds,
                "vouched": self.vouched,
                "missing": None if self.vouched is None else self.vouched - self.last}

    def __str__(self) -> str:
        said = f"the drive is not finished: this history stops at drive event {self.last}, "
        said += (f"with {self.ended} of its {self.rounds} rounds ended; rounds after "
                 f"{self.ended} are not in this history" if self.ended < self.rounds
                 else f"with all {self.rounds} of its rounds ended but not the drive's finish")
        return said + vouched_beyond(self.last, self.vouched, "drive event", "drive")


@dataclasses.dataclass(frozen=True, slots=True)
class DriveReport:
    """What verifying a drive's history found."""

    drive_id: str | None
    problems: list[str]
    """Every mismatch: the history does not verify when there is one."""
    notes: list[str]
    """What was checked against what (checkpoints, keys) and what could not be."""
    signatures: list[Signature] = dataclasses.field(default_factory=list)
    """How each checkpoint's signature was checked, and against which trust root."""
    prefix: DrivePrefix | None = None
    """Set when the history is not of a finished drive."""
    unchecked: list[str] = dataclasses.field(default_factory=list)
    """What no check vouches for: the drive events after the last checkpoint whose signature
    was checked."""

    @property
    def ok(self) -> bool:
        """True when nothing failed."""
        return not self.problems

    @property
    def complete(self) -> bool:
        """True when the history is of a finished drive and a checked signature vouches for
        every event of it."""
        return self.prefix is None and not self.unchecked

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form (what ``fortyfive drive verify --json`` prints, beside the
        verdict)."""
        return {"ok": self.ok, "complete": self.complete, "drive_id": self.drive_id,
                "problems": list(self.problems), "unchecked": list(self.unchecked),
                "notes": list(self.notes),
                "signatures": [signature.to_dict() for signature in self.signatures],
                "prefix": None if self.prefix is None else self.prefix.to_dict()}


def verify_drive(document: Any) -> list[str]:
    """Returns every problem found in a drive history *document*, a JSON value (none: it
    verifies), checking the checkpoint it carries against its chain but not its signature
    (see :func:`check_drive`)."""
    return check_drive(document).problems


def check_drive(document: Any, *, checkpoint: Any = None,
                keys: Mapping[str, bytes] | None = None) -> DriveReport:
    """Verifies a drive history *document* (a JSON value); *checkpoint* is one the user kept
    (the drive's history must reach it with the same hash), *keys* the service's published
    keys (key id -> raw public key), against which every checkpoint's signature is checked."""
    if not isinstance(document, Mapping):
        return _unread(None, "not a drive history: a drive history is a JSON object")
    kind = document.get("format")
    if kind != FORMAT:
        hint = (" (a game's hand history: check it with `fortyfive history verify`)"
                if kind == HAND_HISTORY_FORMAT else "")
        return _unread(None, f"not a drive history: its format is {shown(kind)}, not "
                             f"{shown(FORMAT)}{hint}")
    version = document.get("version")
    if type(version) is not int or version != VERSION:
        return _unread(None, f"drive history version {shown(version)}: this verifier reads "
                             f"version {VERSION}")
    drive_id = str(document.get("drive_id"))
    try:
        envelopes = [DriveEnvelope.from_dict(raw) for raw in document["events"]]
        head = verify_drive_chain(envelopes, drive_id)
        drive_events = [decode_drive(envelope) for envelope in envelopes]
        drive, seated = _folded_with_seating(drive_id, drive_events)
    except (KeyError, TypeError, ValueError, CorruptStreamError, SchemaError,
            DriveError) as error:
        return _unread(drive_id, f"drive events: {error}")
    problems: list[str] = []
    notes: list[str] = []
    signatures: list[Signature] = []
    if head != document.get("head"):
        problems.append(f"drive head {document.get('head')!r} is not the chain's {head!r}")
    vouched = 0
    for what, found, carried in (
            ("the checkpoint given", checkpoint, None),
            ("the checkpoint the history carries", document.get("checkpoint"),
             document.get("checkpoint_key"))):
        if found is not None:
            vouched = max(vouched, _check_checkpoint(what, found, drive_id, envelopes, keys,
                                                     carried, problems, notes, signatures))
    if checkpoint is None:
        notes.append("no checkpoint given: the history is checked against itself only "
                     "(give --checkpoint and --keys to tell a rewritten one)")
    unchecked = [] if vouched >= len(envelopes) else [
        f"drive events {vouched + 1}-{len(envelopes)}: vouched for by no signature "
        + (f"(the checkpoints checked stop at version {vouched})" if vouched
           else "(no checkpoint's signature was checked)")]
    listed = _listed(document, problems)
    wanted = [game for played in drive.played for game in played.games]
    if sorted(listed) != sorted(wanted):
        problems.append("the games listed are not the games the drive's rounds started")
    problems += _round_problems(drive, listed)
    problems += _table_problems(drive, seated, listed)
    problems += _board_problems(drive, listed)
    problems += _pinned_problems(drive, listed, notes)
    outcomes: dict[str, Outcome] = {}
    paper = paper_results(drive)
    for game, entry in listed.items():
        result = entry.get("result")
        if isinstance(result, Mapping) and not _same(result.get("game"), game):
            problems.append(f"game {game}: its result is of game {shown(result.get('game'))}")
            continue
        try:
            outcome = (_paper_outcome(game, entry, paper, envelopes) if entry.get("paper")
                       else _outcome(game, entry))
        except (KeyError, TypeError, ValueError, FortyFiveError, CorruptStreamError,
                SchemaError) as error:
            problems.append(f"game {game}: {error}")
            continue
        if _fits(outcome, drive.size // 2):
            outcomes[game] = outcome
        else:
            problems.append(f"game {game}: its result is not one of {drive.size // 2} sides "
                            "(whole points per side, a winning side or null)")
    problems += _seating_problems(drive, outcomes)
    problems += _standings_problems(document.get("standings"),
                                    standings_document(drive, derive(drive, outcomes)))
    prefix = None if drive.finished else DrivePrefix(
        len(envelopes), sum(1 for played in drive.played if played.ended), drive.rounds,
        _later(drive_id, len(envelopes), (checkpoint, document.get("checkpoint"))))
    return DriveReport(drive_id, problems, notes, signatures, prefix, unchecked)


def _unread(drive_id: str | None, problem: str) -> DriveReport:
    """Returns the report on a document that cannot be read as a drive's history."""
    return DriveReport(drive_id, [problem], [], unchecked=[
        "the whole document: it cannot be read as a drive's history"])


def _later(drive_id: str, last: int, vouching: Sequence[Any]) -> int | None:
    """Returns the latest version after *last* that a checkpoint of *vouching* (given or
    carried, None when absent) of this drive vouches for, or None."""
    later = []
    for checkpoint in vouching:
        try:
            checkpoints.check_form(checkpoint, "drive_id")
        except checkpoints.CheckpointError:
            continue
        if checkpoint["drive_id"] == drive_id and checkpoint["version"] > last:
            later.append(checkpoint["version"])
    return max(later) if later else None


def _check_checkpoint(what: str, checkpoint: Any, drive_id: str,
                      envelopes: Sequence[DriveEnvelope], keys: Mapping[str, bytes] | None,
                      carried_key: Any, problems: list[str], notes: list[str],
                      signatures: list[Signature]) -> int:
    """Checks *checkpoint* is a drive's, its signature good (checked with *keys* when given,
    else with *carried_key*, the key the history carries: a signature present is a signature
    checked, :func:`replay.verification.checkpoint.check_signature`), of this drive, and that
    the drive's chain reaches its version with its head there. Returns that version when all
    holds and its signature was checked, else 0."""
    try:
        checkpoints.check_form(checkpoint, "drive_id")
        trust = check_signature(checkpoint, keys, carried_key, "drive_id")
    except CarriedKeyError as error:
        problems.append(f"{what}: {error} (checkpoint_key)")
        return 0
    except checkpoints.CheckpointError as error:
        problems.append(f"{what}: {error}")
        return 0
    at, pinned, kid = checkpoint["version"], checkpoint["head"], checkpoint["key_id"]
    signatures.append(Signature(what, kid, trust, at))
    if checkpoint["drive_id"] != drive_id:
        problems.append(f"{what} is of drive {checkpoint['drive_id']!r}, not of {drive_id!r}")
    elif at > len(envelopes):
        problems.append(f"{what} is at version {at}, but the drive's history stops at "
                        f"version {len(envelopes)}: it was cut short")
    elif envelopes[at - 1].hash != pinned:
        problems.append(f"{what} pins version {at} at {pinned[:12]}..., but the history has "
                        f"{envelopes[at - 1].hash[:12]}... there: it was rewritten since")
    else:
        notes.append(f"{what} (version {at}, signed at {checkpoint['signed_at']} with {kid}) "
                     "matches the history")
        return at if trust != "none" else 0
    return 0


_PARTS = {"players": "players (their points, games won and places)",
          "adjustments": "adjustments", "called": "rounds called", "roster": "roster changes",
          "sit_outs": "sit-outs"}
"""How a report names the parts of the standings that are lists."""


def _standings_problems(stated: Any, derived: Mapping[str, Any]) -> list[str]:
    """Returns every part of the *stated* standings that is not the part *derived* from the
    drive's events and games (:func:`engine.standings.standings_document` around
    :func:`replay.verification.drive_standings.derive`), each named. A part the standings
    leave out is a problem only where it would list something: histories served before a
    part existed do not state it."""
    if not isinstance(stated, Mapping):
        return ["the history states no standings: its standings are an object"]
    problems = [f"the standings state {shown(part)}, which a drive's standings do not have"
                for part in stated if part not in derived]
    for part, value in derived.items():
        source = "the games" if part == "players" else "the drive's events"
        name = _PARTS.get(part, part)
        if part not in stated:
            if isinstance(value, list) and value:
                problems.append(f"the standings leave out their {name}, which {source} make "
                                f"{shown(value)}")
        elif not _same(stated[part], value):
            problems.append(f"the standings' {name} differ from those derived from {source}: "
                            f"{_difference(stated[part], value)}")
    return problems


def _same(stated: Any, derived: Any) -> bool:
    """True if the JSON value *stated* is *derived*, kind for kind: ``true`` is not ``1`` and
    ``30.0`` is not ``30``, as Python's ``==`` would have them."""
    if isinstance(stated, list | tuple) and isinstance(derived, list | tuple):
        return len(stated) == len(derived) and all(
            _same(a, b) for a, b in zip(stated, derived, strict=True))
    if isinstance(stated, Mapping) and isinstance(derived, Mapping):
        return stated.keys() == derived.keys() and all(
            _same(stated[key], derived[key]) for key in derived)
    return type(stated) is type(derived) and stated == derived


def _difference(stated: Any, derived: Any) -> str:
    """Returns where *stated* first differs from *derived*, as a person reads it."""
    if isinstance(stated, list) and isinstance(derived, list):
        if len(stated) != len(derived):
            return f"{len(stated)} stated, {len(derived)} derived"
        index = next(i for i, (a, b) in enumerate(zip(stated, derived, strict=True))
                     if not _same(a, b))
        return f"entry {index + 1}: {_difference(stated[index], derived[index])}"
    if isinstance(stated, Mapping) and isinstance(derived, Mapping):
        key = next(k for k in [*derived, *stated]
                   if not _same(stated.get(k, ...), derived.get(k, ...)))
        if key not in stated:
            return f"it leaves out {key}, derived {shown(derived[key])}"
        if key not in derived:
            return f"it states {key}, which is not derived"
        if (isinstance(stated[key], list | Mapping)
                and type(stated[key]) is type(derived[key])):
            return f"its {key}: {_difference(stated[key], derived[key])}"
        return f"its {key} is {shown(stated[key])}, derived {shown(derived[key])}"
    return f"stated {shown(stated)}, derived {shown(derived)}"


def _round_problems(drive: DriveState, listed: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Returns the listed games whose ``round`` is not the round that started them."""
    rounds = {game: played.number for played in drive.played for game in played.games}
    return [f"game {game}: it is listed in round {shown(entry.get('round'))}, but round "
            f"{rounds[game]} started it" for game, entry in listed.items()
            if game in rounds and (type(entry.get("round")) is not int
                                   or entry.get("round") != rounds[game])]


def _folded_with_seating(drive_id: str, events: Sequence[Event]
                         ) -> tuple[DriveState, dict[int, list[list[str]]]]:
    """Returns the drive folded over its *events* (:func:`engine.drives.fold_drive`, step by
    step) and, taken on the way, the names of each round's tables, player by player in seat
    order, as the round started: what its games were created with (a substitution within the
    round changes who plays on, not the names the game was created with; one since,
    nothing)."""
    seated: dict[int, list[list[str]]] = {}
    drive = fold_drive(drive_id, events[:1])
    for event in events[1:]:
        drive = apply_drive_event(drive, event)
        if isinstance(event, RoundStarted):
            seated[event.round] = [[drive.players[player]["name"] for player in table]
                                   for table in drive.schedule[event.round - 1]]
    return drive, seated


def _table_problems(drive: DriveState, seated: Mapping[int, list[list[str]]],
                    listed: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Returns the games a round started at a table other than the one their id names
    (:func:`engine.drives.game_id_of`), and the listed games that seat players other than the
    drive's schedule put at their table, by name as they sat when the round started
    (*seated*, :func:`_folded_with_seating`). A game created before games named their seats is
    not held to names; one whose events cannot be read is named where its result is
    derived."""
    problems = []
    for played in drive.played:
        for table, game in enumerate(played.games, start=1):
            expected = game_id_of(drive.drive_id, played.number, table)
            if game != expected:
                problems.append(f"round {played.number} started game {game} at table {table}, "
                                f"whose game is {expected}")
                continue
            events = listed.get(game, {}).get("events")
            if not isinstance(events, list) or not events:
                continue
            try:
                created = decode(Envelope.from_dict(events[0]))
            except (KeyError, TypeError, ValueError, CorruptStreamError, SchemaError):
                continue
            if not isinstance(created, GameCreated) or created.names is None:
                continue
            names = seated[played.number][table - 1]
            if list(created.names) != names:
                problems.append(f"game {game}: it seats {shown(list(created.names))}, but the "
                                f"drive's schedule puts {shown(names)} at table {table} of "
                                f"round {played.number}")
    return problems


def _listed(document: Mapping[str, Any], problems: list[str]) -> dict[str, Mapping[str, Any]]:
    """Returns the games the document lists, by id: a game listed twice is a problem (a
    reader would see two results of it, and only one could be checked), its first entry
    kept."""
    listed: dict[str, Mapping[str, Any]] = {}
    games = document.get("games")
    if not isinstance(games, list):
        problems.append("the history lists no games: its games are a list")
        return listed
    for entry in games:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("game"), str):
            problems.append(f"a listed game is not an object with its id: {shown(entry)}")
            continue
        if entry["game"] in listed:
            problems.append(f"game {entry['game']}: the history lists it twice")
            continue
        listed[entry["game"]] = entry
    return listed


def _board_problems(drive: DriveState, listed: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Returns the boards revealed with a seed other than committed, and the games dealt a
    board other than the drive committed to and revealed."""
    problems = []
    for played in drive.played:
        for board in played.boards:
            if board.seed is not None and hashlib.sha256(
                    bytes.fromhex(board.seed)).hexdigest() != board.commitment:
                problems.append(f"board {board.board}: revealed seed does not match its "
                                "commitment")
    boards = {(played.number, board.deal): board for played in drive.played
              for board in played.boards}
    rounds = {game: played.number for played in drive.played for game in played.games}
    tables = {game: table for played in drive.played
              for table, game in enumerate(played.games, start=1)}
    for game, entry in listed.items():
        events = entry.get("events")
        for raw in events if isinstance(events, list) else ():
            if not isinstance(raw, Mapping) or raw.get("type") not in ("board_dealt",
                                                                         "board_skipped"):
                continue
            data = raw.get("data")
            deal = data.get("deal") if isinstance(data, Mapping) else None
            if raw.get("type") == "board_skipped":
                if type(deal) is not int or drive.board_adjustment(
                        rounds.get(game, 0), tables.get(game, 0), deal) is None:
                    problems.append(f"game {game}: deal {shown(deal)} was skipped, but the "
                                    "drive's director abandoned no such board at its table")
                continue
            committed = boards.get((rounds.get(game, 0), deal)) if type(deal) is int else None
            if committed is None or not isinstance(data, Mapping) or (
                    data.get("board"), data.get("commitment"), data.get("cut"),
                    data.get("seed")) != (committed.board, committed.commitment, committed.cut,
                                          committed.seed):
                problems.append(f"game {game}: deal {shown(deal)} is not the board the "
                                "drive committed to and revealed")
    return problems


def _pinned_problems(drive: DriveState, listed: Mapping[str, Mapping[str, Any]],
                     notes: list[str]) -> list[str]:
    """Returns the games of ended rounds that the history lists otherwise than the drive
    pinned them (its version and head when the round ended), or without their events."""
    problems = []
    for played in drive.played:
        if not played.ended:
            continue
        if played.heads is None:
            notes.append(f"round {played.number} ended before drives pinned their games' "
                         "heads: its results rest on the games' own chains")
            continue
        for pinned in played.heads:
            entry = listed.get(pinned.game)
            if entry is None:
                continue  # Named above: the games listed differ.
            if (entry.get("version"), entry.get("head")) != (pinned.version, pinned.head):
                problems.append(
                    f"game {pinned.game}: round {played.number} ended with it at version "
                    f"{pinned.version} ({pinned.head[:12]}...), but the history lists version "
                    f"{shown(entry.get('version'))} ({str(entry.get('head'))[:12]}...)")
            elif entry.get("events") is None and not entry.get("paper"):
                problems.append(f"game {pinned.game}: its round ended, but the history does "
                                "not carry its events, so its result cannot be derived")
    return problems


def _seating_problems(drive: DriveState, outcomes: Mapping[str, Outcome]) -> list[str]:
    """Returns the rounds of a ``winners_move`` drive not seated as the movement says from
    the last round's results (docs/api.md, "Drives"): the moving side of every table moved
    on, those who sat out were the ones the rule names, and the seats of players who left
    went to those waiting."""
    if drive.movement != SEATED_AT_START:
        return []
    problems = []
    sat_out: list[int] = []
    for before, played in zip(drive.played, drive.played[1:], strict=False):
        sat_out += before.sitting_out
        movers = []
        for table, game in enumerate(before.games, start=1):
            if game in outcomes:
                movers.append(mover(outcomes[game].scores, outcomes[game].winner))
            elif drive.is_paper(table) and drive.adjustment(before.number, table) is not None:
                movers.append(mover((0,) * (drive.size // 2), None))  # No card: none ahead.
        if len(movers) != len(before.games):
            problems.append(f"round {played.number}: the results of round {before.number} "
                            "that seat it are not all known")
            continue
        tables = drive.schedule[played.number - 1]
        present = sorted({p for t in tables for p in t} | set(played.sitting_out))
        out = choose_sit_outs(present, len(present) % drive.size, sat_out)
        expected = seat_present(
            winners_move(drive.schedule[before.number - 1], movers, drive.size // 2),
            [p for p in present if p not in out], drive.size)
        if expected != tables:
            problems.append(f"round {played.number} is not seated as winners_move seats it "
                            f"from round {before.number}'s results")
    return problems


def _fits(outcome: Outcome, sides: int) -> bool:
    """True if *outcome* gives points to each of *sides* sides, and its winner is one."""
    rows = [outcome.scores, *outcome.deals.values()]
    return (all(len(row) == sides and all(type(v) is int for v in row) for row in rows)
            and (outcome.winner is None or outcome.winner in range(sides))
            and type(outcome.winner) is not bool)


def _paper_outcome(game: str, entry: Mapping[str, Any], paper: Mapping[str, TableResult],
                   envelopes: Sequence[DriveEnvelope]) -> Outcome:
    """Returns the outcome of a paper table: its confirmed score card, as the drive's fold
    held it to the game's rules (engine.paper). The listed result must agree, and where its
    round pinned it, the pin must be the drive's own event there.

    :raises ValueError: naming what does not hold.
    """
    confirmed = paper.get(game)
    if confirmed is None:
        if entry.get("result") is not None:
            raise ValueError("a paper table whose score card nobody confirmed lists a result")
        return Outcome(False, None, (), {})
    derived = Outcome(True, confirmed.winner, confirmed.scores, dict(confirmed.deals))
    if Outcome.listed(entry["result"]) != derived:
        raise ValueError("the listed result differs from its confirmed score card")
    version = entry.get("version")
    if version is not None and (type(version) is not int or not 1 <= version <= len(envelopes)
                                or envelopes[version - 1].hash != entry.get("head")):
        raise ValueError(f"it is pinned at drive version {shown(version)}, whose hash is not "
                         "the one listed")
    return derived


def _outcome(game: str, entry: Mapping[str, Any]) -> Outcome:
    """Returns the outcome of a listed game: re-folded from its events when present (their
    chain must end at the listed head, and the listed result must agree), else as listed."""
    stated = Outcome.listed(entry["result"])
    events = entry.get("events")
    if events is None:
        return stated
    envelopes = [Envelope.from_dict(raw) for raw in events]
    head = verify_game_chain(envelopes, game_id=game)
    if head != entry.get("head") or len(envelopes) != entry.get("version"):
        raise ValueError(f"chain head {head[:12]}... at version {len(envelopes)} is not the "
                         "listed head")
    events = [decode(envelope) for envelope in envelopes]
    state = fold(events)
    derived = Outcome.of_game(state)
    if derived != stated:
        raise ValueError("the listed result differs from the result of its events")
    played_out = [e for e in events if isinstance(e, BoardDealt) and e.finish == PLAYED_OUT]
    if played_out and derived.over and not state.abandoned:
        check_played_out(derived, played_out[0].boards,
                         {e.deal for e in events if isinstance(e, BoardSkipped)})
    return derived


def check_played_out(outcome: Outcome, boards: int, skipped: Set[int] = frozenset()) -> None:
    """Checks a game of boards played out (docs/api.md, "Drives") as the rule reads, apart
    from the fold: over only after every board (but those *skipped*: abandoned there by its
    drive's director), its scores the sums of its boards, and won by the side with the most
    points over them (by nobody on equal best).

    :raises ValueError: naming what does not hold.
    """
    expected = [n for n in range(1, boards + 1) if n not in skipped]
    if sorted(outcome.deals) != expected:
        raise ValueError(f"it is over after boards {sorted(outcome.deals)}, not after every "
                         f"one of its {boards} boards"
                         + (f" but those skipped ({sorted(skipped)})" if skipped else ""))
    sums = [sum(points[side] for points in outcome.deals.values())
            for side in range(len(outcome.scores))]
    if sums != list(outcome.scores):
        raise ValueError(f"its scores ({_by_side(outcome.scores)}) are not the sums of its "
                         f"boards ({_by_side(sums)})")
    leaders = [side for side, total in enumerate(sums) if total == max(sums)]
    winner = leaders[0] if len(leaders) == 1 else None
    if outcome.winner != winner:
        stated = "nobody" if outcome.winner is None else f"side {side_name(outcome.winner)}"
        if winner is None:
            raise ValueError(f"it is won by {stated}, but no side has the most points over its "
                             f"boards ({_by_side(sums)}): nobody wins it")
        raise ValueError(f"it is won by {stated}, but side {side_name(winner)} has the most "
                         f"points over its boards ({_by_side(sums)})")


def _by_side(points: Sequence[int]) -> str:
    """Returns *points*, one per side, as a person reads them: ``A 15, B 25``."""
    return ", ".join(f"{side_name(side)} {value}" for side, value in enumerate(points))
