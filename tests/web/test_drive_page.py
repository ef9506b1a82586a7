"""The drive page: the round in play with its tables, the standings, a player's score card."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from accessibility import serious_violations
from rq import SimpleWorker
from rq.serializers import JSONSerializer
from viewport import FIRST_SCREENS, reset_viewport, set_viewport
from web_helpers import (
    LiveServer,
    by_id,
    console_errors,
    css,
    rehash,
    wait_for,
)

from events.redis_store import RedisEventStore
from workers import context
from workers.dispatcher import Dispatcher


class _Runner:
    """A dispatcher and a worker of this test's own, reading the feeds from their end when
    made: they run the jobs of the drive created after them, and never those of the games
    other tests of the session left in the shared store."""

    def __init__(self, url: str) -> None:
        context.configure(url)
        self.connection = context.rq_connection(url)
        self.queue = context.make_queue(self.connection, f"test-{uuid.uuid4().hex[:12]}")
        self.store = RedisEventStore.from_url(url)
        self.dispatcher = Dispatcher(self.store, self.queue, name=f"test-{uuid.uuid4().hex[:12]}",
                                     start="end")
        self.dispatcher.poll()  # Stores every partition's position: the end, now.

    def play_out(self, drive_id: str, live: LiveServer) -> None:
        """Runs dispatcher and worker until the drive is finished."""
        worker = SimpleWorker([self.queue], connection=self.connection,
                              serializer=JSONSerializer)
        try:
            for _ in range(200):
                handled = self.dispatcher.poll()
                ran = worker.work(burst=True, logging_level="WARNING")
                status = live.app.test_client().get(
                    f"/v1/drives/{drive_id}").get_json()["status"]
                if status == "finished" or not (handled or ran):
                    break
        finally:
            self.store.close()
            self.connection.close()


def test_the_drive_page_shows_tables_standings_and_a_printable_score_card(
    browser: Any, live: LiveServer,
) -> None:
    runner = _Runner(live.app.config["REDIS_URL"])
    client = live.app.test_client()
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 10}, "format": "progressive", "rounds": 2,
        "players": [{"name": f"P{n}", "type": "bot"} for n in range(1, 9)]})
    assert created.status_code == 201
    drive_id = created.get_json()["id"]
    runner.play_out(drive_id, live)
    browser.get(f"{live.url}/drive/{drive_id}?card=0")
    wait_for(browser, lambda b: len(css(b, "#standings tbody tr")) == 8)
    wait_for(browser, lambda b: "Round 2 of 2" in by_id(b, "round-title").text)
    assert len(css(browser, "#round-tables article")) == 2
    assert all(a.get_attribute("href").startswith(f"{live.url}/table/{drive_id}.2.")
               for a in css(browser, "#round-tables article a"))
    card = by_id(browser, "score-card")
    assert card.is_displayed() and "P1" in by_id(browser, "card-title").text
    assert len(css(browser, "#score-card tbody tr")) == 2
    assert "Place" in by_id(browser, "card-total").text
    assert console_errors(browser) == []
    for size, (width, height) in FIRST_SCREENS.items():
        set_viewport(browser, width, height)
        assert serious_violations(browser) == [], size
    reset_viewport(browser)


def test_the_viewer_verifies_a_duplicate_board_in_the_browser(
    browser: Any, live: LiveServer, tmp_path: Path,
) -> None:
    runner = _Runner(live.app.config["REDIS_URL"])
    client = live.app.test_client()
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 60}, "format": "duplicate", "rounds": 1,
        "boards": 2, "players": [{"name": f"P{n}", "type": "bot"} for n in range(1, 9)]})
    drive_id = created.get_json()["id"]
    runner.play_out(drive_id, live)
    game = f"{drive_id}.1.2"
    answer = client.get(f"/v1/games/{game}/history?view=auditor")
    assert answer.status_code == 200, answer.get_json()
    doc = answer.get_json()
    assert doc["checkpoint"]["version"] == doc["events"][-1]["version"]
    verdict = _open(browser, live, tmp_path / "board.json", doc)
    # The history carries the service's checkpoint, which the browser checks against the keys
    # the live server publishes.
    assert verdict.get_attribute("data-verdict") == "verified", verdict.text
    assert "checkpoint of event" in verdict.text and "deal 1" not in verdict.text, verdict.text
    assert "2 seeds matched their commitments, 2 deals re-dealt" in verdict.text, verdict.text
    # A forger who moves a board's cut and rehashes the chain: the deck no longer deals the
    # hands the history holds.
    dealt = next(e for e in doc["events"] if e["type"] == "board_dealt")
    dealt["data"]["cut"] = dealt["data"]["cut"] % 50 + 1
    verdict = _open(browser, live, tmp_path / "moved.json", rehash(doc))
    assert verdict.get_attribute("data-verdict") == "failed", verdict.text
    assert "deal 1" in verdict.text, verdict.text


def _open(browser: Any, live: LiveServer, path: Path, doc: dict[str, Any]) -> Any:
    path.write_text(json.dumps(doc), "utf-8")
    browser.get(f"{live.url}/viewer")
    by_id(browser, "history-file").send_keys(str(path))
    return wait_for(browser, lambda b: by_id(b, "verdict") if by_id(b, "verdict").get_attribute(
        "data-verdict") not in (None, "", "checking") else None)


def test_a_seat_of_a_duplicate_table_follows_its_game_live_while_the_board_is_hidden(
    browser: Any, live: LiveServer,
) -> None:
    runner = _Runner(live.app.config["REDIS_URL"])
    client = live.app.test_client()
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 120}, "format": "duplicate", "rounds": 1,
        "boards": 1, "players": [{"name": "H", "type": "human"}]
        + [{"name": f"B{n}", "type": "bot", "level": "basic"} for n in range(1, 8)]}).get_json()
    drive_id, token = created["id"], created["players"][0]["token"]
    runner.play_out(drive_id, live)
    game = f"{drive_id}.1.1"
    seat = client.get(f"/v1/games/{game}", headers={"Authorization": f"Bearer {token}"}
                      ).get_json()["viewer"]
    assert client.get(f"/v1/games/{game}/stream?wait=5").status_code == 403  # board_in_play
    browser.get(f"{live.url}/table/{game}?seat={seat}#token={token}")
    wait_for(browser, lambda b: "(live)" in by_id(b, "live-state").text)
    assert css(browser, "#hand button, #hand .card")
    assert console_errors(browser) == []
