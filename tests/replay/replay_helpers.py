"""Helpers shared by the replay tests: the golden corpus, and stored events from a history."""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import random
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.bots import choose_action
from events import checkpoints
from events.envelope import Envelope, RecordedEvent
from events.upcasting import decode
from replay.formats.document import HandHistory
from replay.formats.jsonformat import read_json
from replay.sample import GameDriver, seeded_choice

GOLDEN = Path(__file__).resolve().parent / "golden"


SIGNING_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
"""A test key that signs checkpoints as the service would (:func:`signed`)."""


def signed(history: HandHistory) -> HandHistory:
    """*history* as the service hands it out: carrying the checkpoint signed at its last
    event by :data:`SIGNING_KEY`, and that key."""
    public = checkpoints.public_bytes(SIGNING_KEY)
    last = history.events[-1]
    assert history.game_id is not None and last.hash is not None
    checkpoint = checkpoints.sign(SIGNING_KEY, history.game_id, last.version, last.hash,
                                  "2026-01-02T03:04:05Z")
    key = {"key_id": checkpoints.key_id(public), "algorithm": "ed25519",
           "public_key": public.hex(), "created_at": "2026-01-01T00:00:00Z",
           "retired_at": None}
    return dataclasses.replace(history, checkpoint=checkpoint, checkpoint_key=key)


def golden_names() -> list[str]:
    """Returns the golden games by name (each has NAME.json, its auditor's history)."""
    return sorted(path.stem for path in GOLDEN.glob("*.json") if path.stem.count(".") == 0)


def golden_files(suffix: str) -> list[Path]:
    """Returns every golden file ending in *suffix* (``.json`` or ``.txt``), table records
    excluded."""
    return sorted(path for path in GOLDEN.glob(f"*{suffix}") if not path.name.endswith(
        ".table.txt"))


@functools.cache
def golden(name: str) -> HandHistory:
    """Returns the auditor's history of golden game *name*."""
    history, diagnostics = read_json((GOLDEN / f"{name}.json").read_bytes())
    assert history is not None and not diagnostics, diagnostics
    return history


def raw(name: str) -> dict[str, Any]:
    """Returns the JSON value of golden file *name* (e.g. ``jink.json``)."""
    value: dict[str, Any] = json.loads((GOLDEN / name).read_bytes())
    return value


def json_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Returns the path of *value* and of every value nested in it (keys and list indexes)."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += json_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += json_paths(item, (*path, index))
    return out


def set_at(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    """Replaces the value at *path* (non-empty) inside *doc* with *value*."""
    target = doc
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value


def recorded(history: HandHistory) -> list[RecordedEvent]:
    """Returns the stored events behind an auditor's history (which hides nothing)."""
    out = []
    for event in history.events:
        envelope = Envelope.from_dict({**event.to_dict(), "game_id": history.game_id})
        out.append(RecordedEvent(envelope, decode(envelope)))
    return out


@functools.cache
def sample_game(label: str, profile: str = "bruff", players: int | None = None) -> GameDriver:
    """Returns a game played to its end by the seeded policy *label*."""
    seats = ["human"] * (players or {"bruff": 6, "auction": 4}.get(profile, 4))
    driver = GameDriver(f"g-{label}", label).start(profile, seats)
    driver.play(seeded_choice(label))
    return driver


@functools.cache
def forked_game() -> tuple[GameDriver, GameDriver, int]:
    """A bruff game of people played into its second deal, then on to its end twice, by two
    policies: the genuine game, the continuation a forger wrote after the fork, and the
    fork's last common event (whose checkpoint ``?at=`` would have the service sign)."""
    genuine = GameDriver("g-fork", "fork").start("bruff", ["human"] * 6)
    genuine.play(seeded_choice("fork"),
                 until=lambda state: state.deal is not None and state.deal.number >= 2)
    forged = copy.deepcopy(genuine)
    fork = len(genuine.recorded)
    genuine.play(seeded_choice("fork"))
    forged.play(seeded_choice("forger"))
    for driver in (genuine, forged):
        assert driver.state is not None and driver.state.phase == "over"
    assert forged.recorded[-1].envelope.hash != genuine.recorded[-1].envelope.hash
    return genuine, forged, fork


MIXED_SEATS = ("human", "bot", "bot", "human", "bot", "bot")
"""The seats of :func:`mixed_game`: people at 0 and 3, bots elsewhere."""


def mixed_game(deals: int = 3, *, game_id: str = "g-contrib", fy2: bool = True) -> GameDriver:
    """A bruff game of people and bots dealt by /2 (or /1 without *fy2*), played by the bot
    policy at every seat, in which seat 0's client sends a nonce every /2 deal it does not
    cut; it stops once deal *deals* is over (and its next is shuffled), or at the game's
    end."""
    driver = GameDriver(game_id, "contributions").start("bruff", list(MIXED_SEATS), fy2=fy2)
    chance = random.Random(7)
    while True:
        state = driver.state
        assert state is not None
        if state.phase == "over" or (state.deal is not None and state.deal.number > deals):
            return driver
        deal = state.deal
        if (fy2 and state.phase == "cut" and deal is not None and state.turn != 0
                and not deal.nonces):
            driver.act(0, {"type": "contribute", "nonce": f"{deal.number:02x}" * 20})
            continue
        seat = state.turn
        assert seat is not None
        action = choose_action(state, seat, chance)
        assert action is not None
        driver.act(seat, action)
