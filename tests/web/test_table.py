"""The table as card players expect it, in a real browser: seats around the felt with the
trick in the middle and the hand at the near edge (desktop and phone), a finished trick held
on the table with its winner and ruling, trumps marked in the hand, an unplayable card that
says why, the turn clock's countdown and its move announced, the score sheet against the
API's scores deal by deal, the bidding table, and no serious axe-core finding.

The tests marked ``screenshots`` take the pictures README.md shows (``./dev screenshots``
saves them into docs/screenshots/; a test run keeps them in a temporary folder).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from accessibility import serious_violations
from web_helpers import (
    DESKTOP,
    PHONE,
    Bots,
    LiveServer,
    by_id,
    click_first_action,
    console_errors,
    css,
    screenshot,
    wait_for,
)

from engine.cards import Suit, parse_cards
from engine.legality import legal_cards
from engine.profiles import make_ruleset
from engine.query import legal_query
from engine.ranking import is_protected, ranking
from workers import jobs


def api_view(live: LiveServer, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = live.app.test_client().get(f"/v1/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def post_first_legal(live: LiveServer, game_id: str, token: str) -> dict[str, Any]:
    """Posts the seat's first legal action through the API; returns the new view."""
    view = api_view(live, game_id, token)
    response = live.app.test_client().post(
        f"/v1/games/{game_id}/actions", json=view["legal_actions"][0],
        headers={"Authorization": f"Bearer {token}", "If-Match": f'"{view["version"]}"'},
    )
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def open_seat(browser: Any, live: LiveServer, game_id: str, seat: int, token: str) -> None:
    browser.get(f"{live.url}/table/{game_id}?seat={seat}#token={token}")
    wait_for(browser, lambda b: by_id(b, "table").get_attribute("data-version"))


def shown_version(browser: Any) -> int:
    return int(by_id(browser, "table").get_attribute("data-version") or 0)


def play_until(browser: Any, live: LiveServer, bots: Bots, game_id: str,
               done: Any, limit: int = 300) -> None:
    """Clicks the seat's first legal action (a Pass where there is one) until *done(view)*
    holds for the spectator view of the API."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(limit):
        assert bots.error is None, f"a bot failed: {bots.error!r}"
        view = api_view(live, game_id)
        if done(view):
            return
        try:
            if css(browser, "#table button.action-pass:not(:disabled)"):
                click_first_action(browser, "#table button.action-pass:not(:disabled)")
            elif not click_first_action(browser):
                wait_for(browser, lambda b, v=view: shown_version(b) != v["version"]
                         or css(b, "#table button.action:not(:disabled)")
                         or done(api_view(live, game_id)))
        except StaleElementReferenceException:
            continue  # The table was redrawn under the test: look again.
    raise AssertionError("the game did not reach the state the test waits for")


def expected_trumps(view: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The hand's trumps and top trumps, from the engine's ranking (not from the page)."""
    rules = make_ruleset(view["profile"], view["options"], view["players"])
    order = ranking(Suit.parse(view["trump"]), rules)
    hand = parse_cards(view["hand"])
    trumps = {card.code() for card in hand if order.is_trump(card)}
    top = {card.code() for card in hand if order.is_trump(card) and is_protected(card, order.trump)}
    return trumps, top


# The table's layout --------------------------------------------------------------------------

READ_TABLE = """
const box = (e) => { const r = e.getBoundingClientRect();
  return {x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height}; };
const all = (selector) => [...document.querySelectorAll(selector)];
return {
  plates: all('#seats .seat').length,
  dealers: all('#seats .dealer-chip').map((chip) => chip.closest('li').dataset.seat),
  to_act: all('#seats .seat.to-act').map((plate) => plate.dataset.seat),
  badges: all('#seats .seat .side-badge').map((badge) => badge.textContent.trim()),
  trump_info: document.getElementById('trump-info').innerText,
  trumps: all('#hand .card.trump').map((card) => card.dataset.card),
  top_trumps: all('#hand .card.top-trump').map((card) => card.dataset.card),
  felt: box(document.getElementById('felt')),
  trick: all('#trick li').map(box),
  trick_box: box(document.getElementById('trick')),
  hand: box(document.getElementById('hand')),
  hand_cards: all('#hand .card').map(box),
};
"""


