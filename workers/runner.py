"""Running the workers: the dispatcher and an RQ worker, until stopped.

:func:`run_worker` is what ``fortyfive serve`` runs in a child process and ``fortyfive
worker`` runs on its own. It forks nothing: a ``SimpleWorker`` runs the jobs in the main
thread (they are short, and share a warm fold cache), and a second thread runs the dispatcher
and the scheduler's duty, moving turn clocks that fell due onto the queue under RQ's scheduler
lock (so one runner does it at a time). RQ's own scheduler would fork a process, which a
daemonic child such as ``serve``'s worker may not do, and forking a process that runs other
threads is unsafe anyway. SIGTERM or SIGINT stops the worker after the job it is running,
then the dispatcher.

The queue may live on its own Redis (``RQ_REDIS_URL``, default: the store's), which must be a
single Redis: RQ does not support Redis Cluster, while the event store may be one.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Mapping
from typing import Any

from rq import Queue, SimpleWorker
from rq.scheduler import RQScheduler
from rq.serializers import JSONSerializer

from workers import context
from workers.dispatcher import UNAVAILABLE, Dispatcher, schedule_sweep

log = logging.getLogger(__name__)

SWEEP_SECONDS = 3600
"""How often the chain sweep runs (once per period, however many runners there are)."""

POLL_MS = 1000
"""The longest the dispatcher waits for the feeds, and so between two scheduler passes."""


def rq_url_for(store_url: str, environ: Mapping[str, str] | None = None) -> str:
    """Returns the queue's Redis URL: ``RQ_REDIS_URL`` if set, else *store_url*."""
    return (os.environ if environ is None else environ).get("RQ_REDIS_URL") or store_url


def run_worker(
    redis_url: str,
    *,
    burst: bool = False,
    rq_url: str | None = None,
    queue_name: str = context.QUEUE_NAME,
    log_level: str = "INFO",
) -> int:
    """Runs the dispatcher and an RQ worker on the store at *redis_url* until SIGTERM or
    SIGINT, or with *burst* until nothing is left to do now; returns an exit status.

    Call it from the main thread (the worker handles the signals). *rq_url* defaults to
    :func:`rq_url_for`. RQ logs at *log_level*: ``INFO`` shows every job (several lines
    each), ``WARNING`` only what went wrong.
    """
    rq_url = rq_url or rq_url_for(redis_url)
    if burst:
        drain(redis_url, rq_url, queue_name)
        return 0
    context.configure(redis_url)
    connection = context.rq_connection(rq_url)
    queue = context.make_queue(connection, queue_name)
    dispatcher = Dispatcher(context.store(), queue, games=context.games())
    stop = threading.Event()
    thread = threading.Thread(
        target=dispatch_until, args=(dispatcher, queue, stop, log_level),
        name="fortyfive-dispatcher",
    )
    thread.start()
    try:
        worker = SimpleWorker([queue], connection=connection, serializer=JSONSerializer)
        worker.work(logging_level=log_level)
    finally:
        stop.set()
        thread.join(POLL_MS / 1000 + 10)
    return 0


def dispatch_until(
    dispatcher: Dispatcher, queue: Queue, stop: threading.Event, log_level: str = "INFO"
) -> None:
    """Dispatches the feeds, enqueues turn clocks as they fall due and the chain sweep once
    per period, until *stop* is set; waits and goes on while Redis is unavailable."""
    # Any: RQScheduler's methods carry no annotations.
    scheduler: Any = RQScheduler(
        [queue], connection=queue.connection, serializer=JSONSerializer, logging_level=log_level
    )
    swept = None
    try:
        while not stop.is_set():
            try:
                dispatcher.poll(block_ms=POLL_MS)
                # Acquires the lock, or refreshes it while held (it expires a minute after).
                if scheduler.acquire_locks():
                    scheduler.enqueue_scheduled_jobs()
                period = int(time.time()) // SWEEP_SECONDS
                if period != swept:
                    schedule_sweep(queue, period)
                    swept = period
            except UNAVAILABLE as error:
                log.warning("dispatcher waits for Redis: %s", error)
                stop.wait(1.0)
            except Exception:
                # A supervisor loop: a bug must not stop every game. Say so loudly, go on.
                log.exception("dispatcher pass failed; retrying in 1 s")
                stop.wait(1.0)
    finally:
        scheduler.release_locks()


def drain(store_url: str, rq_url: str, queue_name: str = context.QUEUE_NAME) -> int:
    """Dispatches and works in this process until the feeds and the queue are both empty;
    returns how many rounds that took. Turn clocks not yet due stay scheduled."""
    context.configure(store_url)
    connection = context.rq_connection(rq_url)
    queue = context.make_queue(connection, queue_name)
    dispatcher = Dispatcher(context.store(), queue, games=context.games())
    rounds = 0
    while True:
        rounds += 1
        handled = dispatcher.poll()
        worker = SimpleWorker([queue], connection=connection, serializer=JSONSerializer)
        if not worker.work(burst=True, with_scheduler=True) and not handled:
            return rounds
