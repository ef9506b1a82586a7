"""Every Redis key name the project uses, in one module.

The names of the service's and the workers' own records (seat tokens, rate counters, API keys,
heartbeats, projections) are here too, beside the event store's: one home per key name, and the
whole keyspace and its hash tags readable in one place, which is what keeps a game's keys in
one slot (``tests/events/test_keys.py`` holds it: no other module writes a key literal).

Keys of one game carry its partition's hash tag (``f45:{p<NNN>}``, :func:`partition_tag`), so
they sit in one Redis Cluster slot and one script may touch them all: its events, its command
ids, its archive, its seat tokens and claim codes, its access log and its sealed histories.
Records that span games share one hash tag per kind (``{proj}``, ``{integrity}``, ``{keys}``,
``{workers}``), and a rate counter has a tag of its own, so a cluster spreads them and a script
touching several keys of one kind stays in one slot. ``NNN`` is :func:`events.store.partition_of`.

>>> game_key("g1"), feed_key(7)
('f45:{p165}:game:g1', 'f45:{p007}:feed')
>>> sealed_key("g1", 2), rate_key("ip:127.0.0.1", "reads")
('f45:{p165}:sealed:g1:2', 'f45:{rate:ip:127.0.0.1}:reads')
>>> partition_of_cursor(cursor_key(7, "main"))
7
"""

from __future__ import annotations

from events.store import partition_of


def _tag(partition: int) -> str:
    return f"f45:{{p{partition:03d}}}"


def partition_tag(game_id: str) -> str:
    """Returns the prefix with the hash tag of *game_id*'s partition, ``f45:{p<NNN>}``: every
    key of one game starts with it, so they share a Redis Cluster slot."""
    return _tag(partition_of(game_id))


# The event store (events.redis_store) ----------------------------------------------------------


def game_key(game_id: str) -> str:
    """Returns the key of the stream of *game_id*'s events."""
    return f"{partition_tag(game_id)}:game:{game_id}"


def command_key(game_id: str) -> str:
    """Returns the key of the hash of command ids seen for *game_id*."""
    return f"{partition_tag(game_id)}:cmd:{game_id}"


def archive_key(game_id: str) -> str:
    """Returns the key of *game_id*'s tombstone and archived events."""
    return f"{partition_tag(game_id)}:archive:{game_id}"


def feed_key(partition: int) -> str:
    """Returns the key of the feed stream of *partition*."""
    return f"{_tag(partition)}:feed"


def replication_key(partition: int) -> str:
    """Returns the key an append that found its command id already seen writes before it
    waits for the replicas of *partition*'s master (:mod:`events.replication`)."""
    return f"{_tag(partition)}:replicated"


GAME_PATTERN = "f45:{p*}:game:*"
"""Matches the key of every game's stream (for ``SCAN``)."""


def commitment_key(commitment: str) -> str:
    """Returns the key recording where seed commitment *commitment* was used (its context and
    deal): its own hash tag, so it is one key in one slot, written with ``SET NX`` and never
    in a script with a game's keys."""
    return f"f45:{{commit:{commitment}}}"


# A game's service records: seat tokens and claim codes (service.application.tokens, claims),
# checkpoints (service.application.signing), the access log (service.application.access_log) --


def seats_key(game_id: str) -> str:
    """Returns the key of the hash of *game_id*'s seat token digests."""
    return f"{partition_tag(game_id)}:seats:{game_id}"


def rematch_key(game_id: str) -> str:
    """Returns the key of the id of *game_id*'s rematch (set once, when it is created)."""
    return f"{partition_tag(game_id)}:rematch:{game_id}"


def checkpoints_key(game_id: str) -> str:
    """Returns the key of the hash of *game_id*'s deal-end checkpoints: ``deal:<n>`` -> the
    canonical JSON of the checkpoint signed at the end of deal *n*, ``latest`` -> the last one
    (:mod:`service.application.signing`)."""
    return f"{partition_tag(game_id)}:checkpoints:{game_id}"


def access_key(game_id: str) -> str:
    """Returns the key of the list of *game_id*'s auditor reads of live deals (the access
    log the seats may read once the game is over)."""
    return f"{partition_tag(game_id)}:access:{game_id}"


# Workers (workers.keys names them for the workers): sealed histories, dispatch positions,
# projections, integrity, heartbeats (service.application.heartbeats) ------------------------


def sealed_key(game_id: str, deal_number: int) -> str:
    """Returns the key of the sealed (auditor) hand history of deal *deal_number*."""
    return f"{partition_tag(game_id)}:sealed:{game_id}:{deal_number}"


def cursor_key(partition: int, dispatcher: str) -> str:
    """Returns the key holding the last feed entry id *dispatcher* handled in *partition*."""
    return f"{_tag(partition)}:dispatch:{dispatcher}"


CURSOR_PATTERN = "f45:{p*}:dispatch:*"
"""Matches the key of every dispatcher's position in every partition (for ``SCAN``)."""


def partition_of_cursor(key: str) -> int:
    """Returns the partition of a key made by :func:`cursor_key`."""
    return int(key.split("{p", 1)[1].split("}", 1)[0])


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


