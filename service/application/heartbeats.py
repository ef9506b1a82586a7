"""The workers' heartbeats in the store, and what ``/readyz`` makes of them.

Each runner (``workers.runner``) records two heartbeats in one hash of the event store's
Redis, under its own name (``<host>:<pid>``): its RQ worker's, mirrored each time RQ beats
(while idle, and every second of a running job), and its dispatcher's, after each pass over
the feeds, with the dispatcher's lag: the feed entries still beyond that pass's batches
(``lag_entries``) and the seconds since a pass last read up to every feed's head (``lag_s``;
both 0 when it keeps up). The hash lives beside the games
because ``/readyz`` reads the store, while the queue may live on a Redis of its own.

``/readyz`` reports the freshest of each, and calls a component stale when its heartbeat is
older than ``READY_STALE_SECONDS`` (or missing), or, for the dispatcher, when its lag is. A
process that runs its own worker (``fortyfive serve`` without ``--no-worker``) is then
degraded; a process whose workers run elsewhere still reports them but stays ready, so that
a dead worker fleet does not take the API down with it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

from events.keys import HEARTBEATS_KEY as HEARTBEATS_KEY

STALE_SECONDS = 30.0
"""The default age past which a heartbeat (or the dispatcher's lag) is stale."""

FORGET_SECONDS = 24 * 3600.0
"""Records older than this are pruned when a runner starts (runners that were killed)."""

Role: TypeAlias = Literal["worker", "dispatcher"]
ROLES: tuple[Role, ...] = ("worker", "dispatcher")


def beat(client: Any, role: Role, runner: str, **facts: float) -> None:
    """Records a heartbeat of *role* for *runner* now, with *facts* (e.g. ``lag_s``)."""
    client.hset(HEARTBEATS_KEY, f"{role}:{runner}", json.dumps({"at": time.time(), **facts}))


def forget(client: Any, runner: str) -> None:
    """Removes the heartbeats of *runner* (it stops cleanly)."""
    client.hdel(HEARTBEATS_KEY, *(f"{role}:{runner}" for role in ROLES))


def prune(client: Any, older_than: float = FORGET_SECONDS) -> int:
    """Removes the heartbeats older than *older_than* seconds; returns how many."""
    cutoff = time.time() - older_than
    old = [field for field, record in _records(client).items() if record["at"] < cutoff]
    if old:
        client.hdel(HEARTBEATS_KEY, *old)
    return len(old)


def alive(client: Any, role: Role, within: float) -> list[str]:
    """Returns the runners whose heartbeat of *role* is at most *within* seconds old (the
    dispatchers that share the partitions, :mod:`workers.dispatcher`)."""
    cutoff = time.time() - within
    prefix = f"{role}:"
    return sorted(field[len(prefix):] for field, record in _records(client).items()
                  if field.startswith(prefix) and float(record["at"]) >= cutoff)


def latest(client: Any) -> dict[Role, dict[str, float] | None]:
    """Returns the freshest heartbeat of each role (``None`` for a role never seen)."""
    freshest: dict[Role, dict[str, float] | None] = {role: None for role in ROLES}
    for field, record in _records(client).items():
        role = field.split(":", 1)[0]
        if role in freshest:
            current = freshest[role]
            if current is None or record["at"] > current["at"]:
                freshest[role] = record
    return freshest


def readiness(
    beats: Mapping[Role, Mapping[str, float] | None],
    *,
    now: float,
    stale_after: float = STALE_SECONDS,
    workers_required: bool,
) -> dict[str, Any]:
    """Returns the ``worker``, ``dispatcher``, ``stale`` and ``status`` members of a
    ``/readyz`` answer for the freshest heartbeats *beats* at time *now*.

    >>> ready = readiness({"worker": {"at": 95.0}, "dispatcher": {"at": 99.0, "lag_s": 0.0}},
    ...                   now=100.0, stale_after=3, workers_required=True)
    >>> ready["status"], ready["stale"], ready["worker"]
    ('degraded', ['worker'], {'heartbeat_age_s': 5.0, 'stale': True})
    """
    worker, dispatcher = beats.get("worker"), beats.get("dispatcher")
    worker_age = _age(worker, now)
    dispatcher_age = _age(dispatcher, now)
    lag = None if dispatcher is None else round(float(dispatcher.get("lag_s", 0.0)), 3)
    behind = None if dispatcher is None else int(dispatcher.get("lag_entries", 0))
    sections = {
        "worker": {
            "heartbeat_age_s": worker_age,
            "stale": worker_age is None or worker_age > stale_after,
        },
        "dispatcher": {
            "heartbeat_age_s": dispatcher_age,
            "lag_s": lag,
            "lag_entries": behind,
            "stale": dispatcher_age is None or dispatcher_age > stale_after
            or (lag is not None and lag > stale_after),
        },
    }
    stale = [name for name, section in sections.items() if section["stale"]]
    return {
        "status": "degraded" if stale and workers_required else "ready",
        "workers_required": workers_required,
        "stale": stale,
        **sections,
    }


def _age(record: Mapping[str, float] | None, now: float) -> float | None:
    """Returns the age in seconds of a heartbeat *record* (never negative), or ``None``."""
    return None if record is None else round(max(0.0, now - record["at"]), 3)


def _records(client: Any) -> dict[str, dict[str, float]]:
    """Returns every stored heartbeat by field, skipping any that does not parse."""
    records: dict[str, dict[str, float]] = {}
    for field, raw in client.hgetall(HEARTBEATS_KEY).items():
        name = field.decode() if isinstance(field, bytes) else str(field)
        try:
            record = json.loads(raw)
            float(record["at"])
        except (ValueError, TypeError, KeyError):
            continue
        records[name] = record
    return records
