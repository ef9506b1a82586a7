"""Verifying a hand history: the chain, the head, the seeds, and every derived result.

:func:`verify` trusts nothing in the document but its events:

1. the embedded rules are rebuilt from the profile and options, and must match their digest and
   the game's first event;
2. the events must be versions 1, 2, 3... (a one-deal history skips to its start block), each
   linked by ``prev_hash`` to the one before, each hash recomputed from its content; a redacted
   event is rebuilt where the history allows (:mod:`replay.reconstruct`), and otherwise named
   with the reason its hash cannot be recomputed by this viewer;
3. each shuffle's seed, where known, must match its commitment, and each reveal the commitment
   of its deal;
4. the events are folded again with the engine, and every derived result (each fact with its
   ruling, each deal's hands, result and the game's standing) must equal what the history says:
   rule ids always, and sentences as the ruling texts of the history's version
   (``ruling_texts``; 1 for format 1.0) write them.

A tampered history is reported by the event (version) and what differs. What a view cannot check
is listed separately: a history is *ok* when nothing it holds is contradicted, and *complete*
when nothing was left unchecked (an auditor's history of a finished game always is).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import action_of
from engine.errors import FortyFiveError, ProfileError
from engine.profiles import RuleSet, make_ruleset
from engine.ruling_texts import known_versions
from engine.shuffle import ALGORITHMS, commitment
from events import checkpoints
from events.chain import GENESIS_HASH
from events.codec import CodecError
from events.envelope import SERVER
from events.errors import StoreError
from events.types import Event, EventDataError, UnknownEventTypeError, event_from_data
from events.upcasting import upcast
from replay.contributions import contributions
from replay.derive import Replayer, apply_start, derive_results
from replay.diagnostics import pointer
from replay.document import DEAL_START_TYPES, HandHistory, HistoryEvent
from replay.notation import same
from replay.reconstruct import reconstruct, stored_hash
from replay.verify_report import Problem, Report, Unchecked
from replay.views import event_view

MAX_DIFFERENCES = 50
"""The most result differences reported one by one (the rest are counted)."""


def verify(history: HandHistory, *, expected_head: str | None = None,
           checkpoint: Mapping[str, Any] | None = None,
           keys: Mapping[str, bytes] | None = None) -> Report:
    """Verifies *history* (see the module docstring) and returns the report.

    *expected_head* is a head hash obtained elsewhere (from the server, or a receipt): the
    history must end on it, which also catches a history rewritten and re-hashed throughout.

    *checkpoint* is a signed checkpoint kept elsewhere (docs/verification.md section 8): its
    signature must verify with one of *keys* (key id -> raw Ed25519 public key), and the
    history must reach its version with the same hash there, which catches a history cut
    short or rewritten since. The checkpoint the history carries, if any, must hold against
    its events too (and its signature, when *keys* are given).
    """
    checker = _Verifier(history)
    checker.run()
    if expected_head is not None and history.head != expected_head:
        checker.problem("head", f"the history ends on head {str(history.head)[:16]}..., not "
                        f"on the expected {expected_head[:16]}...", pointer="/head")
    if history.checkpoint is not None:
        checker.check_checkpoint(history.checkpoint, keys, "the checkpoint the history "
                                 "carries", "/checkpoint")
    if checkpoint is not None:
        checker.check_checkpoint(checkpoint, keys if keys is not None else {},
                                 "the kept checkpoint", None)
    return checker.report


class _Verifier:
    def __init__(self, history: HandHistory) -> None:
        self.history = history
        self.report = Report(history.game_id, history.view.viewer, len(history.events),
                             history.head)
        self.rules: RuleSet | None = None
        # Every action is judged against the rules: an irregularity fails a server-dealt
        # deal, and is only reported in a deal recorded at a table (:meth:`judge`).
        self.replayer = Replayer(legality=True)
        self.dealt_by: str | None = None
        """How the deal being folded was dealt: ``server`` (deck_shuffled) or ``table``
        (deal_recorded); ``None`` before the first deal."""
        self.blocked: tuple[int, int | None, str] | None = None
        """(version, deal, why) of the event from which the fold could not go on."""

    def problem(self, code: str, message: str, version: int | None = None,
                pointer: str | None = None) -> None:
        self.report.problems.append(Problem(code, message, version, pointer))

    def run(self) -> None:
        history = self.history
        if not history.sealed:
            self.problem("format", "this history is a draft (no hashes or results): import "
                         "it first")
            return
        if history.format_version.split(".")[0] != "1":
            self.problem("format", f"format version {history.format_version} is not 1.x",
                         pointer="/format_version")
            return
        if history.texts_version not in known_versions():
            self.problem("format", f"the history's sentences are in ruling texts version "
                         f"{history.texts_version}, which this version does not know (it knows "
                         f"{', '.join(map(str, known_versions()))}): update fortyfive",
                         pointer="/ruling_texts")
            return
        self.check_rules()
        self.check_view()
        self.walk()
        last = history.events[-1]
        if history.head is None and last.withheld:
            pass  # Withheld with the last hash; listed as unchecked.
        elif history.head != last.hash:
            self.problem("head", f"the head {str(history.head)[:16]}... is not the hash of the "
                         f"last event ({str(last.hash)[:16]}...)", last.version, "/head")
        self.check_results()
        self.check_contributions()

    def check_contributions(self) -> None:
        """Says per deal whether a person contributed, and checks the committed cuts."""
        found, problems = contributions(self.history)
        self.report.contributions = found
        for message, version in problems:
            self.problem("contribution", message, version)

    # Checkpoints ------------------------------------------------------------------------------

    def check_checkpoint(self, checkpoint: Mapping[str, Any], keys: Mapping[str, bytes] | None,
                         what: str, where: str | None) -> None:
        """Checks *checkpoint* is signed by one of *keys* (unless None) and that the history
        has the checkpoint's hash at its version."""
        try:
            if keys is None:
                checkpoints.check_form(checkpoint)
            else:
                checkpoints.check(checkpoint, keys)
        except checkpoints.CheckpointError as error:
            self.problem("checkpoint", f"{what}: {error}", None, where)
            return
        if keys is not None:
            self.report.checked["checkpoints"] = self.report.checked.get("checkpoints", 0) + 1
        history = self.history
        version, head = checkpoint["version"], checkpoint["head"]
        if checkpoint["game_id"] != history.game_id:
            self.problem("checkpoint", f"{what} is of game {checkpoint['game_id']!r}, not of "
                         f"{history.game_id!r}", None, where)
            return
        last = history.events[-1].version
        if version > last:
            self.problem("checkpoint", f"{what} vouches for event {version}, but the history "
                         f"stops at event {last}: it was cut short", last, where)
            return
        found = next((event for event in history.events if event.version == version), None)
        start = history.start
        if found is None and start is not None and start.version == version:
            stored: str | None = start.hash
        elif found is None:
            self.problem("checkpoint", f"{what} vouches for event {version}, which this "
                         "history does not hold", None, where)
            return
        else:
            stored = found.hash
        if stored is None:
            self.problem("checkpoint", f"{what} vouches for event {version}, whose hash this "
                         "view withholds, so it cannot be compared", version, where)
        elif stored != head:
            self.problem("checkpoint", f"{what} says event {version} has hash {head[:16]}..., "
                         f"the history has {stored[:16]}...: it was rewritten", version, where)
        else:
            self.report.notes.append(
                f"{what} (signed at {checkpoint['signed_at']} with {checkpoint['key_id']}"
                + (", signature verified" if keys is not None else ", signature not checked: "
                   "no keys given") + f") matches event {version}")

    # Rules, seats and view -------------------------------------------------------------------

    def check_rules(self) -> None:
        history = self.history
        block = history.rules
        assert block is not None and block.players is not None
        try:
            rules = make_ruleset(block.profile, block.options, block.players)
        except ProfileError as error:
            self.problem("rules", f"the embedded rules are not valid: {error}", pointer="/rules")
            return
        self.rules = rules
        full = rules.options()
        for name in sorted(set(full) | set(block.options)):
            if name not in block.options:
                self.problem("rules", f"option {name!r} is missing from the embedded rules "
                             "(a history lists every option)", pointer="/rules/options")
            elif not same(block.options[name], full.get(name)):
                self.problem("rules", f"option {name!r} is {block.options[name]!r}, not a value "
                             "the profile keeps as given", pointer=pointer(
                                 ["rules", "options", name]))
        if block.digest != rules.digest():
            self.problem("rules", f"the rules digest {str(block.digest)[:16]}... does not match "
                         f"the embedded profile and options ({rules.digest()[:16]}...)",
                         pointer="/rules/digest")
        first = history.events[0]
        if first.type != "game_created" or first.version != 1:
            self.problem("data", "a history starts with event 1, game_created", first.version,
                         "/events/0")
            return
        try:
            created = upcast(first.type, first.schema, first.data)
        except StoreError as error:
            self.problem("data", f"game_created cannot be read: {error}", 1, "/events/0")
            return
        for name, kind in (("profile", str), ("options", Mapping), ("seats", list)):
            if not isinstance(created.get(name), kind):
                self.problem("data", f"game_created has no valid {name}", 1, "/events/0/data")
                return
        if created["profile"] != block.profile:
            self.problem("rules", f"the embedded profile is {block.profile!r} but event 1 "
                         f"(game_created) created a {created['profile']!r} game", 1,
                         "/rules/profile")
        for name in sorted(set(created["options"]) | set(block.options)):
            mine, theirs = block.options.get(name), created["options"].get(name)
            if not same(mine, theirs):
                self.problem("rules", f"option {name!r} is {mine!r} in the embedded rules but "
                             f"{theirs!r} in event 1 (game_created)", 1,
                             pointer(["rules", "options", name]))
        seats = created["seats"]
        if len(seats) != block.players:
            self.problem("rules", f"the rules say {block.players} players but event 1 seats "
                         f"{len(seats)}", 1, "/rules/players")
        if len(history.seats) != len(seats):
            self.problem("seats", f"{len(history.seats)} seats listed for a table of "
                         f"{len(seats)}", None, "/seats")
        for index, seat in enumerate(history.seats):
            where = pointer(["seats", index])
            if seat.seat != index:
                self.problem("seats", f"seat {index} is listed as seat {seat.seat}", None, where)
            elif index < len(seats) and seat.type != seats[index]:
                self.problem("seats", f"seat {index} is listed as {seat.type!r} but event 1 "
                             f"seats a {seats[index]!r}", 1, where)
            if seat.side != rules.side_of(index):
                self.problem("seats", f"seat {index} is listed on side {seat.side}, but plays "
                             f"for side {rules.side_of(index)}", None, where)

    def check_view(self) -> None:
        history = self.history
        view = history.view
        viewer = view.viewer
        if isinstance(viewer, int) and self.rules is not None and not (
                0 <= viewer < self.rules.players):
            self.problem("view", f"the view is for seat {viewer}, not at this table",
                         pointer="/view/viewer")
        if view.as_of != history.events[-1].version:
            self.problem("view", f"the view says it stops after event {view.as_of} but the "
                         f"last event is {history.events[-1].version}", pointer="/view/as_of")
        if viewer == "auditor":
            for index, event in enumerate(history.events):
                if event.redacted:
                    self.problem("view", "an auditor's history hides nothing, but this event "
                                 f"hides {', '.join(event.redacted)}", event.version,
                                 pointer(["events", index, "redacted"]))
        if view.deal is not None:
            opened = [event for event in history.events if event.type in DEAL_START_TYPES]
            if len(opened) != 1 or opened[0].data.get("deal") != view.deal:
                self.problem("view", f"a history of deal {view.deal} holds that deal's events "
                             "only", pointer="/view/deal")
        start = history.start
        if start is not None:
            self.report.notes.append(
                f"the game before event {start.version + 1} is taken from the history's start "
                f"block (dealer {start.dealer}, scores {list(start.scores)}); "
                + ("the events before it are not in this history" if start.version > 1
                   else "it was stated with the record, not derived"))

    # Chain, hashes, seeds and the fold -------------------------------------------------------

    def walk(self) -> None:
        history = self.history
        game_id = history.game_id
        assert game_id is not None
        revealed = self.revealed_seeds()
        commitments: dict[int, tuple[str, int]] = {}
        expected_version: int = 1
        expected_prev: str | None = GENESIS_HASH
        for index, event in enumerate(history.events):
            where = pointer(["events", index])
            if index == 1 and history.start is not None:
                start = history.start
                expected_version, expected_prev = start.version + 1, start.hash
                if start.version == 1 and start.hash != history.events[0].hash:
                    self.problem("start", "the start block links to a hash that is not event "
                                 "1's", 1, "/start/hash")
            self.check_link(event, index, expected_version, expected_prev, where)
            data = self.check_hash(game_id, event, revealed, where)
            decoded = self.decode(event, data, where)
            if data is not None:
                self.check_seed(event, data, commitments, where)
            self.check_view_of(event, decoded, where)
            self.fold(event, data, decoded, where)
            expected_version, expected_prev = event.version + 1, event.hash
        withheld = [event.version for event in history.events if event.withheld]
        if withheld:
            self.report.unchecked.append(Unchecked(
                withheld[0], withheld[-1], "the hashes and chain links",
                "this view does not get them: from another seat's face-down card on, a hash "
                "would give the card away until its deal is revealed (an auditor's history "
                "has them all)"))
        if self.blocked is not None:
            version, _, why = self.blocked
            self.report.unchecked.append(Unchecked(
                version, history.events[-1].version, "re-folding", why))

    def revealed_seeds(self) -> dict[int, tuple[str, int]]:
        revealed: dict[int, tuple[str, int]] = {}
        for event in self.history.events:
            deal, seed = event.data.get("deal"), event.data.get("seed")
            if event.type == "seed_revealed" and isinstance(deal, int) and isinstance(seed, str):
                revealed.setdefault(deal, (seed, event.version))
        return revealed

    def check_link(self, event: HistoryEvent, index: int, version: int, prev: str | None,
                   where: str) -> None:
        if event.version != version:
            if event.version > version:
                missing = f"event {version}" if event.version == version + 1 else (
                    f"events {version}-{event.version - 1}")
                why = f"{missing} missing before it"
            else:
                why = "it is out of order or repeated"
            self.problem("version", f"event at position {index + 1} is version {event.version}"
                         f", expected {version}: {why}", event.version, where + "/version")
        if prev is None or event.prev_hash is None:
            return  # Withheld from this view: listed once as unchecked.
        if event.prev_hash != prev:
            self.problem("chain", f"{event.type}: prev_hash {str(event.prev_hash)[:16]}... does "
                         f"not link to the event before it ({prev[:16]}...)", event.version,
                         where + "/prev_hash")

    def check_hash(self, game_id: str, event: HistoryEvent,
                   revealed: Mapping[int, tuple[str, int]], where: str) -> dict[str, Any] | None:
        """Checks the stored hash; returns the event's full data, or None when not known."""
        if event.withheld:
            return None if event.redacted else dict(event.data)
        if event.prev_hash is None:
            self.problem("chain", f"{event.type}: its hash is given but the link it covers is "
                         "withheld, so it cannot be checked", event.version, where + "/prev_hash")
            return None if event.redacted else dict(event.data)
        if event.redacted:
            state = self.replayer.state if self.blocked is None else None
            rebuilt = reconstruct(game_id, event, state, revealed)
            if rebuilt.status == "rebuilt":
                self.report.checked["hashes_rebuilt"] += 1
                return rebuilt.data
            if rebuilt.status == "mismatch":
                self.problem("hash", f"{event.type}: {rebuilt.note}", event.version,
                             where + "/hash")
            else:
                self.report.unchecked.append(Unchecked(
                    event.version, event.version, f"the hash of {event.type}",
                    f"{rebuilt.note}; the stored hash is kept and the chain linked by "
                    "prev_hash"))
            return None
        try:
            computed = stored_hash(game_id, event, event.data)
        except CodecError as error:
            self.problem("data", f"{event.type}: {error}", event.version, where + "/data")
            return None
        if computed != event.hash:
            self.problem("hash", f"{event.type}: the stored hash {str(event.hash)[:16]}... does "
                         f"not match its content ({computed[:16]}...): the event was changed",
                         event.version, where + "/hash")
        else:
            self.report.checked["hashes_recomputed"] += 1
        return dict(event.data)

    def check_seed(self, event: HistoryEvent, data: Mapping[str, Any],
                   commitments: dict[int, tuple[str, int]], where: str) -> None:
        deal = data.get("deal")
        if event.type == "deck_shuffled" and isinstance(deal, int):
            commitments[deal] = (str(data.get("commitment")), event.version)
            if data.get("algorithm") not in ALGORITHMS:
                self.problem("seed", f"deal {deal} is shuffled by {data.get('algorithm')!r}, "
                             "which this version cannot re-derive (it knows "
                             f"{', '.join(ALGORITHMS)})",
                             event.version, where + "/data/algorithm")
            seed = data.get("seed")
            if isinstance(seed, str):
                self.check_commitment(seed, commitments[deal], deal, event.version, where)
        elif event.type == "board_dealt" and isinstance(deal, int):
            # A duplicate board: its deck is re-derived by the fold (engine.boards), which
            # refuses a seed that does not match the commitment.
            commitments[deal] = (str(data.get("commitment")), event.version)
            seed = data.get("seed")
            if isinstance(seed, str):
                self.check_commitment(seed, commitments[deal], deal, event.version, where)
        elif event.type == "seed_revealed" and isinstance(deal, int):
            seed = data.get("seed")
            if deal not in commitments:
                self.problem("seed", f"the seed of deal {deal} is revealed but no shuffle of "
                             "that deal comes before it", event.version, where)
            elif isinstance(seed, str) and self.check_commitment(
                    seed, commitments[deal], deal, event.version, where):
                self.report.notes.append(
                    f"deal {deal}: the seed revealed at event {event.version} matches the "
                    f"commitment published at event {commitments[deal][1]}; the deck order "
                    "follows from it")

    def check_commitment(self, seed: str, published: tuple[str, int], deal: int, version: int,
                         where: str) -> bool:
        try:
            actual = commitment(seed)
        except FortyFiveError as error:
            self.problem("seed", f"deal {deal}: {error}", version, where + "/data/seed")
            return False
        if actual != published[0]:
            self.problem("seed", f"deal {deal}: the seed does not match the commitment "
                         f"published at event {published[1]} ({published[0][:16]}...)",
                         version, where + "/data/seed")
            return False
        self.report.checked["seeds"] += 1
        return True

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

    def check_view_of(self, event: HistoryEvent, decoded: Event | None, where: str) -> None:
        """Checks the event shows what the history's viewer sees of it, no more, no less."""
        viewer = self.history.view.viewer
        if decoded is None:
            for name in event.redacted:
                value = event.data.get(name)
                if event.type == "deal_recorded" and name == "hands" and isinstance(value, list):
                    # A seat sees its own hand as dealt: only the others' are null.
                    value = [hand for seat, hand in enumerate(value) if seat != viewer]
                    value = None if all(hand is None for hand in value) else value
                if value is not None:
                    self.problem("view", f"{event.type}: redacted field {name!r} must be null",
                                 event.version, pointer([*_parts(where), "data", name]))
            return
        if not _is_viewer(viewer, self.rules):
            return
        view: dict[str, Any] = event_view(decoded, viewer)
        hidden = tuple(view.pop("redacted", ()))
        expected = view if hidden else event.data
        if hidden != event.redacted or not same(expected, event.data):
            who = f"seat {viewer}" if isinstance(viewer, int) else f"the {viewer}"
            shown = f"hides {', '.join(hidden)}" if hidden else "hides nothing"
            self.problem("view", f"{event.type}: this is not what {who} sees of it (the view "
                         f"{shown})", event.version, where)

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
        if due is not None and state is not None and state.phase != due:
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

    # Derived results -------------------------------------------------------------------------

    def check_results(self) -> None:
        history = self.history
        state = self.replayer.state
        results = history.results
        assert results is not None
        if state is None:
            return
        viewer = history.view.viewer
        if not _is_viewer(viewer, self.rules):
            return  # Reported by check_view.
        # Rule ids are compared whatever the version; sentences as the history's version of
        # the ruling texts writes them.
        texts = history.texts_version
        derived = derive_results(state, self.replayer.dealt, self.replayer.irregularities,
                                 viewer, deal=history.view.deal, texts=texts)
        self.report.irregularities = [item.to_dict(texts) for item in
                                      self.replayer.irregularities] if viewer == "auditor" else []
        claimed: Sequence[Mapping[str, Any]] = results["deals"]
        ranges = {section.number: section.events for section in history.sections()}
        blocked_deal = None if self.blocked is None else self.blocked[1]
        differences: list[tuple[str, int | None, str]] = []
        if self.blocked is None:
            if len(claimed) != len(derived["deals"]):
                self.problem("result", f"the history has results for {len(claimed)} deals; the "
                             f"engine derives {len(derived['deals'])}", None, "/results/deals")
            compare = range(min(len(claimed), len(derived["deals"])))
        else:
            comparable = [index for index, entry in enumerate(derived["deals"])
                          if blocked_deal is None or entry["number"] < blocked_deal]
            compare = range(min(len(comparable), len(claimed)))
            self.report.unchecked.append(Unchecked(
                self.blocked[0], history.events[-1].version, "the derived results of "
                + (f"deal {blocked_deal} and after" if blocked_deal else "the rest")
                + " and the game's standing", self.blocked[2]))
        for index in compare:
            mine, theirs = claimed[index], derived["deals"][index]
            events = ranges.get(mine.get("number", -1), ())
            last = events[-1].version if events else None
            self.diff(mine, theirs, ["results", "deals", index], last, differences)
        if self.blocked is None:
            last = history.events[-1].version
            self.diff(results["game"], derived["game"], ["results", "game"], last, differences)
            self.diff(results["irregularities"], derived["irregularities"],
                      ["results", "irregularities"], last, differences)
        for message, version, where in differences[:MAX_DIFFERENCES]:
            self.problem("result", message, version, where)
        if len(differences) > MAX_DIFFERENCES:
            self.problem("result", f"{len(differences) - MAX_DIFFERENCES} more derived results "
                         "differ", None, "/results")

    def diff(self, claimed: Any, derived: Any, path: list[str | int], version: int | None,
             out: list[tuple[str, int | None, str]]) -> None:
        """Compares a claimed result with the derived one, recording each difference with the
        event it concerns."""
        if isinstance(claimed, Mapping) and "ruling" in claimed and isinstance(
                claimed.get("version"), int):
            version = claimed["version"]
        if isinstance(claimed, Mapping) and isinstance(derived, Mapping):
            for key in sorted(set(claimed) | set(derived), key=str):
                if key not in claimed or key not in derived:
                    out.append((f"{_label(path)}: {key!r} is "
                                + ("missing from the history" if key not in claimed
                                   else "not something the engine derives"),
                                version, pointer([*path, key])))
                else:
                    self.diff(claimed[key], derived[key], [*path, key], version, out)
            return
        if isinstance(claimed, list) and isinstance(derived, list):
            if same(claimed, derived):
                self.report.checked["results"] += _leaves(derived)
                return
            if not any(isinstance(item, Mapping | list) for item in (*claimed, *derived)):
                out.append((f"{_label(path)}: the history says {_short(claimed)}, the engine "
                            f"derives {_short(derived)}", version, pointer(path)))
                return
            if len(claimed) != len(derived):
                out.append((f"{_label(path)}: the history has {len(claimed)} entries, the "
                            f"engine derives {len(derived)}", version, pointer(path)))
            for index, (left, right) in enumerate(zip(claimed, derived, strict=False)):
                self.diff(left, right, [*path, index], version, out)
            return
        self.report.checked["results"] += 1
        if not same(claimed, derived):
            out.append((f"{_label(path)}: the history says {_short(claimed)}, the engine "
                        f"derives {_short(derived)}", version, pointer(path)))