def finished_key(profile: str) -> str:
    """Returns the key of the set of finished game ids of *profile* (counted with SCARD)."""
    return f"f45:{{proj}}:finished:{profile}"


CHAIN_FAILURES_KEY = "f45:{integrity}:chain:failures"
"""Hash: game id -> JSON of why its stored chain failed verification at the last sweep."""
CHAIN_ANCHORS_KEY = "f45:{integrity}:chain:anchors"
"""Hash: game id -> ``<version>:<hash>`` of its head when the last sweep verified it."""
LAST_SWEEP_KEY = "f45:{integrity}:chain:last"
"""String: JSON summary of the last completed chain sweep."""


def paced_key(queue_name: str) -> str:
    """Sorted set, on the queue's Redis: the JSON of each bot job held back for a game's pace
    before it goes on queue *queue_name* (:mod:`workers.pacing`), scored by when it falls due
    (epoch seconds, to the millisecond)."""
    return f"f45:{{workers}}:paced:{queue_name}"


HEARTBEATS_KEY = "f45:{workers}:heartbeats"
"""Hash: ``worker:<runner>`` and ``dispatcher:<runner>`` -> JSON ``{"at": epoch seconds, ...}``."""


# The service's own records: API keys (service.http.apikeys), rate counters (service.http.limits),
# checkpoint signing keys (service.application.signing), kept histories (service.http.uploads) -

API_KEY_INDEX = "f45:{keys}:index"
"""Sorted set: API key id scored by its creation time (epoch seconds)."""


def api_key_key(key_id: str) -> str:
    """Returns the key of the hash describing API key *key_id* (``name``, ``digest``,
    ``created_at``, ``revoked``)."""
    return f"f45:{{keys}}:key:{key_id}"


def key_games_key(key_id: str) -> str:
    """Returns the key of the sorted set of the games API key *key_id* created."""
    return f"f45:{{keys}}:games:{key_id}"


SIGNING_KEYS_KEY = "f45:{keys}:signing"
"""Hash: checkpoint signing key id -> JSON ``{key_id, algorithm, public_key, created_at,
retired_at}`` of every key that ever signed (``GET /v1/keys``,
:mod:`service.application.signing`)."""


def rate_key(who: str, limit_class: str) -> str:
    """Returns the key of *who*'s request counter in *limit_class* (an API key, an address, a
    seat token's digest; its own hash tag; it expires with the window)."""
    return f"f45:{{rate:{who}}}:{limit_class}"


KEPT_HISTORY_PREFIX = "f45:history:"
"""Prefix of the key of a kept history (followed by its id, ``h-<32 hex>``)."""


def kept_history_key(history_id: str) -> str:
    """Returns the key of the kept history *history_id* (``POST /v1/histories?mode=keep``)."""
    return KEPT_HISTORY_PREFIX + history_id


# Drives (events.drive_store) ------------------------------------------------------------------
# A drive's keys carry the hash tag of its own partition, as a game's do: its stream, its
# command ids and its secrets sit in one slot with that partition's feed, so one script appends
# a drive event and its feed entry. Its games keep their own tags and spread over a cluster.


def drive_key(drive_id: str) -> str:
    """Returns the key of the stream of *drive_id*'s events."""
    return f"{partition_tag(drive_id)}:drive:{drive_id}"


def drive_command_key(drive_id: str) -> str:
    """Returns the key of the hash of command ids seen for *drive_id*."""
    return f"{partition_tag(drive_id)}:drivecmd:{drive_id}"


def drive_checkpoints_key(drive_id: str) -> str:
    """Returns the key of the hash of *drive_id*'s checkpoints, signed when a round ends and
    when the drive ends: ``round:<n>`` and ``finished`` -> the checkpoint's canonical JSON
    (:mod:`service.application.signing`)."""
    return f"{partition_tag(drive_id)}:drivecheckpoints:{drive_id}"


def drive_secrets_key(drive_id: str) -> str:
    """Returns the key of the hash of *drive_id*'s secrets: ``token:<player>`` -> digest of the
    player's token, ``seed:<board>`` -> a board's seed until its reveal."""
    return f"{partition_tag(drive_id)}:drivesecret:{drive_id}"


# The transparency log (events.transparency_log) ------------------------------------------------
# Every key of one log shares the hash tag ``{log}`` (``{log:<name>}`` for another log than the
# service's), so the append script touches them all in one Redis Cluster slot.

LOG_NAME = "main"
"""The name of the service's transparency log."""


def log_key(part: str, name: str = LOG_NAME) -> str:
    """Returns the key of *part* of the transparency log *name*: ``size`` (leaves appended),
    ``entries`` (hash: index -> leaf), ``leaves`` (hash: leaf hash -> index), ``subjects``
    (hash: digest of what a checkpoint attests -> index of its first leaf), ``head`` (the
    latest signed tree head), ``mark`` (written by every append, for ``WAIT``), and
    ``nodes:<level>:<chunk>`` (the hashes of complete subtrees, 64 hex digits each).

    >>> log_key("size"), log_key("nodes:0:0", "t1")
    ('f45:{log}:size', 'f45:{log:t1}:nodes:0:0')
    """
    tag = "{log}" if name == LOG_NAME else f"{{log:{name}}}"
    return f"f45:{tag}:{part}"
