"""The web client in a real browser: a game played to its end by clicking legal actions, a
stale click answered with the 412 message, and the hand-history viewer stepping through tricks.

Headless Chromium through Debian's chromedriver (see conftest.py); skipped when they are not
installed. The pages' headers and self-containment are checked without a browser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    Bots,
    LiveServer,
    by_id,
    console_errors,
    css,
    wait_for,
    wait_for_game_over,
)

from replay.formats.build import build_history
from replay.formats.jsonformat import dumps
from replay.sample import GameDriver, seeded_choice
from service.http.routes import web

WEB_DIR = web.WEB_DIR


@pytest.fixture
def browser(chrome: Any) -> Any:
    """The module's browser, its console emptied of earlier tests' messages."""
    chrome.get_log("browser")
    return chrome


# Without a browser ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/", "/table/g-any?seat=1", "/claim/g-any/1", "/viewer", "/viewer?game=g-any"])
def test_pages_carry_a_content_security_policy(live: LiveServer, path: str) -> None:
    response = live.app.test_client().get(path)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert b'<script type="module" src="/web/' in response.data


def test_scripts_and_styles_are_served_from_this_origin(live: LiveServer) -> None:
    client = live.app.test_client()
    for name in ("app.js", "viewer.js", "cards.js", "history.js"):
        response = client.get(f"/web/{name}")
        assert response.status_code == 200
        assert "javascript" in (response.mimetype or "")
        assert "Content-Security-Policy" in response.headers
    assert client.get("/web/style.css").mimetype == "text/css"
    assert client.get("/web/../web.py").status_code == 404


def test_no_page_loads_anything_from_elsewhere() -> None:
    external = re.compile(r"""(?:src|href|from|url\()\s*=?\s*["']?(?:https?:)?//""", re.I)
    for path in sorted(WEB_DIR.iterdir()):
        text = path.read_text("utf-8")
        assert not external.search(text), f"{path.name} refers to another origin"
        if path.suffix == ".html":
            assert "<script>" not in text and " style=" not in text, (
                f"{path.name} has inline script or style, which the policy refuses"
            )


# The table -----------------------------------------------------------------------------------


def test_a_game_against_a_bot_is_played_to_its_end_by_clicking_legal_actions(
    live: LiveServer, bots: Bots, browser: Any, tmp_path: Path,
) -> None:
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.support.ui import Select

    browser.get(f"{live.url}/")
    wait_for(browser, lambda b: css(b, "#profile option[value=classic]"))
    Select(by_id(browser, "profile")).select_by_value("classic")
    players = by_id(browser, "players")
    players.clear()
    players.send_keys("2")
    wait_for(browser, lambda b: len(css(b, "#seat-choices select")) == 2)
    Select(by_id(browser, "seat-type-0")).select_by_value("human")
    Select(by_id(browser, "seat-type-1")).select_by_value("bot")
    by_id(browser, "create-button").click()

    wait_for(browser, lambda b: "/table/" in b.current_url)
    game_id = re.search(r"/table/([^/?#]+)", browser.current_url).group(1)  # type: ignore[union-attr]
    assert browser.current_url.endswith("?seat=0")
    bots.watch(game_id)
    wait_for(browser, lambda b: by_id(b, "table").get_attribute("data-version"))

    clicks = 0
    while not by_id(browser, "winner").is_displayed():
        assert bots.error is None, f"a bot failed: {bots.error!r}"
        buttons = wait_for(browser, lambda b: css(b, "#table button.action:not(:disabled)")
                           or by_id(b, "winner").is_displayed())
        if buttons is True:
            continue  # The winner is shown.
        try:
            buttons[0].click()
        except (StaleElementReferenceException, ElementClickInterceptedException):
            continue  # The view was redrawn under the pointer: look again.
        clicks += 1
        assert clicks < 200, "the game did not end in 200 clicks"
        wait_for(browser, lambda b: not css(b, "#table button.action:disabled"))

    final = live.app.test_client().get(f"/v1/games/{game_id}").get_json()
    assert final["phase"] == "over" and final["winner"] is not None
    winner = by_id(browser, "winner").text
    side = "AB"[final["winner"]]
    assert f"Side {side} " in winner and "wins the game" in winner
    assert ("you win" in winner) == (final["winner"] == 0)
    assert by_id(browser, "table").get_attribute("data-phase") == "over"
    scores = [cell.text for cell in css(browser, "#scores td.score")]
    assert scores == [str(score) for score in final["scores"]]
    rulings = by_id(browser, "facts").text
    assert "won by seat" in rulings and re.search(r"\b(trick|finish|bonus)\.[a-z_.]+", rulings)
    assert not css(browser, "#table button.action"), "a finished game offers no action"
    assert not console_errors(browser)

    shot = tmp_path / "table.png"
    browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_create_form_shows_the_layout_the_table_size_gets_and_creates_it(
    live: LiveServer, browser: Any,
) -> None:
    from selenium.webdriver.support.ui import Select

    browser.get(f"{live.url}/")
    wait_for(browser, lambda b: css(b, "#profile option[value=classic]"))
    Select(by_id(browser, "profile")).select_by_value("classic")
    wait_for(browser, lambda b: len(css(b, "#seat-choices select")) == 2)
    for players, layout in ((4, "pairs"), (6, "triples"), (5, "individuals"), (8, "pairs")):
        field = by_id(browser, "players")
        field.clear()
        field.send_keys(str(players))
        wait_for(browser, lambda b, n=players: len(css(b, "#seat-choices select")) == n)
        shown = Select(by_id(browser, "option-layout")).first_selected_option
        assert shown.get_attribute("value") == f'"{layout}"', (players, shown.text)
    by_id(browser, "create-button").click()
    wait_for(browser, lambda b: "/table/" in b.current_url or by_id(b, "invites").is_displayed())
    game_id = re.search(r"/table/([^/?#]+)", browser.current_url)
    assert game_id, browser.current_url
    view = live.app.test_client().get(f"/v1/games/{game_id.group(1)}").get_json()
    assert view["players"] == 8 and view["options"]["layout"] == "pairs"


def test_the_create_form_invites_the_other_players_and_an_invite_claims_its_seat_once(
    live: LiveServer, browser: Any,
) -> None:
    """The creator named Ann invites a second player, who is refused Ann's name (said under
    the field, the seat still free), claims the seat as Séan and is called so at the table;
    the invite opened again says it was used."""
    from selenium.webdriver.support.ui import Select

    browser.get(f"{live.url}/")
    wait_for(browser, lambda b: css(b, "#profile option[value=classic]"))
    Select(by_id(browser, "profile")).select_by_value("classic")
    wait_for(browser, lambda b: len(css(b, "#seat-choices select")) == 2)
    Select(by_id(browser, "seat-type-1")).select_by_value("human")
    by_id(browser, "own-name").send_keys("Ann")
    by_id(browser, "create-button").click()

    wait_for(browser, lambda b: by_id(b, "invites").is_displayed())
    invite = by_id(browser, "invite-1").get_attribute("value")
    match = re.fullmatch(rf"{re.escape(live.url)}/claim/([0-9a-f]+)/1#code=([\w-]+)", invite)
    assert match, invite
    game_id = match.group(1)
    assert by_id(browser, "copy-invite-1").text == "Copy"
    assert "no auditor token" in by_id(browser, "invite-auditor").text
    view = live.app.test_client().get(f"/v1/games/{game_id}").get_json()
    assert view["unclaimed_seats"] == [1] and view["auditor"] is False
    by_id(browser, "open-own-seat").click()
    wait_for(browser, lambda b: b.current_url.endswith(f"/table/{game_id}?seat=0"))
    wait_for(browser, lambda b: by_id(b, "share-invite-1").get_attribute("value") == invite)
    assert "not claimed yet" in by_id(browser, "seat-list").text
    assert "no auditor token" in by_id(browser, "auditor-note").text

    browser.get(invite)
    wait_for(browser, lambda b: by_id(b, "claim-form").is_displayed())
    assert by_id(browser, "claim-title").text == "Take seat 2"
    by_id(browser, "claim-name").send_keys(" ANN ")
    by_id(browser, "claim-button").click()
    error = wait_for(browser, lambda b: by_id(b, "claim-name-error").is_displayed()
                     and by_id(b, "claim-name-error").text)
    assert 'Another seat at this table is named "ANN"' in error, error
    assert by_id(browser, "claim-name").get_attribute("aria-invalid") == "true"
    assert live.app.test_client().get(f"/v1/games/{game_id}").get_json()["unclaimed_seats"] == [1]
    by_id(browser, "claim-name").clear()
    by_id(browser, "claim-name").send_keys("Séan")
    by_id(browser, "claim-button").click()
    wait_for(browser, lambda b: b.current_url.endswith(f"/table/{game_id}?seat=1"))
    wait_for(browser, lambda b: by_id(b, "table").get_attribute("data-version"))
    view = live.app.test_client().get(f"/v1/games/{game_id}").get_json()
    assert view["unclaimed_seats"] == [] and view["names"] == ["Ann", "Séan"]
    wait_for(browser, lambda b: "Your hand (seat 2, side B)" in by_id(b, "hand-title").text)
    plates = wait_for(browser, lambda b: [plate.text for plate in css(b, "#seats .seat")])
    assert any("Seat 2 Séan" in plate for plate in plates), plates
    assert any("Seat 1 Ann" in plate for plate in plates), plates
    browser.execute_script("sessionStorage.clear()")
    browser.get(invite)
    wait_for(browser, lambda b: "used already" in by_id(b, "messages").text)
    assert "#code=" not in browser.current_url
    assert "/table/" not in browser.current_url


def test_a_click_on_a_stale_view_shows_the_412_message(
    live: LiveServer, browser: Any,
) -> None:
    created = live.create_game("classic", ["human", "human"])
    game_id = created["id"]
    client = live.app.test_client()
    seat = client.get(f"/v1/games/{game_id}").get_json()["turn"]
    token = created["seats"][seat]["token"]

    browser.get(f"{live.url}/table/{game_id}?seat={seat}#token={token}")
    wait_for(browser, lambda b: css(b, "#table button.action:not(:disabled)"))
    assert token not in browser.current_url, "the token must leave the address bar"
    by_id(browser, "live").click()  # Stop following, so the view stays stale.
    wait_for(browser, lambda b: "paused" in by_id(b, "live-state").text)
    shown = int(by_id(browser, "table").get_attribute("data-version"))

    headers = {"Authorization": f"Bearer {token}"}
    view = client.get(f"/v1/games/{game_id}", headers=headers).get_json()
    moved = client.post(
        f"/v1/games/{game_id}/actions", json=view["legal_actions"][0],
        headers={**headers, "If-Match": f'"{view["version"]}"'},
    )
    assert moved.status_code == 201
    current = moved.get_json()["version"]
    assert current > shown

    css(browser, "#table button.action:not(:disabled)")[0].click()
    alert = wait_for(browser, lambda b: css(b, "#messages [role=alert]"))[0]
    message = alert.text
    assert "(412)" in message and f"version {current}" in message, message
    assert "moved on" in message
    wait_for(browser, lambda b: by_id(b, "table").get_attribute("data-version") == str(current))
    after = client.get(f"/v1/games/{game_id}").get_json()["version"]
    assert after == current, "the stale click appended nothing"


# The viewer ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def history_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A finished classic game's history, as seat 0 saw it, in a file; its bot is strong."""
    driver = GameDriver("g-web-viewer", "web-viewer").start("classic", ["human", "bot"],
                                                             bot_levels=[None, "strong"])
    driver.play(seeded_choice("web-viewer"))
    history = build_history("g-web-viewer", driver.recorded, 0)
    path = tmp_path_factory.mktemp("history") / "history.json"
    path.write_bytes(dumps(history))
    return path, json.loads(path.read_bytes())


def test_the_viewer_steps_through_an_uploaded_history_trick_by_trick(
    live: LiveServer, browser: Any, history_file: tuple[Path, dict[str, Any]],
) -> None:
    path, doc = history_file
    first_deal = doc["results"]["deals"][0]
    won = [fact for fact in first_deal["facts"] if fact["kind"] == "trick_won"]
    last_version = doc["events"][-1]["version"]

    browser.get(f"{live.url}/viewer")
    by_id(browser, "history-file").send_keys(str(path))
    history = wait_for(browser, lambda b: by_id(b, "history") if by_id(b, "history").is_displayed()
                       else None)
    assert history.get_attribute("data-version") == str(last_version)
    assert by_id(browser, "next").get_attribute("disabled") is not None
    # The bot's level, as the history's creation records it.
    assert "seat 2 (bot, strong)" in by_id(browser, "history-summary").text

    by_id(browser, "first").click()
    assert history.get_attribute("data-trick") == ""
    for number in (1, 2, 3):
        by_id(browser, "next-trick").click()
        assert history.get_attribute("data-deal") == "1"
        assert history.get_attribute("data-trick") == str(number)
        assert history.get_attribute("data-version") == str(won[number - 1]["version"])
        assert browser.current_url.endswith(f"#v={won[number - 1]['version']}")
        row = css(browser, f"#tricks li[data-trick='{number}']")[0]
        assert won[number - 1]["ruling"]["text"] in row.text
        assert row.get_attribute("aria-current") == "step"
        assert won[number - 1]["ruling"]["text"] in by_id(browser, "rulings").text
    by_id(browser, "prev-trick").click()
    assert history.get_attribute("data-trick") == "2"
    by_id(browser, "prev").click()
    assert int(history.get_attribute("data-version")) == won[1]["version"] - 1
    rulings = by_id(browser, "rulings").text
    assert won[1]["ruling"]["text"] not in rulings, "a ruling shown before its event"

    # A link to an event opens the history there.
    target = won[3]["version"]
    browser.get(f"{live.url}/viewer#v={target}")
    by_id(browser, "history-file").send_keys(str(path))
    wait_for(browser, lambda b: by_id(b, "history").get_attribute("data-version") == str(target))
    assert by_id(browser, "history").get_attribute("data-trick") == "4"
    assert not console_errors(browser)


def test_the_viewer_says_what_is_wrong_with_a_document_that_is_not_a_history(
    live: LiveServer, browser: Any,
) -> None:
    browser.get(f"{live.url}/viewer")
    by_id(browser, "history-text").send_keys('{"format": "something-else"}')
    by_id(browser, "history-show").click()
    alert = wait_for(browser, lambda b: css(b, "#messages [role=alert]"))[0]
    assert "not a hand history" in alert.text
    assert not by_id(browser, "history").is_displayed()


def test_the_viewer_loads_a_game_history_from_the_api(
    live: LiveServer, bots: Bots, browser: Any,
) -> None:
    rules = {rule.rule for rule in live.app.url_map.iter_rules()}
    if "/v1/games/<game_id>/history" not in rules:
        pytest.skip("the API does not serve hand histories yet (GET /v1/games/{id}/history)")
    created = live.create_game("classic", ["bot", "bot"])
    game_id = created["id"]
    bots.watch(game_id)
    wait_for_game_over(browser, live, game_id)
    browser.get(f"{live.url}/viewer?game={game_id}#v=3")
    history = wait_for(browser, lambda b: by_id(b, "history") if by_id(b, "history").is_displayed()
                       else None)
    assert history.get_attribute("data-version") == "3"
    assert "as seen by a spectator" in by_id(browser, "history-summary").text
    assert "hidden from this view" in by_id(browser, "hands").text
    by_id(browser, "next-trick").click()
    assert history.get_attribute("data-trick") == "1"
    assert "won by seat" in by_id(browser, "rulings").text

    # Once the game is over, anyone may replay it with every hand shown.
    browser.get(f"{live.url}/viewer?game={game_id}&view=auditor")
    wait_for(browser, lambda b: "as seen by the auditor" in by_id(b, "history-summary").text)
    assert "hidden" not in by_id(browser, "hands").text
    assert not console_errors(browser)
