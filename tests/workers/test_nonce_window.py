"""A bot's or the clock's cut waits for the human seats' nonces (engine.nonce_window), in live
play through the API and the workers, in every profile: a game whose people's clients send
nonces (as the web table does) has no deal that is only as fair as the server, the bots' loop
included; a cut that did not wait fails verification."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from freezegun import freeze_time
from rq import Queue
from worker_helpers import drive, entropy, state_of, work

from engine.bots import choose_action
from engine.nonce_window import NONCE_WINDOW
from engine.shuffle import ALGORITHM_2
from events.chain import GENESIS_HASH, seal
from events.envelope import RecordedEvent, format_timestamp, parse_timestamp
from events.redis_store import RedisEventStore
from events.upcasting import decode
from replay.formats.build import build_history
from replay.formats.document import HandHistory
from replay.formats.jsonformat import read_json
from replay.verification.verify import verify
from service.application import commands
from service.http.app import create_app
from workers import context, jobs
from workers.dispatcher import Dispatcher

SEATS = {
    "bruff": ["human", "bot", "bot", "human", "bot", "bot"],
    "auction": ["human", "bot", "bot", "bot"],
    "classic": ["human", "bot"],
}
"""Humans and bots at each profile's table."""


def _seat(kind: str) -> dict[str, str]:
    """A seat of a new game: a bot at the basic level, whose decisions take microseconds
    (a test of the strong level names it)."""
    return {"type": kind, "level": "basic"} if kind == "bot" else {"type": kind}


@pytest.fixture
def api(redis_url: str) -> Iterator[FlaskClient]:
    """A test client of the API on the session's redis-server, its seeds from SHA-256."""
    app: Flask = create_app({"REDIS_URL": redis_url, "TESTING": True,
                             "ENTROPY": entropy("nonce-window")})
    yield app.test_client()
    app.extensions["fortyfive"].streams.close()
    app.extensions["fortyfive"].store.close()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class _Table:
    """A game created over HTTP whose human seats act as the web table does: each sends a
    nonce as soon as its deal waits for its cut (with its cut, when it is the cutter), and
    plays the bot policy's choice on its turn."""

    def __init__(self, api: FlaskClient, profile: str, seats: Sequence[str],
                 **options: Any) -> None:
        # No pace: the bots' turns are timed by the nonce window alone here (workers.pacing has
        # tests of its own).
        created = api.post("/v1/games", json={
            "profile": profile, "options": options, "auditor": True, "bot_pace_ms": 0,
            "seats": [_seat(kind) for kind in seats]})
        assert created.status_code == 201, created.get_json()
        body = created.get_json()
        self.api, self.id = api, body["id"]
        self.tokens = [seat["token"] for seat in body["seats"]]
        self.auditor = body["auditor_token"]
        self.humans = [seat for seat, kind in enumerate(seats) if kind == "human"]

    def post(self, seat: int, action: dict[str, Any], version: int) -> None:
        answer = self.api.post(f"/v1/games/{self.id}/actions", json=action,
                               headers={**_bearer(self.tokens[seat]), "If-Match": f'"{version}"'})
        assert answer.status_code == 201, answer.get_json()

    def nonce(self, seat: int, version: int) -> str:
        return hashlib.sha256(f"{self.id}/{seat}/{version}".encode()).hexdigest()

    def act(self, *, send_nonces: bool = True) -> bool:
        """Takes the humans' next step, if any is theirs; returns False when none is."""
        state = state_of(self.id)
        deal = state.deal
        if state.phase == "over" or deal is None:
            return False
        waiting = state.phase == "cut" and deal.algorithm == ALGORITHM_2
        if waiting and send_nonces:
            sent = {seat for seat, _ in deal.nonces}
            for seat in self.humans:
                if seat not in sent and seat != state.turn:
                    self.post(seat, {"type": "contribute", "nonce": self.nonce(seat, 0)},
                              state.version)
                    return True
        seat = state.turn
        if seat not in self.humans:
            return False
        assert seat is not None
        action = choose_action(state, seat, _First())
        assert action is not None
        if waiting and send_nonces:
            action = {**action, "nonce": self.nonce(seat, 1)}
        self.post(seat, action, state.version)
        return True

    def history(self) -> HandHistory:
        answer = self.api.get(f"/v1/games/{self.id}/history", headers=_bearer(self.auditor))
        assert answer.status_code == 200
        history, diagnostics = read_json(answer.get_data())
        assert history is not None and not diagnostics
        return history


