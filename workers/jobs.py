"""The RQ jobs: top-level functions taking ids and numbers, safe to run twice.

Each job reloads the game from the store and does nothing when the game has moved on from the
version it was planned for. Seats act through :func:`service.application.commands.act`, the command
path HTTP clients use, with the version decided on and a command id derived from the game and that
version: a job that runs again, or two copies racing, append nothing twice.

Bots draw chance from ``random.Random`` seeded with the game id and the version they act at,
so a re-run makes the same choice. Each bot decides at its seat's level, as the game's creation
records it (:attr:`engine.state.GameState.seat_levels`), through the level registry
(:mod:`engine.bot_levels`); a strong bot spends about ``BOT_BUDGET_MS`` of CPU on a decision it
searches (:func:`bot_budget`). The turn clock, acting for a person who ran out of time, decides
as the basic bot: at once, and as the person's stand-in rather than a stronger player.

A bot's or the clock's cut of a ``/2`` deal waits for the human seats' nonces by one rule,
:mod:`engine.nonce_window`, which the command path enforces (:func:`commands.cut_wait`): the
jobs hold such a cut until the window has closed (:func:`_hold_cut`), and the bots' loop never
cuts a deal it has just shuffled while a human seat's nonce is missing.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from typing import Any

from engine import bot_levels
from engine.bots import Chance
from engine.levels import BASIC
from engine.nonce_window import awaited
from engine.state import GameState
from events.envelope import SERVER
from events.errors import ConcurrencyError
from events.fold_cache import Folded
from events.store import EventStore
from replay.formats import jsonformat
from replay.formats.build import build_history, replay_log
from service.application import commands, signing
from service.application.environment import bot_budget_ms
from workers import context, integrity, keys, projections, retention
from workers.drives import advance_drive as advance_drive
from workers.plan import bot_pace, finished_deals

log = logging.getLogger(__name__)

MAX_BOT_ACTIONS = 10_000
"""A bound on the actions one ``play_bots`` job takes (an all-bot game takes a few hundred)."""


def _chance(seed: str) -> Chance:
    """Returns a generator seeded with *seed* (a str seed is hashed with SHA-512, so the
    same seed gives the same draws in every process)."""
    return random.Random(seed)


def bot_budget() -> int:
    """Returns the CPU a strong bot may spend on one decision, in milliseconds: the
    environment's ``BOT_BUDGET_MS``, else :data:`engine.bot_levels.DEFAULT_BUDGET_MS`.

    :raises ValueError: for a value that is not a number of milliseconds (``fortyfive serve``
        and ``fortyfive worker`` check it before they start).
    """
    return bot_budget_ms(bot_levels.DEFAULT_BUDGET_MS)


def bot_command_id(game_id: str, version: int) -> str:
    """Returns the command id of the bot action taken on *game_id* at *version*."""
    return f"bot:{game_id}:{version}"


def clock_command_id(game_id: str, version: int) -> str:
    """Returns the command id of the turn clock's action on *game_id* at *version*."""
    return f"clock:{game_id}:{version}"


def _hold_cut(store: EventStore, game_id: str, state: GameState) -> None:
    """Waits before a bot's or the clock's cut until the deal's nonce window has closed by
    the time its shuffle was recorded (:func:`commands.cut_wait`): the job was planned that
    late, but the queue keeps whole seconds and may run it up to one early. Returns at once
    when every human seat has sent its nonce."""
    wait = commands.cut_wait(store, game_id, state)
    if wait > 0:
        time.sleep(wait)


def bot_actions_per_job(state: GameState) -> int:
    """Returns how many bot actions one ``play_bots`` job takes in *state*: one in a paced
    game (the dispatcher holds the job for the next one, :mod:`workers.pacing`), else all
    there are (up to :data:`MAX_BOT_ACTIONS`)."""
    return 1 if bot_pace(state) is not None else MAX_BOT_ACTIONS


def play_bots(game_id: str, version: int) -> int:
    """Plays every bot turn of *game_id* from *version* on, until a human seat is to act or
    the game is over (in a paced game, one turn: :func:`bot_actions_per_job`); returns how
    many actions it took.

    Does nothing if the game is no longer at *version*. Stops, appending nothing more, when
    another writer moves the game first: the feed then brings a job for the new version.
    Stops too at a bot's cut that waits for a human seat's nonce in a deal shuffled after
    *version* (one this job's own play ended the deal before): the feed brings the job
    :func:`workers.plan.plan` plans for it after the nonce window.

    :raises engine.errors.FortyFiveError: if the engine refuses a bot's action (a bug).
    :raises events.store.StoreError: from the store (the job is retried).
    """
    store, games = context.store(), context.games()
    folded = commands.load(games, game_id)
    if folded.version != version:
        return 0
    taken = 0
    budget = bot_budget()
    for _ in range(bot_actions_per_job(folded.state)):
        state, at = folded.state, folded.version
        seat = state.turn
        if seat is None or state.phase == "over" or state.seat_types[seat] != "bot":
            break
        if awaited(state):
            if at != version:
                break
            _hold_cut(store, game_id, state)
        action = bot_levels.decide(state.seat_levels[seat], state, seat,
                                   _chance(f"bot:{game_id}:{at}"), budget_ms=budget)
        if action is None:
            log.warning("bot in seat %d of game %s has no action at version %d", seat, game_id, at)
            break
        try:
            result = commands.act(
                store, games, game_id, seat, action,
                expected_version=at, command_id=bot_command_id(game_id, at), loaded=folded,
            )
        except ConcurrencyError as conflict:
            log.info("game %s moved on to version %d; bots stop", game_id, conflict.actual)
            break
        taken += 0 if result.duplicate else 1
        folded = Folded(result.state, result.version, result.recorded[-1].envelope.hash)
    return taken


