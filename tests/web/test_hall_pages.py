"""The hall's pages: the projector follows the drive's stream, the director's page acts with
the token from the fragment, and the printouts print to PDF on A4 and on Letter, one sheet a
page; axe finds nothing serious on any of them, on a laptop and on a phone."""

from __future__ import annotations

import base64
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from accessibility import serious_violations
from viewport import FIRST_SCREENS, reset_viewport, set_viewport
from web_helpers import LiveServer, by_id, console_errors, css, wait_for

from events.drive_store import DriveStore
from events.redis_store import RedisEventStore
from service.application import drives
from service.application.tokens import TokenRegistry

POINTS_PER_INCH = 72
PAPER = {"a4": (595, 842), "letter": (612, 792)}
"""Page sizes in PDF points (A4 is 210 x 297 mm, Letter 8.5 x 11 in)."""


def _drive(live: LiveServer, **more: Any) -> dict[str, Any]:
    """Creates a drive of eight bots, two rounds, table 1 on paper (and *more* of the
    creation's fields), and starts round 1."""
    client = live.app.test_client()
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 45}, "format": "progressive",
        "rounds": 2, "paper_tables": [1],
        "players": [{"name": f"P{n}", "type": "bot"} for n in range(1, 9)], **more}).get_json()
    store = RedisEventStore.from_url(live.app.config["REDIS_URL"])
    try:
        drives.advance(store, live.app.extensions["fortyfive"].cache, DriveStore(store),
                       TokenRegistry(store.client), created["id"])
    finally:
        store.close()
    return created


def _axe_at_both_sizes(browser: Any) -> None:
    for size, (width, height) in FIRST_SCREENS.items():
        set_viewport(browser, width, height)
        assert serious_violations(browser) == [], size
    reset_viewport(browser)


def _pdf(browser: Any) -> bytes:
    answer = browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})
    return base64.b64decode(answer["data"])


def _pages(pdf: bytes) -> list[tuple[int, int]]:
    """The size (in points, rounded) of each page of *pdf*."""
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    return [(round(float(w)), round(float(h))) for w, h in boxes]


def test_the_projector_follows_the_stream_and_the_director_pauses_and_resumes(
    browser: Any, live: LiveServer,
) -> None:
    created = _drive(live)
    drive_id, director = created["id"], created["director_token"]
    browser.get(f"{live.url}/drive/{drive_id}/projector")
    wait_for(browser, lambda b: len(css(b, "#projector-standings tbody tr")) == 8)
    wait_for(browser, lambda b: "Round 1 of 2" in by_id(b, "projector-round").text)
    wait_for(browser, lambda b: by_id(b, "round-clock").get_attribute("data-started") != "")
    assert re.fullmatch(r"\d+:\d\d", by_id(browser, "round-clock").text)
    assert "seconds played" in by_id(browser, "round-clock").get_attribute("aria-label")
    assert by_id(browser, "round-clock").get_attribute("data-ends-at") == ""
    # The director pauses over the API: the projector says so from the stream alone.
    paused = live.app.test_client().post(
        f"/v1/drives/{drive_id}/director", json={"action": "pause", "reason": "tea"},
        headers={"Authorization": f"Bearer {director}"})
    assert paused.status_code == 200
    wait_for(browser, lambda b: "paused by the director" in by_id(b, "projector-round").text)
    _axe_at_both_sizes(browser)
    assert console_errors(browser) == []

    # The drive page follows the same stream: it shows the director's resume and pause.
    def direct(action: str) -> None:
        answer = live.app.test_client().post(
            f"/v1/drives/{drive_id}/director", json={"action": action},
            headers={"Authorization": f"Bearer {director}"})
        assert answer.status_code == 200, answer.get_json()

    browser.get(f"{live.url}/drive/{drive_id}")
    wait_for(browser, lambda b: "paused by the director" in by_id(b, "drive-summary").text)
    direct("resume")
    wait_for(browser, lambda b: "paused" not in by_id(b, "drive-summary").text)
    direct("pause")
    wait_for(browser, lambda b: "paused by the director" in by_id(b, "drive-summary").text)
    paper = css(browser, "#round-tables article")[0].find_element("css selector", "a")
    assert paper.get_attribute("href").endswith(f"/drive/{drive_id}/table/1/score-card")

    browser.get(f"{live.url}/drive/{drive_id}/director#director={director}")
    wait_for(browser, lambda b: "director=" not in b.current_url)  # Out of the address.
    wait_for(browser, lambda b: "paused" in by_id(b, "director-state").text)
    tables = css(browser, "#director-tables article")
    assert len(tables) == 2 and "Table 1 (paper)" in tables[0].text
    assert "Seat 1: " in tables[0].text  # Seats from 1, as the table numbers them.
    assert "(nothing entered)" in tables[0].text
    by_id(browser, "do-resume").click()
    wait_for(browser, lambda b: "paused" not in by_id(b, "director-state").text)
    assert "Done: resume." in by_id(browser, "messages").text
    events = live.app.test_client().get(f"/v1/drives/{drive_id}/stream?after=0&wait=5")
    assert b"drive_resumed" in next(iter(events.response)) + next(iter(events.response))
    events.close()
    _axe_at_both_sizes(browser)
    assert console_errors(browser) == []


