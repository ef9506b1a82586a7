"""The lean path of the hot endpoint, ``POST /v1/games/<id>/actions``.

Two layers. :class:`ActionDispatch` sits in front of the whole app (its ``wsgi_app``): a plain
action whose request passes every check the app's hooks make before a view (the one list of
:mod:`service.http.hooks`: :mod:`service.http.request_limits`, and where rate limits are
enforced the seat's count of :mod:`service.http.limits`) is answered there, without Flask's
request machinery, by the endpoint's own body
(:func:`service.http.routes.games.action_answer`), with the very status line, headers and body
the app would send. Anything else goes to the app untouched (its body replayed, its count, if
made, handed on so that it is not made twice), and so does an error the body raises: the
endpoint raises it again at once, so that the app's own hooks and handlers answer it. A seat's
view is answered there too (where rate limits are enforced, counted against the client's
address as the app counts it, unless an API key or a trusted proxy is involved).

Inside the app, flask-smorest serves that endpoint through ten nested wrappers (one per
documented response) and webargs, which parses the body a second time and loads it through
:class:`service.http.schemas.requests.ActionSchema`. This path takes the body
:mod:`service.http.request_limits` already parsed and, when it is an action the schema would
load unchanged (each field checked by its kind in :mod:`service.http.schemas.action_body`, the
description the schema is made from), calls the endpoint's body
(:func:`service.http.routes.games.take_action`) directly. Anything else (a field the schema
refuses, a value it would convert, an unknown field) goes the documented way, so every refusal
is exactly the problem it was; the OpenAPI document is the blueprint's and does not change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, request

from events.store import StoreUnavailableError, check_game_id
from service.http import apikeys, hooks, limits, request_limits
from service.http.repository import EXTENSION
from service.http.request_limits import JSONBodyError, checked_json, load_json
from service.http.routes import games
from service.http.schemas.action_body import FIELD_CHECKS

ENDPOINT = "games.Actions"
"""The endpoint this module serves leanly."""
VIEW_ENDPOINT = "games.Game"
"""The endpoint whose seat views :class:`ActionDispatch` answers too."""

def plain_action(body: object) -> dict[str, Any] | None:
    """Returns *body* as :class:`service.http.schemas.requests.ActionSchema` would load it, if it
    surely loads unchanged (every field passes its check in
    :data:`service.http.schemas.action_body.FIELD_CHECKS`); ``None`` when the schema has to
    judge it."""
    if type(body) is not dict or "type" not in body:
        return None
    for name, value in body.items():
        check = FIELD_CHECKS.get(name)
        if check is None or not check(value):
            return None
    return dict(body)


def install(app: Flask) -> None:
    """Serves ``POST /v1/games/<id>/actions`` of *app* through the lean path when it can
    (call once the games blueprint is registered)."""
    documented = app.view_functions[ENDPOINT]

    def actions(**kwargs: Any) -> Any:
        raised = request.environ.pop(RAISED, None)
        if raised is not None:
            raise raised  # What the dispatch's call of the endpoint's body raised.
        if request.method == "POST":
            action = plain_action(checked_json())
            if action is not None:
                return games.take_action(action, kwargs["game_id"])
        return documented(**kwargs)

    actions.__doc__ = documented.__doc__
    app.view_functions[ENDPOINT] = actions
    viewed = app.view_functions[VIEW_ENDPOINT]

    def view(**kwargs: Any) -> Any:
        raised = request.environ.pop(RAISED, None)
        if raised is not None:
            raise raised  # What the dispatch's call of the endpoint's body raised.
        return viewed(**kwargs)

    view.__doc__ = viewed.__doc__
    app.view_functions[VIEW_ENDPOINT] = view


RAISED = "fortyfive.lean_actions.raised"
"""The WSGI environ key under which :class:`ActionDispatch` hands the app an error that the
endpoint's body raised, for the endpoint to raise again."""

