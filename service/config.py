"""Configuration of the HTTP service: the defaults, and what the environment may override.

:func:`service.app.create_app` loads :class:`DefaultConfig`, then ``REDIS_URL`` from the
environment, then the mapping it is given. Besides Flask's and flask-smorest's own keys:

- ``REDIS_URL``: the event store; ``fortyfive serve`` sets it to its embedded server when the
  environment has none. Without it, the app still starts (``fortyfive openapi`` needs no
  store) and every request that needs the store answers 503.
- ``STORE``: an :class:`events.redis_store.RedisEventStore` to use instead of ``REDIS_URL``
  (tests inject one with a fixed clock).
- ``ENTROPY``: a callable returning 32 fresh bytes, the seed of each new shuffle and game
  (default :func:`secrets.token_bytes`); tests make it deterministic.
- ``FOLD_CACHE_GAMES``: how many folded games each process keeps in memory.
- ``STREAM_WAIT`` / ``STREAM_WAIT_MAX``: the default and the largest idle wait, in seconds,
  of an event stream before it ends and the client reconnects with ``Last-Event-ID``.
- ``EVENTS_PAGE_MAX``: the largest ``limit`` of an events page.
- ``READY_NEEDS_WORKERS``: whether ``/readyz`` is degraded while the workers' heartbeats are
  stale (``fortyfive serve`` sets it when it runs its own worker; default false).
- ``READY_STALE_SECONDS``: the age past which a heartbeat, or the dispatcher's lag, is stale
  (default 30; the environment's ``READY_STALE_SECONDS`` overrides it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

MAX_BODY_BYTES = 64 * 1024
"""The largest request body accepted; a larger one is refused with 413."""


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
                "stable `code`. See docs/api.md."
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
            },
        },
    }
    MAX_CONTENT_LENGTH = MAX_BODY_BYTES
    DEBUG = False
    PROPAGATE_EXCEPTIONS = False
    REDIS_URL: str | None = None
    FOLD_CACHE_GAMES = 1024
    STREAM_WAIT = 25.0
    STREAM_WAIT_MAX = 60.0
    EVENTS_PAGE_MAX = 1000
    READY_NEEDS_WORKERS = False
    READY_STALE_SECONDS = 30.0


def load_config(app: Flask, config: Mapping[str, Any] | None) -> None:
    """Fills *app*'s config: defaults, then ``REDIS_URL`` and ``READY_STALE_SECONDS`` from the
    environment, then *config*.

    :raises ValueError: if ``READY_STALE_SECONDS`` is not a number.
    """
    app.config.from_object(DefaultConfig)
    if os.environ.get("REDIS_URL"):
        app.config["REDIS_URL"] = os.environ["REDIS_URL"]
    stale = os.environ.get("READY_STALE_SECONDS")
    if stale:
        try:
            app.config["READY_STALE_SECONDS"] = float(stale)
        except ValueError:
            raise ValueError(
                f"READY_STALE_SECONDS must be a number of seconds, not {stale!r}"
            ) from None
    if config:
        app.config.update(config)
