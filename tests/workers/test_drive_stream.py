"""A drive's live stream: one server-sent event per drive event, resumable, ending with the
drive (what the projector and the drive page follow instead of polling)."""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import ANY

from flask.testing import FlaskClient


def _messages(chunks: Any, count: int) -> list[dict[str, Any]]:
    """Reads *count* messages from a stream's chunks (skipping retry and keep-alives)."""
    found: list[dict[str, Any]] = []
    for chunk in chunks:
        for block in chunk.decode().split("\n\n"):
            lines = dict(line.split(": ", 1) for line in block.splitlines()
                         if ": " in line and not line.startswith(":"))
            if "data" in lines:
                found.append({"id": lines["id"], "event": lines["event"],
                              **json.loads(lines["data"])})
        if len(found) >= count:
            return found
    return found


def test_the_stream_sends_each_drive_event_and_resumes_after_the_last_id(
    client: FlaskClient,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {}, "format": "progressive", "rounds": 2,
        "players": [{"name": f"P{n}", "type": "bot"} for n in range(8)]}).get_json()
    drive_id, director = created["id"], created["director_token"]
    assert client.get("/v1/drives/dr-00000000000000000000/stream").status_code == 404
    beyond = client.get(f"/v1/drives/{drive_id}/stream?after=5")
    assert (beyond.status_code, beyond.get_json()["code"]) == (400, "after_beyond_head")
    stream = client.get(f"/v1/drives/{drive_id}/stream?after=0&wait=5")
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    chunks = iter(stream.response)
    first = _messages(chunks, 1)
    assert first == [{"id": "1", "event": "drive", "version": 1, "type": "drive_created",
                      "actor": "server", "status": "running", "paused": False,
                      "round": None, "occurred_at": first[0]["occurred_at"]}]
    paused = client.post(f"/v1/drives/{drive_id}/director", json={"action": "pause"},
                         headers={"Authorization": f"Bearer {director}"})
    assert paused.status_code == 200
    assert _messages(chunks, 1)[0] == {
        "id": "2", "event": "drive", "version": 2, "type": "drive_paused",
        "actor": "director", "status": "running", "paused": True, "round": None,
        "occurred_at": ANY}
    stream.close()
    client.post(f"/v1/drives/{drive_id}/director", json={"action": "stop"},
                headers={"Authorization": f"Bearer {director}"})
    resumed = client.get(f"/v1/drives/{drive_id}/stream", headers={"Last-Event-ID": "2"})
    last = _messages(iter(resumed.response), 1)
    assert last[0]["type"] == "drive_stopped" and last[0]["status"] == "finished"
    done = client.get(f"/v1/drives/{drive_id}/stream", headers={"Last-Event-ID": "3"})
    assert done.status_code == 204  # Finished and everything sent: EventSource stops.
