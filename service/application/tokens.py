"""Seat and auditor tokens: issued, stored as digests, and identified.

Each game gets one bearer token per human seat, and an auditor token only when its creator
asks for one, all from :func:`new_token`. A claimable seat gets no token at
creation but a one-time claim code (:mod:`service.application.claims`); its token is minted
for whoever claims it. Only SHA-256 digests are stored, in a Redis hash beside the game's
events (``f45:{p<NNN>}:seats:<id>``, the same cluster slot): ``seat:<n>`` (a seat's token),
``claim:<n>`` (a claim code), ``auditor`` (the auditor's token, or ``none``). A presented
token is compared with every token digest of the game in constant time
(:func:`hmac.compare_digest`). Who the caller of an HTTP request is, from these, is
:mod:`service.http.auth`'s.
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

from engine.state import Seat
from events.keys import seats_key
from events.store import StoreUnavailableError

AUDITOR: Literal["auditor"] = "auditor"
"""The role (and hash field) of a game's auditor token."""
NO_AUDITOR = b"none"
"""The ``auditor`` field of a game created without an auditor token."""
CLAIM_PREFIX = "claim:"
"""The hash fields of claim code digests: ``claim:<seat>``."""

Role = Seat | Literal["auditor"]
"""What a token is for: a seat of the game, or its auditor."""


class TokenRefusedError(PermissionError):
    """Raised for a request without the token it needs: *missing* when it has none at all,
    else it has another (the HTTP layer answers ``token_required`` or ``invalid_token``)."""

    def __init__(self, message: str, *, missing: bool) -> None:
        super().__init__(message)
        self.missing = missing


def new_token() -> str:
    """Returns a fresh bearer token: 32 random bytes, URL-safe base64, drawn again while it
    starts with ``-`` (one in 64), which a command line would read as an option
    (``fortyfive bot --token -x...`` is refused as a missing value)."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


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
        """The Redis client (for :mod:`service.application.claims` and
        :mod:`service.application.access_log`)."""
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

    def copy(self, source: str, target: str) -> None:
        """Gives *target* every credential of *source* (seat tokens, claim codes, auditor):
        the same tokens open the same seats of both games (a rematch).

        :raises StoreUnavailableError: if Redis cannot be reached.
        """
        with self._translate():
            fields = self._redis.hgetall(seats_key(source))
            if fields:
                self._redis.hset(seats_key(target), mapping=fields)

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
