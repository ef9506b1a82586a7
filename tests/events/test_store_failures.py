"""The store under races, lost replies, crashes, script cache loss and an unreachable server."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import redis

from events.chain import verify
from events.errors import ConcurrencyError, StoreUnavailableError
from events.redis_store import RedisEventStore
from events.store import partition_of
from events.types import BidMade, BidPassed, CardPlayed
from service.processes.embedded_redis import EmbeddedRedis

if TYPE_CHECKING:
    from tests.events.conftest import LossyProxy


def _new_game() -> str:
    return f"g-{uuid.uuid4().hex}"


def test_sixteen_threads_racing_lose_nothing_and_leave_no_gap(redis_url: str) -> None:
    threads, per_thread = 16, 200
    game_id = _new_game()
    stores = [RedisEventStore.from_url(redis_url) for _ in range(2)]
    wins: list[list[tuple[int, str]]] = [[] for _ in range(threads)]
    conflicts = Counter[int]()
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads)

    def writer(seat: int) -> None:
        store = stores[seat % 2]
        try:
            barrier.wait()
            expected = store.version(game_id)
            for amount in range(per_thread):
                while True:
                    try:
                        result = store.append(
                            game_id, expected, [BidMade(seat, amount)], actor=seat,
                            command_id=f"{seat}-{amount}",
                        )  # fmt: skip
                    except ConcurrencyError as conflict:
                        conflicts[seat] += 1
                        expected = conflict.actual
                        continue
                    assert not result.duplicate
                    wins[seat].append((result.version, result.recorded[0].envelope.hash))
                    expected = result.version
                    break
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    workers = [threading.Thread(target=writer, args=(seat,)) for seat in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for store in stores[1:]:
        store.close()
    assert errors == []

    # Gapless, one winner per version, every acknowledged append stored as acknowledged.
    recorded = stores[0].read(game_id)
    stores[0].close()
    total = threads * per_thread
    assert [r.version for r in recorded] == list(range(1, total + 1))
    assert verify([r.envelope for r in recorded]) == recorded[-1].envelope.hash
    won = sorted(win for seat_wins in wins for win in seat_wins)
    assert [version for version, _ in won] == list(range(1, total + 1))
    assert all(recorded[v - 1].envelope.hash == digest for v, digest in won)
    for seat in range(threads):
        mine = [r.event for r in recorded if r.envelope.actor == seat]
        assert mine == [BidMade(seat, amount) for amount in range(per_thread)]
    assert sum(conflicts.values()) > 0, "the threads never raced"


def test_a_lost_reply_with_a_command_id_returns_the_first_result(
    lossy_proxy: LossyProxy, redis_url: str
) -> None:
    game_id = _new_game()
    with RedisEventStore.from_url(lossy_proxy.url) as store:
        store.append(game_id, 0, [BidPassed(0)], actor=0, command_id="c1")  # loads the script
        lossy_proxy.drop_next_script_reply()
        result = store.append(game_id, 1, [BidMade(1, 20), BidPassed(2)], actor=1,
                              command_id="c2")  # fmt: skip
    assert lossy_proxy.dropped == 1
    assert result.duplicate and result.version == 3
    assert [r.event for r in result.recorded] == [BidMade(1, 20), BidPassed(2)]
    with RedisEventStore.from_url(redis_url) as direct:
        assert [r.version for r in direct.read(game_id)] == [1, 2, 3]
        assert [e.version for e in direct.read_feed(partition_of(game_id), count=100_000)
                if e.game_id == game_id] == [1, 2, 3]  # fmt: skip


def test_a_lost_reply_without_a_command_id_is_found_by_its_hashes(
    lossy_proxy: LossyProxy, redis_url: str
) -> None:
    game_id = _new_game()
    with RedisEventStore.from_url(lossy_proxy.url) as store:
        store.append(game_id, 0, [BidPassed(0)], actor=0)
        lossy_proxy.drop_next_script_reply()
        result = store.append(game_id, 1, [CardPlayed(1, "5H")], actor=1)
    assert lossy_proxy.dropped == 1
    assert (result.duplicate, result.version) == (True, 2)
    with RedisEventStore.from_url(redis_url) as direct:
        assert direct.read(game_id)[1].envelope == result.recorded[0].envelope


def test_a_caller_retrying_after_a_lost_reply_gets_the_first_result_not_a_conflict(
    lossy_proxy: LossyProxy, redis_url: str
) -> None:
    # No retries in the client: the caller sees the lost reply and retries the command.
    game_id = _new_game()
    with RedisEventStore.from_url(lossy_proxy.url, retries=0) as store:
        store.append(game_id, 0, [BidPassed(0)], actor=0)
        lossy_proxy.drop_next_script_reply()
        with pytest.raises(StoreUnavailableError):
            store.append(game_id, 1, [BidMade(1, 20)], actor=1, command_id="bid")
        retried = store.append(game_id, 1, [BidMade(1, 20)], actor=1, command_id="bid")
    assert (retried.duplicate, retried.version) == (True, 2)
    with RedisEventStore.from_url(redis_url) as direct:
        stored = direct.read(game_id)
    assert len(stored) == 2
    assert retried.recorded[0].envelope == stored[1].envelope


def test_acknowledged_appends_survive_kill_9(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis").start()
    games = [_new_game() for _ in range(3)]
    acked: list[tuple[str, int, str]] = []
    lock = threading.Lock()
    stop = threading.Event()
    failures: list[BaseException] = []

    def writer(seat: int) -> None:
        game_id = games[seat % len(games)]
        store = RedisEventStore.from_url(server.url, retries=1)
        try:
            expected = 0
            while not stop.is_set():
                try:
                    result = store.append(game_id, expected, [BidMade(seat, expected)],
                                          actor=seat, command_id=uuid.uuid4().hex)  # fmt: skip
                except ConcurrencyError as conflict:
                    expected = conflict.actual
                    continue
                except StoreUnavailableError:
                    return
                with lock:
                    acked.append((game_id, result.version, result.recorded[0].envelope.hash))
                expected = result.version
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)
        finally:
            store.close()

    workers = [threading.Thread(target=writer, args=(seat,)) for seat in range(6)]
    try:
        for worker in workers:
            worker.start()
        # Killed once enough appends were acknowledged to mean something, however slow the
        # machine (a fixed sleep gave too few under load).
        deadline = time.monotonic() + 60
        while len(acked) <= 50 and not failures:
            assert time.monotonic() < deadline, f"only {len(acked)} appends in 60 s"
            time.sleep(0.01)
        server.kill()
        for worker in workers:
            worker.join(timeout=20)
        stop.set()
        assert failures == []
        assert len(acked) > 50, "too few appends before the kill to mean anything"
        server.restart()
        with RedisEventStore.from_url(server.url) as store:
            histories = {game_id: store.read(game_id) for game_id in games}
    finally:
        stop.set()
        server.stop()
    for game_id, version, digest in acked:
        recorded = histories[game_id]
        assert len(recorded) >= version, f"acknowledged event {version} of {game_id} lost"
        assert recorded[version - 1].envelope.hash == digest
    for recorded in histories.values():
        assert [r.version for r in recorded] == list(range(1, len(recorded) + 1))
        verify([r.envelope for r in recorded])


def test_script_flush_in_the_middle_of_traffic_fails_no_append(
    redis_url: str, redis_client: redis.Redis
) -> None:
    evals_before = _calls(redis_client, "eval")
    flushes = 0
    done = threading.Event()
    errors: list[BaseException] = []

    def flusher() -> None:
        nonlocal flushes
        while not done.is_set():
            redis_client.script_flush()
            flushes += 1
            time.sleep(0.002)

    def writer() -> None:
        game_id = _new_game()
        try:
            with RedisEventStore.from_url(redis_url) as store:
                for version in range(150):
                    store.append(game_id, version, [BidPassed(1)], actor=1,
                                 command_id=f"c{version}")  # fmt: skip
                assert store.version(game_id) == 150
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    flushing = threading.Thread(target=flusher)
    flushing.start()
    writers = [threading.Thread(target=writer) for _ in range(4)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    flushing.join()
    assert errors == []
    assert flushes > 10
    assert _calls(redis_client, "eval") > evals_before, "the EVAL fallback never ran"


def test_an_unreachable_store_gives_a_clear_error_without_the_password() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing listens on *port* once the probe is closed.
    store = RedisEventStore.from_url(f"redis://:s3cret@127.0.0.1:{port}/0")
    start = time.monotonic()
    for call in (
        store.ping,
        lambda: store.version("g1"),
        lambda: store.read("g1"),
        lambda: store.append("g1", 0, [BidPassed(0)], actor=0),
    ):
        with pytest.raises(StoreUnavailableError) as raised:
            call()
        message = str(raised.value)
        assert message.startswith(f"store unavailable at redis://127.0.0.1:{port}: ")
        assert "s3cret" not in message
    assert time.monotonic() - start < 10


def test_a_full_server_refuses_the_whole_append(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "full") as server:
        client = redis.Redis(port=server.port)
        store = RedisEventStore.from_url(server.url)
        game_id = _new_game()
        store.append(game_id, 0, [BidPassed(0)], actor=0)
        client.config_set("maxmemory", 1)
        with pytest.raises(StoreUnavailableError, match="maxmemory"):
            store.append(game_id, 1, [BidMade(1, 20), BidPassed(2)], actor=1)
        client.config_set("maxmemory", 0)
        assert [r.version for r in store.read(game_id)] == [1]
        store.close()
        client.close()


def _calls(client: redis.Redis, command: str) -> int:
    """Returns how many times *command* ran on the server since its start."""
    stats = client.info("commandstats").get(f"cmdstat_{command}")
    return int(stats["calls"]) if stats else 0
