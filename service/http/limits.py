"""Rate limits per client and class of request, counted in Redis, advertised on every answer.

They apply when ``ENFORCE_RATE_LIMITS`` is true: ``fortyfive serve`` sets it whenever it
binds to anything but loopback (as it does ``REQUIRE_API_KEY``), so ``./dev run`` and the
tests are not throttled. Five classes, each with its own quota per window (``RATE_LIMITS``,
see :data:`DEFAULT_LIMITS`):

- ``creation``: ``POST /v1/games``, a seat's claim, and ``POST /v1/drives``, which counts as
  many creations as the games the drive will start (its tables times its rounds,
  :func:`charge_creations`);
- ``actions``: ``POST /v1/games/{id}/actions``, counted per seat token (a seat of one game;
  a token the game does not know counts against the address), generous, so that a seat
  playing at any human pace is never stopped;
- ``streams``: opening ``GET /v1/games/{id}/stream`` or ``GET /v1/drives/{id}/stream`` (how
  long a stream stays open is the stream's own business, :mod:`service.http.sse`; this
  counts the openings only);
- ``uploads``: ``POST /v1/histories`` (dry run or keep);
- ``reads``: every other request under ``/v1/``.

The client is the API key when the request presents a valid one (``X-API-Key``, or
``Authorization: Bearer`` with a key), else the client's address (``request.remote_addr``,
after ``TRUSTED_PROXIES`` hops of ``X-Forwarded-For``); for actions, the seat token. A bad or
revoked key counts against the address: the limits never refuse a key, so a request is
answered alike whether or not they are enforced (the endpoints that take a key answer 401
for a bad one either way, :func:`service.http.apikeys.require_api_key`). The probes and the web
pages are not limited.

Each counter is one key, ``f45:{rate:<who>}:<class>`` (:mod:`events.keys`): a fixed window that
starts with the client's first request and expires with it. One Lua script increments it and sets
its expiry atomically, so several API processes share the counts. Every limited answer carries the
``RateLimit-Policy`` and ``RateLimit`` fields of draft-ietf-httpapi-ratelimit-headers-09/-10 in
their Structured Fields form, e.g. ``RateLimit-Policy: "reads";q=1200;w=60`` and ``RateLimit:
"reads";r=1187;t=42``; over the quota the answer is **429** ``rate_limited`` with ``Retry-After`` in
seconds, and nothing was done. Bots and turn clocks act through :mod:`service.application.commands`,
not HTTP: no limit applies to them. If the store cannot count (it is down), requests pass and a
warning is logged: the requests that need the store answer 503 anyway.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import math
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, g, request
from flask_smorest import abort
from redis.exceptions import RedisError
from werkzeug.middleware.proxy_fix import ProxyFix

from events import keys as store_keys
from events.store import StoreUnavailableError
from service.application.tokens import TokenRegistry
from service.http.apikeys import bearer_of, valid_request_key
from service.http.repository import EXTENSION, services

log = logging.getLogger(__name__)

CLASSES = ("creation", "actions", "reads", "streams", "uploads")
"""The classes of request, each with its own quota."""


@dataclasses.dataclass(frozen=True, slots=True)
class Limit:
    """A quota: *quota* requests per *window* seconds (a quota of 0 means no limit)."""

    quota: int
    window: int

    @classmethod
    def parse(cls, text: str) -> Limit:
        """Returns the limit written ``<quota>/<seconds>``, e.g. ``"30/60"``.

        >>> Limit.parse("30/60")
        Limit(quota=30, window=60)

        :raises ValueError: for anything else.
        """
        quota, slash, window = text.strip().partition("/")
        if not (slash and quota.isdigit() and window.isdigit() and int(window) > 0):
            raise ValueError(f"invalid rate limit {text!r}: expected <requests>/<seconds>, "
                             "e.g. 30/60 (0/60 for no limit)")
        return cls(int(quota), int(window))


DEFAULT_LIMITS: Mapping[str, Limit] = {
    "creation": Limit(30, 60),
    "actions": Limit(600, 60),
    "reads": Limit(1200, 60),
    "streams": Limit(60, 60),
    "uploads": Limit(20, 60),
}
"""The quotas of a fresh deployment, per client and window; ``RATE_LIMITS`` overrides them."""

_COUNT = """
-- KEYS[1] the counter  ARGV[1] the window in ms  ARGV[2] how many requests this one counts as.
-- Returns {count, ms until the window ends}.
local n = redis.call('INCRBY', KEYS[1], tonumber(ARGV[2] or 1))
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
"""

_SPECIFIC = {
    ("POST", "games.Games"): "creation",
    ("POST", "seats.SeatClaim"): "creation",
    ("POST", "games.Actions"): "actions",
    ("GET", "games.Stream"): "streams",
    ("GET", "drive_stream.DriveStream"): "streams",
    ("POST", "histories.Histories"): "uploads",
    ("POST", "drives.Drives"): "creation",
}


def parse_limits(text: str) -> dict[str, Limit]:
    """Returns the limits of a ``RATE_LIMITS`` setting, ``class=<quota>/<seconds>,...``.

    >>> parse_limits("creation=5/60, uploads=0/60")
    {'creation': Limit(quota=5, window=60), 'uploads': Limit(quota=0, window=60)}

    :raises ValueError: for an unknown class or a malformed limit.
    """
    limits: dict[str, Limit] = {}
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, _, value = part.partition("=")
        if name.strip() not in CLASSES:
            raise ValueError(f"unknown rate limit class {name.strip()!r}: expected one of "
                             f"{', '.join(CLASSES)}")
        limits[name.strip()] = Limit.parse(value)
    return limits


def configured_limits(config: Mapping[str, Any]) -> dict[str, Limit]:
    """Returns the limits of an app *config*: the defaults, then ``RATE_LIMITS`` (a mapping
    of class to :class:`Limit` or ``"<quota>/<seconds>"``, or one such string for several).

    :raises ValueError: for an unknown class or a malformed limit.
    """
    limits = dict(DEFAULT_LIMITS)
    setting = config.get("RATE_LIMITS") or {}
    try:
        if isinstance(setting, str):
            limits.update(parse_limits(setting))
            return limits
        for name, value in setting.items():
            if name not in CLASSES:
                raise ValueError(f"unknown rate limit class {name!r}")
            limits[name] = value if isinstance(value, Limit) else Limit.parse(str(value))
    except ValueError as error:
        raise ValueError(f"RATE_LIMITS: {error}") from None
    return limits


def init_app(app: Flask) -> None:
    """Reads *app*'s limits and trusted proxies; its hooks (:mod:`service.http.hooks`) count
    every API request with :func:`count_current` and advertise the count with
    :func:`advertise`."""
    app.extensions["fortyfive.limits"] = configured_limits(app.config)
    hops = int(app.config.get("TRUSTED_PROXIES") or 0)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops)  # type: ignore[method-assign]


def request_class() -> str | None:
    """Returns the class of the current request, or ``None`` if it is not limited."""
    if request.routing_exception is not None or not request.path.startswith("/v1/"):
        return None
    return _SPECIFIC.get((request.method, request.endpoint or ""), "reads")


def _client(limit_class: str) -> str:
    """Returns who the current request counts against in *limit_class*: for an action, its
    seat token if the token is one of the game's (any other token counts against the address,
    so made-up tokens cannot dodge the count); else its API key if that is valid (a bad or
    revoked key counts against the address, and is refused only by the endpoints that take
    a key), else the address.

    :raises StoreUnavailableError: if the store cannot be reached to tell.
    """
    if limit_class == "actions":
        seat = seat_client_of(services().tokens, (request.view_args or {}).get("game_id", ""),
                              request.headers.get("Authorization"))
        if seat is not None:
            return seat
    key = valid_request_key(services().keys)
    if key is not None:
        return f"key:{key.id}"
    return address_client(request.remote_addr)


def address_client(address: str | None) -> str:
    """Returns who a request from *address* (the client's, after any trusted proxies) counts
    against when it presents no valid API key (nor, for an action, a seat's token)."""
    return f"ip:{address or 'unknown'}"


def seat_client_of(tokens: TokenRegistry, game_id: str, authorization: str | None) -> str | None:
    """Returns who an action counts against when the bearer token of its ``Authorization``
    value *authorization* is a seat's of *game_id*: that seat; else ``None`` (the action then
    counts as any request does, by API key or address).

    :raises StoreUnavailableError: if the store cannot be reached to tell.
    """
    token = bearer_of(authorization)
    if token is None or not game_id or tokens.identify(game_id, token) is None:
        return None
    return f"seat:{hashlib.sha256(token.encode('utf-8')).hexdigest()[:32]}"


COUNTED = "fortyfive.limits.counted"
"""The WSGI environ key under which a request counted in front of Flask (by
:mod:`service.http.lean_actions`) carries its :class:`Count`, so that the app does not count it
again when it answers the request after all."""


@dataclasses.dataclass(frozen=True, slots=True)
class Count:
    """One request counted in its class: what its answer advertises, and whether it is over
    the quota (then it is refused with 429 and nothing is done)."""

    limit_class: str
    limit: Limit
    remaining: int
    reset: int
    """Seconds until the window ends."""
    over: bool

    def headers(self) -> list[tuple[str, str]]:
        """Returns the ``RateLimit-Policy`` and ``RateLimit`` fields of the answer."""
        name, limit = self.limit_class, self.limit
        return [("RateLimit-Policy", f'"{name}";q={limit.quota};w={limit.window}'),
                ("RateLimit", f'"{name}";r={self.remaining};t={self.reset}')]


def count_request(app: Flask, limit_class: str, client: str, weight: int = 1) -> Count | None:
    """Counts *weight* requests of *client* in *limit_class* of *app*; ``None`` when the
    class has no quota.

    :raises StoreUnavailableError: if the store cannot be reached to count.
    """
    limit = app.extensions["fortyfive.limits"][limit_class]
    if limit.quota <= 0:
        return None
    count, ttl_ms = _increment(app, store_keys.rate_key(client, limit_class), limit.window,
                               weight)
    reset = max(1, math.ceil(ttl_ms / 1000))
    return Count(limit_class, limit, max(0, limit.quota - count), reset, count > limit.quota)


def count_current() -> None:
    """Counts the current request (unless it was counted in front of Flask); refuses it with
    429 when its client is over the quota."""
    limit_class = request_class()
    if limit_class is None or not current_app.config["ENFORCE_RATE_LIMITS"]:
        return
    counted: Count | None = request.environ.get(COUNTED)
    if counted is None:
        try:
            counted = count_request(current_app, limit_class, _client(limit_class))
        except StoreUnavailableError as error:
            log.warning("rate limits not counted: %s", error)
            return
        if counted is None:
            return
    g.rate_limit = counted
    if counted.over:
        reset = counted.reset
        limit = counted.limit
        abort(429, message=(
            f"too many {limit_class} requests: {limit.quota} per {limit.window} s are allowed "
            f"and this request was not carried out; retry in {reset} s"
            + (" (the game waits for this seat meanwhile)" if limit_class == "actions" else "")),
            code="rate_limited", headers={"Retry-After": str(reset)})


def charge_creations(games: int) -> None:
    """Counts the creations a drive request stands for beyond the one its request counted:
    *games*, the games the drive will start, in all. Called once the drive is known to be
    valid and before anything is written, so a refusal leaves nothing done.

    :raises werkzeug.exceptions.HTTPException: 422 ``drive_over_quota`` for a drive of more
        games than the creation quota allows in a window (waiting would not help); 429
        ``rate_limited`` when this client's window has no room for them now.
    """
    if not current_app.config["ENFORCE_RATE_LIMITS"] or games <= 1:
        return
    limit = current_app.extensions["fortyfive.limits"]["creation"]
    if limit.quota <= 0:
        return
    if games > limit.quota:
        abort(422, message=(
            f"this drive would start {games} games (tables x rounds) and counts as {games} "
            f"creations, more than the {limit.quota} per {limit.window} s a client may make: "
            "fewer tables or rounds, or ask the operator for a larger creation quota "
            "(RATE_LIMITS)"), code="drive_over_quota")
    try:
        counted = count_request(current_app, "creation", _client("creation"), games - 1)
    except StoreUnavailableError as error:
        log.warning("rate limits not counted: %s", error)
        return
    if counted is None:
        return
    g.rate_limit = counted
    if counted.over:
        _refund(current_app, store_keys.rate_key(_client("creation"), "creation"), games - 1)
        abort(429, message=(
            f"too many creation requests: this drive counts as {games} creations (the games it "
            f"will start), {limit.quota} per {limit.window} s are allowed, and it was not "
            f"created; retry in {counted.reset} s"),
            code="rate_limited", headers={"Retry-After": str(counted.reset)})


def _refund(app: Flask, key: str, weight: int) -> None:
    """Takes back *weight* counted on *key* for a request that was refused (a drive the
    window had no room for counts as the one request it was, not as the games it was not)."""
    try:
        app.extensions[EXTENSION].store.client.decrby(key, weight)
    except RedisError as error:
        log.warning("rate limit count not taken back: %s", error)


def _increment(app: Flask, key: str, window: int, weight: int = 1) -> tuple[int, int]:
    """Runs the counting script on *key*, adding *weight*; returns the count and the ms left
    in its window.

    :raises StoreUnavailableError: if the store cannot be reached.
    """
    store = app.extensions[EXTENSION].store
    try:
        script = app.extensions.get("fortyfive.limits.script")
        if script is None:
            script = store.client.register_script(_COUNT)
            app.extensions["fortyfive.limits.script"] = script
        count, ttl = script(keys=[key], args=[window * 1000, weight])
    except RedisError as error:  # Unreachable, or refusing writes (out of memory).
        raise StoreUnavailableError(str(error) or type(error).__name__) from error
    return int(count), int(ttl)


def advertise(response: Response) -> Response:
    """Adds ``RateLimit-Policy`` and ``RateLimit`` to a limited request's answer."""
    counted: Count | None = g.get("rate_limit")
    if counted is not None:
        for name, value in counted.headers():
            response.headers[name] = value
    return response
