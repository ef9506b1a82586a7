"""API keys: who may create games (and drives, and kept histories) on a public deployment.

An operator mints a key with ``fortyfive keys create --name NAME`` and hands it to an
integrator; it is shown once. Keys look like ``f45k.<id>.<secret>``: the id names the key in
listings and logs and is not secret; the dot never occurs in a seat or auditor token
(URL-safe base64), so a bearer token is told apart from a seat token by its shape alone and
the two can never be confused. Only the SHA-256 digest of the whole key is stored, in
``f45:{keys}:key:<id>`` (see :mod:`events.keys`), with its name, creation time and
revoked flag; a presented key is compared with its digest in constant time.

Each game created with a key is recorded in the key's own index (``f45:{keys}:games:<id>``,
newest first for ``GET /v1/games?mine=true``). The key id is not put into the game's events:
events record the decisions of the game, and who paid for the table is not one of them (nor
should a history shared with anyone carry it).

With ``REQUIRE_API_KEY`` (true by default whenever ``fortyfive serve`` binds to anything
but loopback), :func:`require_api_key` refuses the requests that create without a key.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis
from flask import current_app, g, request
from flask_smorest import abort

from events import keys as store_keys
from events.store import StoreUnavailableError

PREFIX = "f45k"
"""The first part of every API key."""

_KEY_SHAPE = re.compile(r"^f45k\.([0-9a-f]{12})\.([A-Za-z0-9_-]{43})$")
_NAME = re.compile(r"^[\x20-\x7e]{1,64}$")
_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="fortyfive"'}

API_KEY_AUTH: list[dict[str, list[str]]] = [{"apiKey": []}]
"""The OpenAPI security of an endpoint that needs an API key (when the deployment asks)."""
OPTIONAL_API_KEY_AUTH: list[dict[str, list[str]]] = [{}, *API_KEY_AUTH]
"""The OpenAPI security of an endpoint that takes an API key if the deployment requires one."""


@dataclasses.dataclass(frozen=True, slots=True)
class ApiKey:
    """An API key as stored (never the key itself)."""

    id: str
    name: str
    created_at: float
    """Epoch seconds."""
    revoked: bool

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form of the listing."""
        return {"id": self.id, "name": self.name, "created_at": _iso(self.created_at),
                "revoked": self.revoked}


def looks_like_api_key(token: str) -> bool:
    """True for a token of the shape of an API key (``f45k.<id>.<secret>``).

    >>> looks_like_api_key("f45k.0123456789ab." + "A" * 43), looks_like_api_key("abc")
    (True, False)
    """
    return token.startswith(PREFIX + ".")


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


class KeyRegistry:
    """API keys and the games each created, in Redis under the ``{keys}`` hash tag."""

    def __init__(self, client: Any, clock: Any = time.time) -> None:
        """Uses *client* (a Redis client that decodes replies) and *clock* (epoch seconds)."""
        self._redis = client
        self._clock = clock

    def create(self, name: str) -> tuple[ApiKey, str]:
        """Mints a key named *name*; returns its record and the key, which is shown once.

        :raises ValueError: for a name that is not 1 to 64 printable ASCII characters.
        :raises StoreUnavailableError: if Redis cannot be reached.
        """
        if not isinstance(name, str) or not _NAME.match(name) or not name.strip():
            raise ValueError(f"invalid key name {name!r}: use 1 to 64 printable ASCII characters")
        key_id = secrets.token_hex(6)
        key = f"{PREFIX}.{key_id}.{secrets.token_urlsafe(32)}"
        record = ApiKey(key_id, name, float(self._clock()), False)
        with _translate():
            pipe = self._redis.pipeline(transaction=True)
            pipe.hset(store_keys.api_key_key(key_id), mapping={
                "name": name, "digest": _digest(key), "created_at": repr(record.created_at),
                "revoked": "0"})
            pipe.zadd(store_keys.API_KEY_INDEX, {key_id: record.created_at})
            pipe.execute()
        return record, key

    def get(self, key_id: str) -> ApiKey | None:
        """Returns the record of *key_id*, or ``None`` if there is no such key."""
        with _translate():
            fields = self._redis.hgetall(store_keys.api_key_key(key_id))
        return _record(key_id, fields)

    def all(self) -> list[ApiKey]:
        """Returns every key, oldest first (revoked ones included)."""
        with _translate():
            ids = self._redis.zrange(store_keys.API_KEY_INDEX, 0, -1)
        found = (self.get(key_id) for key_id in ids)
        return [record for record in found if record is not None]

    def revoke(self, key_id: str) -> ApiKey:
        """Revokes *key_id* (for good: the games it created stay as they are).

        :raises LookupError: if there is no such key.
        """
        record = self.get(key_id) if re.fullmatch(r"[0-9a-f]{12}", key_id or "") else None
        if record is None:
            raise LookupError(f"no API key {key_id!r}")
        with _translate():
            self._redis.hset(store_keys.api_key_key(key_id), "revoked", "1")
        return dataclasses.replace(record, revoked=True)

    def identify(self, key: str) -> ApiKey | None:
        """Returns the record of the presented *key*, or ``None`` if it is not a key of ours
        (revoked keys are returned: the caller says why they are refused)."""
        match = _KEY_SHAPE.match(key)
        if match is None:
            return None
        with _translate():
            fields = self._redis.hgetall(store_keys.api_key_key(match.group(1)))
        stored = fields.get("digest", "")
        if not hmac.compare_digest(_digest(key).encode(), str(stored).encode()):
            return None
        return _record(match.group(1), fields)

    def record_game(self, key_id: str, game_id: str) -> None:
        """Records that *key_id* created *game_id* (now)."""
        with _translate():
            self._redis.zadd(store_keys.key_games_key(key_id), {game_id: self._micros()})

    def games(self, key_id: str, *, before: int | None, limit: int) -> list[tuple[str, int]]:
        """Returns up to *limit* ``(game id, created µs)`` of *key_id*, newest first, created
        strictly before *before* (µs since the epoch) when given."""
        high = "+inf" if before is None else f"({before}"
        with _translate():
            rows = self._redis.zrevrangebyscore(
                store_keys.key_games_key(key_id), high, "-inf", start=0, num=limit,
                withscores=True)
        return [(game_id, int(score)) for game_id, score in rows]

    def _micros(self) -> int:
        return int(float(self._clock()) * 1_000_000)


