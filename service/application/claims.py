"""Claimable seats: a one-time invite per seat, so that only the player holds its token.

The creator of a game with claimable seats gets, per such seat, a claim code (32 random bytes,
URL-safe base64) instead of the seat's token, and shares the invite link. Whoever presents
the code first (``POST /v1/games/{id}/seats/{seat}/claim``) gets a token minted then, which
the creator never sees. Only digests are stored, in the game's seats hash
(:mod:`service.http.auth`): ``claim:<seat>`` stays after the claim, so that a second claim with
the same code is told the seat was taken (410) rather than that the code is unknown (404).

The claim itself is one ``HSETNX`` of the seat's token digest: of two concurrent claims,
exactly one writes it. Anything that hands out seats (game creation, drives) issues the codes
with :meth:`service.application.tokens.TokenRegistry.issue` (``claimable=``), shares
:func:`invite_path`
or :func:`claim_path`, and claims with :func:`claim_seat`.
"""

from __future__ import annotations

import hmac

from engine.state import Seat
from events.keys import seats_key
from service.application.tokens import CLAIM_PREFIX, TokenRegistry, new_token, token_digest


class ClaimNotFoundError(LookupError):
    """Raised for a seat that is not claimable, or a code that is not its claim code."""


class ClaimUsedError(Exception):
    """Raised when the seat was claimed already (with this code)."""


def claim_path(game_id: str, seat: Seat) -> str:
    """Returns the API path that claims *seat* of *game_id* (``POST`` with the code)."""
    return f"/v1/games/{game_id}/seats/{seat}/claim"


def invite_path(game_id: str, seat: Seat, code: str) -> str:
    """Returns the web client's invite link for *seat*: the code travels in the fragment,
    which browsers never send to a server (so no access log or referrer holds it)."""
    return f"/claim/{game_id}/{seat}#code={code}"


def claim_seat(registry: TokenRegistry, game_id: str, seat: Seat, code: str) -> str:
    """Mints and returns the token of *seat* of *game_id* for the holder of *code*, once.

    :raises ClaimNotFoundError: if the seat is not claimable or *code* is not its code.
    :raises ClaimUsedError: if the seat was claimed already.
    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    client = registry.client
    key = seats_key(game_id)
    with registry.translate():
        stored = client.hget(key, f"{CLAIM_PREFIX}{seat}")
    presented = token_digest(code).encode()
    if stored is None or not hmac.compare_digest(presented, _bytes(stored)):
        raise ClaimNotFoundError(f"seat {seat} of game {game_id!r} has no such claim code")
    token = new_token()
    with registry.translate():
        won = client.hsetnx(key, f"seat:{seat}", token_digest(token))
    registry.forget(game_id)
    if not won:
        raise ClaimUsedError(f"seat {seat} of game {game_id!r} was claimed already")
    return token


def _bytes(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode()