def test_the_projectors_clock_counts_down_to_the_rounds_end_and_shows_the_bell(
    browser: Any, live: LiveServer,
) -> None:
    created = _drive(live, round_minutes=30)
    drive_id, director = created["id"], created["director_token"]
    client = live.app.test_client()
    ends_at = client.get(f"/v1/drives/{drive_id}").get_json()["round_ends_at"]
    browser.get(f"{live.url}/drive/{drive_id}/projector")
    face = wait_for(browser, lambda b: by_id(b, "round-clock").get_attribute("data-ends-at")
                    and by_id(b, "round-clock"))
    ends = datetime.fromisoformat(ends_at.replace("Z", "+00:00"))
    assert int(face.get_attribute("data-ends-at")) == int(ends.timestamp() * 1000)
    # Time left, not time played: at most the round's 30 minutes, read out as left.
    minutes, seconds = map(int, face.text.split(":"))
    assert 0 < minutes * 60 + seconds <= 30 * 60
    assert face.get_attribute("aria-label").endswith("seconds left")
    # The director rings the bell early: the stream alone tells the projector time is up.
    rung = client.post(f"/v1/drives/{drive_id}/director", json={"action": "end_round"},
                       headers={"Authorization": f"Bearer {director}"})
    assert rung.status_code == 200, rung.get_json()
    wait_for(browser, lambda b: by_id(b, "round-clock").text == "Time is up")
    assert by_id(browser, "round-clock").get_attribute("aria-label") == "Round clock: time is up"
    _axe_at_both_sizes(browser)
    assert console_errors(browser) == []


def _advance(live: LiveServer, drive_id: str) -> None:
    """Moves the drive on as a worker would (ends a round whose tables are over)."""
    store = RedisEventStore.from_url(live.app.config["REDIS_URL"])
    try:
        drives.advance(store, live.app.extensions["fortyfive"].cache, DriveStore(store),
                       TokenRegistry(store.client), drive_id)
    finally:
        store.close()


def _refusal(browser: Any, where: str) -> str:
    return str(wait_for(browser, lambda b: by_id(b, where).is_displayed() and by_id(b, where).text))


def _choose(browser: Any, select: str, value: str) -> None:
    """Chooses *value* in *select*, again if the stream drew the page again meanwhile."""
    from selenium.webdriver.support.ui import Select

    wait_for(browser, lambda b: Select(by_id(b, select)).select_by_value(value)
             or by_id(b, select).get_property("value") == value)