class _First:
    """Chance that always draws 0 (the humans' play needs no variety)."""

    def randrange(self, stop: int) -> int:
        del stop  # Unused.
        return 0


def _bot_cuts_after_a_bot(store: RedisEventStore, game_id: str) -> int:
    """Returns how many deals a bot cut right after a bot's play ended the deal before: the
    cut the bots' loop once made at once, in the job that played that last card."""
    events = [item.envelope for item in store.read(game_id)]
    seats = events[0].data["seats"]
    found = 0
    for index, event in enumerate(events):
        if event.type != "deck_cut" or not isinstance(event.actor, int) or (
                seats[event.actor] != "bot"):
            continue
        shuffle = max(i for i in range(index) if events[i].type == "deck_shuffled")
        ended_by = events[shuffle - 1].actor  # The play the deal's reveal and shuffle follow.
        found += isinstance(ended_by, int) and seats[ended_by] == "bot"
    return found


@pytest.mark.parametrize("profile", sorted(SEATS))
def test_bots_cut_only_with_the_human_seats_nonces_in(
    profile: str, api: FlaskClient, dispatcher: Dispatcher, queue: Queue,
    store: RedisEventStore
) -> None:
    # Until the bots' loop has ended a deal with a bot to cut the next: the path that once
    # cut at once. A game that ends first is followed by another. The clock stands still, so
    # no window closes while the humans take their turn, however slow the machine: each
    # human acts on what the workers left, as a client acts on the events it receives.
    tables = [_Table(api, profile, SEATS[profile])]
    with freeze_time(datetime.now(UTC)):
        while not sum(_bot_cuts_after_a_bot(store, table.id) for table in tables):
            drive(dispatcher, queue)
            if not tables[-1].act():
                assert state_of(tables[-1].id).phase == "over", (
                    "a human seat has the next step once the bots are done")
                tables.append(_Table(api, profile, SEATS[profile]))
    for table in tables:
        report = verify(table.history())
        assert report.ok, report.problems
        bot_cut = [deal for deal in report.contributions if deal.cut_by == "bot"]
        assert all(deal.committed_cut == "checked" for deal in bot_cut)
        assert {deal.fairness for deal in report.contributions} <= {"person_nonce", "pending"}, (
            "no deal of a game whose people send nonces is only as fair as the server")
        for deal in bot_cut:
            assert set(deal.nonce_seats) == set(table.humans), "every human seat's nonce is in"


def test_without_the_nonces_a_bot_cuts_once_the_window_has_closed(
    api: FlaskClient, dispatcher: Dispatcher, queue: Queue, store: RedisEventStore
) -> None:
    with freeze_time(datetime.now(UTC)) as clock:  # No window closes until the clock ticks.
        table = _cut_by_seat_0(api, ["bot", "human"])
        drive(dispatcher, queue)
        state = state_of(table.id)
        version = state.version
        assert not work(queue) and store.version(table.id) == version, (
            "the bot's cut waits for the human seat's nonce")
        action = choose_action(state, 0, _First())
        assert action is not None
        with pytest.raises(commands.NonceWindowOpenError):
            commands.act(store, context.games(), table.id, 0, action, expected_version=version,
                         command_id=jobs.bot_command_id(table.id, version))
        assert store.version(table.id) == version
        clock.tick(NONCE_WINDOW + 1)
        assert work(queue)
    assert store.version(table.id) > version
    report = verify(table.history())
    assert report.ok, report.problems
    deal = next(d for d in report.contributions if d.cut_by == "bot")
    assert deal.fairness == "server_only" and deal.nonce_seats == ()


def test_a_nonce_after_the_window_of_a_bot_cutter_is_refused(
    api: FlaskClient, dispatcher: Dispatcher, queue: Queue, store: RedisEventStore
) -> None:
    with freeze_time(datetime.now(UTC)) as clock:  # No window closes until the clock ticks.
        table = _cut_by_seat_0(api, ["bot", "human"])
        drive(dispatcher, queue)
        version = store.version(table.id)
        clock.tick(NONCE_WINDOW + 1)
        answer = api.post(f"/v1/games/{table.id}/actions",
                          json={"type": "contribute", "nonce": table.nonce(1, 0)},
                          headers={**_bearer(table.tokens[1]), "If-Match": f'"{version}"'})
        assert answer.status_code == 409 and answer.mimetype == "application/problem+json"
        assert answer.get_json()["code"] == "nonce_window_closed"
        assert "the bot in seat 0 cuts it without this nonce" in answer.get_json()["detail"]
        assert store.version(table.id) == version, "nothing is appended"
        assert work(queue)
    cut = store.read(table.id, after=version, limit=1)[0].envelope
    assert (cut.type, cut.actor) == ("deck_cut", 0)


