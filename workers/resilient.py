"""Riding out a Redis outage: a waiter that logs once per outage, and an RQ worker that
waits instead of quitting.

RQ's worker retries a lost connection only while it waits for a job; anywhere else (a job's
bookkeeping, a heartbeat after a job) the error ends ``work()`` with "found an unhandled
exception, quitting". :class:`ResilientWorker` waits for Redis at those places instead
(:class:`Outage`: backoff up to 2 s, one line when the outage begins and one when it ends)
and the runner starts a new worker if ``work()`` ends anyway.

A job that an outage (or a ``kill -9``) interrupts is left to RQ's own recovery: while a job
runs, a thread beats its heartbeats as RQ's forking worker does, so its execution expires
:data:`ABANDON_MARGIN` seconds after the beats stop. RQ's registry maintenance (every
:data:`MAINTENANCE_SECONDS`) then retries it like any failure (``Retry``, after 10 s); the
job is idempotent, so running it again is safe.

A worker killed after taking a job but before marking it started leaves it in RQ's
intermediate queue, which RQ's recovery of abandoned jobs skips: RQ fails it only once it has
been seen stuck there for a minute. :meth:`ResilientWorker.clean_registries` does so after
:data:`STUCK_SECONDS`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import redis
from rq import SimpleWorker, utils
from rq.exceptions import StopRequested
from rq.job import Job
from rq.queue import Queue
from rq.worker import WorkerStatus

from service.application.backoff import Backoff
from workers.dispatcher import UNAVAILABLE

log = logging.getLogger(__name__)

BEAT_SECONDS = 1
"""How often a running job's heartbeats are beaten (RQ's ``job_monitoring_interval``)."""

WORKER_TTL = 16
"""RQ's ``worker_ttl``: an idle worker beats every ``WORKER_TTL - 15`` seconds."""

ABANDON_MARGIN = 10
"""Seconds after its last heartbeat when a running job counts as abandoned."""

MAINTENANCE_SECONDS = 10
"""How often RQ cleans its registries (and so retries abandoned jobs)."""

COMMAND_WAIT = 1.0
"""The longest wait of the thread reading RQ's command channel (RQ's is 60 s): the thread sees
a stop only between waits, and redis-py's ``stop()`` waits for it, so a stopping worker could
hang for a minute. RQ's ``unsubscribe`` sends UNSUBSCRIBE before the stop; a thread that read
its reply first began another wait (seen in CI, as a worker cold-stopped by a second SIGTERM)."""

STUCK_SECONDS = 5
"""How long after a maintenance pass first saw a job taken from the queue, yet neither started
nor running, it counts as abandoned by a worker that died taking it (RQ waits a minute). Two
passes are :data:`MAINTENANCE_SECONDS` apart, so the second pass that sees it fails it."""


class Outage:
    """Waits until *probe* stops raising a connection error, for the runner's *part*."""

    def __init__(
        self,
        part: str,
        probe: Callable[[], object],
        stop: threading.Event,
        backoff: Callable[[], Backoff] = lambda: Backoff(initial=0.1, cap=2.0),
    ) -> None:
        self._part = part
        self._probe = probe
        self._stop = stop
        self._backoff = backoff

    def wait(self, error: BaseException) -> bool:
        """Logs that Redis is unavailable (*error*), then probes with backoff until it
        answers (returns True, logging how long it took) or the stop event is set (False)."""
        log.warning("%s: Redis is unavailable (%s); waiting for it", self._part, error)
        started = time.monotonic()
        backoff = self._backoff()
        while not self._stop.wait(backoff.next_delay()):
            try:
                self._probe()
            except UNAVAILABLE:
                continue
            log.warning("%s: Redis is back after %.1f s", self._part, time.monotonic() - started)
            return True
        return False


class _JobHeartbeats:
    """While a job runs, beats the worker's, the execution's and the job's heartbeats every
    ``job_monitoring_interval`` from a thread (RQ's forking worker does it between polls of
    its work horse; a :class:`SimpleWorker` has nobody to do it)."""

    def __init__(self, worker: ResilientWorker, job: Job, execution: Any) -> None:
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._beat, args=(worker, job, execution), name="fortyfive-job-heartbeat",
            daemon=True,
        )

    def __enter__(self) -> None:
        self._thread.start()

    def __exit__(self, *exc_info: object) -> None:
        self._done.set()
        self._thread.join()

    def _beat(self, worker: ResilientWorker, job: Job, execution: Any) -> None:
        while not self._done.wait(worker.job_monitoring_interval):
            try:
                worker.maintain_heartbeats(job, execution)
            except UNAVAILABLE:
                pass  # The job meets the outage too; the worker waits for Redis then.


