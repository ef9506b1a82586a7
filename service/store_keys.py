"""The Redis key names of the service's own records (API keys, rate counters, kept histories).

One home for them, so they can move together. None of these belongs to one game, so none
carries a partition's hash tag (``{p<NNN>}``, see :mod:`events.redis_store`); each kind has a
hash tag of its own instead, so a Redis Cluster spreads them and a script touching several
keys of one kind (an API key and its game index) stays in one slot:

- ``f45:{keys}:key:<id>``: hash of one API key (``name``, ``digest``, ``created_at``,
  ``revoked``); ``f45:{keys}:index``: sorted set of key ids by creation time;
  ``f45:{keys}:games:<id>``: sorted set of the game ids the key created, by creation time;
- ``f45:{rate:<who>}:<class>``: the request counter of one client (an API key, an address, a
  seat token's digest) in one class, for the current window (it expires with the window);
- ``f45:history:<id>``: a kept upload (``POST /v1/histories?mode=keep``), compressed, with a
  time to live.

>>> api_key_key("k1")
'f45:{keys}:key:k1'
>>> rate_key("ip:127.0.0.1", "reads")
'f45:{rate:ip:127.0.0.1}:reads'
"""

from __future__ import annotations

API_KEY_INDEX = "f45:{keys}:index"
"""Sorted set: API key id scored by its creation time (epoch seconds)."""

KEPT_HISTORY_PREFIX = "f45:history:"
"""Prefix of the key of a kept history (followed by its id, ``h-<32 hex>``)."""


def api_key_key(key_id: str) -> str:
    """Returns the key of the hash describing API key *key_id*."""
    return f"f45:{{keys}}:key:{key_id}"


def key_games_key(key_id: str) -> str:
    """Returns the key of the sorted set of the games API key *key_id* created."""
    return f"f45:{{keys}}:games:{key_id}"


def rate_key(who: str, limit_class: str) -> str:
    """Returns the key of *who*'s request counter in *limit_class* (its own hash tag)."""
    return f"f45:{{rate:{who}}}:{limit_class}"


def kept_history_key(history_id: str) -> str:
    """Returns the key of the kept history *history_id*."""
    return KEPT_HISTORY_PREFIX + history_id
