"""The bots' pace: in a game with a person, each bot action waits the game's pace first.

A paced bot job is held in a sorted set on the queue's Redis (:func:`events.keys.paced_key`),
scored by when it falls due, to the millisecond (RQ's own scheduler counts whole seconds,
too coarse for 0.7 s a card). The dispatcher's thread moves the jobs that fell due onto the
queue on every pass (:func:`release_due`) and waits for the feeds no longer than until the
next one falls due (:func:`wait_ms`), so no worker ever sleeps for a pace. Holding a job is
idempotent: a job held twice (a feed entry read again) keeps its first due time, and the
queue refuses a job it has already.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import cast

from rq import Queue

from events.keys import paced_key
from workers.plan import JobName, PlannedJob

RELEASE_BATCH = 500
"""The most jobs one pass moves onto the queue."""


def hold(queue: Queue, job: PlannedJob, due: float) -> bool:
    """Holds *job* for *queue* until *due* (epoch seconds) unless it is held already;
    returns True if it was not."""
    member = json.dumps({"name": job.name, "args": list(job.args), "id": job.job_id},
                        separators=(",", ":"), sort_keys=True)
    return bool(queue.connection.zadd(paced_key(queue.name), {member: round(due, 3)}, nx=True))


def release_due(queue: Queue, now: float, enqueue: Callable[[Queue, PlannedJob], object]) -> int:
    """Hands every job held for *queue* and due at *now* to *enqueue* (with *queue*), then
    stops holding it; returns how many fell due. A job is dropped from the set only after
    *enqueue* returned, so a crash between the two enqueues it again, which the queue
    refuses."""
    client, key = queue.connection, paced_key(queue.name)
    members = client.zrangebyscore(key, "-inf", now, start=0, num=RELEASE_BATCH)
    for member in members:
        fields = json.loads(member)
        name = cast(JobName, fields["name"])
        enqueue(queue, PlannedJob(name, tuple(fields["args"]), fields["id"]))
    if members:
        client.zrem(key, *members)
    return len(members)


def wait_ms(queue: Queue, now: float, longest: int) -> int:
    """Returns how long the dispatcher may wait for the feeds at *now* without keeping a held
    job waiting past its due time: *longest* milliseconds at most, 0 if one is due."""
    first = queue.connection.zrange(paced_key(queue.name), 0, 0, withscores=True)
    if not first:
        return longest
    return max(0, min(longest, math.ceil((first[0][1] - now) * 1000)))