def _record(key_id: str, fields: dict[str, str]) -> ApiKey | None:
    if not fields or "digest" not in fields:
        return None
    return ApiKey(key_id, fields.get("name", ""), float(fields.get("created_at", 0)),
                  fields.get("revoked") == "1")


@contextmanager
def _translate() -> Iterator[None]:
    """Turns Redis connection failures into :class:`StoreUnavailableError`."""
    try:
        yield
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
        raise StoreUnavailableError(f"store unavailable: {error}") from error


# Requests.


def presented_key() -> str | None:
    """Returns the API key of the current request (see :func:`presented_key_of`)."""
    return presented_key_of(request.headers.get("X-API-Key"), request.headers.get("Authorization"))


def presented_key_of(x_api_key: str | None, authorization: str | None) -> str | None:
    """Returns the API key that a request with these ``X-API-Key`` and ``Authorization``
    values presents: ``X-API-Key``, else a bearer token of the shape of an API key; ``None``
    without one (a seat token is not an API key)."""
    if x_api_key is not None:
        return x_api_key.strip()
    token = bearer_of(authorization)
    return token if token is not None and looks_like_api_key(token) else None


def bearer_of(authorization: str | None) -> str | None:
    """Returns the token of an ``Authorization`` value *authorization* of the form ``Bearer
    <token>`` (any case, spaces around), else ``None``."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _identified(registry: KeyRegistry) -> ApiKey | None:
    """Returns the record of the key the current request presents (looked up once per
    request), or ``None`` if it presents none or one that is not ours; revoked keys included.

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    if "api_key_record" not in g:
        presented = presented_key()
        g.api_key_record = registry.identify(presented) if presented else None
    record: ApiKey | None = g.api_key_record
    return record


def valid_request_key(registry: KeyRegistry) -> ApiKey | None:
    """Returns the valid (known, not revoked) API key the current request presents, else
    ``None``, without refusing anything: what the rate limits count a request by. Only the
    endpoints that take a key refuse a bad one (:func:`request_key`).

    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    if presented_key() is None:
        return None
    record = _identified(registry)
    return record if record is not None and not record.revoked else None


def request_key(registry: KeyRegistry) -> ApiKey | None:
    """Returns the valid API key the current request presents, or ``None`` if it presents
    none. Only endpoints that take a key call it (through :func:`require_api_key`); there,
    any bearer token is presented as a key, since no seat token belongs to them.

    :raises werkzeug.exceptions.HTTPException: 401 ``invalid_api_key`` for a key that is not
        ours, ``api_key_revoked`` for a revoked one.
    """
    presented = presented_key()
    if presented is None:
        presented = bearer_of(request.headers.get("Authorization"))
    record = _identified(registry) if presented is not None else None
    if presented is not None and record is None:
        abort(401, message="this API key is not valid: ask the operator for one "
              "(fortyfive keys create --name NAME)", code="invalid_api_key", headers=_CHALLENGE)
    if record is not None and record.revoked:
        abort(401, message=f"API key {record.id} was revoked: ask the operator for a new one",
              code="api_key_revoked", headers=_CHALLENGE)
    return record


def require_api_key(registry: KeyRegistry, *, what: str, always: bool = False) -> ApiKey | None:
    """Returns the request's API key; refuses the request without one when the deployment
    sets ``REQUIRE_API_KEY`` (or *always*, for what only a key can ask, such as its games).
    *what* names the request in the answer (``"creating a game"``). The one check for every
    request that creates (games, drives, kept histories).

    :raises werkzeug.exceptions.HTTPException: 401 ``api_key_required`` without a key when
        one is required; see :func:`request_key` for a bad key.
    """
    record = request_key(registry)
    if record is None and (always or current_app.config["REQUIRE_API_KEY"]):
        abort(401, message=f"{what} needs an API key on this server: send "
              "Authorization: Bearer <api key> or X-API-Key: <api key>",
              code="api_key_required", headers=_CHALLENGE)
    return record
