"""Helpers of the worker tests: seeded entropy, and running the dispatcher and a worker."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable

import pytest
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer

from engine.state import GameState
from service import commands
from workers import context
from workers.dispatcher import Dispatcher


def entropy(label: str) -> Callable[[], bytes]:
    """Returns a deterministic source of 32-byte seeds."""
    counter = itertools.count()
    return lambda: hashlib.sha256(f"{label}/{next(counter)}".encode()).digest()


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


def state_of(game_id: str) -> GameState:
    """Returns the game's current state, read through the workers' own cache."""
    return commands.load(context.games(), game_id).state
