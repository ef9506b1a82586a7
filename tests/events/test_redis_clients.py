"""What the processes accept as the store's address: one URL, or on a Redis Cluster several seed
nodes separated by commas."""

from __future__ import annotations

import pytest

from events.errors import StoreUnavailableError
from events.redis_clients import check_url, cluster_nodes, seed_urls, url_address
from events.redis_store import RedisEventStore


def test_several_seed_nodes_are_named_in_order_with_their_addresses() -> None:
    url = " redis://a:7000 ,redis://:pw@b:7001/0,,"
    assert seed_urls(url) == ["redis://a:7000", "redis://:pw@b:7001/0"]
    assert cluster_nodes(url) == [("a", 7000), ("b", 7001)]
    assert url_address(url) == "redis://a:7000,redis://b:7001"
    check_url(url, cluster=True)


@pytest.mark.parametrize(("url", "cluster", "message"), [
    ("redis://a:7000,redis://b:7000", False, "set REDIS_CLUSTER=true"),
    (" , ", True, "it names no address"),
    ("redis://a:7000,http://b", True, "'http://b'"),
])
def test_an_address_list_that_cannot_be_used_is_refused_saying_why(
    url: str, cluster: bool, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        check_url(url, cluster=cluster)
    with pytest.raises(StoreUnavailableError, match=message):
        RedisEventStore.from_url(url, cluster=cluster)
