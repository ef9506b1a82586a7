"""Creating a game in a player's words: every option of every profile has a label and a line
of help in words (no option code such as below_ah or deal_end, no true/false), and a
combination the server refuses is explained in plain words next to its control, which gets the
focus."""

from __future__ import annotations

import re
from typing import Any

from selenium.webdriver.support.ui import Select
from web_helpers import LiveServer, by_id, console_errors, css, wait_for

CODES = re.compile(r"\b[a-z]+_[a-z_]+\b|\btrue\b|\bfalse\b|\[invalid_profile\]")


def test_options_are_in_words_and_a_refused_combination_is_explained_at_its_control(
    live: LiveServer, browser: Any,
) -> None:
    browser.get(f"{live.url}/")
    wait_for(browser, lambda b: css(b, "#option-fields [data-option]"))
    by_id(browser, "options-details").click()
    profiles = [option.get_attribute("value") for option in css(browser, "#profile option")]
    assert set(profiles) == {"bruff", "auction", "classic"}
    for profile in profiles:
        Select(by_id(browser, "profile")).select_by_value(profile)
        fields = css(browser, "#option-fields .field.option")
        assert fields, profile
        for field in fields:
            text = field.text + " " + " ".join(
                option.text for option in field.find_elements("css selector", "option"))
            assert not CODES.search(text), f"{profile}: {text!r}"
            assert field.find_element("css selector", ".help").text.strip(), text
    joker = Select(by_id(browser, "option-joker"))
    assert "Joker: below the A\u2665 (53 cards)" in [option.text for option in joker.options]

    # Three players in partnerships of 2: the server refuses; the page says why at the control.
    by_id(browser, "players").clear()
    by_id(browser, "players").send_keys("3")
    wait_for(browser, lambda b: len(css(b, "#seat-choices select")) == 3)
    Select(by_id(browser, "option-layout")).select_by_visible_text("Partnerships of 2")
    by_id(browser, "create-button").click()
    error = wait_for(browser, lambda b: by_id(b, "option-layout-error")
                     if by_id(b, "option-layout-error").is_displayed() else None)
    assert error.text.startswith("Partnerships of 2 need a number of players that 2 divides")
    assert "3 players" in error.text and not CODES.search(error.text)
    layout = by_id(browser, "option-layout")
    assert layout.get_attribute("aria-invalid") == "true"
    assert browser.switch_to.active_element == layout
    assert "option-layout-error" in layout.get_attribute("aria-describedby")
    # Choosing again clears it.
    Select(layout).select_by_visible_text("Each for themselves")
    assert not by_id(browser, "option-layout-error").is_displayed()
    assert not console_errors(browser)
