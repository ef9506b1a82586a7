"""Pictures and rematches in the browser: the viewer links the picture of the deal on screen
(and its links name that deal, for a shared link's preview), and a seat at a finished game
plays again with its token through the "Play again" button."""

from __future__ import annotations

from typing import Any

from web_helpers import LiveServer, by_id, console_errors, wait_for


def _play_out(live: LiveServer, created: dict[str, Any]) -> None:
    """Plays every seat's first legal action through the API until the game is over."""
    client = live.app.test_client()
    path = f"/v1/games/{created['id']}"
    tokens = [seat["token"] for seat in created["seats"]]
    for _ in range(5000):
        public = client.get(path).get_json()
        if public["phase"] == "over":
            return
        seat = public["turn"]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        view = client.get(path, headers=auth).get_json()
        response = client.post(f"{path}/actions", json=view["legal_actions"][0],
                               headers={**auth, "If-Match": f'"{view["version"]}"'})
        assert response.status_code == 201, response.get_json()
    raise AssertionError("the game did not end")


def test_the_viewer_links_the_picture_of_the_deal_on_screen(live: LiveServer, browser: Any) -> None:
    created = live.create_game("classic", ["human", "human"], target=15)
    _play_out(live, created)
    game_id = created["id"]
    # The link names the first card played: a game to 15 can end within its first eight events.
    history = live.app.test_client().get(
        f"/v1/games/{game_id}/history?format=json&view=auditor").get_json()
    version = next(event["version"] for event in history["events"]
                   if event["type"] == "card_played")
    browser.get(f"{live.url}/viewer?game={game_id}&view=auditor#v={version}")
    wait_for(browser, lambda b: by_id(b, "history").get_attribute("data-version") == str(version))
    link = wait_for(browser, lambda b: by_id(b, "diagram-link") if by_id(
        b, "diagram-link").is_displayed() else None)
    assert link.get_attribute("data-deal") == "1"
    assert link.get_attribute("href") == (
        f"{live.url}/v1/games/{game_id}/deals/1/diagram.svg?view=auditor")
    assert "diagram=1" in by_id(browser, "permalink").get_attribute("href")
    browser.get(link.get_attribute("href"))
    wait_for(browser, lambda b: "Deal 1 of classic" in b.page_source)
    assert "hidden from this view" not in browser.page_source
    assert not console_errors(browser)


def test_play_again_opens_the_rematch_as_the_same_seat(live: LiveServer, browser: Any) -> None:
    created = live.create_game("classic", ["human", "human"], target=15)
    _play_out(live, created)
    game_id, token = created["id"], created["seats"][1]["token"]
    browser.get(f"{live.url}/table/{game_id}?seat=1#token={token}")
    wait_for(browser, lambda b: by_id(b, "rematch").is_displayed())
    by_id(browser, "rematch").click()
    wait_for(browser, lambda b: f"/table/{game_id}" not in b.current_url)
    new_id = browser.current_url.split("/table/", 1)[1].split("?", 1)[0]
    rematch = live.app.test_client().get(f"/v1/games/{game_id}/rematch").get_json()
    assert rematch["rematch"] == new_id
    wait_for(browser, lambda b: "Your hand (seat" in by_id(b, "hand-title").text)
    assert not console_errors(browser)


def test_a_name_given_when_creating_is_shown_at_the_table(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.support.ui import Select

    browser.get(f"{live.url}/")
    wait_for(browser, lambda b: by_id(b, "create-button").is_enabled())
    Select(by_id(browser, "profile")).select_by_value("classic")
    by_id(browser, "own-name").send_keys("Nóra")
    by_id(browser, "create-button").click()
    wait_for(browser, lambda b: "/table/" in b.current_url)
    wait_for(browser, lambda b: "Nóra" in by_id(b, "seats").text)
    game_id = browser.current_url.split("/table/", 1)[1].split("?", 1)[0]
    names = live.app.test_client().get(f"/v1/games/{game_id}").get_json()["names"]
    assert names[0] == "Nóra"
    assert not console_errors(browser)
