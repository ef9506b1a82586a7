"""Configuration of the HTTP service: the defaults, and what the environment may override.

:func:`service.http.app.create_app` loads :class:`DefaultConfig`, then ``REDIS_URL`` from the
environment, then the mapping it is given. Besides Flask's and flask-smorest's own keys:

- ``REDIS_URL``: the event store; ``fortyfive serve`` sets it to its embedded server when the
  environment has none. Without it, the app still starts (``fortyfive openapi`` needs no
  store) and every request that needs the store answers 503.
- ``STORE``: an :class:`events.redis_store.RedisEventStore` to use instead of ``REDIS_URL``
  (tests inject one with a fixed clock).
- ``STORE_SETTINGS``: a :class:`service.application.store_settings.StoreSettings` (a Redis Cluster
  or not, replicas an append waits for), from ``REDIS_CLUSTER``, ``REDIS_WAIT_REPLICAS`` and
  ``REDIS_WAIT_TIMEOUT_MS`` in the environment.
- ``ENTROPY``: a callable returning 32 fresh bytes, the seed of each new shuffle and game
  (default :func:`secrets.token_bytes`); tests make it deterministic.
- ``FOLD_CACHE_GAMES``: how many folded games each process keeps in memory.
- ``FOLD_CACHE_BYTES``: how many bytes of folded games each process keeps at most (default
  64 MiB; 0: no bound but the count); also from the environment.
- ``STREAM_WAIT`` / ``STREAM_WAIT_MAX``: the default and the largest idle wait, in seconds,
  of an event stream before it ends and the client reconnects with ``Last-Event-ID``.
- ``STREAM_MAX``: how many live event streams one process holds at most; the next is
  answered 503 with ``Retry-After``. The environment's ``FORTYFIVE_MAX_STREAMS`` overrides
  the default (``fortyfive serve --max-streams`` sets it).
- ``EVENTS_PAGE_MAX``: the largest ``limit`` of an events page.
- ``REQUIRE_API_KEY``: whether creating games and keeping histories needs an API key (see
  :mod:`service.http.apikeys`). False here, so tests and ``./dev run`` on loopback stay
  convenient; ``fortyfive serve`` sets it true whenever it binds to anything but loopback.
  The environment variable (``true``/``false``) overrides both.
- ``ENFORCE_RATE_LIMITS``: whether the rate limits of :mod:`service.http.limits` apply; false
  here, set by ``serve`` as ``REQUIRE_API_KEY`` is, and overridden by the environment.
- ``RATE_LIMITS``: quotas per class over :data:`service.http.limits.DEFAULT_LIMITS`, a mapping or
  a string ``creation=30/60,reads=1200/60`` (``0/60``: no limit); also read from the
  environment.
- ``KEPT_HISTORY_TTL`` / ``KEPT_HISTORY_MAX_BYTES``: how long (seconds, 0: until deleted;
  default 30 days) and how large (canonical JSON, default 256 KiB) a history kept by
  ``POST /v1/histories?mode=keep`` may be (:mod:`service.http.uploads`). Also from the environment.
- ``TRUSTED_PROXIES``: how many reverse proxies in front of the service append to
  ``X-Forwarded-For`` (default 0: the client is the peer address). Also from the environment.
- ``READY_NEEDS_WORKERS``: whether ``/readyz`` is degraded while the workers' heartbeats are
  stale (``fortyfive serve`` sets it when it runs its own worker; default false).
- ``READY_STALE_SECONDS``: the age past which a heartbeat, or the dispatcher's lag, is stale
  (default 30; the environment's ``READY_STALE_SECONDS`` overrides it).
- ``EMBEDDED_REDIS_DIR``: the data directory of the redis-server ``fortyfive serve`` keeps
  running (:mod:`service.processes.redis_keeper`), whose keeper's status ``/readyz`` reports
  (default ``None``: the store is not serve's own).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from service.application.environment import env_flag, env_int
from service.application.store_settings import store_settings
from service.http import uploads

MAX_BODY_BYTES = 64 * 1024
"""The largest request body accepted; a larger one is refused with 413."""


MAX_STREAMS_ENV = "FORTYFIVE_MAX_STREAMS"
"""The environment variable that sets ``STREAM_MAX``."""


def parse_max_streams(text: str) -> int:
    """Returns the stream bound written in *text*.

    :raises ValueError: if it is not a whole number of 1 or more.
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{MAX_STREAMS_ENV} must be a whole number of 1 or more, got {text!r}")
    return value


