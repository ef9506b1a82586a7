"""Running the workers: the dispatcher and an RQ worker, until stopped, through Redis outages.

:func:`run_worker` is what ``fortyfive serve`` runs in a supervised child process
(:mod:`service.processes.supervisor`) and ``fortyfive worker`` runs on its own. It forks nothing: a
:class:`~workers.resilient.ResilientWorker` (an RQ ``SimpleWorker``) runs the jobs in the
main thread (they are short, and share a warm fold cache), and a second thread runs the
dispatcher and the scheduler's duty, moving turn clocks that fell due onto the queue under
RQ's scheduler lock (so one runner does it at a time; :class:`SchedulerDuty`). RQ's own
scheduler would fork a process, and forking a process that runs other threads is unsafe.
SIGTERM or SIGINT stops the worker after the job it is running (an idle one within a second),
then the dispatcher.

Neither part ends on a Redis outage: each waits for Redis (:class:`~workers.resilient.Outage`, one
line when the outage begins and one when it ends) and carries on. Both record heartbeats in the
store (:mod:`service.application.heartbeats`), which ``/readyz`` reports. If the dispatcher thread
ends for any other reason, the runner stops too, so that its supervisor starts a whole one.

The queue may live on its own Redis (``RQ_REDIS_URL``, default: the store's), which must be a
single Redis: RQ does not support Redis Cluster, while the event store may be one.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from rq import Queue, SimpleWorker
from rq.scheduler import RQScheduler
from rq.scripts import acquire_or_refresh_lock
from rq.serializers import JSONSerializer

from service.application import heartbeats
from service.application import store_settings as store_settings_module
from service.application.backoff import Backoff
from service.application.signing import signer_for
from service.application.store_settings import StoreSettings
from service.application.transparency import TREE_HEAD_SECONDS
from workers import context, pacing
from workers.dispatcher import (
    UNAVAILABLE,
    Dispatcher,
    enqueue,
    schedule_sweep,
    schedule_tree_head,
)
from workers.resilient import Outage, ResilientWorker

log = logging.getLogger(__name__)

SWEEP_SECONDS = 3600
"""How often the chain sweep runs (once per period, however many runners there are)."""

POLL_MS = 1000
"""The longest the dispatcher waits for the feeds, and so between two scheduler passes."""

PARENT_POLL_SECONDS = 0.5
"""How often a supervised runner checks that its supervisor is still its parent."""

BEAT_SECONDS = 1.0
"""The least time between two heartbeats a runner records in the store, per part."""

PEER_SECONDS = 5.0
"""A dispatcher whose heartbeat is older than this counts as gone: the others take its
share of the partitions."""

SCHEDULER_LOCK_SECONDS = 10
"""How long RQ's scheduler lock outlives the last dispatcher pass that refreshed it. When the
runner holding it is killed, another one takes the scheduling duty (turn clocks, retries of
abandoned jobs) this soon; RQ's own lock lives 61 s, a minute without them."""


def rq_url_for(store_url: str, environ: Mapping[str, str] | None = None) -> str:
    """Returns the queue's Redis URL: ``RQ_REDIS_URL`` if set, else *store_url* (unless
    the store is a Redis Cluster).

    :raises ValueError: on a cluster (``REDIS_CLUSTER``) without ``RQ_REDIS_URL``.
    """
    return store_settings_module.rq_url(
        store_url, store_settings_module.store_settings(environ), environ=environ)


def runner_name() -> str:
    """Returns the name this runner's heartbeats are recorded under: ``<host>:<pid>``."""
    return f"{socket.gethostname()}:{os.getpid()}"


class Heartbeats:
    """Records the heartbeats of one runner's parts in the store, at most one per
    :data:`BEAT_SECONDS` each; a store that is down only skips the record."""

    def __init__(self, client: Any, runner: str) -> None:
        self._client = client
        self.runner = runner
        self._last: dict[str, float] = {}

    def beat(self, role: heartbeats.Role, **facts: float) -> None:
        """Records a heartbeat of *role* unless one was recorded less than a period ago."""
        now = time.monotonic()
        if now - self._last.get(role, -BEAT_SECONDS) < BEAT_SECONDS:
            return
        try:
            heartbeats.beat(self._client, role, self.runner, **facts)
        except UNAVAILABLE:
            return
        self._last[role] = now


