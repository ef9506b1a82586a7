"""Seat and auditor tokens, and who the caller of a request is.

Each game gets one bearer token per human seat, and an auditor token only when its creator
asks for one, all from ``secrets.token_urlsafe(32)``. A claimable seat gets no token at
creation but a one-time claim code (:mod:`service.claims`); its token is minted for whoever
claims it. Only SHA-256 digests are stored, in a Redis hash beside the game's events
(``f45:{p<NNN>}:seats:<id>``, the same cluster slot): ``seat:<n>`` (a seat's token),
``claim:<n>`` (a claim code), ``auditor`` (the auditor's token, or ``none``). A presented
token is compared with every token digest of the game in constant time
(:func:`hmac.compare_digest`).

A token is bound to one game: presented to any other game it is unknown there, and unknown
tokens get **401** (``invalid_token``) on every endpoint, reads included, rather than a
silent spectator view. **403** is for a known caller asking for what its role does not
allow: an auditor view of a live game without the auditor token (``auditor_only``), or an
action by the auditor (``auditor_cannot_act``).

For other blueprints (hand histories, replays, audits): :func:`caller_for` reads the
``Authorization`` header and :func:`viewer_for` turns the caller and an optional requested
view into the viewer :mod:`replay.views` takes.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Literal

import redis
from flask import request
from flask_smorest import abort

from engine.state import GameState, Seat
from events.keys import seats_key as seats_key
from events.store import StoreUnavailableError
from replay.views import Viewer
from service.apikeys import bearer_of, looks_like_api_key

AUDITOR: Literal["auditor"] = "auditor"
"""The role (and hash field) of a game's auditor token."""
NO_AUDITOR = b"none"
"""The ``auditor`` field of a game created without an auditor token."""
CLAIM_PREFIX = "claim:"
"""The hash fields of claim code digests: ``claim:<seat>``."""

Role = Seat | Literal["auditor"]
"""What a token is for: a seat of the game, or its auditor."""

_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="fortyfive"'}

SEAT_AUTH: list[dict[str, list[str]]] = [{"seatToken": []}]
"""The OpenAPI security of an endpoint that needs a seat token."""
OPTIONAL_AUTH: list[dict[str, list[str]]] = [{}, {"seatToken": []}]
"""The OpenAPI security of an endpoint any caller may read (a token chooses the view)."""




def new_token() -> str:
    """Returns a fresh bearer token: 32 random bytes, URL-safe base64."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """Returns the hex SHA-256 of *token*, the only form in which tokens are stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclasses.dataclass(frozen=True, slots=True)
class IssuedTokens:
    """The tokens of a new game, shown once to its creator and never stored in clear."""

    seats: tuple[str | None, ...]
    """One per seat; ``None`` for a bot seat and for a claimable seat."""
    auditor: str | None
    """``None`` unless the creator asked for an auditor."""
    claims: Mapping[Seat, str] = dataclasses.field(default_factory=dict)
    """The one-time claim code of each claimable seat."""


@dataclasses.dataclass(frozen=True, slots=True)
class Seating:
    """What every viewer of a game is shown of its credentials (never a digest)."""

    auditor: bool
    """Whether an auditor token was issued for the game."""
    unclaimed: tuple[Seat, ...]
    """The claimable seats nobody has claimed yet."""


