"""``POST /v1/histories`` flags a forged server-dealt history (re-hashed, results rebuilt)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "replay"))
from test_strict import _forged, _play_for_another, _swap_two_plays  # noqa: E402


def test_a_forged_history_is_not_ok(client: FlaskClient) -> None:
    for change in (_swap_two_plays, _play_for_another):
        answer = client.post("/v1/histories?mode=dry_run",
                             json={"history": json.loads(_forged(change))})
        assert answer.status_code == 200
        body = answer.get_json()
        assert body["ok"] is False
        assert any(problem["code"] == "irregular" and problem["version"] is not None
                   for problem in body["verification"]["problems"])
