"""Seat names: given when a game is created, refused when blank, too long or another seat's
(case and Unicode form aside, the drives' rule), and shown in views, histories (both
encodings), pictures and rematches."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from flask.testing import FlaskClient
from http_table import bearer

from replay.formats.importing import read_history
from replay.presentation.show import render
from service.application.names import MAX_NAME_LENGTH, name_key


def _create(client: FlaskClient, names: list[str | None]):  # type: ignore[no-untyped-def]
    seats = [{"type": "human", "name": name} for name in names]
    return client.post("/v1/games", json={"profile": "classic", "seats": seats,
                                          "options": {"target": 15}})


def test_names_are_in_the_views_the_histories_and_the_pictures(client: FlaskClient) -> None:
    created = _create(client, ["Ann", None, "Séan"])
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    path = f"/v1/games/{body['id']}"
    assert client.get(path).get_json()["names"] == ["Ann", None, "Séan"]
    history = client.get(f"{path}/history", query_string={"format": "json"}).get_json()
    creation = next(event for event in history["events"] if event["type"] == "game_created")
    assert creation["data"]["names"] == ["Ann", None, "Séan"]
    text = client.get(f"{path}/history", query_string={"format": "text"}).get_data(as_text=True)
    read = read_history(text)
    assert read.ok and read.history is not None, read.diagnostics
    again = next(event for event in read.history.events if event.type == "game_created")
    assert again.data["names"] == ["Ann", None, "Séan"], "the text encoding round-trips them"
    svg = client.get(f"{path}/deals/1/diagram.svg",
                     headers=bearer(body["seats"][0]["token"])).get_data()
    lines = ["".join(node.itertext()) for node in ET.fromstring(svg).iter(
        "{http://www.w3.org/2000/svg}text")]
    for title in ("Seat 1 · Ann · side A", "Seat 2 · side B", "Seat 3 · Séan · side C"):
        assert any(line.startswith(title) for line in lines), title


@pytest.mark.parametrize(("names", "says"), [
    (["Ann", "  "], "the name of seat 1 is blank"),
    (["Ann", " ANN "], "seat 1 cannot be named ' ANN ': seat 0 is named so"),
    (["\uff21nn", "ann"], "seat 1 cannot be named 'ann': seat 0 is named so"),
    (["x" * (MAX_NAME_LENGTH + 1), None], f"longer than {MAX_NAME_LENGTH} characters"),
])
def test_a_blank_long_or_borrowed_name_is_refused(
        client: FlaskClient, names: list[str | None], says: str) -> None:
    response = _create(client, names)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["code"] == "invalid_name" and says in problem["detail"], problem


def test_the_rule_is_the_drives_rule() -> None:
    assert name_key(" Ａnn  Marie ") == name_key("ann marie")



def _claimable(client: FlaskClient) -> dict:  # type: ignore[type-arg]
    """A classic game of three people: seat 1 named Ann by its creator, seats 2 and 3 to be
    claimed with their invites."""
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "claimable": True},
             {"type": "human", "claimable": True}]
    created = client.post("/v1/games", json={"profile": "classic", "seats": seats,
                                             "options": {"target": 15}})
    assert created.status_code == 201, created.get_json()
    return dict(created.get_json())


def _claim(client: FlaskClient, body: dict, seat: int, name: object):  # type: ignore[no-untyped-def, type-arg]
    claim = body["seats"][seat]["claim"]
    return client.post(claim["url"], json={"code": claim["code"], "name": name})


def test_a_name_given_at_a_claim_is_recorded_and_shown_everywhere(client: FlaskClient) -> None:
    body = _claimable(client)
    path = f"/v1/games/{body['id']}"
    before = client.get(path).get_json()["version"]
    claimed = _claim(client, body, 2, "  Séan ")
    assert claimed.status_code == 201, claimed.get_json()
    assert claimed.get_json()["seat"] == 2 and claimed.get_json()["token"]
    view = client.get(path).get_json()
    assert view["names"] == ["Ann", None, "  Séan "] and view["version"] == before + 1
    history = client.get(f"{path}/history", query_string={"format": "json"}).get_json()
    named = [event for event in history["events"] if event["type"] == "seat_named"]
    assert [(event["actor"], event["data"]) for event in named] == [
        ("server", {"seat": 2, "name": "  Séan "})]
    text = client.get(f"{path}/history", query_string={"format": "text"}).get_data(as_text=True)
    read = read_history(text)
    assert read.ok and read.history is not None, read.diagnostics
    assert [event.data for event in read.history.events if event.type == "seat_named"] == [
        {"seat": 2, "name": "  Séan "}], "the text encoding round-trips the event"
    shown = render(read.history)
    assert "sides: A = seats 1 (Ann); B = seats 2; C = seats 3 (  Séan )" in shown, shown
    assert "seat 3 claimed and named   Séan " in shown, shown
    svg = client.get(f"{path}/deals/1/diagram.svg",
                     headers=bearer(claimed.get_json()["token"])).get_data()
    lines = ["".join(node.itertext()) for node in ET.fromstring(svg).iter(
        "{http://www.w3.org/2000/svg}text")]
    assert any(line.startswith("Seat 3 ·   Séan  · side C") for line in lines), lines
    # Without a name the claim records nothing but the token.
    plain = _claim(client, body, 1, None)
    assert plain.status_code == 201
    assert client.get(path).get_json()["version"] == before + 1


@pytest.mark.parametrize(("name", "status", "code", "says"), [
    ("   ", 422, "invalid_name", "the name of seat 2 is blank"),
    ("x" * (MAX_NAME_LENGTH + 1), 422, "invalid_name", f"longer than {MAX_NAME_LENGTH}"),
    (" ａＮＮ ", 409, "name_taken", "seat 2 cannot be named ' ａＮＮ ': seat 0 is named so"),
])
def test_a_claim_with_a_blank_long_or_borrowed_name_claims_nothing(
        client: FlaskClient, name: str, status: int, code: str, says: str) -> None:
    body = _claimable(client)
    path = f"/v1/games/{body['id']}"
    before = client.get(path).get_json()["version"]
    refused = _claim(client, body, 2, name)
    assert refused.status_code == status
    assert refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == code and says in problem["detail"], problem
    assert client.get(path).get_json()["version"] == before, "nothing was recorded"
    again = _claim(client, body, 2, "Séan")
    assert again.status_code == 201, "the invite still works"


def test_a_name_taken_at_an_earlier_claim_is_refused_at_a_later_one(client: FlaskClient) -> None:
    body = _claimable(client)
    assert _claim(client, body, 1, "Bríd").status_code == 201
    refused = _claim(client, body, 2, "BRÍD")
    assert (refused.status_code, refused.get_json()["code"]) == (409, "name_taken")
    assert "seat 1 is named so" in refused.get_json()["detail"]


def test_a_wrong_code_is_refused_before_the_name_is_looked_at(client: FlaskClient) -> None:
    body = _claimable(client)
    claim = body["seats"][2]["claim"]
    wrong = client.post(claim["url"], json={"code": "x" * 43, "name": "Ann"})
    assert (wrong.status_code, wrong.get_json()["code"]) == (404, "claim_not_found")


def test_a_name_taken_while_the_claim_was_won_gives_the_seat_back(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two people claim seats 2 and 3 with one name at once: seat 3's claim is won first, then
    seat 2 takes the name before seat 3 can record it. Seat 3's claimant is refused, the token
    minted for a moment works nowhere, and the invite still works; the name recorded is the one
    of who holds seat 2's token."""
    from service.application import claims

    body = _claimable(client)
    path = f"/v1/games/{body['id']}"
    real_claim = claims.claim_seat
    minted: list[str] = []

    def claim_then_lose_the_name(registry, game_id, seat, code):  # type: ignore[no-untyped-def]
        token = real_claim(registry, game_id, seat, code)
        if seat == 2 and not minted:
            minted.append(token)
            monkeypatch.setattr(claims, "claim_seat", real_claim)
            assert _claim(client, body, 1, "Bríd").status_code == 201
        return token

    monkeypatch.setattr(claims, "claim_seat", claim_then_lose_the_name)
    refused = _claim(client, body, 2, "Bríd")
    assert (refused.status_code, refused.get_json()["code"]) == (409, "name_taken")
    assert minted, "the race was staged"
    view = client.get(path, headers=bearer(minted[0]))
    assert view.status_code == 401, "the refused claimant's token opens nothing"
    assert client.get(path).get_json()["names"] == ["Ann", "Bríd", None]
    again = _claim(client, body, 2, "Séan")
    assert again.status_code == 201, "the invite still works"