def test_the_directors_page_rings_the_bell_and_changes_the_roster_with_refusals_in_words(
    browser: Any, live: LiveServer,
) -> None:
    created = _drive(live)
    drive_id, director = created["id"], created["director_token"]
    client = live.app.test_client()
    browser.get(f"{live.url}/drive/{drive_id}/director#director={director}")
    wait_for(browser, lambda b: "round 1 of 2 running" in by_id(b, "director-state").text)
    wait_for(browser, lambda b: len(css(b, "#substitute-player option")) == 8)

    # A late arrival during the round is refused next to its control, in the service's words.
    by_id(browser, "add-name").send_keys("Nora")
    by_id(browser, "do-add").click()
    assert _refusal(browser, "add-refusal") == (
        "Not done: Round 1 is in play: a late arrival joins between rounds (pause the drive, "
        "and add them once the round has ended).")
    assert not by_id(browser, "substitute-refusal").is_displayed()
    # A person for a bot waits for the break too; the refusal is the substitution's.
    _choose(browser, "substitute-player", "2")
    by_id(browser, "substitute-name").send_keys("Sam")
    by_id(browser, "do-substitute").click()
    assert "a bot and a person change places between rounds" in _refusal(
        browser, "substitute-refusal")
    assert not by_id(browser, "add-refusal").is_displayed()  # One refusal at a time.
    _axe_at_both_sizes(browser)

    # Pause, then the bell: every table still playing ends as it stands. The page names the
    # round it shows in its requests (the bodies it sends are kept here).
    browser.execute_script(
        "window.sent = []; const send = window.fetch; window.fetch = (url, options) => {"
        " if (options && options.body) window.sent.push(JSON.parse(options.body));"
        " return send(url, options); };")
    by_id(browser, "do-pause").click()
    wait_for(browser, lambda b: "paused" in by_id(b, "director-state").text)
    by_id(browser, "do-end-round").click()
    wait_for(browser, lambda b: "The bell is rung" in by_id(b, "messages").text)
    kinds = [e["type"] for e in client.get(f"/v1/drives/{drive_id}/history").get_json()["events"]]
    assert "round_called" in kinds
    by_id(browser, "do-end-round").click()  # Rung already: refused in words, by the buttons.
    assert "Round 1 is called already." in _refusal(browser, "drive-refusal")
    # The paper table waits for its card after the bell: the director abandons it instead.
    wait_for(browser, lambda b: "Over: 0 - 0" in css(b, "#director-tables article")[1].text)
    # The page is drawn again at each event of the stream; the choices made stay.
    wait_for(browser, lambda b: css(b, "#abandon-1 summary")[0].click() or True)
    _choose(browser, "adjust-1-1", "average_minus")
    wait_for(browser, lambda b: css(b, "#abandon-1 button")[0].click() or True)
    wait_for(browser, lambda b: "Table 1 of round 1 is abandoned" in by_id(b, "messages").text)
    abandoned = [e for e in client.get(f"/v1/drives/{drive_id}/history").get_json()["events"]
                 if e["type"] == "table_abandoned"]
    # Side B (the second select, seats 2 and 4) was given average-minus; side A average.
    assert [(e["data"]["table"], e["data"]["adjusted"]) for e in abandoned] == [
        (1, ["average", "average_minus"])]
    sent = browser.execute_script("return window.sent")
    assert [(b["action"], b.get("round")) for b in sent] == [
        ("pause", None), ("end_round", 1), ("end_round", 1), ("abandon_table", 1)]
    _advance(live, drive_id)  # The worker ends round 1; paused, round 2 waits.
    wait_for(browser, lambda b: "round 1 of 2 finished" in by_id(b, "director-state").text)
    assert by_id(browser, "do-end-round").get_property("disabled")

    # Between rounds: Sam, a person, takes P3's place and is handed a link and token once.
    _choose(browser, "substitute-player", "2")
    by_id(browser, "do-substitute").click()
    wait_for(browser, lambda b: by_id(b, "issued").is_displayed())
    assert "Sam takes P3's place." in by_id(browser, "messages").text
    link = by_id(browser, "issued-page").get_attribute("href")
    token = by_id(browser, "issued-token").text
    assert link == f"{live.url}/drive/{drive_id}#token={token}&player=2"
    view = client.get(f"/v1/drives/{drive_id}").get_json()
    assert view["players"][2]["name"] == "Sam" and view["players"][2]["type"] == "human"
    # A name another player has is refused next to the arrival's control.
    by_id(browser, "add-name").clear()
    by_id(browser, "add-name").send_keys("p4")
    by_id(browser, "do-add").click()
    assert _refusal(browser, "add-refusal") == 'Not done: "p4" is the name of "P4" (player 3).'
    # Nora arrives (house bots fill her table), then P8 is withdrawn as a no-show.
    by_id(browser, "add-name").clear()
    by_id(browser, "add-name").send_keys("Nora")
    _choose(browser, "add-type", "bot:basic")
    by_id(browser, "do-add").click()
    wait_for(browser, lambda b: "Nora joins from the next round" in by_id(b, "messages").text)
    assert not by_id(browser, "issued").is_displayed()  # A bot gets no token.
    # A basic bot, as the director chose, though a strong one is the default beside people.
    wait_for(browser, lambda b: "Nora (player 8, bot, basic)" in by_id(b,
                                                                      "withdraw-player").text)
    assert client.get(f"/v1/drives/{drive_id}").get_json()["players"][8]["level"] == "basic"
    _choose(browser, "withdraw-player", "7")
    by_id(browser, "do-withdraw").click()
    wait_for(browser, lambda b: "P8 leaves the drive" in by_id(b, "messages").text)
    view = client.get(f"/v1/drives/{drive_id}").get_json()
    assert [p["name"] for p in view["players"] if p["withdrawn"]][0] == "P8"
    assert "P8" not in by_id(browser, "withdraw-player").text
    history = client.get(f"/v1/drives/{drive_id}/history").get_json()["events"]
    assert {"player_substituted", "player_added", "player_withdrawn"} <= {
        e["type"] for e in history if e["actor"] == "director"}
    # Sam's token was shown once: a reload (the director's token kept in the tab) has none.
    browser.refresh()
    wait_for(browser, lambda b: "round 1 of 2 finished" in by_id(b, "director-state").text)
    assert not by_id(browser, "issued").is_displayed() and token not in browser.page_source
    _axe_at_both_sizes(browser)
    assert console_errors(browser) == []


