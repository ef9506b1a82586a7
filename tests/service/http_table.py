"""Plays games over HTTP for the API tests: :class:`Table` creates a game through the API and
posts actions as its seats."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.http.schemas.views import GameViewSchema

VIEW_SCHEMA = GameViewSchema()


def _seat(kind: str) -> dict[str, str]:
    """A seat of a new game: a bot at the basic level, whose decisions take microseconds
    (a test of the strong level names it)."""
    return {"type": kind, "level": "basic"} if kind == "bot" else {"type": kind}


def bearer(token: str | None) -> dict[str, str]:
    """Returns the Authorization header for *token* (none for ``None``)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def read_stream(client: FlaskClient, path: str, *, headers: Mapping[str, str] | None = None,
                query: Mapping[str, Any] | None = None) -> TestResponse:
    """Opens the event stream of the game at *path* and reads it up to the game's version
    now, then closes it as a client that goes away: the backlog, without waiting for the
    stream to idle out. Returns the answer with the body read so far (an answer that is not
    a stream, such as a problem or a 204, whole)."""
    version = client.get(path).get_json()["version"]
    response = client.get(f"{path}/stream", headers=dict(headers or {}),
                          query_string=dict(query or {}), buffered=False)
    if response.mimetype != "text/event-stream":
        response.get_data()
        return response
    start = (headers or {}).get("Last-Event-ID") or (query or {}).get("after", version)
    received = b""
    try:
        for chunk in response.response:
            received += chunk
            if int(start) >= version or f"\nid: {version}\n".encode() in b"\n" + received:
                break
    finally:
        response.close()
    response.set_data(received)
    return response


class Table:
    """A game created over HTTP, with its tokens, played through the API."""

    def __init__(self, client: FlaskClient, created: Mapping[str, Any]) -> None:
        self.client = client
        self.id: str = created["id"]
        self.tokens: list[str | None] = [seat["token"] for seat in created["seats"]]
        self.auditor: str | None = created["auditor_token"]
        self.created = created

    @classmethod
    def create(
        cls,
        client: FlaskClient,
        profile: str = "bruff",
        options: Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
        auditor: bool = True,
    ) -> Table:
        """Creates a game over HTTP (with an auditor token unless *auditor* is false)."""
        body: dict[str, Any] = {"profile": profile, "options": dict(options or {}),
                                "auditor": auditor}
        if seats is not None:
            body["seats"] = [_seat(kind) for kind in seats]
        response = client.post("/v1/games", json=body)
        assert response.status_code == 201, response.get_json()
        return cls(client, response.get_json())

    @property
    def path(self) -> str:
        """The game's path."""
        return f"/v1/games/{self.id}"

    def view(self, seat: int | None = None, **params: Any) -> TestResponse:
        """GETs the game as *seat* (``None``: no token)."""
        token = self.tokens[seat] if seat is not None else None
        return self.client.get(self.path, headers=bearer(token), query_string=params)

    def post(
        self,
        seat: int,
        action: Mapping[str, Any],
        version: int | None,
        key: str | None = None,
        token: str | None = None,
    ) -> TestResponse:
        """POSTs *action* as *seat* with ``If-Match: "<version>"`` (none for ``None``)."""
        headers = bearer(token or self.tokens[seat])
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        if key is not None:
            headers["Idempotency-Key"] = key
        return self.client.post(f"{self.path}/actions", json=dict(action), headers=headers)

    def turn(self) -> tuple[int | None, int]:
        """Returns whose turn it is and the version, from the spectator view."""
        view = self.view().get_json()
        return view["turn"], view["version"]

    def step(self, rng: random.Random | None = None) -> dict[str, Any]:
        """Plays one action of the seat to act (see :func:`choose`); returns its new view."""
        seat, _ = self.turn()
        assert seat is not None, "nobody is to act"
        return self.act(seat, self.view(seat).get_json(), rng)

    def act(self, seat: int, view: Mapping[str, Any], rng: random.Random | None) -> dict[str, Any]:
        """Posts the action :func:`choose` picks from *seat*'s *view*; returns the new view."""
        response = self.post(seat, choose(view, rng), view["version"])
        assert response.status_code == 201, json.dumps(response.get_json())
        new_view = dict(response.get_json())
        # Views are sent as built, not dumped through their schema: hold each one to it.
        assert VIEW_SCHEMA.validate(new_view) == {}, VIEW_SCHEMA.validate(new_view)
        return new_view

    def play_out(self, rng: random.Random | None = None, limit: int = 3000) -> dict[str, Any]:
        """Plays until the game has a winner; returns seat 0's view of the finished game.

        Each action's response is the actor's view; when it says another seat is to act,
        that seat's view is read before it acts.
        """
        seat, _ = self.turn()
        view: dict[str, Any] = {}
        for _ in range(limit):
            if seat is None:
                return dict(self.view(0).get_json())
            if view.get("viewer") != seat:
                view = self.view(seat).get_json()
            view = self.act(seat, view, rng)
            seat = view["turn"]
        raise AssertionError(f"no winner after {limit} actions")


def choose(view: Mapping[str, Any], rng: random.Random | None) -> dict[str, Any]:
    """Returns an entry of the view's ``legal_actions``: the first, or one drawn by *rng*.

    In an auction a seat opens with the lowest bid and every other seat passes, and nobody
    exchanges cards, so that a game to 120 ends in a bounded number of deals (random bids
    are set so often that scores drift below zero for thousands of deals).
    """
    choices = list(view["legal_actions"])
    kinds = {action["type"] for action in choices}
    if "pass" in kinds:
        bids = [action for action in choices if action["type"] == "bid"]
        opened = view["deal"]["auction"]["high"] is not None
        return bids[0] if bids and not opened else {"type": "pass"}
    if "discard" in kinds:
        return dict(choices[0])
    return dict(rng.choice(choices) if rng else choices[0])