class DefaultConfig:
    """The service's defaults (Flask reads the upper-case attributes)."""

    API_TITLE = "fortyfive"
    API_VERSION = "1.0.0"
    OPENAPI_VERSION = "3.0.3"
    OPENAPI_URL_PREFIX = "/"
    OPENAPI_JSON_PATH = "openapi.json"
    API_SPEC_OPTIONS: dict[str, Any] = {
        "info": {
            "description": (
                "Forty-Five card games as a service: create a game, play it seat by seat, "
                "follow it live and read its log. Errors are application/problem+json with a "
                "stable `code`. Seats and sides are numbered from 0 here (paths, `seat` and "
                "`side` fields, `?seat=`), as in the histories' data; what people read (the "
                "web pages, the pictures, the sentences of the ruling texts from version 3) "
                "counts seats from 1 and names sides A, B, C. See docs/api.md."
            ),
        },
        "components": {
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": (
                        "A seat or auditor token returned by POST /v1/games, bound to one "
                        "game. Without one, reads give the spectator view."
                    ),
                },
                "apiKey": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "X-API-Key",
                    "description": (
                        "An API key (f45k.<id>.<secret>) from the operator (fortyfive keys "
                        "create), in X-API-Key or as Authorization: Bearer <api key>. "
                        "Needed to create games and keep histories on a server with "
                        "REQUIRE_API_KEY (the default off loopback)."
                    ),
                },
            },
        },
    }
    MAX_CONTENT_LENGTH = MAX_BODY_BYTES
    DEBUG = False
    PROPAGATE_EXCEPTIONS = False
    REDIS_URL: str | None = None
    FOLD_CACHE_GAMES = 1024
    FOLD_CACHE_BYTES = 64 * 1024 * 1024
    STREAM_WAIT = 25.0
    STREAM_WAIT_MAX = 60.0
    STREAM_MAX = 1000
    EVENTS_PAGE_MAX = 1000
    READY_NEEDS_WORKERS = False
    READY_STALE_SECONDS = 30.0
    EMBEDDED_REDIS_DIR: str | None = None
    REQUIRE_API_KEY = False
    ENFORCE_RATE_LIMITS = False
    RATE_LIMITS: dict[str, str] = {}
    TRUSTED_PROXIES = 0
    KEPT_HISTORY_TTL = uploads.DEFAULT_TTL
    KEPT_HISTORY_MAX_BYTES = uploads.DEFAULT_MAX_BYTES


def load_config(app: Flask, config: Mapping[str, Any] | None) -> None:
    """Fills *app*'s config: defaults, then ``REDIS_URL``, ``READY_STALE_SECONDS``,
    ``FORTYFIVE_MAX_STREAMS``, ``RATE_LIMITS``, ``TRUSTED_PROXIES``, ``KEPT_HISTORY_*`` and
    ``FOLD_CACHE_BYTES`` from
    the environment, then *config*, then ``REQUIRE_API_KEY`` and ``ENFORCE_RATE_LIMITS`` from the
    environment (an operator's explicit choice wins).

    :raises ValueError: for a flag that is not a boolean, a number that is not one, or
        ``FORTYFIVE_MAX_STREAMS`` not a whole number of 1 or more.
    """
    app.config.from_object(DefaultConfig)
    if os.environ.get("REDIS_URL"):
        app.config["REDIS_URL"] = os.environ["REDIS_URL"]
    app.config["STORE_SETTINGS"] = store_settings()
    stale = os.environ.get("READY_STALE_SECONDS")
    if stale:
        try:
            app.config["READY_STALE_SECONDS"] = float(stale)
        except ValueError:
            raise ValueError(
                f"READY_STALE_SECONDS must be a number of seconds, not {stale!r}"
            ) from None
    if os.environ.get("RATE_LIMITS"):
        app.config["RATE_LIMITS"] = os.environ["RATE_LIMITS"]
    for number in ("TRUSTED_PROXIES", "KEPT_HISTORY_TTL", "KEPT_HISTORY_MAX_BYTES",
                   "FOLD_CACHE_BYTES"):
        if os.environ.get(number):
            app.config[number] = env_int(number)
    if os.environ.get(MAX_STREAMS_ENV):
        app.config["STREAM_MAX"] = parse_max_streams(os.environ[MAX_STREAMS_ENV])
    if config:
        app.config.update(config)
    for flag in ("REQUIRE_API_KEY", "ENFORCE_RATE_LIMITS"):
        chosen = env_flag(flag)
        if chosen is not None:
            app.config[flag] = chosen