def test_the_directors_page_abandons_one_board_at_a_duplicate_table(
    browser: Any, live: LiveServer,
) -> None:
    created = _drive(live, format="duplicate", paper_tables=[], boards=2)
    drive_id, director = created["id"], created["director_token"]
    client = live.app.test_client()
    browser.get(f"{live.url}/drive/{drive_id}/director#director={director}")
    wait_for(browser, lambda b: "round 1 of 2 running" in by_id(b, "director-state").text)
    # Nobody has played (no workers run here): every table is on board 1.
    wait_for(browser, lambda b: css(b, "#abandon-board-2 summary")[0].click() or True)
    assert [o.text for o in css(browser, "#abandon-board-2-board option")] == [
        "Board 1", "Board 2"]
    _choose(browser, "abandon-board-2-1", "average_minus")
    wait_for(browser, lambda b: css(b, "#abandon-board-2 button")[0].click() or True)
    wait_for(browser, lambda b: "Board 1 at table 2 of round 1 is abandoned"
             in by_id(b, "messages").text)
    # A duplicate drive's history waits for its end: its standings list the adjustment.
    adjustments = client.get(f"/v1/drives/{drive_id}/standings").get_json()["adjustments"]
    assert [(a["by"], a["table"], a["board"], [s["adjusted"] for s in a["sides"]])
            for a in adjustments] == [("director", 2, 1, ["average", "average_minus"])]
    version = client.get(f"/v1/drives/{drive_id}").get_json()["version"]
    # Again: refused next to its control, in the service's words; nothing is written.
    wait_for(browser, lambda b: by_id(b, "abandon-board-2").get_property("open")
             or css(b, "#abandon-board-2 summary")[0].click())
    wait_for(browser, lambda b: css(b, "#abandon-board-2 button")[0].click() or True)
    assert _refusal(browser, "abandon-board-2-refusal") == (
        "Not done: Board 1 of table 2 in round 1 is abandoned already.")
    assert client.get(f"/v1/drives/{drive_id}").get_json()["version"] == version
    _axe_at_both_sizes(browser)
    assert console_errors(browser) == []


