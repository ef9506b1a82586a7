"""The app served over real HTTP for the transparency log's command-line tests, which fetch
from it as an outside client does (``fortyfive history verify --log``, ``fortyfive log
monitor``), and a finished game to fetch."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from werkzeug.serving import make_server

from events.redis_store import RedisEventStore
from service.application import commands
from service.http.app import create_app
from workers import context, jobs


@contextmanager
def served(redis_url: str) -> Iterator[tuple[str, Flask]]:
    """Serves a new app on the store at *redis_url* on 127.0.0.1 and a free port; yields its
    address and the app."""
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              name="log-test-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", app
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
        app.extensions["fortyfive"].streams.close()
        app.extensions["fortyfive"].store.close()


def finished_game(redis_url: str, store: RedisEventStore) -> str:
    """Plays a classic game of two bots to its end with the workers' job; returns its id."""
    context.configure(redis_url)
    game_id = commands.create_game(store, "classic", {}, ["bot", "bot"]).game_id
    jobs.play_bots(game_id, store.version(game_id))
    return game_id


def history_of(app: Flask, game_id: str) -> dict[str, Any]:
    """Returns the history of *game_id* as a spectator downloads it (with its checkpoint)."""
    answer = app.test_client().get(f"/v1/games/{game_id}/history")
    assert answer.status_code == 200, answer.get_json()
    body: dict[str, Any] = answer.get_json()
    assert body["checkpoint"] is not None
    return body


def fresh_head(app: Flask) -> dict[str, Any]:
    """Returns a tree head covering every leaf logged now."""
    answer = app.test_client().post("/v1/log/tree-head", json={})
    assert answer.status_code == 200, answer.get_json()
    head: dict[str, Any] = answer.get_json()
    return head