_PREFIX, _SUFFIX = "/v1/games/", "/actions"
_JSON = "application/json"
_CREATED, _OK = "201 CREATED", "200 OK"
"""The status lines of an action taken and of a view, as Werkzeug writes them."""


class ActionDispatch:
    """The WSGI front of an app: answers plain actions and seats' views itself, hands
    everything else on."""

    def __init__(self, app: Flask, inner: Callable[..., Iterable[bytes]]) -> None:
        self._app = app
        self.inner = inner
        """The app's own WSGI callable, which answers everything else."""
        self._hooks_known: bool | None = None

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        method = environ.get("REQUEST_METHOD")
        if method == "POST" or method == "GET":
            path = environ.get("PATH_INFO", "")
            if path.startswith(_PREFIX) and self.enabled:
                rest = path[len(_PREFIX):]
                if method == "POST" and rest.endswith(_SUFFIX):
                    status, answer = _CREATED, self._answer(environ, rest[:-len(_SUFFIX)])
                elif method == "GET" and "/" not in rest and not environ.get("QUERY_STRING"):
                    status, answer = _OK, self._view(environ, rest)
                else:
                    answer = None
                if answer is not None:
                    headers, body = answer
                    headers += [("Content-Type", _JSON), ("Content-Length", str(len(body))),
                                ("X-Content-Type-Options", "nosniff")]
                    counted: limits.Count | None = environ.get(limits.COUNTED)
                    if counted is not None:
                        headers += counted.headers()  # As the app's last hook adds them.
                    start_response(status, headers)
                    return [body]
        return self.inner(environ, start_response)

    @property
    def _enforced(self) -> bool:
        """Whether the app enforces rate limits: then the dispatch counts the requests it
        answers as the app does (an action against its seat, a view against the client's
        address)."""
        return bool(self._app.config.get("ENFORCE_RATE_LIMITS", True))

    @property
    def enabled(self) -> bool:
        """Whether the dispatch answers for the app exactly as the app would: only the hooks
        it stands in for are registered (:func:`service.http.hooks.only_these`, checked at the
        first request, once every hook is) and no host or server name is checked."""
        if self._hooks_known is None:
            self._hooks_known = hooks.only_these(self._app, ENDPOINT.split(".")[0])
        config = self._app.config
        return bool(
            self._hooks_known and not config.get("TRUSTED_HOSTS") and not config.get("SERVER_NAME")
        )

    def _answer(
        self, environ: dict[str, Any], game_id: str
    ) -> tuple[list[tuple[str, str]], bytes] | None:
        """Returns the headers and body of the answer to the action in *environ*, or ``None``
        when the app must answer (then the body read is replayed to it)."""
        if (environ.get("SCRIPT_NAME") or not request_limits.head_passes(environ)
                or not _is_game_id(game_id)):
            return None
        length = environ.get("CONTENT_LENGTH", "")
        max_length = self._app.config["MAX_CONTENT_LENGTH"]
        if (environ.get("CONTENT_TYPE") != _JSON or "HTTP_TRANSFER_ENCODING" in environ
                or not (length.isascii() and length.isdigit())
                or not 0 < int(length) <= max_length):
            return None
        stream = environ["wsgi.input"]
        try:
            data = stream.read(int(length))
        except Exception as error:  # The app's own read of the body meets it again.
            environ["wsgi.input"] = _Replay(b"", stream, error)
            return None
        try:
            action = plain_action(load_json(data)) if len(data) == int(length) else None
        except JSONBodyError:
            action = None
        if action is None or (self._enforced and not self._counted(
                environ, "actions", lambda: self._seat_client(environ, game_id))):
            environ["wsgi.input"] = _Replay(data, stream)
            return None
        try:
            headers, body = games.action_answer(
                self._app.extensions[EXTENSION], action, game_id,
                environ.get("HTTP_AUTHORIZATION"), environ.get("HTTP_IF_MATCH"),
                environ.get("HTTP_IDEMPOTENCY_KEY"),
            )
        except Exception as error:  # Answered by the app, as the endpoint would have.
            environ["wsgi.input"] = _Replay(data, stream)
            environ[RAISED] = error
            return None
        return list(headers.items()), body

    def _counted(self, environ: dict[str, Any], limit_class: str,
                 client: Callable[[], str | None]) -> bool:
        """Counts the request in *environ* in *limit_class* against *client()*, as the app's
        hook (:mod:`service.http.limits`) would, and returns whether the dispatch may go on to
        answer it: not when *client()* is ``None`` (the app must tell who the request counts
        against), when the count cannot be made (the app says why), nor over the quota (the
        app answers the 429 with this count, counting nothing again)."""
        try:
            who = client()
            if who is None:
                return False
            counted = limits.count_request(self._app, limit_class, who)
        except StoreUnavailableError:
            return False
        if counted is not None:
            environ[limits.COUNTED] = counted
        return counted is None or not counted.over

    def _seat_client(self, environ: dict[str, Any], game_id: str) -> str | None:
        """Who an action counts against: its seat, or ``None`` when the caller is no seat of
        the game (the app counts it by API key or address)."""
        return limits.seat_client_of(self._app.extensions[EXTENSION].tokens, game_id,
                                     environ.get("HTTP_AUTHORIZATION"))

    def _address_client(self, environ: dict[str, Any]) -> str | None:
        """Who a view counts against: the client's address, or ``None`` behind trusted
        proxies (the app reads the address they forwarded) and when the request presents an
        API key (the app counts it by the key if it is valid)."""
        if self._app.config.get("TRUSTED_PROXIES") or apikeys.presented_key_of(
                environ.get("HTTP_X_API_KEY"), environ.get("HTTP_AUTHORIZATION")) is not None:
            return None
        return limits.address_client(environ.get("REMOTE_ADDR"))

    def _view(
        self, environ: dict[str, Any], game_id: str
    ) -> tuple[list[tuple[str, str]], bytes] | None:
        """Returns the headers and body of a seat's view of *game_id*, or ``None`` when the
        app must answer."""
        if (environ.get("SCRIPT_NAME") or not request_limits.head_passes(environ)
                or not _is_game_id(game_id)):
            return None
        if self._enforced and not self._counted(
                environ, "reads", lambda: self._address_client(environ)):
            return None
        try:
            answer = games.seat_view_answer(
                self._app.extensions[EXTENSION], game_id, environ.get("HTTP_AUTHORIZATION"))
        except Exception as error:  # Answered by the app, as the endpoint would have.
            environ[RAISED] = error
            return None
        if answer is None:
            return None
        headers, body = answer
        return list(headers.items()), body


def _is_game_id(game_id: str) -> bool:
    try:
        check_game_id(game_id)
    except ValueError:
        return False
    return True


class _Replay:
    """A request body stream that gives the bytes already read, then the rest of *stream*;
    or, with *error* (what reading *stream* raised), raises it at the first read."""

    def __init__(self, data: bytes, stream: Any, error: Exception | None = None) -> None:
        self._data = data
        self._stream = stream
        self._error = error

    def read(self, size: int | None = -1) -> bytes:
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        if size is None or size < 0:
            data, self._data = self._data, b""
            return data + bytes(self._stream.read())
        if self._data:
            data, self._data = self._data[:size], self._data[size:]
            return data
        return bytes(self._stream.read(size))

    def readline(self, size: int | None = -1) -> bytes:
        if self._error is not None or self._data:
            end = self._data.find(b"\n") + 1 or len(self._data)
            return self.read(end if size is None or size < 0 else min(size, end))
        return bytes(self._stream.readline(size))

    def __iter__(self) -> Any:
        while True:
            line = self.readline()
            if not line:
                return
            yield line
