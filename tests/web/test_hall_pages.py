"""The hall's pages: the projector follows the drive's stream, the director's page acts with
the token from the fragment, and the printouts print to PDF on A4 and on Letter, one sheet a
page; axe finds nothing serious on any of them, on a laptop and on a phone."""

from __future__ import annotations

import base64
import re
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


def _drive(live: LiveServer) -> dict[str, Any]:
    """Creates a drive of eight bots, two rounds, table 1 on paper, and starts round 1."""
    client = live.app.test_client()
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 45}, "format": "progressive",
        "rounds": 2, "paper_tables": [1],
        "players": [{"name": f"P{n}", "type": "bot"} for n in range(1, 9)]}).get_json()
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