def turn_clock(game_id: str, version: int, seat: int) -> bool:
    """Acts for *seat* of *game_id* with the bot policy if the game is still at *version*
    with *seat* to act (its time ran out); returns True if it appended the action.

    The command path records the seat as the envelope's actor; the command id
    (:func:`clock_command_id`) is what marks the action as the clock's.

    :raises engine.errors.FortyFiveError: if the engine refuses the action (a bug).
    :raises events.store.StoreError: from the store (the job is retried).
    """
    store, games = context.store(), context.games()
    folded = commands.load(games, game_id)
    state = folded.state
    if folded.version != version or state.phase == "over" or state.turn != seat:
        return False
    action = bot_levels.decide(BASIC, state, seat,
                               _chance(f"clock:{game_id}:{version}"))
    if action is None:
        return False
    _hold_cut(store, game_id, state)
    try:
        result = commands.act(
            store, games, game_id, seat, action,
            expected_version=version, command_id=clock_command_id(game_id, version),
            actor=SERVER,
        )
    except ConcurrencyError:
        return False
    return not result.duplicate


def seal_deal(game_id: str, deal_number: int, version: int) -> bool:
    """Stores the auditor hand history of deal *deal_number* of *game_id* (canonical JSON,
    :mod:`replay.formats.jsonformat`), cut from the events up to *version*; returns False if it was
    sealed already or the deal is not over at *version*.

    It signs the checkpoint of the deal's last event: the history carries it, and it is kept as the
    deal's end (:func:`service.application.signing.store_deal_end`), what a seat's view falls back
    on while the next deal hides a card.

    The key is written only if absent (``SET NX``): a sealed history never changes.

    :raises events.store.StoreError: from the store (the job is retried).
    """
    store = context.store()
    key = keys.sealed_key(game_id, deal_number)
    if store.client.exists(key):
        return False
    replay = replay_log(store.read(game_id, limit=version))
    if deal_number not in finished_deals(replay.states[-1]):
        log.warning("deal %d of game %s is not over at version %d", deal_number, game_id, version)
        return False
    history = build_history(game_id, replay, "auditor", deal=deal_number)
    last = history.events[-1]
    assert last.hash is not None, "an auditor's history withholds no hash"
    checkpoint = context.signing().checkpoint(game_id, last.version, last.hash)
    signing.store_deal_end(store.client, checkpoint, deal_number)
    history = dataclasses.replace(history, checkpoint=checkpoint, checkpoint_key=signing.key_record(
        store.client, checkpoint["key_id"]))
    return bool(store.client.set(key, jsonformat.dumps(history), nx=True))


def project(game_id: str, version: int) -> bool:
    """Updates the recent-games and finished-games projections with *game_id*'s latest state
    (at *version* or later); returns False when they already had it.

    The dispatcher projects every game it reads in the feed itself; this job is what an
    operator (or a queue filled by an older version) can still run for one game.

    :raises events.store.StoreError: from the store (the job is retried).
    """
    store, games = context.store(), context.games()
    folded = commands.load(games, game_id)
    if folded.version < version:
        return False
    return projections.Projector(store.client).project(store, game_id, folded.state)


def sweep_chains() -> dict[str, Any]:
    """Re-verifies every game's hash chain and records failures; returns the summary.

    :raises events.store.StoreUnavailableError: if the store cannot be reached.
    """
    return integrity.sweep(context.store())


def retain() -> dict[str, Any]:
    """Runs the retention pass (:mod:`workers.retention`) with the policy of the environment
    (``ABANDON_AFTER``, ``ARCHIVE_AFTER``); returns what it did.

    :raises events.store.StoreError: from the store (the job is retried).
    """
    done = retention.run(context.store(), context.games(), retention.Policy.from_env(),
                         now=time.time(), sign=context.signing().checkpoint)
    if done.abandoned or done.archived:
        log.info("retention: %d game(s) abandoned, %d archived", len(done.abandoned),
                 len(done.archived))
    return done.to_dict()


def sign_tree_head() -> dict[str, Any]:
    """Signs the transparency log's head as it is now (one job per
    :data:`service.application.transparency.TREE_HEAD_SECONDS`); returns the latest head.

    :raises events.store.StoreUnavailableError: if the store cannot be reached.
    """
    return context.signing().tree_head()