def run_worker(
    redis_url: str,
    *,
    burst: bool = False,
    rq_url: str | None = None,
    queue_name: str = context.QUEUE_NAME,
    log_level: str = "INFO",
    parent_pid: int | None = None,
    settings: StoreSettings | None = None,
) -> int:
    """Runs the dispatcher and an RQ worker on the store at *redis_url* until SIGTERM or
    SIGINT, or with *burst* until nothing is left to do now; returns an exit status (1 if
    the dispatcher ended on its own). With *parent_pid* (its supervisor's), it also stops,
    after the job it is running, once that process is gone: a runner outliving its
    supervisor would run on unwatched and never be stopped.

    Call it from the main thread (the worker handles the signals). *rq_url* defaults to
    :func:`rq_url_for`; *settings* default to the environment's. RQ logs at *log_level*:
    ``INFO`` shows every job (several lines each), ``WARNING`` only what went wrong.
    """
    rq_url = rq_url or rq_url_for(redis_url)
    if not faulthandler.is_enabled():
        # A crash in a C extension (the Redis reply parser, the crypto) then leaves the stack
        # of every thread in the log, not only an exit status.
        faulthandler.enable(all_threads=True)
    # The signing key is loaded before any job forks, so that every job signs with it.
    signer_for()
    if burst:
        drain(redis_url, rq_url, queue_name, settings=settings)
        return 0
    context.configure(redis_url, settings)
    connection = context.rq_connection(rq_url)
    queue = context.make_queue(connection, queue_name)
    store = context.store()
    stop = threading.Event()
    _stop_on_signals(stop)
    if parent_pid is not None:
        threading.Thread(target=stop_when_orphaned, args=(parent_pid, stop), daemon=True,
                         name="fortyfive-parent-watch").start()

    def probe() -> None:
        connection.ping()
        store.ping()

    beats = Heartbeats(store.client, runner_name())
    dispatcher = _until_up(
        lambda: Dispatcher(
            store, queue, games=context.games(), member=beats.runner,
            peers=lambda: heartbeats.alive(store.client, "dispatcher", PEER_SECONDS)),
        Outage("dispatcher", probe, stop),
    )
    if dispatcher is None:
        return 0
    _until_up(lambda: heartbeats.prune(store.client), Outage("runner", probe, stop))
    thread = threading.Thread(
        target=dispatch_until, args=(dispatcher, queue, stop),
        kwargs={"on_pass": lambda: beats.beat(
            "dispatcher", lag_s=dispatcher.lag_s, lag_entries=dispatcher.lag_entries
        ),
                "outage": Outage("dispatcher", probe, stop), "log_level": log_level},
        name="fortyfive-dispatcher",
    )
    thread.start()
    try:
        work_until(queue, stop, Outage("worker", probe, stop),
                   on_heartbeat=lambda: beats.beat("worker"), alive=thread.is_alive,
                   log_level=log_level)
        dispatcher_died = not stop.is_set() and not thread.is_alive()
    finally:
        stop.set()
        thread.join(POLL_MS / 1000 + 10)
        try:
            heartbeats.forget(store.client, beats.runner)
        except UNAVAILABLE:
            pass
    return 1 if dispatcher_died else 0


def work_until(
    queue: Queue,
    stop: threading.Event,
    outage: Outage,
    *,
    on_heartbeat: Callable[[], None],
    alive: Callable[[], bool] = lambda: True,
    log_level: str = "INFO",
) -> None:
    """Runs RQ workers on *queue* until *stop* is set (by a signal) or *alive* turns false:
    when ``work()`` ends on an error (RQ logs it), waits for Redis or a backoff delay and
    starts a new worker. RQ logs at *log_level*."""
    backoff = Backoff()
    while not stop.is_set() and alive():
        worker = ResilientWorker(
            [queue], connection=queue.connection, serializer=JSONSerializer,
            outage=outage, stopping=stop, on_heartbeat=on_heartbeat,
        )
        started = time.monotonic()
        try:
            worker.work(logging_level=log_level)
        except UNAVAILABLE as error:
            _stop_on_signals(stop)
            if stop.is_set() or not outage.wait(error):
                break
            continue
        _stop_on_signals(stop)
        if stop.is_set() or not alive():
            break
        delay = backoff.next_delay(healthy_for=time.monotonic() - started)
        log.warning("worker: RQ's work loop ended; starting a new worker in %.1f s", delay)
        stop.wait(delay)
    if not alive() and not stop.is_set():
        log.error("the dispatcher thread ended; stopping the runner")