def read_table(browser: Any) -> dict[str, Any]:
    """The seats, trumps and boxes of the table, read in one script: the page redraws the
    table whenever its stream reconnects, which a read element by element could straddle."""
    table: dict[str, Any] = browser.execute_script(READ_TABLE)
    return table


@pytest.mark.screenshots
def test_the_table_puts_seats_around_the_trick_and_the_hand_at_the_near_edge(
    live: LiveServer, bots: Bots, browser: Any, screenshots: Path,
) -> None:
    created = live.create_game("bruff", ["human"] + ["bot"] * 5)
    game_id, token = created["id"], created["seats"][0]["token"]
    bots.watch(game_id)
    open_seat(browser, live, game_id, 0, token)

    def my_turn_in_a_trick(view: dict[str, Any]) -> bool:
        deal = view["deal"]
        current = deal and deal["current_trick"]
        return bool(view["turn"] == 0 and deal["phase"] == "play" and deal["tricks"]
                    and current and current["cards"])

    play_until(browser, live, bots, game_id, my_turn_in_a_trick)
    view = api_view(live, game_id, token)
    wait_for(browser, lambda b: shown_version(b) == view["version"]
             and by_id(b, "trick").get_attribute("data-held") == "false")
    wait_for(browser, lambda b: by_id(b, "hand").get_attribute("data-marked") == "true")

    table = read_table(browser)
    assert table["plates"] == 6
    assert table["dealers"] == [str(view["deal"]["dealer"])]
    assert table["to_act"] == ["0"]
    assert set(table["badges"]) == {"A", "B", "C"}
    # Trumps and the turn-up beside the trick, and the hand's trumps marked as the engine says.
    info = table["trump_info"]
    assert {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}[view["trump"]] in info
    trumps, top = expected_trumps(view)
    assert set(table["trumps"]) == trumps
    assert set(table["top_trumps"]) == top
    # Every card of the trick sits on the felt, toward the seat that played it.
    felt = table["felt"]
    assert len(table["trick"]) == len(view["deal"]["current_trick"]["cards"])
    for box in table["trick"]:
        assert felt["x"] < box["x"] and box["x"] + box["width"] < felt["x"] + felt["width"]
    hand = table["hand"]
    assert hand["y"] > felt["y"] + felt["height"] / 2, "the hand is at the near edge"
    assert not serious_violations(browser), serious_violations(browser)
    screenshot(browser, screenshots, "table-desktop", *DESKTOP)

    screenshot(browser, screenshots, "table-phone", *PHONE)
    height = browser.execute_script("return window.innerHeight")
    wide = browser.execute_script(
        "return [...document.querySelectorAll('body *')]"
        ".filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)"
        ".map((e) => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5)")
    assert not wide, f"the phone page is wider than the screen: {wide}"
    table = read_table(browser)
    trick = table["trick_box"]
    assert trick["y"] + trick["height"] <= height, "the trick is on the phone's first screen"
    assert all(card["y"] + card["height"] <= height for card in table["hand_cards"]), (
        "the hand is on the phone's first screen"
    )
    browser.set_window_size(*DESKTOP)
    assert not console_errors(browser)


# A finished trick stays on the table ---------------------------------------------------------

WATCH_TRICK = """
window.trickLog = [];
const trick = document.getElementById('trick');
const record = () => window.trickLog.push({
  at: performance.now(), held: trick.dataset.held, cards: Number(trick.dataset.cards),
  number: trick.dataset.trick, note: document.getElementById('trick-note').textContent,
});
new MutationObserver(record).observe(trick, {attributes: true, childList: true, subtree: true});
record();
"""


