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

A claim may carry the name the person gives (:func:`claim_named_seat`): it is checked by the one
rule of :mod:`service.application.names` against the other seats' names at the table, and
recorded as a ``seat_named`` event in the game's history once the claim is won, so that of two
people claiming one seat at once, the name recorded is that of whoever holds the token. A name
refused then gives the seat back (the token's digest is taken out again, only if it is still
this claim's), so that a refused name leaves the seat unclaimed and its invite usable.
"""

from __future__ import annotations

import hmac

from engine.state import Seat
from events.envelope import SERVER
from events.errors import ConcurrencyError
from events.keys import seats_key
from events.store import EventStore
from events.types import SeatNamed
from service.application import commands
from service.application.names import check_names
from service.application.tokens import CLAIM_PREFIX, TokenRegistry, new_token, token_digest

NAMING_ATTEMPTS = 5
"""How often a name is checked and appended again when another event came in between."""


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


def check_claim(registry: TokenRegistry, game_id: str, seat: Seat, code: str) -> None:
    """Refuses, writing nothing, a claim that :func:`claim_seat` would refuse now.

    :raises ClaimNotFoundError: if the seat is not claimable or *code* is not its code.
    :raises ClaimUsedError: if the seat was claimed already.
    """
    key = seats_key(game_id)
    with registry.translate():
        stored, token = registry.client.hmget(key, [f"{CLAIM_PREFIX}{seat}", f"seat:{seat}"])
    presented = token_digest(code).encode()
    if stored is None or not hmac.compare_digest(presented, _bytes(stored)):
        raise ClaimNotFoundError(f"seat {seat} of game {game_id!r} has no such claim code")
    if token is not None:
        raise ClaimUsedError(f"seat {seat} of game {game_id!r} was claimed already")


def claim_named_seat(store: EventStore, cache: commands.GameCache, registry: TokenRegistry,
                     game_id: str, seat: Seat, code: str, name: str | None) -> str:
    """Claims *seat* as :func:`claim_seat` does and, when *name* is given, records it as the
    seat's name (a ``seat_named`` event by the server) once the claim is won; returns the
    seat's token.

    :raises ClaimNotFoundError: if the seat is not claimable or *code* is not its code.
    :raises ClaimUsedError: if the seat was claimed already.
    :raises service.application.names.SeatNameError: for a blank or long name, or another
        seat's (``taken``); nothing is written then, and the seat stays claimable.
    :raises events.errors.ConcurrencyError: if the game kept changing under every attempt
        (the seat stays claimable then too).
    """
    if name is None:
        return claim_seat(registry, game_id, seat, code)
    check_claim(registry, game_id, seat, code)
    _check_name(cache, game_id, seat, name)  # A refused name costs no claim.
    token = claim_seat(registry, game_id, seat, code)
    try:
        for attempt in range(NAMING_ATTEMPTS):
            version = _check_name(cache, game_id, seat, name)
            try:
                store.append(game_id, version, (SeatNamed(seat, name),), actor=SERVER)
                return token
            except ConcurrencyError:
                if attempt == NAMING_ATTEMPTS - 1:
                    raise
    except BaseException:
        _release(registry, game_id, seat, token)
        raise
    raise AssertionError("unreachable: the last attempt returns or raises")


def _check_name(cache: commands.GameCache, game_id: str, seat: Seat, name: str) -> int:
    """Checks *name* for *seat* against the table's names now; returns the game's version.

    :raises service.application.names.SeatNameError: if the table's rule refuses it.
    """
    folded = commands.load(cache, game_id)
    names = list(folded.state.names) or [None] * folded.state.rules.players
    names[seat] = name
    check_names(names)
    return folded.version


_RELEASE = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
    return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""
"""Takes a seat's token digest out only if it is still the one given: compare and delete."""


def _release(registry: TokenRegistry, game_id: str, seat: Seat, token: str) -> None:
    """Gives *seat* back after its claim with *token* could not record the claimant's name."""
    with registry.translate():
        registry.client.eval(_RELEASE, 1, seats_key(game_id), f"seat:{seat}",
                             token_digest(token))
    registry.forget(game_id)


def _bytes(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode()
