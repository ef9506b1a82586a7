"""The Flask app factory: ``create_app(config)`` builds one app with every blueprint.

There is no module-level app: ``fortyfive serve`` builds one per gunicorn worker (after the
fork, so no Redis connection crosses processes), tests build one per fixture, and
``FLASK_APP=service.http.app:create_app flask openapi write --format=yaml openapi.yaml`` builds one
to write the document.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from service.http import hooks, lean_actions, limits
from service.http.config import load_config
from service.http.errors import FortyFiveApi, register_error_handlers
from service.http.repository import EXTENSION, create_services
from service.http.routes import drive_stream, games, health, histories, web
from service.http.routes import drives as drives_api
from service.http.routes import keys as keys_api
from service.http.routes import log as log_api
from service.http.routes import paper as paper_api
from service.http.routes import profiles as profiles_api
from service.http.routes import rules as rules_api
from service.http.routes import seats as seats_api

API_EXTENSION = "fortyfive.api"
"""The key of the app's :class:`flask_smorest.Api` in ``app.extensions``."""

BLUEPRINTS = (health.blp, profiles_api.blp, games.blp, seats_api.blp, rules_api.blp,
              histories.blp, drives_api.blp, drive_stream.blp, paper_api.blp, keys_api.blp,
              log_api.blp)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Returns a new app configured by *config* over the defaults (see
    :mod:`service.http.config`). No connection to the store is made until a request needs it."""
    app = Flask("fortyfive")
    load_config(app, config)
    app.extensions[EXTENSION] = create_services(app.config)
    api = FortyFiveApi()
    api.init_app(app)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    lean_actions.install(app)
    app.register_blueprint(web.bp)
    app.extensions[API_EXTENSION] = api
    register_error_handlers(app)
    limits.init_app(app)
    hooks.register(app)
    # Outermost: plain actions are answered before Flask's request machinery runs.
    app.wsgi_app = lean_actions.ActionDispatch(  # type: ignore[method-assign]
        app, app.wsgi_app)
    return app


def check_config(config: Mapping[str, Any] | None = None) -> None:
    """Checks the configuration that ``create_app(config)`` would load (the environment
    included) without building the app: ``fortyfive serve`` calls it before it starts
    anything, so a bad setting stops it at once instead of failing in every worker.

    :raises ValueError: naming the first setting that is not valid.
    """
    app = Flask("fortyfive")
    load_config(app, config)
    limits.configured_limits(app.config)


def get_api(app: Flask) -> FortyFiveApi:
    """Returns *app*'s API object (its ``spec`` is the OpenAPI document)."""
    api: FortyFiveApi = app.extensions[API_EXTENSION]
    return api
