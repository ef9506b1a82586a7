"""The table's first screen, as a card player opens it on a laptop (1280x800) and on a phone
(390x844), for every profile: the running score of every side, the trick, the hand and the
turn are all inside the window without scrolling, and none of them (nor the seat plates, the
card labels, the trumps box, the clock or the trick's winner) meets another. Checked by the
bounding boxes the browser lays out (first_screen.js), with the trick in play and with a
finished trick and its ruling shown.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_table import api_view, open_seat, play_until, shown_version
from viewport import FIRST_SCREENS, reset_viewport, set_viewport
from web_helpers import Bots, LiveServer, by_id, console_errors, css, wait_for

LAYOUT = (Path(__file__).parent / "first_screen.js").read_text("utf-8")
"""Collects the boxes of what the first screen must show; returns those outside the window
and every pair that meets."""

TABLES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "bruff": ("bruff", 6, {"turn_seconds": 3600}),
    "auction": ("auction", 4, {"turn_seconds": 3600}),
    "classic": ("classic", 4, {"turn_seconds": 3600, "layout": "pairs", "joker": "below_ah"}),
    # The big tables classic seats (engine/profiles.py: 2 to 10): seven and ten sides, each
    # with its own score, and eight players in four pairs from two packs.
    "classic-7": ("classic", 7, {"turn_seconds": 3600}),
    "classic-8-pairs": ("classic", 8, {"turn_seconds": 3600, "layout": "pairs", "decks": 2}),
    "classic-10": ("classic", 10, {"turn_seconds": 3600, "decks": 2}),
}
"""The tables measured: a name, then the profile, the seats and the options."""


def check_first_screen(browser: Any, view: dict[str, Any], what: str,
                       pictures: Path | None = None) -> None:
    """Measures the first screen at both sizes; when *pictures* is given, saves each as a
    picture named after it (its folder, and its name as a prefix), for a person to look at.
    Both sizes are measured before any box is reported, so that one run says all that is
    wrong."""
    wrong = []
    for size, (width, height) in FIRST_SCREENS.items():
        set_viewport(browser, width, height)
        # Measured at rest: a card sliding in to the trick passes its seat's plate on the way.
        wait_for(browser, lambda b: b.execute_script(
            "return document.getAnimations().every((a) => a.playState !== 'running')"))
        found = browser.execute_script(LAYOUT)
        if pictures is not None:
            shot = f"{pictures.name}-{what.replace(' ', '-')}-{size}.png"
            browser.save_screenshot(str(pictures.parent / shot))
        where = f"{what}, {view['profile']} of {view['players']}, {size} {width}x{height}"
        names = found["names"]
        assert [name for name in names if name.startswith("score ")] == [
            f"score {side}" for side in range(len(view["sides"]) + 1)], (where, names)
        assert {"turn", "hand heading", "trumps"} <= set(names), (where, names)
        assert [name for name in names if name.startswith("hand ") and name != "hand heading"] == [
            f"hand {card.upper()}" for card in view["hand"]], (where, names)
        assert any(name.startswith("trick card") for name in names), (where, names)
        assert len([name for name in names if name.startswith("seat ")]) == view["players"]
        if found["outside"]:
            wrong.append(f"{where}: not on the first screen: {found['outside']}")
        if found["overlaps"]:
            wrong.append(f"{where}: these meet: {found['overlaps']}")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("table", list(TABLES))
def test_score_trick_hand_and_turn_fit_the_first_screen_and_nothing_meets(
    live: LiveServer, bots: Bots, browser: Any, table: str, screenshots: Path,
) -> None:
    profile, seats, options = TABLES[table]
    created = live.create_game(profile, ["human"] + ["bot"] * (seats - 1), **options)
    game_id, token = created["id"], created["seats"][0]["token"]
    bots.watch(game_id)
    open_seat(browser, live, game_id, 0, token)

    def my_turn_in_a_later_trick(view: dict[str, Any]) -> bool:
        deal = view["deal"]
        current = deal and deal["current_trick"]
        return bool(view["turn"] == 0 and deal["phase"] == "play" and deal["tricks"]
                    and current and current["cards"])

    play_until(browser, live, bots, game_id, my_turn_in_a_later_trick)
    view = api_view(live, game_id, token)
    wait_for(browser, lambda b: shown_version(b) == view["version"]
             and by_id(b, "trick").get_attribute("data-held") == "false"
             and by_id(b, "hand").get_attribute("data-marked") == "true"
             and by_id(b, "clock").is_displayed())
    # The scores shown are the API's, one per side.
    shown = {int(item.get_attribute("data-side")): int(item.get_attribute("data-score"))
             for item in css(browser, "#scoreline li[data-side]")}
    assert shown == dict(enumerate(view["scores"]))
    assert "Your turn" in by_id(browser, "turn").text
    check_first_screen(browser, view, "the trick in play",
                       screenshots / f"first-screen-{table}" if seats >= 7 else None)

    # A finished trick shown again, with its winner and ruling under the felt.
    by_id(browser, "show-last").click()
    reset_viewport(browser)
    wait_for(browser, lambda b: by_id(b, "trick").get_attribute("data-held") == "true"
             and "wins trick" in by_id(b, "trick-note").text)
    check_first_screen(browser, view, "the last trick and its ruling",
                       screenshots / f"first-screen-{table}" if seats >= 7 else None)
    reset_viewport(browser)
    by_id(browser, "show-last").click()
    assert not console_errors(browser)
