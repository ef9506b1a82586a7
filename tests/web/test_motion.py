"""Motion and alerts at the table: a card played slides in (and not at all under
prefers-reduced-motion), and the "your turn" vibration and sound are off until turned on, then
remembered in the browser and given once when the turn comes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_helpers import LiveServer, by_id, console_errors, wait_for

RECORD_VIBRATIONS = ("window.__vibrations = []; "
                     "navigator.vibrate = (p) => { window.__vibrations.push(p); return true; };")
RECORD_ARRIVALS = """
window.__arrived = [];
new MutationObserver((records) => {
  for (const record of records) {
    const nodes = record.type === "attributes" ? [record.target] : [...record.addedNodes];
    for (const node of nodes) {
      if (!node.querySelectorAll) continue;
      const found = [node, ...node.querySelectorAll(".arriving")]
        .filter((item) => item.classList.contains("arriving"));
      window.__arrived.push(...found.map((item) => item.dataset.seat));
    }
  }
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ["class"]});
"""
"""Records every trick card marked as arriving, however soon a redraw replaces it (a page under
load may draw the trick again before a test reads it)."""


@pytest.fixture
def recording(browser: Any) -> Iterator[Any]:
    """The browser, recording navigator.vibrate calls on every page, its media emulation reset."""
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                     {"source": RECORD_VIBRATIONS + RECORD_ARRIVALS})
    yield browser
    browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                            {"identifier": script["identifier"]})
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.execute_script("localStorage.clear()")


def _to_first_card(live: LiveServer, created: dict[str, Any]) -> int:
    """Plays first legal actions until one card lies in the trick; returns the seat to act."""
    client = live.app.test_client()
    path = f"/v1/games/{created['id']}"
    tokens = [seat["token"] for seat in created["seats"]]
    for _ in range(200):
        public = client.get(path).get_json()
        trick = (public["deal"] or {}).get("current_trick") or {}
        if public["phase"] == "play" and len(trick.get("cards", [])) == 1:
            return int(public["turn"])
        seat = public["turn"]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        view = client.get(path, headers=auth).get_json()
        action = next((a for a in view["legal_actions"] if a["type"] == "play"),
                      view["legal_actions"][0])
        response = client.post(f"{path}/actions", json=action,
                               headers={**auth, "If-Match": f'"{view["version"]}"'})
        assert response.status_code == 201, response.get_json()
    raise AssertionError("no card was played")


def _open(browser: Any, live: LiveServer, created: dict[str, Any], seat: int) -> None:
    token = created["seats"][seat]["token"]
    browser.get(f"{live.url}/table/{created['id']}?seat={seat}#token={token}")
    wait_for(browser, lambda b: b.find_elements("css selector", "#trick li.played"))


def test_alerts_are_off_by_default_and_remembered(live: LiveServer, recording: Any) -> None:
    created = live.create_game("classic", ["human", "human"])
    seat = _to_first_card(live, created)
    _open(recording, live, created, seat)
    assert not by_id(recording, "alert-sound").is_selected()
    assert not by_id(recording, "alert-vibrate").is_selected()
    assert recording.execute_script("return window.__vibrations") == [], "off by default"
    by_id(recording, "alert-vibrate").click()
    recording.refresh()
    wait_for(recording, lambda b: b.find_elements("css selector", "#trick li.played"))
    assert by_id(recording, "alert-vibrate").is_selected(), "remembered in this browser"
    stored = recording.execute_script("return localStorage.getItem('fortyfive.alert.vibrate')")
    assert stored == "on"
    wait_for(recording, lambda b: b.execute_script("return window.__vibrations.length") == 1)
    assert not console_errors(recording)


def test_a_played_card_slides_in_unless_motion_is_reduced(live: LiveServer, recording: Any) -> None:
    created = live.create_game("classic", ["human", "human"])
    seat = _to_first_card(live, created)
    _open(recording, live, created, seat)
    # The card on the felt was marked as arriving (a redraw of the trick later draws it again
    # without the mark: a card slides in once).
    wait_for(recording, lambda b: b.execute_script("return window.__arrived.length") >= 1)
    # An arriving card slides in, and stays put where motion is reduced.
    animation = ("const card = document.querySelector('#trick li.played');"
                 "card.classList.add('arriving');"
                 "return getComputedStyle(card).animationName")
    assert recording.execute_script(animation) == "card-arrives"
    recording.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-reduced-motion", "value": "reduce"}]})
    wait_for(recording, lambda b: b.execute_script(animation) == "none")
    assert not console_errors(recording)
