"""The HTTP benchmark's client is honest: a key on every action, games taken in turn, every
request counted."""

from __future__ import annotations

import argparse
from typing import Any

import pytest
from flask.testing import FlaskClient

from bench import http as bench_http
from bench.redis_usage import RedisUsage, read_usage


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


def test_bruff_games_are_played_by_six_seats_with_the_same_honesty(client: FlaskClient) -> None:
    pool = ClientPool(client)
    player = bench_http._ApiClient(pool, 2, "bruff")  # type: ignore[arg-type]
    for _ in range(40):
        assert player.step() >= 0
    created = [call for call in pool.calls if call[:2] == ("POST", "/v1/games")]
    assert len(created) == 2
    seats = {headers["Authorization"] for method, path, headers in pool.calls
             if method == "POST" and path.endswith("/actions")}
    assert len(seats) == 12  # Six seats in each of the two games.


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


def _usage(cpu: float, **commands: tuple[int, int]) -> RedisUsage:
    return RedisUsage(cpu, commands)


def test_cpu_per_action_counts_redis_and_charges_views_and_creations_to_actions() -> None:
    samples = [
        bench_http.Sample([0.01] * 8, 2, 1.0, 0.05, _usage(0.02, evalsha=(8, 800), hget=(9, 45))),
        bench_http.Sample([0.02] * 12, 3, 2.0, 0.10, _usage(0.03, evalsha=(14, 1400))),
    ]
    summary = bench_http.summarize(samples)
    assert summary["server_cpu_ms_per_request"] == 6.0  # (0.05 + 0.10) s / 25 requests
    assert summary["server_cpu_ms_per_action"] == 7.5  # / 20 actions
    assert summary["redis_cpu_ms_per_action"] == 2.5  # (0.02 + 0.03) s / 20 actions
    assert summary["cpu_ms_per_action"] == 10.0
    redis = summary["redis"]
    assert redis["script_usec_per_call"] == 100.0 and redis["script_calls_per_action"] == 1.1
    assert redis["script_usec_per_action"] == 110.0
    assert redis["per_action"]["commands"]["hget"] == {"calls": 0.45, "usec_per_call": 5.0}
    bare = bench_http.summarize([bench_http.Sample([0.001] * 50, 0, 1.0, 0.05,
                                                   _usage(0.01, xadd=(50, 250)))])
    figures = bench_http.compare(summary, bare)
    assert figures["cpu_ratio"] == round(bare["cpu_ms_per_action"] / 10.0, 3) == 0.12
    assert figures["cpu_ratio_without_redis"] == round(1.0 / 6.0, 3)
    assert figures["redis"]["script_to_xadd"] == 20.0  # 100 us a script call, 5 an XADD
    assert figures["redis"]["script_usec_per_action_to_xadd"] == 22.0
    assert figures["redis"]["redis_cpu_action_to_bare"] == 12.5  # 2,500 us against 200
    unread = bench_http.summarize([bench_http.Sample([0.01], 0, 1.0, 0.05, None)])
    assert unread["cpu_ms_per_action"] is None


def test_redis_usage_is_read_from_the_server_and_differenced(redis_client: object) -> None:
    before = read_usage(redis_client)
    for number in range(5):
        redis_client.xadd("f45:{p000}:bench-usage", {"n": number})  # type: ignore[attr-defined]
    used = read_usage(redis_client).since(before)
    assert used.commands["xadd"][0] == 5 and "info" not in used.commands
    assert used.cpu_seconds >= 0 and used.usec_per_call(("xadd",)) is not None
    assert used.usec_per_call(("evalsha",)) is None


@pytest.mark.parametrize(("text", "profiles"), [
    ("classic,bruff", ("classic", "bruff")), (" bruff ,bruff", ("bruff",))])
def test_profiles_are_read_in_order_once_each(text: str, profiles: tuple[str, ...]) -> None:
    assert bench_http._profiles(text) == profiles


def test_an_unknown_profile_is_refused() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="expected profiles from bruff"):
        bench_http._profiles("classic,poker")


def test_with_the_worker_a_turn_ends_once_redis_runs_no_more_than_an_idle_workers_commands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench_http, "SETTLE_SECONDS", 0.0)
    idle = bench_http.IDLE_CALLS
    # The worker's jobs still run for two readings, then only its idle loop does.
    totals = iter([0, 500, 900, 900 + idle, 900 + 2 * idle])
    readings: list[int] = []

    def read() -> RedisUsage:
        calls = next(totals)
        readings.append(calls)
        return _usage(calls / 1000, hset=(calls, calls))

    settled = bench_http._settled_reader(read)()
    assert settled is not None and settled.commands["hset"] == (900 + idle, 900 + idle)
    assert readings == [0, 500, 900, 900 + idle], "it stops at the first quiet interval"


def test_with_the_worker_a_turn_that_never_settles_fails_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench_http, "SETTLE_SECONDS", 0.0)
    monkeypatch.setattr(bench_http, "SETTLE_LIMIT_SECONDS", 0.0)
    busy = iter(range(0, 10**6, 1000))
    with pytest.raises(RuntimeError, match="did not settle"):
        bench_http._settled_reader(lambda: _usage(0.0, hset=(next(busy), 0)))()
