"""The hand-history viewer as card players expect it: the hands as dealt account for robbing
(the robbed turn-up in the robber's hand, the card set aside marked as such), another view of
the same game opens at the same event, and axe-core finds nothing serious. Saves
docs/screenshots/viewer.png.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    DESKTOP,
    Bots,
    LiveServer,
    by_id,
    console_errors,
    css,
    screenshot,
    serious_violations,
    wait_for,
)

from replay.build import build_history
from replay.jsonformat import dumps
from replay.sample import GameDriver, seeded_choice


@pytest.fixture(scope="module")
def robbed_history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A finished bruff game in which a seat robbed the turn-up, as the auditor sees it."""
    for attempt in range(20):
        driver = GameDriver("g-web-rob", f"web-rob-{attempt}").start("bruff", ["bot"] * 6)
        driver.play(seeded_choice(f"web-rob-{attempt}"))
        doc = json.loads(dumps(build_history("g-web-rob", driver.recorded, "auditor")))
        if any(event["type"] == "turn_up_robbed" for event in doc["events"]):
            path = tmp_path_factory.mktemp("robbed") / "robbed.json"
            path.write_text(json.dumps(doc), "utf-8")
            return path, doc
    raise AssertionError("no sample game robbed the turn-up")


def test_hands_as_dealt_show_the_robbed_turn_up_and_the_card_set_aside(
    live: LiveServer, browser: Any, robbed_history: tuple[Path, dict[str, Any]],
) -> None:
    path, doc = robbed_history
    rob = next(event for event in doc["events"] if event["type"] == "turn_up_robbed")
    deal = next(event["data"]["deal"] for event in reversed(doc["events"])
                if event["type"] == "deck_shuffled" and event["version"] < rob["version"])
    entry = next(item for item in doc["results"]["deals"] if item["number"] == deal)
    seat, discard, turn_up = rob["data"]["seat"], rob["data"]["discard"], entry["turn_up"]

    browser.get(f"{live.url}/viewer#v={rob['version']}")
    by_id(browser, "history-file").send_keys(str(path))
    wait_for(browser, lambda b: by_id(b, "history").get_attribute("data-version")
             == str(rob["version"]))
    robber = css(browser, "#hands li")[seat]
    assert robber.find_elements("css selector", f".card.robbed[data-card='{turn_up}']")
    aside = robber.find_elements("css selector", f".card.set-aside[data-card='{discard}']")
    assert aside and "set aside" in aside[0].get_attribute("aria-label")
    assert "robbed the turn-up" in robber.text
    # One event earlier the turn-up is still on the table.
    by_id(browser, "prev").click()
    robber = css(browser, "#hands li")[seat]
    assert not robber.find_elements("css selector", ".card.robbed, .card.set-aside")

    by_id(browser, "next").click()
    by_id(browser, "next-trick").click()
    assert not serious_violations(browser), serious_violations(browser)
    screenshot(browser, "viewer", *DESKTOP)
    assert not console_errors(browser)


def test_the_viewer_keeps_its_place_when_another_view_is_loaded(
    live: LiveServer, bots: Bots, browser: Any,
) -> None:
    created = live.create_game("classic", ["bot", "bot"])
    game_id = created["id"]
    bots.watch(game_id)
    client = live.app.test_client()
    deadline = time.monotonic() + 30
    while client.get(f"/v1/games/{game_id}").get_json()["phase"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    browser.get(f"{live.url}/viewer?game={game_id}#v=9")
    wait_for(browser, lambda b: by_id(b, "history").get_attribute("data-version") == "9")
    by_id(browser, "next").click()
    assert browser.current_url.endswith("#v=10")

    by_id(browser, "load").click()  # Open the form again ("Open a hand history").
    from selenium.webdriver.support.ui import Select

    Select(by_id(browser, "game-view")).select_by_value("auditor")
    by_id(browser, "game-load").click()
    wait_for(browser, lambda b: "as seen by the auditor" in by_id(b, "history-summary").text)
    assert by_id(browser, "history").get_attribute("data-version") == "10"
    assert browser.current_url.endswith("#v=10")
    assert "hidden" not in by_id(browser, "hands").text
    summary = by_id(browser, "history-summary").text
    assert "A: seat 0" in summary and "side 0" not in summary, summary
    assert not console_errors(browser)