def test_every_refusal_of_a_claim_counts_the_seat_as_the_path_does(client: FlaskClient) -> None:
    """The API counts seats from 0 (docs/api.md): a claim of /seats/2 refused for its name, its
    code or a second claim names seat 2 each time, never seat 3."""
    body = _claimable(client)
    claim = body["seats"][2]["claim"]
    details = [
        _claim(client, body, 2, "   ").get_json()["detail"],
        _claim(client, body, 2, "x" * (MAX_NAME_LENGTH + 1)).get_json()["detail"],
        client.post(claim["url"], json={"code": "x" * 43}).get_json()["detail"],
    ]
    assert _claim(client, body, 2, "Séan").status_code == 201
    details.append(_claim(client, body, 2, "Bríd").get_json()["detail"])
    for detail in details:
        assert "seat 2" in detail and "seat 3" not in detail, details


UNPRINTABLE_NAMES = [
    ("\u001b[2J\u001b[32mOK: verified", "U+001B"),
    ("Ann\u0000", "U+0000"),
    ("Ann\r\nOK: verified", "U+000D"),
    ("\u202eAnn", "U+202E"),
    ("Ann\u2028Bo", "U+2028"),
    ("Ann\u200b", "U+200B"),
]


@pytest.mark.parametrize("name", ["\u0645\u062d\u0645\u062f\u200c\u0631\u0636\u0627",
                                  "Ann \U0001f469\u200d\U0001f4bb", "Stein\u00admetz"])
