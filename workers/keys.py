"""Names the workers give things: Redis keys of what they store, and RQ job ids.

Keys of one game carry its partition's hash tag (``{p<NNN>}``, as the event store's do), so a
sealed history sits in the same Redis Cluster slot as the game it was cut from. Projections
and integrity records span games: their keys share one tag each (``{proj}``, ``{integrity}``)
so a script may touch several of them at once on a cluster too.

Job ids are deterministic, so a feed entry read twice maps to the same job and RQ refuses the
second copy. RQ allows only ``A-Z a-z 0-9 _ -`` in an id; a game id may also hold ``.``, so
the game part is escaped (``_`` → ``_5f``, ``.`` → ``_2e``), which keeps ids distinct.

>>> bot_job_id("g.1", 7)
'bot-g_2e1-7'
>>> sealed_key("g1", 2)
'f45:{p165}:sealed:g1:2'
"""

from __future__ import annotations

from events.store import partition_of

RECENT_KEY = "f45:{proj}:recent"
"""Sorted set: game id scored by the time of its last event (epoch seconds)."""
RECENT_INFO_KEY = "f45:{proj}:recent:info"
"""Hash: game id -> JSON summary (version, profile, phase, winner, last event time)."""
LIVE_KEY = "f45:{proj}:live"
"""Sorted set: game id of every game in progress, scored by the time of its last event (epoch
seconds); the retention pass abandons those idle for too long."""
OVER_KEY = "f45:{proj}:over"
"""Sorted set: game id of every finished game not yet archived, scored by the time it ended;
the retention pass archives those over for long enough."""
CHAIN_FAILURES_KEY = "f45:{integrity}:chain:failures"
"""Hash: game id -> JSON of why its stored chain failed verification at the last sweep."""
CHAIN_ANCHORS_KEY = "f45:{integrity}:chain:anchors"
"""Hash: game id -> ``<version>:<hash>`` of its head when the last sweep verified it."""
LAST_SWEEP_KEY = "f45:{integrity}:chain:last"
"""String: JSON summary of the last completed chain sweep."""


def _partition_tag(game_id: str) -> str:
    return f"f45:{{p{partition_of(game_id):03d}}}"


def sealed_key(game_id: str, deal_number: int) -> str:
    """Returns the key of the sealed (auditor) hand history of deal *deal_number*."""
    return f"{_partition_tag(game_id)}:sealed:{game_id}:{deal_number}"


def cursor_key(partition: int, dispatcher: str) -> str:
    """Returns the key holding the last feed entry id *dispatcher* handled in *partition*."""
    return f"f45:{{p{partition:03d}}}:dispatch:{dispatcher}"


CURSOR_PATTERN = "f45:{p*}:dispatch:*"
"""Matches the key of every dispatcher's position in every partition (for ``SCAN``)."""


def partition_of_cursor(key: str) -> int:
    """Returns the partition of a key made by :func:`cursor_key`.

    >>> partition_of_cursor(cursor_key(7, "main"))
    7
    """
    return int(key.split("{p", 1)[1].split("}", 1)[0])


def finished_key(profile: str) -> str:
    """Returns the key of the set of finished game ids of *profile* (counted with SCARD)."""
    return f"f45:{{proj}}:finished:{profile}"


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


def retain_job_id(bucket: int) -> str:
    """Returns the id of the retention pass of time bucket *bucket* (one per bucket)."""
    return f"retain-{bucket}"


def sweep_job_id(bucket: int) -> str:
    """Returns the id of the chain sweep of time bucket *bucket* (one sweep per bucket)."""
    return f"sweep-{bucket}"
