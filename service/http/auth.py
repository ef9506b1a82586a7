"""Seat and auditor tokens, and who the caller of a request is.

The tokens themselves (issued, stored as digests, identified) are
:mod:`service.application.tokens`'s; this module reads them from a request.

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

import dataclasses
from typing import NoReturn

from flask import request
from flask_smorest import abort

from engine.state import GameState, Seat
from replay.views import Viewer
from service.application.tokens import AUDITOR, Role, TokenRefusedError, TokenRegistry
from service.http.apikeys import bearer_of, looks_like_api_key

_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="fortyfive"'}

SEAT_AUTH: list[dict[str, list[str]]] = [{"seatToken": []}]
"""The OpenAPI security of an endpoint that needs a seat token."""
OPTIONAL_AUTH: list[dict[str, list[str]]] = [{}, {"seatToken": []}]
"""The OpenAPI security of an endpoint any caller may read (a token chooses the view)."""




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


def bearer_token_of(header: str | None, whose: str = "a token of this game") -> str | None:
    """Returns the bearer token in an ``Authorization`` header's value *header*, or ``None``
    without one.

    :raises werkzeug.exceptions.HTTPException: 401 for a value that is not
        ``Bearer <token>`` (*whose* says which token is wanted).
    """
    if header is None:
        return None
    token = bearer_of(header)
    if token is None:
        abort(
            401,
            message=f"the Authorization header must be 'Bearer <token>' with {whose}",
            code="invalid_token",
            headers=_CHALLENGE,
        )
    return token


def refuse_token(error: TokenRefusedError) -> NoReturn:
    """Answers 401 for a request without the token it needs, as a game's endpoints do:
    ``token_required`` without one, ``invalid_token`` with another, each with the
    ``WWW-Authenticate`` challenge."""
    abort(401, message=str(error), code="token_required" if error.missing else "invalid_token",
          headers=_CHALLENGE)
    raise AssertionError("abort raises")  # pragma: no cover


def caller_for(registry: TokenRegistry, game_id: str) -> Caller:
    """Returns the caller of the current request for *game_id*.

    A bearer token of the shape of an API key (:mod:`service.http.apikeys`) is not a seat
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


def require_seat(caller: Caller, doing: str = "acting") -> Seat:
    """Returns *caller*'s seat, for a request that acts (or, as *doing* says, reads what only
    a seat reads).

    :raises werkzeug.exceptions.HTTPException: 401 without a token; 403 for the auditor.
    """
    if caller.role is None:
        abort(
            401,
            message=f"{doing} needs a seat's token: Authorization: Bearer <token>",
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
