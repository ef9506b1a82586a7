"""The Flask app factory: ``create_app(config)`` builds one app with every blueprint.

There is no module-level app: ``fortyfive serve`` builds one per gunicorn worker (after the
fork, so no Redis connection crosses processes), tests build one per fixture, and
``FLASK_APP=service.app:create_app flask openapi write --format=yaml openapi.yaml`` builds one
to write the document.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request
from flask_smorest import abort

from service import games, health, histories, limits, profiles_api, rules_api, web
from service.config import load_config
from service.errors import FortyFiveApi, register_error_handlers
from service.repository import EXTENSION, create_services

API_EXTENSION = "fortyfive.api"
"""The key of the app's :class:`flask_smorest.Api` in ``app.extensions``."""

BLUEPRINTS = (health.blp, profiles_api.blp, games.blp, rules_api.blp, histories.blp)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Returns a new app configured by *config* over the defaults (see
    :mod:`service.config`). No connection to the store is made until a request needs it."""
    app = Flask("fortyfive")
    load_config(app, config)
    app.extensions[EXTENSION] = create_services(app.config)
    api = FortyFiveApi()
    api.init_app(app)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    app.register_blueprint(web.bp)
    app.extensions[API_EXTENSION] = api
    register_error_handlers(app)
    app.before_request(_require_json_body)
    limits.init_app(app)
    app.after_request(_harden)
    return app


def get_api(app: Flask) -> FortyFiveApi:
    """Returns *app*'s API object (its ``spec`` is the OpenAPI document)."""
    api: FortyFiveApi = app.extensions[API_EXTENSION]
    return api


def _require_json_body() -> None:
    """Refuses a POST whose body is not JSON (415) or is empty (400), before anything
    parses it."""
    if request.method != "POST" or request.routing_exception is not None:
        return  # A path or method that does not exist is answered first (404, 405).
    if not request.is_json:
        abort(
            415,
            message="send the body as JSON with Content-Type: application/json",
            code="unsupported_media_type",
        )
    if not request.get_data(cache=True):
        abort(400, message="the request body is empty: send one JSON object",
              code="malformed_json")


def _harden(response: Response) -> Response:
    """Adds the headers every response carries."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Cache-Control", "no-store")
    return response
