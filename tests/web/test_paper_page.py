"""A paper table's score card on a phone (390x844): a player of one side enters the deals, a
player of the other side confirms them, and the drive's standings take the card's result."""

from __future__ import annotations

from typing import Any

from accessibility import serious_violations
from viewport import reset_viewport, set_viewport
from web_helpers import PHONE, LiveServer, by_id, console_errors, css, wait_for

from events.drive_store import DriveStore
from events.redis_store import RedisEventStore
from service.application import drives
from service.application.tokens import TokenRegistry

PLAYERS = [{"name": name, "type": "bot" if name[0] == "B" else "human"}
           for name in ("H1", "H2", "B1", "B2", "B3", "B4", "H3", "H4")]
"""Round 1 of the round-robin movement seats players 7, 1, 0 and 6 (the people) at table 1."""


def _start_round(live: LiveServer, drive_id: str) -> None:
    """Starts round 1 as the workers would (the paper table needs no game of its own)."""
    store = RedisEventStore.from_url(live.app.config["REDIS_URL"])
    try:
        drives.advance(store, live.app.extensions["fortyfive"].cache, DriveStore(store),
                       TokenRegistry(store.client), drive_id)
    finally:
        store.close()


def _page(browser: Any, live: LiveServer, drive_id: str, token: str) -> None:
    browser.get(f"{live.url}/drive/{drive_id}/table/1/score-card#token={token}")
    wait_for(browser, lambda b: "token" not in b.current_url)  # Taken out of the address.
    wait_for(browser, lambda b: by_id(b, "card-status").get_attribute("data-status") != "")


def test_a_phone_enters_a_paper_tables_card_and_the_other_side_confirms_it(
    browser: Any, live: LiveServer,
) -> None:
    client = live.app.test_client()
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 45}, "format": "progressive",
        "rounds": 1, "players": PLAYERS, "paper_tables": [1]}).get_json()
    drive_id = created["id"]
    _start_round(live, drive_id)
    view = client.get(f"/v1/drives/{drive_id}/tables/1/score_card").get_json()
    tokens = {p["player"]: p["token"] for p in created["players"]}
    side_a, side_b = ([tokens[p["player"]] for p in side["players"]] for side in view["sides"])
    set_viewport(browser, *PHONE)
    try:
        _page(browser, live, drive_id, side_a[0])
        assert by_id(browser, "card-status").get_attribute("data-status") == "empty"
        assert "seat 1" in by_id(browser, "card-sides").text  # Seats from 1, sides A and B.
        assert "Side A" in by_id(browser, "card-sides").text
        assert serious_violations(browser) == []
        # Deal 1 is dealt by seat 1; each new row passes the deal to the left.
        for number, points in enumerate(((20, 10), (15, 15), (15, 15)), start=1):
            if number > 1:
                by_id(browser, "add-deal").click()
            row = css(browser, "#deals tr")[number - 1]
            dealer = row.find_element("css selector", ".dealer")
            assert dealer.get_attribute("value") == str(number - 1)
            for field, value in zip(row.find_elements("css selector", ".points"), points,
                                    strict=True):
                field.clear()
                field.send_keys(str(value))
        # A wrong total is refused, saying which deal.
        first = css(browser, "#deals tr .points")[0]
        first.clear()
        first.send_keys("25")
        by_id(browser, "enter-card").click()
        wait_for(browser, lambda b: "invalid_score_card" in by_id(b, "messages").text)
        assert "deal 1" in by_id(browser, "messages").text
        first.clear()
        first.send_keys("20")
        by_id(browser, "enter-card").click()
        wait_for(browser, lambda b: by_id(b, "card-status").get_attribute(
            "data-status") == "entered")
        assert "A 50, B 40; side A wins" in by_id(browser, "card-status").text
        assert by_id(browser, "confirm-card").is_enabled()
        # The other side's phone confirms it.
        browser.get("about:blank")
        _page(browser, live, drive_id, side_b[0])  # Another phone's link: a new token.
        assert len(css(browser, "#deals tr")) == 3
        by_id(browser, "confirm-card").click()
        wait_for(browser, lambda b: by_id(b, "card-status").get_attribute(
            "data-status") == "confirmed")
        assert by_id(browser, "enter-card").get_attribute("disabled") is not None
        assert serious_violations(browser) == []
        assert console_errors(browser) == []
    finally:
        reset_viewport(browser)
    standings = client.get(f"/v1/drives/{drive_id}/standings").get_json()
    points = {row["name"]: row["points"] for row in standings["players"]}
    names = [[p["name"] for p in side["players"]] for side in view["sides"]]
    assert {points[n] for n in names[0]} == {50} and {points[n] for n in names[1]} == {40}