class TokenRegistry:
    """The token digests of every game, in Redis beside the game's events.

    The digests of a game are written when it is created and change only when a seat is
    claimed, so each process keeps those it has read for *cache_seconds* (an action then needs
    no round trip to identify its caller) once every seat is claimed. A game without digests,
    or with a seat still to claim, is never cached: it may be created, or claimed, by another
    process a moment later. Thread-safe.
    """

    def __init__(self, client: Any, *, cache_seconds: float = 60.0, max_games: int = 4096) -> None:
        """Uses *client* (a Redis client) and keeps the digests of up to *max_games* games."""
        self._redis = client
        self._cache_seconds = cache_seconds
        self._max_games = max_games
        self._cache: collections.OrderedDict[str, tuple[float, dict[bytes, bytes]]] = (
            collections.OrderedDict()
        )
        self._lock = threading.Lock()

    @property
    def client(self) -> Any:
        """The Redis client (for :mod:`service.claims` and :mod:`service.access_log`)."""
        return self._redis

    def issue(
        self,
        game_id: str,
        seat_types: Sequence[str],
        *,
        claimable: Collection[Seat] = (),
        auditor: bool = False,
    ) -> IssuedTokens:
        """Creates and stores the credentials of *game_id*: a token per human seat not in
        *claimable*, a claim code per seat in it, and an auditor token if *auditor*.

        :raises StoreUnavailableError: if Redis cannot be reached.
        """
        seats = tuple(
            new_token() if kind == "human" and seat not in claimable else None
            for seat, kind in enumerate(seat_types)
        )
        claims = {seat: new_token() for seat in sorted(claimable)}
        issued = IssuedTokens(seats, new_token() if auditor else None, claims)
        fields: dict[str, str | bytes] = {
            _field(seat): token_digest(token) for seat, token in enumerate(seats) if token
        }
        fields.update({f"{CLAIM_PREFIX}{seat}": token_digest(code)
                       for seat, code in claims.items()})
        fields[AUDITOR] = token_digest(issued.auditor) if issued.auditor else NO_AUDITOR
        with self._translate():
            self._redis.hset(seats_key(game_id), mapping=fields)
        return issued

    def register(self, game_id: str, tokens: dict[Role, str]) -> None:
        """Stores the digests of *tokens* (role -> token) for *game_id*.

        :raises StoreUnavailableError: if Redis cannot be reached.
        """
        fields = {_field(role): token_digest(token) for role, token in tokens.items()}
        with self._translate():
            self._redis.hset(seats_key(game_id), mapping=fields)

    def register_digests(self, game_id: str, digests: dict[Role, str]) -> None:
        """Stores *digests* (role -> :func:`token_digest` of a token) for *game_id*: a token
        issued elsewhere, such as a drive player's, opens this seat too.

        :raises StoreUnavailableError: if Redis cannot be reached.
        """
        fields = {_field(role): digest for role, digest in digests.items()}
        with self._translate():
            self._redis.hset(seats_key(game_id), mapping=fields)

    def identify(self, game_id: str, token: str) -> Role | None:
        """Returns the role of *token* in *game_id*, or ``None`` if it is not one of its tokens.

        Every digest of the game is compared, each in constant time, so the time taken does
        not tell how much of a guess was right.

        :raises StoreUnavailableError: if Redis cannot be reached.
        """
        presented = token_digest(token).encode()
        found: Role | None = None
        for name, digest in self._digests(game_id).items():
            if name.startswith(CLAIM_PREFIX.encode()):
                continue  # A claim code is not a token.
            if hmac.compare_digest(presented, digest):
                found = _role(name.decode())
        return found

    def seating(self, game_id: str) -> Seating:
        """Returns whether *game_id* has an auditor and which of its seats are unclaimed.

        :raises StoreUnavailableError: if Redis cannot be reached.
        """
        digests = self._digests(game_id)
        auditor = digests.get(AUDITOR.encode())
        return Seating(auditor is not None and auditor != NO_AUDITOR, _unclaimed(digests))

    def forget(self, game_id: str) -> None:
        """Drops the digests of *game_id* this process holds (after a claim changed them)."""
        with self._lock:
            self._cache.pop(game_id, None)

    def translate(self) -> Any:
        """Returns a context that turns Redis connection failures into
        :class:`StoreUnavailableError`."""
        return self._translate()

    def _digests(self, game_id: str) -> dict[bytes, bytes]:
        """Returns the stored digests of *game_id* (field -> digest), from the cache if fresh.

        :raises StoreUnavailableError: if Redis cannot be reached.
        """
        now = time.monotonic()
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None and now - cached[0] < self._cache_seconds:
                self._cache.move_to_end(game_id)
                return cached[1]
        with self._translate():
            stored = self._redis.hgetall(seats_key(game_id))
        digests = {_bytes(name): _bytes(digest) for name, digest in stored.items()}
        if digests and not _unclaimed(digests):
            with self._lock:
                self._cache[game_id] = (now, digests)
                self._cache.move_to_end(game_id)
                while len(self._cache) > self._max_games:
                    self._cache.popitem(last=False)
        return digests

    @contextmanager
    def _translate(self) -> Iterator[None]:
        """Turns Redis connection failures into :class:`StoreUnavailableError`."""
        try:
            yield
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
            pool = getattr(self._redis, "connection_pool", None)
            kwargs = pool.connection_kwargs if pool is not None else {}
            where = f"redis://{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}"
            raise StoreUnavailableError(f"store unavailable at {where}: {error}") from error


def _unclaimed(digests: Mapping[bytes, bytes]) -> tuple[Seat, ...]:
    """Returns the seats of *digests* with a claim code and no token yet."""
    prefix = CLAIM_PREFIX.encode()
    return tuple(sorted(
        int(name[len(prefix):]) for name in digests
        if name.startswith(prefix) and b"seat:" + name[len(prefix):] not in digests
    ))


