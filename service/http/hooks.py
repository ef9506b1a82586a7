"""The app's request hooks: the one list that every request runs, in order.

:func:`register` gives them to the app; :class:`service.http.lean_actions.ActionDispatch`, which
answers plain actions and seats' views in front of Flask, stands in for exactly these and stays
out of the way when the app has any other. What it does for each, without Flask's request
machinery:

- :func:`service.http.request_limits.check_head`: :func:`service.http.request_limits.head_passes`
  (a head that fails goes to the app, which refuses it);
- :func:`service.http.request_limits.check_body`: the dispatch takes only a JSON body of a
  declared length within ``MAX_CONTENT_LENGTH`` that :func:`service.http.request_limits.load_json`
  loads;
- :func:`service.http.limits.count_current`: :func:`service.http.limits.count_request`, whose
  count it hands on to the app (``limits.COUNTED``) when the app must answer;
- :func:`service.http.limits.advertise` and :func:`harden`: the count's headers and
  ``X-Content-Type-Options``, on an answer that is JSON (so never a problem to rewrite).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response

from service.http import limits, request_limits
from service.http.errors import as_problem


def harden(response: Response) -> Response:
    """Adds the headers every response carries, makes every error a problem, and leaves an
    answer without a body (a 204, a 304, the automatic answer to ``OPTIONS``) without a
    ``Content-Type``: it has nothing to describe (Flask's default would say ``text/html``)."""
    response = as_problem(response)
    if _bodiless(response):
        response.set_data(b"")
        del response.headers["Content-Type"]
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def _bodiless(response: Response) -> bool:
    """True for an answer that has no body: by its status, or an empty one of its own (a
    streamed body, such as an event stream or a file, is never taken for empty)."""
    if response.status_code in (204, 304):
        return True
    return not response.is_streamed and response.calculate_content_length() == 0


BEFORE_REQUEST: tuple[Callable[[], None], ...] = (
    request_limits.check_head, request_limits.check_body, limits.count_current)
"""What runs before every view, in order: the head's limits, the body's, the rate limit."""

AFTER_REQUEST: tuple[Callable[[Response], Response], ...] = (limits.advertise, harden)
"""What runs on every answer, in Flask's order (the last registered runs first)."""


def register(app: Flask) -> None:
    """Gives *app* the hooks of :data:`BEFORE_REQUEST` and :data:`AFTER_REQUEST`."""
    for before in BEFORE_REQUEST:
        app.before_request(before)
    for after in AFTER_REQUEST:
        app.after_request(after)


def only_these(app: Flask, blueprint: str) -> bool:
    """Whether *app* runs exactly these hooks on the requests of *blueprint* and no other (none
    of the blueprint's own, no URL value preprocessor, no teardown): then a request answered
    without Flask is answered as the app would answer it."""
    return (
        app.before_request_funcs.get(None, []) == list(BEFORE_REQUEST)
        and app.after_request_funcs.get(None, []) == list(AFTER_REQUEST)
        and not app.before_request_funcs.get(blueprint)
        and not app.after_request_funcs.get(blueprint)
        and not any(app.url_value_preprocessors.values())
        and not any(app.teardown_request_funcs.values())
        and not app.teardown_appcontext_funcs
    )
