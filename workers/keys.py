"""Names the workers give things: RQ job ids, and (from :mod:`events.keys`, where every Redis
key name lives) the keys of what they store.

Job ids are deterministic, so a feed entry read twice maps to the same job and RQ refuses the
second copy. RQ allows only ``A-Z a-z 0-9 _ -`` in an id; a game id may also hold ``.``, so
the game part is escaped (``_`` → ``_5f``, ``.`` → ``_2e``), which keeps ids distinct.

>>> bot_job_id("g.1", 7)
'bot-g_2e1-7'
>>> sealed_key("g1", 2)
'f45:{p165}:sealed:g1:2'
"""

from __future__ import annotations

from events.keys import CHAIN_ANCHORS_KEY as CHAIN_ANCHORS_KEY
from events.keys import CHAIN_FAILURES_KEY as CHAIN_FAILURES_KEY
from events.keys import CURSOR_PATTERN as CURSOR_PATTERN
from events.keys import LAST_SWEEP_KEY as LAST_SWEEP_KEY
from events.keys import LIVE_KEY as LIVE_KEY
from events.keys import OVER_KEY as OVER_KEY
from events.keys import RECENT_INFO_KEY as RECENT_INFO_KEY
from events.keys import RECENT_KEY as RECENT_KEY
from events.keys import cursor_key as cursor_key
from events.keys import finished_key as finished_key
from events.keys import partition_of_cursor as partition_of_cursor
from events.keys import sealed_key as sealed_key


def _job_safe(game_id: str) -> str:
    """Returns *game_id* with the characters RQ refuses in job ids escaped, reversibly."""
    return game_id.replace("_", "_5f").replace(".", "_2e")


def bot_job_id(game_id: str, version: int) -> str:
    """Returns the id of the job that plays the bots of *game_id* at *version*."""
    return f"bot-{_job_safe(game_id)}-{version}"


def clock_job_id(game_id: str, version: int) -> str:
    """Returns the id of the turn clock of *game_id* at *version*."""
    return f"clock-{_job_safe(game_id)}-{version}"


def seal_job_id(game_id: str, deal_number: int) -> str:
    """Returns the id of the job that seals deal *deal_number* of *game_id*."""
    return f"seal-{_job_safe(game_id)}-{deal_number}"


def project_job_id(game_id: str, version: int) -> str:
    """Returns the id of the job that updates the projections of *game_id* at *version*."""
    return f"project-{_job_safe(game_id)}-{version}"


def drive_job_id(drive_id: str, reason: str) -> str:
    """Returns the id of the job that advances *drive_id* for *reason* (a drive version, or a
    game of the drive that finished a deal or ended)."""
    return f"drive-{_job_safe(drive_id)}-{_job_safe(reason)}"


def retain_job_id(bucket: int) -> str:
    """Returns the id of the retention pass of time bucket *bucket* (one per bucket)."""
    return f"retain-{bucket}"


def tree_head_job_id(bucket: int) -> str:
    """Returns the id of the tree head signing of time bucket *bucket* (one per bucket)."""
    return f"tree-head-{bucket}"


def sweep_job_id(bucket: int) -> str:
    """Returns the id of the chain sweep of time bucket *bucket* (one sweep per bucket)."""
    return f"sweep-{bucket}"