def test_the_printouts_print_one_sheet_a_page_on_a4_and_letter(
    browser: Any, live: LiveServer, tmp_path: Path, screenshots: Path,
) -> None:
    created = _drive(live)
    drive_id = created["id"]
    browser.get(f"{live.url}/drive/{drive_id}/print")
    wait_for(browser, lambda b: by_id(b, "sheets").get_attribute("data-ready") == "true")
    # Two rounds of a movement sheet and two table cards, and eight players' score cards.
    assert len(css(browser, "#sheets .sheet")) == 2 * 3 + 8
    assert len(css(browser, "#sheets .table-card .write-in")) == 2  # Table 1 is on paper.
    _axe_at_both_sizes(browser)
    for paper, size in PAPER.items():
        browser.execute_script(
            "const s = document.getElementById('paper'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('change'));", paper)
        wait_for(browser, lambda b, p=paper: b.execute_script(
            "return [...document.styleSheets].some((s) => s.href && s.href.endsWith("
            "`print-${arguments[0]}.css`) && s.cssRules.length > 0)", p))
        pdf = _pdf(browser)
        (tmp_path / f"printouts-{paper}.pdf").write_bytes(pdf)
        pages = _pages(pdf)
        assert len(pages) == 14, (paper, len(pages))
        assert set(pages) == {size}, (paper, set(pages))
    # The printed look, as a picture of the page under print media (kept with the others).
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        browser.save_screenshot(str(screenshots / "printouts-print-media.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert console_errors(browser) == []


def _director(live: LiveServer, drive_id: str, token: str, **action: Any) -> None:
    answer = live.app.test_client().post(f"/v1/drives/{drive_id}/director", json=action,
                                         headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.get_json()


def _card_rows(browser: Any, name: str) -> list[str]:
    """The rows of *name*'s score card, each as its cells' text joined by |."""
    for card in css(browser, "#sheets .player-card"):
        if card.find_element("css selector", "h2").text == f"Score card: {name}":
            return [" | ".join(td.text for td in row.find_elements("css selector", "td"))
                    for row in card.find_elements("css selector", "tbody tr")]
    raise AssertionError(f"no score card for {name}")


def test_the_printouts_print_every_players_card_after_changes_of_players_and_sit_outs(
    browser: Any, live: LiveServer,
) -> None:
    # Round 1 is played by eight; then Nora and Olga arrive and P2 is withdrawn: of the nine
    # left, one sits out each round.
    created = _drive(live, rounds=3, paper_tables=[], odd_players="sit_out")
    drive_id, director = created["id"], created["director_token"]
    _director(live, drive_id, director, action="pause")
    _director(live, drive_id, director, action="end_round")
    _advance(live, drive_id)
    _director(live, drive_id, director, action="add_player", name="Nora", type="bot")
    _director(live, drive_id, director, action="add_player", name="Olga", type="bot")
    _director(live, drive_id, director, action="withdraw_player", player=1)
    _director(live, drive_id, director, action="substitute", player=3, name="Sam", type="bot")
    view = live.app.test_client().get(f"/v1/drives/{drive_id}").get_json()
    seated = [{name for table in round_ for name in table} for round_ in view["schedule"]]
    assert "P4" in seated[0] and "Sam" not in seated[0], "round 1 shows who played it"
    here = [p["name"] for p in view["players"] if not p["withdrawn"]]
    out = [[name for name in here if name not in seated[n]] for n in (1, 2)]
    assert [len(o) for o in out] == [1, 1] and "P2" not in seated[1] | seated[2]
    browser.get(f"{live.url}/drive/{drive_id}/print")
    wait_for(browser, lambda b: by_id(b, "sheets").get_attribute("data-ready") == "true")
    assert len(css(browser, "#sheets .player-card")) == 10  # Nora's, Olga's and P2's too.
    assert _card_rows(browser, "Nora")[0] == "1 | Not playing this round |  | "
    # Sam came in for round 2 in P4's place: P4 played round 1, Sam did not.
    assert _card_rows(browser, "Sam")[0] == "1 | Not playing this round |  | "
    p2 = _card_rows(browser, "P2")
    assert p2[0].startswith("1 | ") and "round" not in p2[0]  # P2 played round 1.
    assert p2[1:] == ["2 | Not playing this round |  | ", "3 | Not playing this round |  | "]
    for number, (name,) in enumerate(out, start=2):
        assert _card_rows(browser, name)[number - 1] == (
            f"{number} | Sits out this round |  | ")
    # Each movement sheet names who sits out that round, and only them.
    sheets = css(browser, "#sheets .movement-sheet")
    assert "Sits out" not in sheets[0].text and "Nora" not in sheets[0].text
    assert "P4" in sheets[0].text and "Sam" not in sheets[0].text
    for sheet, (name,) in zip(sheets[1:], out, strict=True):
        assert sheet.text.count("Sits out this round") == 1
        assert f"{name} Sits out this round" in sheet.text and "P2" not in sheet.text
    assert console_errors(browser) == []


def test_the_printouts_of_a_winners_move_drive_print_round_1_and_say_the_rest_waits(
    browser: Any, live: LiveServer,
) -> None:
    created = _drive(live, rounds=3, paper_tables=[], movement="winners_move")
    browser.get(f"{live.url}/drive/{created['id']}/print")
    wait_for(browser, lambda b: by_id(b, "sheets").get_attribute("data-ready") == "true")
    # Round 1's movement sheet and two table cards, and eight players' cards of three rounds.
    assert len(css(browser, "#sheets .movement-sheet")) == 1
    assert len(css(browser, "#sheets .table-card")) == 2
    assert len(css(browser, "#sheets .player-card")) == 8
    rows = _card_rows(browser, "P1")
    assert len(rows) == 3 and rows[0].startswith("1 | 1 | ") and rows[1:] == [
        "2 |  |  |  |  |  |  | ", "3 |  |  |  |  |  |  | "]
    later = "Rounds 2 to 3 are seated as the round before ends (winners move)"
    assert later in by_id(browser, "messages").text
    assert later in css(browser, "#sheets .player-card")[0].text
    assert console_errors(browser) == []
