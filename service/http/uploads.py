"""Kept uploads: the histories ``POST /v1/histories?mode=keep`` stores, bounded.

An upload is kept once per content: its id is ``h-`` and the first 32 hex digits of the
SHA-256 of its canonical JSON *without its tags*, so uploads that differ only in their tags
(the way to fill a store with one game) share one copy, the first upload's. Each copy is
stored compressed (zlib of the canonical JSON) under ``f45:history:<id>``
(:mod:`events.keys`) with a time to live (``KEPT_HISTORY_TTL``, default 30 days): a
new upload of the same content starts the time again. A document whose canonical JSON is
larger than ``KEPT_HISTORY_MAX_BYTES`` (default 256 KiB, room for any 64 KiB body in the
text notation) is refused. A history kept before compression (plain JSON) still reads.
"""

from __future__ import annotations

import dataclasses
import hashlib
import zlib
from typing import Any

from redis.client import NEVER_DECODE

from events import keys as store_keys
from replay.formats.document import HandHistory
from replay.formats.jsonformat import dumps

DEFAULT_TTL = 30 * 24 * 3600
"""Seconds a kept history lives after its last upload, unless ``KEPT_HISTORY_TTL`` says."""

DEFAULT_MAX_BYTES = 256 * 1024
"""The largest canonical JSON kept, unless ``KEPT_HISTORY_MAX_BYTES`` says."""


class HistoryTooLargeError(ValueError):
    """Raised for a history too large to keep."""


@dataclasses.dataclass(frozen=True, slots=True)
class Kept:
    """Where an upload was kept, and until when."""

    history_id: str
    new: bool
    """False when the same content was kept already (its copy is kept, its time renewed)."""
    ttl: int | None
    """Seconds it lives from now; ``None``: kept until deleted."""
    stored_bytes: int


def content_id(history: HandHistory) -> str:
    """Returns the id of *history*'s content: the digest of its canonical JSON without tags."""
    untagged = dumps(dataclasses.replace(history, tags={}))
    return "h-" + hashlib.sha256(untagged).hexdigest()[:32]


def keep(client: Any, history: HandHistory, *, ttl: int, max_bytes: int) -> Kept:
    """Keeps *history* (once per content) for *ttl* seconds (0: until deleted).

    :raises HistoryTooLargeError: if its canonical JSON is over *max_bytes*.
    """
    data = dumps(history)
    if len(data) > max_bytes:
        raise HistoryTooLargeError(
            f"this history is {len(data)} bytes as canonical JSON; at most {max_bytes} are "
            "kept: keep one deal at a time (GET /v1/games/<id>/history?deal=k)")
    history_id = content_id(history)
    key = store_keys.kept_history_key(history_id)
    packed = zlib.compress(data, 9)
    expiry = ttl if ttl > 0 else None
    new = bool(client.set(key, packed, nx=True, ex=expiry))
    if not new and expiry is not None:
        client.expire(key, expiry)
    return Kept(history_id, new, expiry, len(packed))


def load(client: Any, history_id: str) -> bytes | None:
    """Returns the canonical JSON of the kept history *history_id*, or ``None``."""
    if len(history_id) > 40:
        return None
    stored = client.execute_command("GET", store_keys.kept_history_key(history_id),
                                    **{NEVER_DECODE: True})
    if not isinstance(stored, bytes):
        return None
    if stored[:1] in (b"{", b"["):
        return stored
    try:
        return zlib.decompress(stored)
    except zlib.error:
        return None