def _who(actor: object) -> str:
    """Returns an actor as a sentence names it."""
    return f"seat {actor}" if isinstance(actor, int) else f"the {actor}"


def _is_viewer(viewer: object, rules: RuleSet | None) -> bool:
    """True if *viewer* can view a game under *rules*."""
    if viewer in ("spectator", "auditor"):
        return True
    return rules is not None and isinstance(viewer, int) and 0 <= viewer < rules.players


def _parts(where: str) -> list[str | int]:
    """Returns the parts of a JSON pointer such as ``/events/3``."""
    return [int(part) if part.isdigit() else part for part in where.split("/")[1:]]


def _leaves(value: Any) -> int:
    """Returns how many scalar values *value* holds (one for a scalar)."""
    if isinstance(value, Mapping):
        return sum(_leaves(item) for item in value.values())
    if isinstance(value, list):
        return sum(_leaves(item) for item in value)
    return 1


def _label(path: Sequence[str | int]) -> str:
    """Returns a readable name for a results path: ``deal 1 result scores``."""
    parts: list[str] = []
    rest = list(path[1:]) if path and path[0] == "results" else list(path)
    if len(rest) >= 2 and rest[0] == "deals":
        parts.append(f"deal entry {int(rest[1]) + 1}")
        rest = rest[2:]
    for part in rest:
        parts.append(f"[{part}]" if isinstance(part, int) else str(part))
    return " ".join(parts) or "results"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
