"""The HTTP benchmark's client is honest: a key on every action, games taken in turn, every
request counted."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from bench import http as bench_http


class ClientPool:
    """Stands in for the benchmark's connection pool: the app in process, every call kept."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.calls: list[tuple[str, str, dict[str, str]]] = []

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        self.calls.append((method, path, dict(headers or {})))
        response = self.client.open(path, method=method, json=body, headers=headers)
        return response.status_code, response.get_json()


def test_every_action_has_its_own_key_and_the_games_take_turns(client: FlaskClient) -> None:
    pool = ClientPool(client)
    player = bench_http._ApiClient(pool, 3)  # type: ignore[arg-type]
    for _ in range(30):
        assert player.step() >= 0
    actions = [(path, headers) for method, path, headers in pool.calls
               if method == "POST" and path.endswith("/actions")]
    assert len(actions) == 30
    keys = [headers["Idempotency-Key"] for _, headers in actions]
    assert len(set(keys)) == 30
    assert all("If-Match" in headers for _, headers in actions)
    games = [path for path, _ in actions]
    assert len(set(games)) >= 3
    assert all(games[index] != games[index + 1] for index in range(len(games) - 1))
    others = [call for call in pool.calls if not call[1].endswith("/actions")]
    assert player.other_requests == len(others) >= 3  # creations and views, all counted


def test_a_summary_counts_every_request_and_the_cpu_per_request() -> None:
    samples = [bench_http.Sample([0.01] * 8, 2, 1.0, 0.05),
               bench_http.Sample([0.02] * 12, 3, 2.0, 0.10)]
    summary = bench_http.summarize(samples)
    assert (summary["count"], summary["other_requests"], summary["requests"]) == (20, 5, 25)
    assert summary["per_second"] == round(20 / 3, 1)
    assert summary["requests_per_second"] == round(25 / 3, 1)
    assert summary["server_cpu_ms_per_request"] == 6.0
    unknown = bench_http.summarize([bench_http.Sample([0.01], 0, 1.0, None)])
    assert unknown["server_cpu_ms_per_request"] is None


def test_the_cpu_of_a_process_tree_is_read_from_proc() -> None:
    import os

    used = bench_http.server_cpu_seconds(os.getpid())
    assert used is None or used > 0
    assert bench_http.server_cpu_seconds(2**22 + 12345) is None
