"""axe-core (the current version, tests/web/accessibility.py) finds nothing serious or critical
on any page at laptop and phone size: the lobby, the invite page with a refused name, the
table in play (cards that may and may not
be played, the actions), the viewer with a game loaded. (The drive page: test_drive_page.py.)
And the hand is one tab stop, the arrow keys moving within it."""

from __future__ import annotations

from typing import Any

import pytest
from accessibility import serious_violations
from test_table import api_view, open_seat, post_first_legal
from viewport import FIRST_SCREENS, reset_viewport, set_viewport
from web_helpers import Bots, LiveServer, by_id, console_errors, css, wait_for


def assert_no_serious_finding(browser: Any, page: str) -> None:
    try:
        for size, (width, height) in FIRST_SCREENS.items():
            set_viewport(browser, width, height)
            found = serious_violations(browser)
            assert found == [], f"{page} at {size} size: {found}"
    finally:
        reset_viewport(browser)


def test_the_lobby_has_no_serious_finding(live: LiveServer, browser: Any) -> None:
    browser.get(f"{live.url}/")
    wait_for(browser, lambda b: css(b, "#option-fields [data-option]"))
    by_id(browser, "options-details").click()
    assert_no_serious_finding(browser, "the lobby")
    assert not console_errors(browser)


def test_the_invite_page_has_no_serious_finding_with_a_refused_name(
        live: LiveServer, browser: Any) -> None:
    created = live.app.test_client().post("/v1/games", json={
        "profile": "classic", "seats": [{"type": "human", "name": "Ann"},
                                        {"type": "human", "claimable": True}]}).get_json()
    browser.get(f"{live.url}{created['seats'][1]['claim']['invite']}")
    wait_for(browser, lambda b: by_id(b, "claim-form").is_displayed())
    by_id(browser, "claim-name").send_keys("ann")
    by_id(browser, "claim-button").click()
    wait_for(browser, lambda b: by_id(b, "claim-name-error").is_displayed())
    assert_no_serious_finding(browser, "the invite page")
    assert not console_errors(browser)


def a_hand_with_a_card_that_may_not_be_played(live: LiveServer) -> tuple[str, list[str], int]:
    for _attempt in range(20):
        created = live.create_game("classic", ["human", "human"])
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        while api_view(live, game_id)["deal"]["number"] == 1:
            view = api_view(live, game_id)
            mine = api_view(live, game_id, tokens[view["turn"]])
            plays = [a for a in mine["legal_actions"] if a["type"] == "play"]
            if plays and len(plays) < len(mine["hand"]):
                return game_id, tokens, view["turn"]
            post_first_legal(live, game_id, tokens[view["turn"]])
    pytest.fail("no deal had a card that may not be played")


def test_the_table_has_no_serious_finding_and_the_hand_is_one_tab_stop(
    live: LiveServer, bots: Bots, browser: Any,
) -> None:
    from selenium.webdriver.common.keys import Keys

    game_id, tokens, seat = a_hand_with_a_card_that_may_not_be_played(live)
    open_seat(browser, live, game_id, seat, tokens[seat])
    wait_for(browser, lambda b: by_id(b, "hand").get_attribute("data-marked") == "true"
             and css(b, "#hand button.unplayable"))
    css(browser, "#hand button.unplayable")[0].click()  # Its refusal shown, the rule folded.
    wait_for(browser, lambda b: "may not be played" in by_id(b, "card-reason").text)
    assert_no_serious_finding(browser, "the table")

    # One tab stop: the first playable card; the arrow keys go through every card.
    stops = [button for button in css(browser, "#hand button")
             if button.get_attribute("tabindex") == "0"]
    assert len(stops) == 1 and "playable" in stops[0].get_attribute("class")
    cards = [button.get_attribute("data-card") for button in css(browser, "#hand button")]
    browser.execute_script("arguments[0].focus()", stops[0])
    start = cards.index(stops[0].get_attribute("data-card"))
    seen = []
    for step in range(len(cards)):
        active = browser.switch_to.active_element
        seen.append(active.get_attribute("data-card"))
        assert seen[-1] == cards[(start + step) % len(cards)]
        active.send_keys(Keys.ARROW_RIGHT)
    assert sorted(seen) == sorted(cards)
    # Tab leaves the hand at once, whatever card has the focus.
    browser.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("data-card") is None
    assert not console_errors(browser)


def test_the_viewer_has_no_serious_finding(live: LiveServer, browser: Any) -> None:
    created = live.create_game("classic", ["human", "human"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    for _ in range(12):
        view = api_view(live, game_id)
        post_first_legal(live, game_id, tokens[view["turn"]])
    browser.get(f"{live.url}/viewer?game={game_id}")
    wait_for(browser, lambda b: css(b, "#tricks li, .trick-row"))
    assert_no_serious_finding(browser, "the viewer")
    assert not console_errors(browser)
