"""Kept uploads are bounded: once per content whatever the tags, compressed, with a time to
live, a size limit, an API key where keys are required, and a rate per client."""

from __future__ import annotations

import json
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from http_table import bearer

from events import keys as store_keys
from service.http import uploads
from service.http.app import create_app

GOLDEN = Path(__file__).resolve().parents[1] / "replay" / "golden"


def _history(**tags: str) -> dict[str, Any]:
    history: dict[str, Any] = json.loads((GOLDEN / "jink.json").read_bytes())
    history["tags"] = dict(tags)
    return history


def _keep(client: FlaskClient, history: dict[str, Any], **headers: str) -> Any:
    return client.post("/v1/histories", query_string={"mode": "keep"},
                       json={"history": history}, headers=headers)


def _app(redis_url: str, **config: Any) -> Iterator[Flask]:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, **config})
    yield app
    app.extensions["fortyfive"].store.close()


def test_uploads_differing_only_in_tags_are_kept_once(client: FlaskClient, app: Flask) -> None:
    ids = set()
    for number in range(5):
        response = _keep(client, _history(Event=f"flood {number}", Site=uuid.uuid4().hex))
        assert response.status_code == 201
        ids.add(response.get_json()["id"])
    (kept_id,) = ids
    redis = app.extensions["fortyfive"].store.client
    key = store_keys.kept_history_key(kept_id)
    assert redis.exists(key) == 1
    first = client.get(f"/v1/histories/{kept_id}").get_json()
    assert first["tags"]["Event"] in {f"flood {number}" for number in range(5)}


def test_a_kept_history_is_compressed_and_expires(client: FlaskClient, app: Flask) -> None:
    response = _keep(client, _history(Note="ttl"))
    body = response.get_json()
    assert body["expires_in"] == uploads.DEFAULT_TTL
    redis = app.extensions["fortyfive"].store.client
    key = store_keys.kept_history_key(body["id"])
    assert uploads.DEFAULT_TTL - 5 <= redis.ttl(key) <= uploads.DEFAULT_TTL
    raw = redis.execute_command("GET", key, NEVER_DECODE=True)
    document = zlib.decompress(raw)
    assert len(raw) < len(document) / 2
    assert client.get(body["url"]).get_data() == document
    redis.expire(key, 100)
    _keep(client, _history(Note="ttl again"))
    assert redis.ttl(key) > 100, "keeping the same content again renews its time"


def test_the_time_to_live_and_size_are_configurable(redis_url: str) -> None:
    app = next(_app(redis_url, KEPT_HISTORY_TTL=60, KEPT_HISTORY_MAX_BYTES=2000))
    client = app.test_client()
    refused = _keep(client, _history(Note=uuid.uuid4().hex))
    assert refused.status_code == 413
    assert refused.get_json()["code"] == "history_too_large"
    assert "at most 2000" in refused.get_json()["detail"]
    roomy = next(_app(redis_url, KEPT_HISTORY_TTL=60))
    body = _keep(roomy.test_client(), _history(Note="short")).get_json()
    assert body["expires_in"] == 60
    assert 0 < roomy.extensions["fortyfive"].store.client.ttl(
        store_keys.kept_history_key(body["id"])) <= 60


def test_keeping_needs_an_api_key_where_keys_are_required(
    public: FlaskClient, public_app: Flask
) -> None:
    refused = _keep(public, _history())
    assert refused.status_code == 401 and refused.get_json()["code"] == "api_key_required"
    dry = public.post("/v1/histories", json={"history": _history()})
    assert dry.status_code == 200
    _, key = public_app.extensions["fortyfive"].keys.create("archive site")
    assert _keep(public, _history(), **bearer(key)).status_code == 201


def test_a_loop_of_uploads_from_one_client_is_rate_limited(redis_url: str) -> None:
    app = next(_app(redis_url, ENFORCE_RATE_LIMITS=True, RATE_LIMITS={"uploads": "3/60"}))
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"10.9.{uuid.uuid4().int % 250}.7"
    statuses = [_keep(client, _history(Loop=str(n))).status_code for n in range(5)]
    assert statuses == [201, 201, 201, 429, 429]
