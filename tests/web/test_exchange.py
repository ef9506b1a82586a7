"""The auction's exchange by tapping the hand: each card is a toggle (aria-pressed), the button
says what will be thrown out and drawn, and posting it throws out exactly the cards tapped."""

from __future__ import annotations

from typing import Any

from accessibility import serious_violations
from test_table import api_view, open_seat, play_until, shown_version
from viewport import FIRST_SCREENS, reset_viewport, set_viewport
from web_helpers import Bots, LiveServer, by_id, click_by_id, console_errors, css, wait_for

from engine.refusals import card_text


def test_the_exchange_is_made_by_tapping_cards_in_the_hand(
    live: LiveServer, bots: Bots, browser: Any,
) -> None:
    created = live.create_game("auction", ["human", "bot", "bot", "bot"])
    game_id, token = created["id"], created["seats"][0]["token"]
    bots.watch(game_id)
    open_seat(browser, live, game_id, 0, token)

    def my_exchange(view: dict[str, Any]) -> bool:
        return bool(view["turn"] == 0 and view["deal"] and view["deal"]["phase"] == "discard")

    play_until(browser, live, bots, game_id, my_exchange)
    view = api_view(live, game_id, token)
    wait_for(browser, lambda b: shown_version(b) == view["version"]
             and by_id(b, "hand").get_attribute("data-marked") == "true"
             and css(b, "#hand button.choosable"))
    assert not css(browser, "#actions input[type=checkbox]"), "no checkboxes any more"
    cards = css(browser, "#hand button.choosable")
    assert [card.get_attribute("data-card") for card in cards] == [
        card.upper() for card in view["hand"]]
    assert all(card.get_attribute("aria-pressed") == "false" for card in cards)
    assert by_id(browser, "discard-submit").text == "Keep all cards"

    def card(code: str) -> Any:
        return css(browser, f'#hand button[data-card="{code}"]')[0]

    codes = [code.upper() for code in view["hand"]]
    for code in (codes[0], codes[2], codes[2], codes[1]):  # The third card is taken back.
        card(code).click()
    chosen = codes[:2]
    assert [card(code).get_attribute("aria-pressed") for code in codes[:3]] == [
        "true", "true", "false"]
    named = " ".join(card_text(code) for code in chosen)
    assert by_id(browser, "discard-submit").text == f"Discard {named} and draw 2"
    for size, (width, height) in FIRST_SCREENS.items():
        set_viewport(browser, width, height)
        assert serious_violations(browser) == [], size
    reset_viewport(browser)

    click_by_id(browser, "discard-submit")
    wait_for(browser, lambda b: shown_version(b) > view["version"])
    events = live.app.test_client().get(
        f"/v1/games/{game_id}/events?after={view['version']}",
        headers={"Authorization": f"Bearer {token}"}).get_json()
    thrown = next(event for event in events["events"] if event["type"] == "cards_discarded")
    assert thrown["data"]["seat"] == 0
    assert sorted(card.upper() for card in thrown["data"]["cards"]) == sorted(chosen)
    assert not console_errors(browser)


def a_seat_that_may_rob(live: LiveServer) -> tuple[str, str, dict[str, Any]]:
    """A classic game of two people, moved on through the API until seat 0 may rob."""
    client = live.app.test_client()
    for _attempt in range(80):
        created = live.create_game("classic", ["human", "human"])
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        while api_view(live, game_id)["deal"]["number"] == 1:
            turn = api_view(live, game_id)["turn"]
            mine = api_view(live, game_id, tokens[turn])
            if turn == 0 and any(a["type"] == "rob" for a in mine["legal_actions"]):
                return game_id, tokens[0], mine
            action = next(a for a in mine["legal_actions"] if a["type"] != "rob")
            answer = client.post(f"/v1/games/{game_id}/actions", json=action, headers={
                "Authorization": f"Bearer {tokens[turn]}", "If-Match": f'"{mine["version"]}"'})
            assert answer.status_code == 201, answer.get_json()
    raise AssertionError("seat 0 never held the ace of trumps")


def test_the_rob_is_made_by_tapping_the_card_to_put_face_down(
    live: LiveServer, browser: Any,
) -> None:
    game_id, token, view = a_seat_that_may_rob(live)
    open_seat(browser, live, game_id, 0, token)
    wait_for(browser, lambda b: shown_version(b) == view["version"]
             and by_id(b, "hand").get_attribute("data-marked") == "true")
    # Read through waits: a view arriving from the stream may redraw the help and the toggle.
    wait_for(browser, lambda b: "just play a card: playing declines the rob"
             in by_id(b, "rob-help").text)
    click_by_id(browser, "rob-toggle")
    choices = wait_for(browser, lambda b: css(b, "#hand button.rob-choice"))
    robs = {a["discard"].upper(): a for a in view["legal_actions"] if a["type"] == "rob"}
    assert {card.get_attribute("data-card") for card in choices} == set(robs)
    wait_for(browser, lambda b: "Tap the card of your hand to put face down"
             in by_id(b, "rob-help").text)
    for size, (width, height) in FIRST_SCREENS.items():
        set_viewport(browser, width, height)
        assert serious_violations(browser) == [], size
    reset_viewport(browser)
    code = choices[-1].get_attribute("data-card")
    choices[-1].click()
    wait_for(browser, lambda b: shown_version(b) > view["version"])
    after = api_view(live, game_id, token)
    assert after["deal"]["robbed_by"] == 0
    assert code not in [card.upper() for card in after["hand"]]
    assert view["deal"]["turn_up"].upper() in [card.upper() for card in after["hand"]]
    assert not console_errors(browser)