def test_a_finished_trick_stays_on_the_table_with_its_winner_and_ruling(
    live: LiveServer, browser: Any,
) -> None:
    created = live.create_game("classic", ["human", "human"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    while api_view(live, game_id)["phase"] != "play":
        post_first_legal(live, game_id, tokens[api_view(live, game_id)["turn"]])
    open_seat(browser, live, game_id, 0, tokens[0])
    browser.execute_script(WATCH_TRICK)

    # Play trick 1: seat 0 in the browser, seat 1 through the API.
    while not api_view(live, game_id)["deal"]["tricks"]:
        view = api_view(live, game_id)
        if view["turn"] == 0:
            wait_for(browser, lambda b, v=view: shown_version(b) == v["version"]
                     and css(b, "#hand button.playable:not(:disabled)"))
            css(browser, "#hand button.playable:not(:disabled)")[0].click()
            wait_for(browser, lambda b, v=view: shown_version(b) > v["version"])
        else:
            post_first_legal(live, game_id, tokens[1])
    view = api_view(live, game_id)
    trick = view["deal"]["tricks"][0]
    won = next(f for f in view["deal"]["facts"] if f["kind"] == "trick_won" and f["trick"] == 1)
    if view["turn"] == 1:
        post_first_legal(live, game_id, tokens[1])  # The next card, while the trick is held.
    # The hold ends by itself; the log, kept by the page, says what was shown and when.
    wait_for(browser, lambda b: any(
        entry["held"] == "false" for entry in b.execute_script("return window.trickLog")
        if entry["at"] > next((e["at"] for e in b.execute_script("return window.trickLog")
                               if e["held"] == "true"), float("inf"))))
    log = browser.execute_script("return window.trickLog")
    held = [entry for entry in log if entry["held"] == "true"]
    assert held, log
    first = held[0]
    assert first["cards"] == 2 and first["number"] == "1"
    assert f"Seat {trick['winner'] + 1}" in first["note"] and "wins trick 1" in first["note"]
    assert won["ruling"]["rule"] in first["note"] and won["ruling"]["text"] in first["note"]
    after = next(entry for entry in log if entry["at"] > first["at"] and entry["held"] == "false")
    assert after["at"] - first["at"] >= 1400, "the finished trick was not held for 1.5 s"

    # "Last trick" shows it again, and the panel keeps it with its ruling.
    by_id(browser, "show-last").click()
    wait_for(browser, lambda b: by_id(b, "trick").get_attribute("data-held") == "true")
    assert won["ruling"]["text"] in by_id(browser, "last-trick").text
    by_id(browser, "show-last").click()
    wait_for(browser, lambda b: by_id(b, "trick").get_attribute("data-held") == "false")
    assert not console_errors(browser)


# Cards that say what they are ----------------------------------------------------------------


def test_a_card_that_may_not_be_played_says_why(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for _attempt in range(20):
        created = live.create_game("classic", ["human", "human"])
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        found = None
        while api_view(live, game_id)["phase"] not in ("over",):
            view = api_view(live, game_id)
            if view["deal"]["number"] > 1:
                break
            mine = api_view(live, game_id, tokens[view["turn"]])
            plays = [a for a in mine["legal_actions"] if a["type"] == "play"]
            if plays and len(plays) < len(mine["hand"]):
                found = mine
                break
            post_first_legal(live, game_id, tokens[view["turn"]])
        if found:
            break
    else:
        pytest.fail("no deal had a card that may not be played")
    seat = found["viewer"]
    open_seat(browser, live, game_id, seat, tokens[seat])
    wait_for(browser, lambda b: by_id(b, "hand").get_attribute("data-marked") == "true"
             and css(b, "#hand button.unplayable"))
    rules = make_ruleset(found["profile"], found["options"], found["players"])
    order = ranking(Suit.parse(found["trump"]), rules)
    trick = [play["card"] for play in found["deal"]["current_trick"]["cards"]]
    _, ruling = legal_cards(parse_cards(found["hand"]), parse_cards(trick), order, rules)

    def click_unplayable(b: Any) -> tuple[str, str]:
        """Clicks the first unplayable card; again if a redraw (the stream reconnecting)
        replaced it meanwhile (wait_for retries a stale element)."""
        card = css(b, "#hand button.unplayable")[0]
        found = card.get_attribute("data-card"), card.get_attribute("aria-disabled")
        card.click()
        return found

    code, disabled = wait_for(browser, click_unplayable)
    assert disabled == "true"
    reason = wait_for(browser, lambda b: by_id(b, "card-reason").text or None)
    # In a player's words with suit symbols (the engine's refusal for this card), the ruling
    # and its rule id kept in a details element.
    refusal = legal_query(found["profile"], found["options"], found["players"], found["trump"],
                          trick, found["hand"])["refusals"][code]
    assert reason.startswith(refusal), reason
    assert not re.search(r"\b(?:[2-9TJQKA][SCDH]|JK)\b", reason.split("The rule")[0]), reason
    details = by_id(browser, "card-reason").get_attribute("textContent")
    assert ruling.rule_id in details and ruling.text in details, details
    assert by_id(browser, "card-reason").get_attribute("data-card") == code
    assert shown_version(browser) == found["version"], "the click posted nothing"

    # By keyboard: the arrow keys go through the hand and explain each card that may not be
    # played.
    browser.execute_script("document.querySelector('#hand button[tabindex=\"0\"]').focus()")
    explained = 0
    for _ in found["hand"]:
        # Read in one script and typed to whatever has the focus: a redraw keeps the focus
        # but replaces the elements.
        code, unplayable = browser.execute_script(
            "const e = document.activeElement;"
            "return [e.dataset.card || null, e.classList.contains('unplayable')]")
        if unplayable:
            wait_for(browser, lambda b, c=code: (
                by_id(b, "card-reason").get_attribute("data-card") == c
                and ruling.rule_id in by_id(b, "card-reason").get_attribute("textContent")))
            explained += 1
        ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert explained == len(found["hand"]) - len(
        [a for a in found["legal_actions"] if a["type"] == "play"])
    assert not console_errors(browser)


# The clock -----------------------------------------------------------------------------------


def test_the_turn_clock_counts_down_and_its_move_is_announced(
    live: LiveServer, bots: Bots, browser: Any,
) -> None:
    created = live.create_game("classic", ["human", "human"], turn_seconds=60)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    while api_view(live, game_id)["phase"] != "play":
        post_first_legal(live, game_id, tokens[api_view(live, game_id)["turn"]])
    open_seat(browser, live, game_id, 0, tokens[0])
    clock = wait_for(browser, lambda b: by_id(b, "clock") if by_id(b, "clock").is_displayed()
                     else None)
    first = int(clock.get_attribute("data-seconds"))
    assert 0 < first <= 60
    wait_for(browser, lambda b: int(by_id(b, "clock").get_attribute("data-seconds")) < first)
    assert re.search(r"\d+ s to act", by_id(browser, "clock").text)
    seat_clock = browser.execute_script(
        "return document.querySelector('#seats .seat.to-act .seat-clock').innerText")
    assert seat_clock.strip().endswith("s")

    # The clock falls due: the worker's job acts for the seat, and the table says so.
    view = api_view(live, game_id)
    assert jobs.turn_clock(game_id, view["version"], view["turn"])
    events = live.app.test_client().get(
        f"/v1/games/{game_id}/events?after={view['version']}").get_json()
    move = events["events"][0]
    assert move["actor"] == "server" and move["data"]["seat"] == view["turn"]
    said = {"card_played": "the clock played", "turn_up_robbed": "the clock robbed the turn-up"}
    notice = wait_for(browser, lambda b: by_id(b, "clock-notice").text or None)
    who = "Your time ran out" if view["turn"] == 0 else f"Time ran out for Seat {view['turn'] + 1}"
    assert notice.startswith(who) and said[move["type"]] in notice, notice
    assert not console_errors(browser)


# The score sheet and the auction -------------------------------------------------------------


def sheet_totals(browser: Any) -> dict[int, list[int]]:
    """The running totals of the sheet's finished deals, read in one go (it may redraw)."""
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#sheet tbody tr.done')].map((row) =>"
        " [row.dataset.deal, [...row.querySelectorAll('.total')].map((c) => c.dataset.total)])")
    return {int(deal): [int(total) for total in totals] for deal, totals in rows}


@pytest.mark.screenshots
def test_the_score_sheet_matches_the_api_after_each_deal_and_the_auction_is_a_table(
    live: LiveServer, bots: Bots, browser: Any, screenshots: Path,
) -> None:
    created = live.create_game("auction", ["human", "bot", "bot", "bot"])
    game_id, token = created["id"], created["seats"][0]["token"]
    bots.watch(game_id)
    open_seat(browser, live, game_id, 0, token)

    def my_call(view: dict[str, Any]) -> bool:
        return view["phase"] == "bidding" and view["turn"] == 0

    # Seat 0 has a call in the first auction, whoever deals: the auction is checked every run.
    play_until(browser, live, bots, game_id, my_call)
    view = api_view(live, game_id, token)
    assert my_call(view)
    wait_for(browser, lambda b: shown_version(b) == view["version"]
             and by_id(b, "trick").get_attribute("data-held") == "false")
    calls = view["deal"]["auction"]["calls"]
    cells = browser.execute_script(
        "return [...document.querySelectorAll('#bidding tbody td:not(.muted)')]"
        ".map((cell) => cell.textContent).filter(Boolean)")
    assert len(cells) == len(calls)
    at_seats = browser.execute_script(
        "return [...document.querySelectorAll('#trick li.call')].map((li) => li.dataset.seat)")
    assert sorted(at_seats) == sorted({str(call["seat"]) for call in calls})
    for call, cell in zip(calls, cells, strict=True):
        assert cell == {"bid": str(call["amount"]), "pass": "Pass"}.get(call["call"], cell)
    assert css(browser, "#actions button.action-bid")
    assert not serious_violations(browser), serious_violations(browser)
    if not calls:
        # Seat 0 called first: play on until it is to call after another seat did (in the next
        # deal, which it deals, unless a bid ended that auction before its turn: then later).
        # The game then waits for it, so the calls stay on the table.
        play_until(browser, live, bots, game_id, lambda v: (
            my_call(v) and bool(v["deal"]["auction"]["calls"])) or v["phase"] == "over")
        assert api_view(live, game_id)["phase"] != "over", "seat 0 never called after another"
        wait_for(browser, lambda b: by_id(b, "trick").get_attribute("data-held") == "false"
                 and css(b, "#trick li.call"))
    # Tall enough for the bidding table.
    screenshot(browser, screenshots, "auction", DESKTOP[0], 1180)
    browser.set_window_size(*DESKTOP)

    client = live.app.test_client()
    for deal in (2, 3):
        play_until(browser, live, bots, game_id, lambda v, d=deal: v["deal"]["number"] >= d
                   or v["phase"] == "over")
        history = client.get(f"/v1/games/{game_id}/history?format=json").get_json()
        results = {entry["number"]: entry["result"]["scores"]
                   for entry in history["results"]["deals"] if entry["result"]}
        wait_for(browser, lambda b, r=results: all(n in sheet_totals(b) for n in r))
        assert {n: sheet_totals(browser)[n] for n in results} == results
        last = max(results)
        now = api_view(live, game_id)
        if now["deal"]["number"] == last + 1 and now["game_number"] == 1:
            assert results[last] == now["scores"], "the sheet's total is the API's score"
        # Read in one script call: the table may be redrawn between two element reads.
        wait_for(browser, lambda b: shown_scores(b) == api_view(live, game_id)["scores"])
    assert not console_errors(browser)


def shown_scores(browser: Any) -> list[int]:
    """The side scores the table shows, read in one script call (never a stale element)."""
    texts = browser.execute_script(
        "return [...document.querySelectorAll('#scores td.score')].map((td) => td.textContent)")
    return [int(text) for text in texts]


# The lobby -----------------------------------------------------------------------------------


def test_the_lobby_has_no_serious_accessibility_violation(live: LiveServer, browser: Any) -> None:
    browser.get(f"{live.url}/")
    wait_for(browser, lambda b: css(b, "#profile option"))
    assert not serious_violations(browser), serious_violations(browser)


def test_the_table_contributes_a_nonce_to_every_deal_it_sits_at(
    live: LiveServer, browser: Any,
) -> None:
    created = live.create_game("classic", ["human", "human"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    cutter = api_view(live, game_id)["turn"]
    other = 1 - cutter
    open_seat(browser, live, game_id, other, tokens[other])
    wait_for(browser, lambda b: api_view(live, game_id)["deal"]["contributed"] == [other])
    open_seat(browser, live, game_id, cutter, tokens[cutter])
    wait_for(browser, lambda b: css(b, "#table button.action-cut:not(:disabled)"))
    wait_for(browser, lambda b: click_first_action(b, "#table button.action-cut:not(:disabled)")
             or api_view(live, game_id)["phase"] != "cut")
    wait_for(browser, lambda b: api_view(live, game_id)["phase"] != "cut")
    events = live.app.test_client().get(f"/v1/games/{game_id}/events").get_json()["events"]
    nonces = [(e["type"], e["data"].get("seat"), len(e["data"]["nonce"])) for e in events
              if e["type"] in ("deal_contributed", "deck_cut")]
    assert nonces == [("deal_contributed", other, 64), ("deck_cut", cutter, 64)]
    assert console_errors(browser) == []
