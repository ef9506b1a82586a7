"""``GET /v1/games/{id}/deals/{n}/diagram.svg``: the deal drawn from the caller's own view."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from flask.testing import FlaskClient
from http_table import Table, bearer

from replay.presentation.diagram import card_label

SVG = "{http://www.w3.org/2000/svg}"


def _lines(body: bytes) -> list[str]:
    root = ET.fromstring(body)
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def test_a_seat_gets_its_own_hand_and_the_spectator_none(client: FlaskClient) -> None:
    table = Table.create(client, "classic", seats=["human", "human"])
    for _ in range(6):
        table.step()
    path = f"{table.path}/deals/1/diagram.svg"
    view = table.view(0).get_json()
    # The turn-up a robber took is in its hand now but was not dealt to it.
    robbed = view["deal"]["turn_up"] if view["deal"]["robbed_by"] == 0 else None
    hand = [code for code in view["hand"] if code != robbed]
    seat = client.get(path, headers=bearer(table.tokens[0]))
    assert seat.status_code == 200
    assert seat.mimetype == "image/svg+xml"
    assert seat.headers["Cache-Control"] == "private, no-store"
    lines = _lines(seat.get_data())
    assert lines.count("hidden from this view") == 1, "seat 2's hand"
    for code in hand:  # Those it still holds, as dealt: each on its suit's line.
        rank = card_label(code)[:-1]
        suit = card_label(code)[-1]
        assert any(line.startswith(suit) and rank in line.split() for line in lines), code
    spectator = client.get(path)
    assert _lines(spectator.get_data()).count("hidden from this view") == 2


def test_a_deal_not_played_yet_is_404_and_a_stranger_token_401(client: FlaskClient) -> None:
    table = Table.create(client, "classic", seats=["human", "human"])
    missing = client.get(f"{table.path}/deals/4/diagram.svg")
    assert missing.status_code == 404
    assert missing.get_json()["code"] == "deal_not_found"
    assert missing.get_json()["detail"] == "deal 4 is not in this game yet", "no event was chosen"
    stranger = client.get(f"{table.path}/deals/1/diagram.svg", headers=bearer("x" * 43))
    assert stranger.status_code == 401
    assert client.get("/v1/games/nosuchgame/deals/1/diagram.svg").status_code == 404


def test_the_auditor_gets_every_hand_with_view_auditor(client: FlaskClient) -> None:
    table = Table.create(client, "classic", seats=["human", "human"])
    path = f"{table.path}/deals/1/diagram.svg"
    assert client.get(path, query_string={"view": "auditor"}).status_code == 403
    before = client.get(path, headers=bearer(table.auditor), query_string={"view": "auditor"})
    assert _lines(before.get_data()).count("not dealt yet") == 2, "the cut comes first"
    for _ in range(3):
        table.step()
    auditor = client.get(path, headers=bearer(table.auditor), query_string={"view": "auditor"})
    assert "hidden from this view" not in _lines(auditor.get_data())


def test_a_shared_viewer_link_carries_the_deal_picture_as_its_preview(
        client: FlaskClient) -> None:
    table = Table.create(client, "classic", seats=["human", "human"])
    page = client.get("/viewer", query_string={"game": table.id, "diagram": "1"})
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    image = f"http://localhost/v1/games/{table.id}/deals/1/diagram.svg"
    assert f'<meta property="og:image" content="{image}">' in html
    assert html.index("og:image") < html.index("</head>")
    picture = client.get(image.removeprefix("http://localhost"))
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    for query in ({"game": table.id}, {"game": '"><script>', "diagram": "1"},
                  {"game": table.id, "diagram": "0"}, {}):
        assert "og:image" not in client.get("/viewer", query_string=query).get_data(as_text=True)