def test_a_name_written_with_joiners_is_text(client: FlaskClient, name: str) -> None:
    """The zero-width non-joiner and joiner (Persian and Indic scripts, emoji sequences) and
    the soft hyphen are format characters of ordinary text: such a name is taken."""
    response = _create(client, ["Ann", name])
    assert response.status_code == 201, response.get_json()


@pytest.mark.parametrize(("name", "character"), UNPRINTABLE_NAMES)
def test_a_name_with_a_character_that_is_no_text_is_refused(
        client: FlaskClient, name: str, character: str) -> None:
    """An escape sequence, a NUL, a line break or a bidi override would be written as it is
    on a terminal (history show), a page or a picture: such a name creates nothing."""
    response = _create(client, ["Ann", name])
    assert response.status_code == 422, response.get_json()
    problem = response.get_json()
    assert problem["code"] == "invalid_name", problem
    assert f"the name of seat 1 holds the character {character}" in problem["detail"], problem


def test_a_claim_with_a_character_that_is_no_text_claims_nothing(client: FlaskClient) -> None:
    body = _claimable(client)
    path = f"/v1/games/{body['id']}"
    before = client.get(path).get_json()["version"]
    refused = _claim(client, body, 2, "\u001b[31mX")
    assert (refused.status_code, refused.get_json()["code"]) == (422, "invalid_name")
    assert "U+001B" in refused.get_json()["detail"]
    assert client.get(path).get_json()["version"] == before, "nothing was recorded"
    assert _claim(client, body, 2, "X").status_code == 201, "the invite still works"


def test_a_drive_player_or_newcomer_with_a_character_that_is_no_text_is_refused(
        client: FlaskClient) -> None:
    players = [{"name": f"P{n}", "type": "bot"} for n in range(3)]
    players.append({"name": "\u202eP3", "type": "bot"})
    drive = {"profile": "classic", "format": "progressive", "rounds": 2, "players": players}
    refused = client.post("/v1/drives", json=drive)
    assert (refused.status_code, refused.get_json()["code"]) == (422, "invalid_name")
    assert "the name of player 3 holds the character U+202E" in refused.get_json()["detail"]
    players[3]["name"] = "P3"
    created = client.post("/v1/drives", json=drive)
    assert created.status_code == 201, created.get_json()
    answer = client.post(f"/v1/drives/{created.get_json()['id']}/director",
                         json={"action": "add_player", "name": "\u001b[31mNora",
                               "type": "bot"},
                         headers=bearer(created.get_json()["director_token"]))
    assert (answer.status_code, answer.get_json()["code"]) == (422, "invalid_name"), (
        answer.get_json())
