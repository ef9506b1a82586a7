"""Fixtures of the browser tests: the app served on a free local port, bots that play, and a
headless Chromium driven through Debian's chromedriver.

Nothing here downloads a browser or a driver: the driver's path is always given (so
selenium-manager never runs) and ``SE_OFFLINE`` is set. Without ``chromium`` and
``chromedriver`` on ``PATH`` (CI installs them with apt-get) the browser tests are skipped.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from web_helpers import DESKTOP, Bots, LiveServer

from service.processes.embedded_redis import EmbeddedRedis

BROWSERS = ("chromium", "chromium-browser")


def _browser() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def chrome_paths() -> tuple[str, str]:
    """The browser and driver binaries, or a skip saying what is missing."""
    pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")
    browser, driver = _browser(), shutil.which("chromedriver")
    if browser is None or driver is None:
        missing = " and ".join(
            name for name, path in (("chromium", browser), ("chromedriver", driver)) if path is None
        )
        pytest.skip(
            f"{missing} not on PATH: install Debian's chromium and chromium-driver to run the "
            "browser tests (nothing here downloads a browser)"
        )
    return browser, driver


@pytest.fixture(scope="module")
def live(redis_server: EmbeddedRedis) -> Iterator[LiveServer]:
    """The app served on a free local port, against the suite's private redis-server."""
    server = LiveServer(redis_server.url)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def bots(redis_server: EmbeddedRedis) -> Iterator[Bots]:
    """Bots for the games a test asks them to watch."""
    players = Bots(redis_server.url)
    players.start()
    try:
        yield players
    finally:
        players.stop()


@pytest.fixture(scope="module")
def chrome(chrome_paths: tuple[str, str]) -> Iterator[Any]:
    """A headless Chromium (one per module: starting one takes a second or two)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    offline = os.environ.get("SE_OFFLINE")
    os.environ["SE_OFFLINE"] = "true"  # selenium-manager must never fetch anything.
    binary, driver_path = chrome_paths
    profile = tempfile.mkdtemp(prefix="fortyfive-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", "--window-size=1280,1000",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        if offline is None:
            os.environ.pop("SE_OFFLINE", None)
        else:
            os.environ["SE_OFFLINE"] = offline


@pytest.fixture
def browser(chrome: Any) -> Any:
    """The module's browser at desktop size, its console emptied of earlier messages."""
    chrome.set_window_size(*DESKTOP)
    chrome.get_log("browser")
    return chrome
