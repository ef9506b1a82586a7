"""The drive page: the round in play with its tables, the standings, a player's score card."""

from __future__ import annotations

import uuid
from typing import Any

from rq import SimpleWorker
from rq.serializers import JSONSerializer
from web_helpers import LiveServer, by_id, console_errors, css, serious_violations, wait_for

from events.redis_store import RedisEventStore
from workers import context
from workers.dispatcher import Dispatcher


def _play_out(url: str, drive_id: str, live: LiveServer) -> None:
    """Runs dispatcher and worker until the drive is finished."""
    context.configure(url)
    connection = context.rq_connection(url)
    queue = context.make_queue(connection, f"test-{uuid.uuid4().hex[:12]}")
    with RedisEventStore.from_url(url) as store:
        dispatcher = Dispatcher(store, queue, name=f"test-{uuid.uuid4().hex[:12]}",
                                start="beginning")
        worker = SimpleWorker([queue], connection=connection, serializer=JSONSerializer)
        for _ in range(200):
            handled = dispatcher.poll()
            ran = worker.work(burst=True, logging_level="WARNING")
            status = live.app.test_client().get(f"/v1/drives/{drive_id}").get_json()["status"]
            if status == "finished" or not (handled or ran):
                break
    connection.close()


def test_the_drive_page_shows_tables_standings_and_a_printable_score_card(
    browser: Any, live: LiveServer,
) -> None:
    client = live.app.test_client()
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 10}, "format": "progressive", "rounds": 2,
        "players": [{"name": f"P{n}", "type": "bot"} for n in range(1, 9)]})
    assert created.status_code == 201
    drive_id = created.get_json()["id"]
    _play_out(live.app.config["REDIS_URL"], drive_id, live)
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
    assert console_errors(browser) == [] and serious_violations(browser) == []
