"""The app served on a free local port, and bots that play, for the browser tests."""

from __future__ import annotations

import threading
from typing import Any

from werkzeug.serving import BaseWSGIServer, make_server

from service import commands
from service.app import create_app
from workers import context, jobs


class Bots:
    """Plays the bot seats of the games it watches, in a thread, through the workers' job."""

    def __init__(self, redis_url: str) -> None:
        context.configure(redis_url)
        self._games: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="web-test-bots", daemon=True)
        self.error: BaseException | None = None

    def watch(self, game_id: str) -> None:
        """Plays the bot seats of *game_id* from now on."""
        with self._lock:
            self._games.add(game_id)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            with self._lock:
                games = list(self._games)
            for game_id in games:
                try:
                    folded = commands.load(context.games(), game_id)
                    state = folded.state
                    if state.phase == "over":
                        with self._lock:
                            self._games.discard(game_id)
                    elif state.turn is not None and state.seat_types[state.turn] == "bot":
                        jobs.play_bots(game_id, folded.version)
                except Exception as error:  # Reported by the test that watches the game.
                    self.error = error


class LiveServer:
    """The app on 127.0.0.1 and a free port, served by werkzeug in a thread."""

    def __init__(self, redis_url: str) -> None:
        self.app = create_app({"REDIS_URL": redis_url, "TESTING": True, "STREAM_WAIT": 2.0})
        self.server: BaseWSGIServer = make_server("127.0.0.1", 0, self.app, threaded=True)
        # Request threads are joined on close, so no event stream outlives the store.
        self.server.daemon_threads = False  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self._thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.1},
            name="web-test-server", daemon=True,
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=10)
        self.app.extensions["fortyfive"].store.close()

    def create_game(self, profile: str, seats: list[str], **options: Any) -> dict[str, Any]:
        """Creates a game through the API; returns the 201 body (id, version, tokens)."""
        response = self.app.test_client().post(
            "/v1/games",
            json={"profile": profile, "options": options, "seats": [{"type": t} for t in seats]},
        )
        assert response.status_code == 201, response.get_json()
        return dict(response.get_json())
