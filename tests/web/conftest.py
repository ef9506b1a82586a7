"""Fixtures of the browser tests: the app served on a free local port, bots that play, and a
headless Chromium driven through Debian's chromedriver.

Nothing here downloads a browser or a driver: the driver's path is always given (so
selenium-manager never runs) and ``SE_OFFLINE`` is set. Without ``chromium`` and
``chromedriver`` on ``PATH`` (CI installs them with apt-get) the browser tests are skipped.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import DESKTOP, SCREENSHOTS_ENV, WAIT, Bots, LiveServer, find_browser

from service.processes import lifeline
from service.processes.embedded_redis import EmbeddedRedis
from service.processes.lifeline import parent_death_signal


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the pictures the tests take: ``FORTYFIVE_SCREENSHOTS`` if set (``./dev
    screenshots`` sets it to docs/screenshots), else a temporary one."""
    chosen = os.environ.get(SCREENSHOTS_ENV)
    if not chosen:
        return tmp_path_factory.mktemp("screenshots")
    folder = Path(chosen)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def chrome_paths() -> tuple[str, str]:
    """The browser and driver binaries, or a skip saying what is missing."""
    pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")
    browser, driver = find_browser(), shutil.which("chromedriver")
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
def chrome(
    chrome_paths: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """A headless Chromium (one per module: starting one takes a second or two).

    Both chromedriver and the browser it starts get SIGTERM when their parent dies (Linux,
    :mod:`service.processes.lifeline`), so a killed test run leaves no browser behind."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    offline = os.environ.get("SE_OFFLINE")
    os.environ["SE_OFFLINE"] = "true"  # selenium-manager must never fetch anything.
    binary, driver_path = chrome_paths
    folder = tmp_path_factory.mktemp("chromium")
    options = webdriver.ChromeOptions()
    options.binary_location = _with_lifeline(binary, folder / "chromium")
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={folder / 'profile'}", "--window-size=1280,1000",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=driver_path,
                      popen_kw={"preexec_fn": parent_death_signal()})
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()
        if offline is None:
            os.environ.pop("SE_OFFLINE", None)
        else:
            os.environ["SE_OFFLINE"] = offline


def _with_lifeline(binary: str, wrapper: Path) -> str:
    """Writes *wrapper*, an executable that runs *binary* under
    ``service/processes/lifeline.py`` (chromedriver starts the browser: no ``preexec_fn``
    reaches it); returns its path."""
    command = [sys.executable, lifeline.__file__, binary]
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.join(command)} "$@"\n', "utf-8")
    wrapper.chmod(0o755)
    return str(wrapper)


@pytest.fixture
def browser(chrome: Any) -> Any:
    """The module's browser at desktop size, its console emptied of earlier messages."""
    chrome.set_window_size(*DESKTOP)
    chrome.get_log("browser")
    return chrome