class ResilientWorker(SimpleWorker):
    """A :class:`SimpleWorker` that waits out Redis outages, beats heartbeats while a job
    runs, calls *on_heartbeat* after each heartbeat, and sets *stopping* on SIGTERM/SIGINT."""

    max_connection_wait_time = 2.0
    """RQ's cap on its reconnection backoff while it waits for a job (its default is 60 s)."""

    def __init__(
        self,
        *args: Any,
        outage: Outage,
        stopping: threading.Event,
        on_heartbeat: Callable[[], None] = lambda: None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("worker_ttl", WORKER_TTL)
        kwargs.setdefault("job_monitoring_interval", BEAT_SECONDS)
        kwargs.setdefault("maintenance_interval", MAINTENANCE_SECONDS)
        super().__init__(*args, **kwargs)
        self._outage = outage
        self._stopping = stopping
        self._on_heartbeat = on_heartbeat

    def request_stop(self, signum: Any, frame: Any) -> None:
        """Notes the stop request, then does RQ's warm shutdown, except that an idle worker
        is not stopped by an exception raised out of the signal handler, wherever the main
        thread was (in the middle of reading a reply from Redis, most likely): it stops at
        its next wait for a job (:meth:`dequeue_job_and_maintain_ttl`), within a second."""
        self._stopping.set()
        try:
            super().request_stop(signum, frame)  # type: ignore[no-untyped-call]
        except StopRequested:
            self._stop_requested = True

    def dequeue_job_and_maintain_ttl(
        self, timeout: int | None, max_idle_time: int | None = None
    ) -> tuple[Job, Queue] | None:
        """RQ's wait for a job, in waits of at most *timeout* seconds (``dequeue_timeout``)
        between which a stop request is honoured (RQ's loop would go on waiting)."""
        if timeout is None or max_idle_time is not None:
            return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
        while not self._stop_requested:
            found = super().dequeue_job_and_maintain_ttl(timeout, max_idle_time=timeout)
            if found is not None:
                return found
        raise StopRequested()  # Caught by RQ's work loop, which then stops.

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        """RQ's heartbeat; first waits for Redis if it is down (the dequeue loop beats
        before each wait for a job, so this is where an idle worker meets an outage)."""
        if pipeline is None:
            try:
                super().heartbeat(timeout)
            except UNAVAILABLE as error:
                if not self._outage.wait(error):
                    raise
                super().heartbeat(timeout)
        else:
            super().heartbeat(timeout, pipeline)
        self._on_heartbeat()

    def subscribe(self) -> None:
        """RQ's subscription to this worker's command channel, read in waits of
        :data:`COMMAND_WAIT` so that stopping it is prompt."""
        self.log.info("Worker %s: subscribing to channel %s", self.name,
                      self.pubsub_channel_name)
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        self.pubsub_thread = self.pubsub.run_in_thread(
            sleep_time=COMMAND_WAIT, daemon=True,
            exception_handler=self._pubsub_exception_handler)

    def _pubsub_exception_handler(self, exc: Exception, pubsub: Any, thread: Any) -> None:
        """Keeps RQ's command channel retrying through an outage at RQ's pace, without RQ's
        line per attempt (the worker's :class:`Outage` logs the outage once)."""
        if isinstance(exc, redis.exceptions.ConnectionError):
            time.sleep(2.0)
            return
        super()._pubsub_exception_handler(exc, pubsub, thread)

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        """How long a running job's execution lives without a heartbeat: the beats come
        every ``job_monitoring_interval`` (:class:`_JobHeartbeats`), so a short margin."""
        remaining = job.timeout - working_time if job.timeout and job.timeout > 0 else None
        interval = self.job_monitoring_interval
        return int(interval if remaining is None else min(remaining, interval)) + ABANDON_MARGIN

    def clean_registries(self) -> None:
        """RQ's maintenance of each queue, then a job stuck in its intermediate queue is
        failed, and so retried, :data:`STUCK_SECONDS` after a pass first saw it there, not a
        minute after."""
        super().clean_registries()  # type: ignore[no-untyped-call]
        for queue in self.queues:
            # One worker of several cleans at a time, as in RQ's own pass.
            if queue.acquire_maintenance_lock():
                self._fail_stuck(queue)
                queue.release_maintenance_lock()  # type: ignore[no-untyped-call]

    def _fail_stuck(self, queue: Queue) -> None:
        """Fails each job of *queue*'s intermediate queue that no worker runs and that a pass
        first saw there at least :data:`STUCK_SECONDS` ago (what RQ's
        ``IntermediateQueue.cleanup`` does after a minute)."""
        stuck = queue.intermediate_queue
        for job_id in stuck.get_job_ids():
            if job_id in queue.started_job_registry:
                continue
            job = queue.fetch_job(job_id)
            if job is None:
                stuck.remove(job_id)
            elif not stuck.set_first_seen(job_id):  # Seen by an earlier pass.
                seen = stuck.get_first_seen(job_id)
                if seen is not None and utils.now() - seen >= timedelta(seconds=STUCK_SECONDS):
                    self.handle_job_failure(
                        job, queue, exc_string="the worker that took it died before starting it")
                    stuck.remove(job_id)

    def execute_job(self, job: Job, queue: Queue) -> None:
        """Runs *job* here with its heartbeats beaten; if Redis goes away meanwhile, waits
        for it and leaves the job to RQ's recovery of abandoned jobs."""
        try:
            execution = self.prepare_execution(job)
            with _JobHeartbeats(self, job, execution):
                self.perform_job(job, queue, execution)
            self.set_state(WorkerStatus.IDLE)
        except UNAVAILABLE as error:
            self.executions.clear()
            log.warning("job %s met a Redis outage; unless it had finished, RQ retries it "
                        "once its execution expires", job.id)
            if not self._outage.wait(error):
                raise
