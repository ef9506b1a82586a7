"""Concurrent writers: of many clients posting on the same version, exactly one wins."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from flask import Flask
from http_table import Table, bearer

from events.redis_store import RedisEventStore

CLIENTS = 20


def test_twenty_clients_on_one_version_give_one_201_and_the_rest_412(
    app: Flask, table: Table, api_store: RedisEventStore
) -> None:
    seat, version = table.turn()
    assert seat is not None
    barrier = threading.Barrier(CLIENTS)

    def post(position: int) -> int:
        client = app.test_client()
        barrier.wait()
        response = client.post(
            f"{table.path}/actions", json={"type": "cut", "position": position},
            headers={**bearer(table.tokens[seat]), "If-Match": f'"{version}"'},
        )
        if response.status_code == 412:
            assert response.get_json()["current_version"] > version
        return response.status_code

    with ThreadPoolExecutor(CLIENTS) as pool:
        statuses = list(pool.map(post, range(1, CLIENTS + 1)))
    assert sorted(statuses) == [201] + [412] * (CLIENTS - 1)
    events = api_store.read(table.id)
    cuts = [recorded for recorded in events if recorded.event.TYPE == "deck_cut"]
    assert len(cuts) == 1
    assert [recorded.version for recorded in events] == list(range(1, len(events) + 1))


def test_the_same_idempotency_key_from_many_clients_appends_once(
    app: Flask, table: Table, api_store: RedisEventStore
) -> None:
    seat, version = table.turn()
    assert seat is not None
    barrier = threading.Barrier(10)

    def post(_: int) -> tuple[int, bytes]:
        client = app.test_client()
        barrier.wait()
        response = client.post(
            f"{table.path}/actions", json={"type": "cut", "position": 9},
            headers={**bearer(table.tokens[seat]), "If-Match": f'"{version}"',
                     "Idempotency-Key": "retry-storm"},
        )
        return response.status_code, response.get_data()

    with ThreadPoolExecutor(10) as pool:
        results = list(pool.map(post, range(10)))
    assert {status for status, _ in results} == {201}
    assert len({body for _, body in results}) == 1
    cuts = [r for r in api_store.read(table.id) if r.event.TYPE == "deck_cut"]
    assert len(cuts) == 1