def stop_when_orphaned(parent_pid: int, stop: threading.Event) -> None:
    """Stops this runner as its supervisor would, with SIGTERM to itself (RQ's warm
    shutdown: after the running job), once its parent is no longer *parent_pid* (it died
    and this process was reparented); checks every :data:`PARENT_POLL_SECONDS` until *stop*
    is set."""
    while not stop.wait(PARENT_POLL_SECONDS):
        if os.getppid() != parent_pid:
            log.warning("the supervisor (pid %d) is gone; stopping the runner", parent_pid)
            os.kill(os.getpid(), signal.SIGTERM)
            return


def _stop_on_signals(stop: threading.Event) -> None:
    """Makes SIGTERM and SIGINT set *stop* (between two RQ workers: each installs its own)."""
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())


def _until_up(make: Callable[[], Any], outage: Outage) -> Any:
    """Returns ``make()``, waiting out Redis outages; ``None`` if stopped meanwhile."""
    while True:
        try:
            return make()
        except UNAVAILABLE as error:
            if not outage.wait(error):
                return None


class SchedulerDuty(RQScheduler):
    """RQ's scheduler, run from the dispatcher's thread rather than its own process, under a
    lock of :data:`SCHEDULER_LOCK_SECONDS` refreshed on every pass."""

    def acquire_locks(self, auto_start: bool = False) -> set[str]:
        """Takes or refreshes the lock of each queue; returns the names of those held."""
        held = {
            name for name in self._queue_names
            if acquire_or_refresh_lock(self.connection, self.get_locking_key(name), self.name,
                                       SCHEDULER_LOCK_SECONDS) != "taken"
        }
        if held != self._acquired_locks:
            for name in sorted(held - self._acquired_locks):
                self.log.info("Acquired scheduler lock for %s", name)
            self._scheduled_job_registries = []
            self._acquired_locks = held
        return held


def dispatch_until(
    dispatcher: Dispatcher,
    queue: Queue,
    stop: threading.Event,
    *,
    on_pass: Callable[[], None] = lambda: None,
    outage: Outage | None = None,
    log_level: str = "INFO",
) -> None:
    """Dispatches the feeds, enqueues turn clocks and paced bot jobs as they fall due, the
    chain sweep once per period and the signing of the log's tree head every
    :data:`~service.application.transparency.TREE_HEAD_SECONDS`, until *stop* is set,
    calling *on_pass* after each pass; waits out Redis outages (with *outage*, else retrying
    every second)."""
    # Any: RQScheduler's methods carry no annotations.
    scheduler: Any = SchedulerDuty(
        [queue], connection=queue.connection, serializer=JSONSerializer, logging_level=log_level
    )
    swept = headed = None
    try:
        while not stop.is_set():
            try:
                dispatcher.poll(block_ms=pacing.wait_ms(queue, time.time(), POLL_MS))
                pacing.release_due(queue, time.time(), enqueue)
                # Takes the lock, or refreshes it while held.
                if scheduler.acquire_locks():
                    scheduler.enqueue_scheduled_jobs()
                period = int(time.time()) // SWEEP_SECONDS
                if period != swept:
                    schedule_sweep(queue, period)
                    swept = period
                head_period = int(time.time()) // TREE_HEAD_SECONDS
                if head_period != headed:
                    schedule_tree_head(queue, head_period)
                    headed = head_period
                on_pass()
            except UNAVAILABLE as error:
                if outage is None:
                    log.warning("dispatcher waits for Redis: %s", error)
                    stop.wait(1.0)
                elif not outage.wait(error):
                    break
            except Exception:
                # A supervisor loop: a bug must not stop every game. Say so loudly, go on.
                log.exception("dispatcher pass failed; retrying in 1 s")
                stop.wait(1.0)
    finally:
        try:
            scheduler.release_locks()
        except UNAVAILABLE:
            pass  # They expire on their own.


def drain(store_url: str, rq_url: str, queue_name: str = context.QUEUE_NAME, *,
          settings: StoreSettings | None = None) -> int:
    """Dispatches and works in this process until the feeds and the queue are both empty;
    returns how many rounds that took. Turn clocks and paced bot jobs not yet due stay
    scheduled."""
    context.configure(store_url, settings)
    connection = context.rq_connection(rq_url)
    queue = context.make_queue(connection, queue_name)
    dispatcher = Dispatcher(context.store(), queue, games=context.games())
    rounds = 0
    while True:
        rounds += 1
        handled = dispatcher.poll()
        pacing.release_due(queue, time.time(), enqueue)
        worker = SimpleWorker([queue], connection=connection, serializer=JSONSerializer)
        if not worker.work(burst=True, with_scheduler=True) and not handled:
            return rounds
