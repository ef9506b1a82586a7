"""The append script's own connections (events.direct_connections.DirectConnections): used for a
standalone client, never left holding part of a reply, retried as the client retries."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import redis

from events.direct_connections import DirectConnections
from events.redis_store import RedisEventStore
from events.types import BidMade, BidPassed


def _new_game() -> str:
    return f"g-{uuid.uuid4().hex}"


def test_a_standalone_store_appends_on_its_own_connections(redis_url: str) -> None:
    with RedisEventStore.from_url(redis_url) as store:
        direct = store._direct
        assert direct is not None
        game_id = _new_game()
        store.append(game_id, 0, [BidPassed(0)], actor=0)
        store.append(game_id, 1, [BidMade(1, 20)], actor=1, command_id="c")
        assert len(direct._free) == 1  # One connection, reused, back in the list.
        again = store.append(game_id, 1, [BidMade(1, 20)], actor=1, command_id="c")
        assert (again.duplicate, again.version) == (True, 2)
        assert [e.version for e in store.read(game_id)] == [1, 2]
    assert direct._free == []  # Closed with the store.


def test_a_standalone_store_reads_on_its_own_connections_and_after_a_script_flush(
    redis_url: str,
) -> None:
    game_id = _new_game()
    with RedisEventStore.from_url(redis_url) as writer:
        writer.append(game_id, 0, [BidPassed(0), BidMade(1, 20)], actor=0)
    with RedisEventStore.from_url(redis_url) as store:
        direct = store._direct
        assert direct is not None
        assert [e.version for e in store.read(game_id)] == [1, 2]
        assert len(direct._free) == 1, "the read script ran on the store's own connection"
        store.client.script_flush()  # Redis forgets it: the client loads it again.
        assert [e.version for e in store.read(game_id, after=1)] == [2]
        assert [e.version for e in store.read(game_id)] == [1, 2]
        assert store.read(_new_game()) == []


def test_other_clients_append_through_the_client(redis_url: str) -> None:
    client: Any = redis.Redis.from_url(redis_url, decode_responses=True)

    class Wrapped(redis.Redis):  # type: ignore[type-arg]
        pass

    assert DirectConnections.of(client) is not None
    assert DirectConnections.of(Wrapped.from_url(redis_url)) is None
    assert DirectConnections.of(object()) is None
    client.close()


def test_an_error_reply_leaves_the_connection_clean(redis_url: str) -> None:
    client: Any = redis.Redis.from_url(redis_url, decode_responses=True)
    direct = DirectConnections.of(client)
    assert direct is not None
    with pytest.raises(redis.exceptions.NoScriptError):
        direct.call("EVALSHA", "0" * 40, 0)
    assert len(direct._free) == 1
    assert direct.call("ECHO", "next") == "next"  # The same connection, no stray reply.
    assert len(direct._free) == 1
    direct.close()
    client.close()


def test_an_interrupted_call_closes_its_connection(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    client: Any = redis.Redis.from_url(redis_url, decode_responses=True)
    direct = DirectConnections.of(client)
    assert direct is not None
    assert direct.call("ECHO", "first") == "first"
    connection = direct._free[-1]

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt  # As a greenlet killed while it waits for the reply.

    monkeypatch.setattr(connection, "read_response", interrupted)
    with pytest.raises(KeyboardInterrupt):
        direct.call("ECHO", "lost")
    assert direct._free == [] and connection._sock is None  # Closed, not kept.
    monkeypatch.undo()
    assert direct.call("ECHO", "fresh") == "fresh"  # A new connection.
    direct.close()
    client.close()


def test_a_failed_connection_is_retried_as_the_client_retries(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for retries, succeeds in ((0, False), (1, True)):
        store = RedisEventStore.from_url(redis_url, retries=retries)
        direct = store._direct
        assert direct is not None
        assert direct.call("ECHO", "warm") == "warm"
        connection = direct._free[-1]
        failures = [1]
        real = connection.read_response

        def flaky(*args: Any, _real: Any = real, _failures: list[int] = failures,
                  **kwargs: Any) -> Any:
            if _failures[0]:
                _failures[0] -= 1
                raise redis.exceptions.ConnectionError("reset")
            return _real(*args, **kwargs)

        monkeypatch.setattr(connection, "read_response", flaky)
        if succeeds:
            assert direct.call("ECHO", "again") == "again"
        else:
            with pytest.raises(redis.exceptions.ConnectionError):
                direct.call("ECHO", "again")
        monkeypatch.undo()
        store.close()
