"""The drive job: advance a drive when the feed shows it, or one of its games, moving.

The dispatcher plans it for every event of a drive's own stream and for every deal end and game end
of a drive's game (:func:`plan_drive`); :func:`service.application.drives.advance` then does what is
due, if anything, so running it twice, or for a reason already handled, changes nothing.
"""

from __future__ import annotations

import logging

from rq import get_current_job
from rq.exceptions import DuplicateJobError

from engine.drives import drive_of
from events.drive_store import DriveStore, is_drive_id
from service.application import drives
from service.application.tokens import TokenRegistry
from workers import context, keys

log = logging.getLogger(__name__)


def advance_drive(drive_id: str) -> list[str]:
    """Advances *drive_id* (starts a round, reveals a board, ends a round or the drive, and
    signs a checkpoint of each end); returns what it did.

    :raises events.store.StoreError: from the store (the job is retried).
    """
    store = context.store()
    done = drives.advance(store, context.games(), DriveStore(store),
                          TokenRegistry(store.client), drive_id, signer=context.signing())
    if done:
        log.info("drive %s: %s", drive_id, "; ".join(done))
    schedule_bell(drive_id)
    return done


def schedule_bell(drive_id: str) -> bool:
    """Schedules, on the queue of the job running, the advance that calls the round in play
    of *drive_id* when its ``round_minutes`` are up (one job per round); returns True if it
    scheduled it now. Outside a job, or for a drive without a clock, it does nothing."""
    job = get_current_job()
    if job is None:
        return False
    drive, envelopes = drives.load_envelopes(DriveStore(context.store()), drive_id)
    deadline = drives.round_deadline(drive, envelopes)
    if deadline is None or drive.current is None:
        return False
    queue = context.make_queue(job.connection, job.origin)
    try:
        queue.enqueue_at(deadline, advance_drive, drive_id, job_id=keys.drive_job_id(
            drive_id, f"bell-{drive.current.number}"), unique=True, retry=context.retry(),
            result_ttl=context.RESULT_TTL, failure_ttl=context.FAILURE_TTL)
    except DuplicateJobError:
        return False
    return True


def drive_reason(game_id: str, version: int, finished: int, phase: str) -> tuple[str, str] | None:
    """Returns ``(drive id, reason)`` when an entry of *game_id* at *version* calls for the
    drive job: any event of a drive's own stream, or a game of a drive that waits for its
    drive (a board's reveal, the next board: *phase* ``reveal`` or ``shuffle``) or is over,
    with *finished* deals; ``None`` otherwise.

    >>> drive_reason("dr-" + "0" * 20, 3, 0, "")[1]
    'v3'
    """
    if is_drive_id(game_id):
        return game_id, f"v{version}"
    drive_id = drive_of(game_id)
    if drive_id is None or phase not in ("reveal", "shuffle", "over"):
        return None
    return drive_id, f"{game_id}-d{finished}-{phase}"


def job_id(drive_id: str, reason: str) -> str:
    """Returns the job id of advancing *drive_id* for *reason*."""
    return keys.drive_job_id(drive_id, reason)
