"""The app served on a free local port, bots that play, and small selenium helpers, for the
browser tests."""

from __future__ import annotations

import hashlib
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from werkzeug.serving import BaseWSGIServer, make_server

from events.codec import canonical_json
from service.application import commands
from service.http.app import create_app
from workers import context, jobs


def _seat(kind: str) -> dict[str, str]:
    """A seat of a new game: a bot at the basic level, whose decisions take microseconds
    (a test of the strong level names it)."""
    return {"type": kind, "level": "basic"} if kind == "bot" else {"type": kind}


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
            json={"profile": profile, "options": options, "seats": [_seat(t) for t in seats]},
        )
        assert response.status_code == 201, response.get_json()
        return dict(response.get_json())


BROWSERS = ("chromium", "chromium-browser")
"""The names the browser may have on ``PATH``."""


def find_browser() -> str | None:
    """The path of the browser the tests drive, or ``None`` if none is installed."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def chromium_installed() -> bool:
    """True if the browser fixtures can start a browser here (with its chromedriver)."""
    return find_browser() is not None and shutil.which("chromedriver") is not None


DESKTOP = (1366, 900)
"""The window of the desktop pictures and tests."""
PHONE = (390, 844)
"""The window of the phone pictures and tests."""

WAIT = 120.0
"""Seconds a condition may take in the browser: generous, since a loaded machine is slow,
never wrong (a wait ends as soon as its condition holds, so this costs a passing test
nothing). Every wait is on what the page or the API says, never on a clock."""

SCREENSHOTS_ENV = "FORTYFIVE_SCREENSHOTS"
"""The folder the browser tests save their pictures in when set (``./dev screenshots`` sets
it to docs/screenshots, the pictures README.md shows); else a temporary folder, so a test run
never writes into the checkout."""


def wait_for(browser: Any, condition: Callable[[Any], Any], timeout: float = WAIT) -> Any:
    """Waits until *condition(browser)* is truthy and returns it."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(
        browser, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,),
    ).until(condition)


def wait_for_game_over(browser: Any, live: LiveServer, game_id: str) -> None:
    """Waits until the API says *game_id* is over (its bots played it to the end)."""
    client = live.app.test_client()
    wait_for(browser, lambda _: client.get(f"/v1/games/{game_id}").get_json()["phase"] == "over")


def by_id(browser: Any, element_id: str) -> Any:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, element_id)


def click_by_id(browser: Any, element_id: str) -> None:
    """Clicks the element *element_id*, found again if the page drew it anew between the find
    and the click (a view arriving from the stream redraws the table's controls)."""
    wait_for(browser, lambda b: by_id(b, element_id).click() is None)


def css(browser: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(browser.find_elements(By.CSS_SELECTOR, selector))


def console_errors(browser: Any) -> list[str]:
    """The browser's console errors since the last call (script errors, refused by the
    Content-Security-Policy...), apart from error statuses of API requests, which the pages
    handle and show."""
    return [
        entry["message"] for entry in browser.get_log("browser")
        if entry["level"] == "SEVERE" and entry.get("source") != "network"
    ]


def screenshot(browser: Any, folder: Path, name: str, width: int, height: int) -> Path:
    """Saves the page at *width* x *height* CSS pixels as *folder*/*name*.png."""
    browser.set_window_size(width, height)
    # The window's outer size includes no chrome when headless, but make the viewport exact.
    inner = browser.execute_script("return [window.innerWidth, window.innerHeight]")
    if inner != [width, height]:
        browser.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    browser.execute_script("window.scrollTo(0, 0)")
    path = folder / f"{name}.png"
    browser.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is no PNG"
    return path


def click_first_action(browser: Any, selector: str = "#table button.action:not(:disabled)") -> bool:
    """Clicks the first enabled action button of the table (or the first match of
    *selector*); False if there was none or the view was redrawn under the pointer."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        ElementNotInteractableException,
        StaleElementReferenceException,
    )

    buttons = css(browser, selector)
    if not buttons:
        return False
    try:
        buttons[0].click()
    except (StaleElementReferenceException, ElementClickInterceptedException,
            ElementNotInteractableException):
        return False
    return True


def rehash(doc: dict[str, Any]) -> dict[str, Any]:
    """*doc* (a hand history) with every hash and link recomputed and the head moved: a
    forger's history, whose chain holds though its content was changed."""
    prev = "0" * 64
    for event in doc["events"]:
        event["prev_hash"] = prev
        body = {name: event[name] for name in (
            "version", "type", "schema", "data", "actor", "command_id", "occurred_at",
            "prev_hash")}
        event["hash"] = prev = hashlib.sha256(
            canonical_json({**body, "game_id": doc["game_id"]})).hexdigest()
    doc["head"] = prev
    return doc