def test_a_nonce_recorded_after_the_window_fails_verification(
    api: FlaskClient, dispatcher: Dispatcher, queue: Queue, store: RedisEventStore
) -> None:
    with freeze_time(datetime.now(UTC)):  # No window closes.
        table = _cut_by_seat_0(api, ["bot", "human"])
        drive(dispatcher, queue)
        assert table.act()  # The human's nonce, at once: the bot cuts with it.
        drive(dispatcher, queue)
    events = store.read(table.id)
    nonce = next(item.envelope for item in events if item.envelope.type == "deal_contributed")
    assert any(item.envelope.type == "deck_cut" and item.envelope.actor == 0
               for item in events)
    assert verify(_resealed(events, {})).ok
    shuffled = next(item.envelope for item in reversed(events[:nonce.version - 1])
                    if item.envelope.type == "deck_shuffled")
    late = parse_timestamp(shuffled.occurred_at) + timedelta(seconds=NONCE_WINDOW + 0.5)
    forged = verify(_resealed(events, {nonce.version: format_timestamp(late)}))
    problem = next(p for p in forged.problems if p.code == "contribution")
    assert problem.version == nonce.version
    assert "after the 2 s nonce window of a deal a bot cuts had closed" in problem.message


def test_the_clock_cuts_for_a_silent_person_after_the_window(
    api: FlaskClient, dispatcher: Dispatcher, queue: Queue, store: RedisEventStore
) -> None:
    table = _cut_by_seat_0(api, ["human", "bot"], turn_seconds=600)
    drive(dispatcher, queue)
    state = state_of(table.id)
    version = state.version
    with freeze_time(datetime.now(UTC) + timedelta(seconds=601), tick=True):
        assert work(queue)
    cut = store.read(table.id, after=version, limit=1)[0].envelope
    assert (cut.type, cut.actor) == ("deck_cut", "server")
    report = verify(table.history())
    assert report.ok, report.problems
    assert any(d.cut_by == "clock" and d.committed_cut == "checked"
               for d in report.contributions)


def test_a_bot_cut_recorded_before_the_window_closed_fails_verification(
    api: FlaskClient, dispatcher: Dispatcher, queue: Queue, store: RedisEventStore
) -> None:
    with freeze_time(datetime.now(UTC)) as clock:  # No window closes until the clock ticks.
        table = _cut_by_seat_0(api, ["bot", "human"])
        drive(dispatcher, queue)
        clock.tick(NONCE_WINDOW + 1)
        assert work(queue)
    events = store.read(table.id)
    genuine = _resealed(events, {})
    assert verify(genuine).ok
    cut = next(item.envelope for item in events if item.envelope.type == "deck_cut"
               and item.envelope.actor == 0)
    shuffled = next(item.envelope for item in reversed(events[:cut.version - 1])
                    if item.envelope.type == "deck_shuffled")
    early = parse_timestamp(shuffled.occurred_at) + timedelta(seconds=NONCE_WINDOW / 4)
    forged = verify(_resealed(events, {cut.version: format_timestamp(early)}))
    assert not forged.ok
    problem = next(p for p in forged.problems if p.code == "contribution")
    assert problem.version == cut.version
    assert "before the 2 s nonce window closed" in problem.message
    assert "seat 2" in problem.message  # Seat 1 of the data, counted from 1 for people.


def _cut_by_seat_0(api: FlaskClient, seats: list[str], **options: Any) -> _Table:
    """Returns a new classic game whose first deal seat 0 is to cut (the first dealer follows
    the game's seed: the first such game of a few)."""
    return next(table for table in (_Table(api, "classic", seats, **options) for _ in range(64))
                if state_of(table.id).turn == 0)


def _resealed(events: Sequence[RecordedEvent], times: dict[int, str]) -> HandHistory:
    """Returns the auditor's history of *events* with the times in *times* (by version), the
    chain re-hashed throughout and every result rebuilt: a forger's best effort."""
    prev, out = GENESIS_HASH, []
    for item in events:
        old = item.envelope
        envelope, _ = seal(game_id=old.game_id, version=old.version, event_type=old.type,
                           schema=old.schema, data=old.data, actor=old.actor,
                           command_id=old.command_id,
                           occurred_at=times.get(old.version, old.occurred_at), prev_hash=prev)
        out.append(RecordedEvent(envelope, decode(envelope)))
        prev = envelope.hash
    return build_history(out[0].envelope.game_id, out, "auditor")
