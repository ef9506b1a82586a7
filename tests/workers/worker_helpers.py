"""Helpers of the worker tests: seeded entropy, and running the dispatcher and a worker."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from freezegun import freeze_time
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer

from engine.nonce_window import awaited
from engine.state import GameState
from service.application import commands
from workers import context
from workers.dispatcher import Dispatcher

_SOURCES = itertools.count()


def entropy(label: str) -> Callable[[], bytes]:
    """Returns a deterministic source of 32-byte seeds, each source its own (the store
    refuses a seed commitment used before for another game)."""
    counter = itertools.count()
    source = next(_SOURCES)
    return lambda: hashlib.sha256(f"{label}/{source}/{next(counter)}".encode()).digest()


def work(queue: Queue) -> bool:
    """Runs every job due on *queue* (scheduled ones included); True if any ran."""
    worker = SimpleWorker([queue], connection=queue.connection, serializer=JSONSerializer)
    return worker.work(burst=True, with_scheduler=True)


def drive(dispatcher: Dispatcher, queue: Queue, rounds: int = 50) -> int:
    """Dispatches and works until nothing is left to do; returns the rounds it took.

    Fails if that takes more than *rounds* rounds.
    """
    for round_number in range(1, rounds + 1):
        handled = dispatcher.poll()
        if not work(queue) and not handled:
            return round_number
    pytest.fail(f"still busy after {rounds} rounds")


def drive_with_nonces(dispatcher: Dispatcher, queue: Queue, game_id: str) -> GameState:
    """Drives like :func:`drive`, the human seats sending their nonces whenever a bot cutter
    waits for them (as the web table does); returns the game's state then.

    The clock stands still meanwhile: a deal's nonce window is 2 s from its shuffle, and on a
    loaded machine driving the bots up to the cut took longer, so the nonce came too late and
    was refused (``nonce_window_closed``)."""
    with freeze_time(datetime.now(UTC)):
        while True:
            drive(dispatcher, queue)
            state = state_of(game_id)
            if not awaited(state):
                return state
            assert state.deal is not None
            sent = {seat for seat, _ in state.deal.nonces}
            seat = next(seat for seat, kind in enumerate(state.seat_types)
                        if kind == "human" and seat not in sent)
            nonce = hashlib.sha256(f"{game_id}/{state.version}".encode()).hexdigest()
            commands.act(context.store(), context.games(), game_id, seat,
                         {"type": "contribute", "nonce": nonce}, expected_version=state.version)


def state_of(game_id: str) -> GameState:
    """Returns the game's current state, read through the workers' own cache."""
    return commands.load(context.games(), game_id).state
