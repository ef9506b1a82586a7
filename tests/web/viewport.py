"""The page's viewport set exactly, for the tests that look at a first screen."""

from __future__ import annotations

from typing import Any

from web_helpers import wait_for

FIRST_SCREENS = {"laptop": (1280, 800), "phone": (390, 844)}
"""The windows a player opens the pages in (CSS pixels)."""


def set_viewport(browser: Any, width: int, height: int) -> None:
    """Makes the page's viewport exactly *width* x *height* CSS pixels, scrolled to the top.

    Through the DevTools protocol: a window resized by the driver reaches the page a moment
    later, and a box measured before would be the old layout's. Waits until the page has it."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    wait_for(browser, lambda b: b.execute_script(
        "window.scrollTo(0, 0); return [window.innerWidth, window.innerHeight, window.scrollY]")
        == [width, height, 0])


def reset_viewport(browser: Any) -> None:
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
