"""Fixtures of the HTTP API tests: an app on the suite's private redis-server, a test client
and a game (:class:`http_table.Table`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from http_table import Table

from events.redis_store import RedisEventStore
from service.http.app import create_app


def _app(redis_url: str, **config: object) -> Iterator[Flask]:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, **config})
    yield app
    app.extensions["fortyfive"].streams.close()
    app.extensions["fortyfive"].store.close()


@pytest.fixture
def app(redis_url: str) -> Iterator[Flask]:
    """An app on the session's redis-server."""
    yield from _app(redis_url)


@pytest.fixture
def public_app(redis_url: str) -> Iterator[Flask]:
    """An app configured as on a public address: API keys required."""
    yield from _app(redis_url, REQUIRE_API_KEY=True)


@pytest.fixture
def public(public_app: Flask) -> FlaskClient:
    """A test client of :func:`public_app`."""
    return public_app.test_client()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of :func:`app`."""
    return app.test_client()


@pytest.fixture
def table(client: FlaskClient) -> Table:
    """A new bruff game of six human seats."""
    return Table.create(client, "bruff")


@pytest.fixture
def api_store(app: Flask) -> RedisEventStore:
    """The app's event store."""
    store: RedisEventStore = app.extensions["fortyfive"].store
    return store
