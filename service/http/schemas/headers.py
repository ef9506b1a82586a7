"""The response headers the OpenAPI document declares, each described once: what the service
sends besides a body (``@blp.response(..., headers=...)``, and for the problems of a status its
shared response component, :class:`service.http.errors.FortyFiveApi`)."""

from __future__ import annotations

from typing import Any


def _header(description: str) -> dict[str, Any]:
    return {"description": description, "schema": {"type": "string"}}


ETAG_HEADER = {"ETag": _header('The game\'s version, e.g. "12"')}

LOCATION_HEADERS = {"Location": _header("The path of the game just created, e.g. /v1/games/g-...")}

DRIVE_LOCATION_HEADERS = {"Location": _header(
    "The path of the drive just created, e.g. /v1/drives/dr-...")}

HISTORY_LOCATION_HEADERS = {"Location": _header(
    "The path of the history just kept, e.g. /v1/histories/h-...")}

IDEMPOTENT_REPLAYED_HEADERS = {"Idempotent-Replayed": _header(
    "true when this is the answer to an earlier request with the same Idempotency-Key, "
    "replayed and not applied again; absent otherwise")}

GAME_SEATING_HEADERS = {
    "Game-Auditor": _header("true or false: whether the game has an auditor token (as the "
                            "views' auditor)"),
    "Game-Unclaimed-Seats": _header("The seats (from 0) not claimed yet, comma-separated; "
                                    "empty when none (as the views' unclaimed_seats)"),
}

RATE_LIMITED_HEADERS = {
    "Retry-After": _header("Seconds until the quota's window ends"),
    "RateLimit": _header('The quota left, e.g. "reads";r=0;t=42 (remaining, seconds to reset)'),
    "RateLimit-Policy": _header('The quota, e.g. "reads";q=1200;w=60 (requests a window of '
                                "w seconds)"),
}
"""The fields of a 429 ``rate_limited`` (``RateLimit`` and ``RateLimit-Policy`` come with every
answer counted against a quota: docs/api.md)."""

UNAVAILABLE_HEADERS = {"Retry-After": _header("Seconds to wait before trying again")}
"""The fields of a 503 (the store down, a process at its bound of streams, not ready)."""

HEADERS_BY_STATUS: dict[int, dict[str, Any]] = {429: RATE_LIMITED_HEADERS,
                                                503: UNAVAILABLE_HEADERS}
"""The headers of the problems of a status, declared on its shared response component."""
