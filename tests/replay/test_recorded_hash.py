"""A deal recorded at a table covers every hand and the stock in its ``deal_recorded`` hash:
a seat does not receive that hash, nor any later one (each covers it through ``prev_hash``),
while the deal is live; an auditor does, and so does everyone once the deal is over."""

from __future__ import annotations

from engine.actions import legal_actions
from engine.profiles import make_ruleset
from engine.shuffle import pack
from replay.formats.build import build_history
from replay.sample import GameDriver
from replay.verification.verify import verify

CARDS = [card.code() for card in pack(make_ruleset("classic", {}, 2))]


def _recorded() -> GameDriver:
    driver = GameDriver("g-recorded", "recorded").start("classic", ["human", "human"],
                                                         shuffle=False)
    driver.record_deal([CARDS[0:5], CARDS[5:10]], CARDS[10], CARDS[11:20])
    return driver


def test_a_seat_gets_no_hash_from_a_live_recorded_deal_on() -> None:
    driver = _recorded()
    seat = build_history(driver.game_id, driver.recorded, 0)
    assert seat.events[0].hash is not None
    assert [(e.type, e.hash) for e in seat.events[1:]] == [("deal_recorded", None)]
    assert seat.head is None
    assert verify(seat).ok
    auditor = build_history(driver.game_id, driver.recorded, "auditor")
    assert all(event.hash for event in auditor.events)


def test_the_hash_is_shown_once_the_recorded_deal_is_over() -> None:
    driver = _recorded()
    while driver.state is not None and driver.state.deal is not None and (
            driver.state.deal.phase != "over"):
        state = driver.state
        seat = state.turn
        assert seat is not None
        plays = [a for a in legal_actions(state, seat) if a["type"] == "play"]
        driver.act(seat, plays[0], server_steps=False)
    seat = build_history(driver.game_id, driver.recorded, 1)
    assert all(event.hash for event in seat.events)
