"""The API bot's client: reading server-sent events as the service writes them."""

from __future__ import annotations

import io
from typing import Any, cast

import pytest

from service.cli.game_client import GameClient, StreamEvent, _parse


def parsed(body: bytes) -> list[StreamEvent]:
    return list(_parse(cast(Any, io.BytesIO(body))))


def test_events_are_read_with_their_version_and_comments_are_skipped() -> None:
    body = (b": keep-alive\n\n"
            b'id: 3\nevent: deck_cut\ndata: {"version":3,"type":"deck_cut"}\n\n'
            b": keep-alive\r\n\r\n"
            b'id: 4\r\nevent: card_played\r\ndata: {"version":4}\r\n\r\n'
            b'id: 5\nevent: half\ndata: {"version":5}')
    events = parsed(body)
    # The last event was cut off before its blank line: it is not taken.
    assert [(event.version, event.type) for event in events] == [(3, "deck_cut"),
                                                                 (4, "card_played")]
    assert events[0].data == {"version": 3, "type": "deck_cut"}


def test_data_over_several_lines_is_joined_with_newlines() -> None:
    events = parsed(b'id: 7\nevent: x\ndata: {"a":\ndata: 1}\n\n')
    assert events == [StreamEvent(7, "x", {"a": 1})]


@pytest.mark.parametrize("url", ["ftp://host", "127.0.0.1:8045", "http://"])
def test_a_url_that_is_not_http_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="expected http"):
        GameClient(url, "g", "t")


def test_the_game_id_is_quoted_into_the_path() -> None:
    client = GameClient("http://127.0.0.1:8045/prefix/", "a/b", "t")
    assert client.game_path == "/prefix/v1/games/a%2Fb"