def _bytes(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


def _field(role: Role) -> str:
    return AUDITOR if role == AUDITOR else f"seat:{role}"


def _role(field: str) -> Role:
    if field == AUDITOR:
        return AUDITOR
    return int(field.removeprefix("seat:"))


@dataclasses.dataclass(frozen=True, slots=True)
class Caller:
    """Who made a request, as far as one game is concerned."""

    role: Role | None
    """The token's seat or ``"auditor"``; ``None`` for a request without a token."""

    @property
    def seat(self) -> Seat | None:
        """The caller's seat, if the token is a seat's."""
        return self.role if isinstance(self.role, int) else None


def bearer_token() -> str | None:
    """Returns the bearer token of the current request, or ``None`` if it has none.

    :raises werkzeug.exceptions.HTTPException: 401 for an ``Authorization`` header that is
        not ``Bearer <token>``.
    """
    return bearer_token_of(request.headers.get("Authorization"))


def bearer_token_of(header: str | None) -> str | None:
    """Returns the bearer token in an ``Authorization`` header's value *header*, or ``None``
    without one.

    :raises werkzeug.exceptions.HTTPException: 401 for a value that is not
        ``Bearer <token>``.
    """
    if header is None:
        return None
    token = bearer_of(header)
    if token is None:
        abort(
            401,
            message="the Authorization header must be 'Bearer <token>' with a token of this game",
            code="invalid_token",
            headers=_CHALLENGE,
        )
    return token


def caller_for(registry: TokenRegistry, game_id: str) -> Caller:
    """Returns the caller of the current request for *game_id*.

    A bearer token of the shape of an API key (:mod:`service.apikeys`) is not a seat
    token: its caller reads as a spectator.

    :raises werkzeug.exceptions.HTTPException: 401 for a token that is not one of this
        game's (a token of another game included).
    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    return caller_of(registry, game_id, request.headers.get("Authorization"))


def caller_of(registry: TokenRegistry, game_id: str, authorization: str | None) -> Caller:
    """Returns the caller for *game_id* that the ``Authorization`` header's value
    *authorization* names (:func:`caller_for`, from the value itself).

    :raises werkzeug.exceptions.HTTPException: 401 for a token that is not one of this
        game's.
    :raises StoreUnavailableError: if Redis cannot be reached.
    """
    token = bearer_token_of(authorization)
    if token is None or looks_like_api_key(token):
        return Caller(None)  # An API key says who pays, not which seat: a spectator.
    role = registry.identify(game_id, token)
    if role is None:
        abort(
            401,
            message=(
                "this token is not valid for this game: each token belongs to one seat of "
                "one game (use the token POST /v1/games or the claim of the seat's invite "
                "returned for it, or no token to watch as a spectator)"
            ),
            code="invalid_token",
            headers=_CHALLENGE,
        )
    return Caller(role)


def viewer_for(caller: Caller, state: GameState, requested: str | None = None) -> Viewer:
    """Returns the view *caller* gets of *state*, optionally narrowed by *requested*.

    Without a request: the seat's own view for a seat token, the auditor view for the
    auditor token, the spectator view without a token. ``"spectator"`` is anyone's;
    ``"auditor"`` needs the auditor token until the game is over.

    :raises werkzeug.exceptions.HTTPException: 403 for an auditor view of a live game
        without the auditor token; 422 for an unknown view name.
    """
    if requested is None or requested == "own":
        if caller.role is None:
            return "spectator"
        return caller.role
    if requested == "spectator":
        return "spectator"
    if requested == AUDITOR:
        if caller.role == AUDITOR or state.phase == "over":
            return AUDITOR
        abort(
            403,
            message=(
                "the auditor view of a game in progress needs the game's auditor token; "
                "anyone may have it once the game is over"
            ),
            code="auditor_only",
        )
    abort(422, message=f"unknown view {requested!r}: own, spectator or auditor", code="bad_view")
    raise AssertionError("abort raises")  # pragma: no cover


def require_seat(caller: Caller) -> Seat:
    """Returns *caller*'s seat, for a request that acts.

    :raises werkzeug.exceptions.HTTPException: 401 without a token; 403 for the auditor.
    """
    if caller.role is None:
        abort(
            401,
            message="acting needs the seat's token: Authorization: Bearer <token>",
            code="token_required",
            headers=_CHALLENGE,
        )
    if caller.seat is None:
        abort(
            403,
            message="the auditor token can read everything but cannot act for a seat",
            code="auditor_cannot_act",
        )
    assert caller.seat is not None, "checked above"
    return caller.seat
