"""Noninterference: two games that differ only in cards a viewer cannot see give that viewer
byte-identical answers to the same requests.

Each example records one bruff deal twice (``DealRecorded``, so every card is fixed) in two
stores, under the same game id, with the same tokens, the same clock and the same entropy:
game A as drawn, game B with hidden cards moved between the other hands and the stock. The
same actions are then posted to both, and after each one the viewer (a seat or a spectator)
reads its view, the log, the stream, the deal's diagram, and provokes its own errors;
status, headers and body must be identical.

Which hidden cards may move without changing what anyone can do: every card an action names
(played, robbed, discarded) stays where it is, every trump stays where it is (they decide
what must be played to a trump lead), and the other cards only trade places within their suit
(so each hand keeps the suits it holds, which decide what must be played to a plain lead).
"""

from __future__ import annotations

import hashlib
import itertools
import random
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from http_table import read_stream
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import decide, legal_actions
from engine.cards import Card
from engine.fold import fold
from engine.profiles import make_ruleset
from engine.ranking import ranking
from engine.shuffle import pack
from events.redis_store import RedisEventStore
from events.types import DealRecorded, GameCreated
from service.http.app import create_app

RULES = make_ruleset("bruff")
PACK = [card.code() for card in pack(RULES)]
GAME_SEED = "00" * 32
TOKENS = {seat: f"seat-token-{seat}-" + "x" * 32 for seat in range(6)}
AUDITOR = "auditor-token-" + "y" * 32
HEADERS = ("Content-Type", "Content-Length", "ETag", "Cache-Control", "WWW-Authenticate")


def _entropy(salt: bytes = b"") -> Callable[[], bytes]:
    counter = itertools.count()
    return lambda: hashlib.sha256(b"entropy/%s/%d" % (salt, next(counter))).digest()


def _clock() -> datetime:
    return datetime(2030, 1, 1, tzinfo=UTC)


@pytest.fixture
def twin_apps(redis_url: str) -> Iterator[tuple[Flask, Flask]]:
    """Two apps, each on its own database of the session's server, with a fixed clock and
    the same entropy (both get the same requests, so their shuffles stay the same)."""
    apps = []
    salt = uuid.uuid4().hex.encode()  # The same seeds in both, never a seed used before.
    for db in (1, 2):
        store = RedisEventStore.from_url(f"{redis_url}/{db}", clock=_clock)
        apps.append(create_app({"STORE": store, "ENTROPY": _entropy(salt), "TESTING": True}))
    yield apps[0], apps[1]
    for app in apps:
        # The hub first, as StreamHub.close asks: its tails must not wait on a closed store.
        app.extensions["fortyfive"].streams.close()
        app.extensions["fortyfive"].store.close()


def _deal(order: list[str]) -> tuple[list[list[str]], str, list[str]]:
    """Returns hands (5 each), turn-up and stock of a pack in dealing *order*."""
    hands = [order[5 * seat:5 * seat + 5] for seat in range(6)]
    return hands, order[30], order[31:]


def _opening(hands: list[list[str]], turn_up: str, stock: list[str]) -> list[Any]:
    created = GameCreated("bruff", RULES.options(), ("human",) * 6, GAME_SEED)
    recorded = DealRecorded(1, tuple(map(tuple, hands)), turn_up, tuple(stock))
    return [created, recorded]


def _actions(opening: list[Any], steps: int, rng: random.Random) -> list[tuple[int, dict]]:
    """Returns *steps* (seat, action) pairs drawn from the legal actions of game A."""
    state = fold(opening)
    entropy = _entropy()
    chosen = []
    for _ in range(steps):
        seat = state.turn
        deal = state.deal
        if seat is None or deal is None or (deal.number > 1 and deal.phase != "cut"):
            break  # Beyond the recorded deal, only the next cut is the same in both runs.
        action = rng.choice(legal_actions(state, seat))
        chosen.append((seat, action))
        state = fold(decide(state, seat, action, entropy=entropy()), state)
    return chosen


def _twin(
    hands: list[list[str]], turn_up: str, stock: list[str], viewer: int | str,
    actions: list[tuple[int, dict]], rng: random.Random,
) -> tuple[list[list[str]], list[str]]:
    """Returns game B's other hands and stock: hidden, unnamed, non-trump cards shuffled
    within their suit over the same places."""
    order = ranking(Card.parse(turn_up).suit, RULES)  # type: ignore[arg-type]
    named = {turn_up}
    for _, action in actions:
        named.update(value for key, value in action.items() if key in ("card", "discard"))
    places = [(seat, index) for seat in range(6) if seat != viewer for index in range(5)]
    places += [("stock", index) for index in range(len(stock))]

    def card_at(place: tuple[Any, int]) -> str:
        where, index = place
        return stock[index] if where == "stock" else hands[where][index]

    new_hands = [list(hand) for hand in hands]
    new_stock = list(stock)
    by_suit: dict[str, list[tuple[Any, int]]] = {}
    for place in places:
        card = card_at(place)
        if card not in named and not order.is_trump(Card.parse(card)):
            by_suit.setdefault(card[-1], []).append(place)
    for group in by_suit.values():
        cards = [card_at(place) for place in group]
        rng.shuffle(cards)
        for (where, index), card in zip(group, cards, strict=True):
            if where == "stock":
                new_stock[index] = card
            else:
                new_hands[where][index] = card
    return new_hands, new_stock


def _record(app: Flask, game_id: str, events: list[Any]) -> None:
    services = app.extensions["fortyfive"]
    services.store.append(game_id, 0, events, actor="server")
    services.tokens.register(game_id, {**TOKENS, "auditor": AUDITOR})


def _auth(viewer: int | str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[viewer]}"} if isinstance(viewer, int) else {}


def _observe(app: Flask, game_id: str, viewer: int | str) -> list[Any]:
    """Returns everything *viewer* gets from its requests now."""
    client = app.test_client()
    path = f"/v1/games/{game_id}"
    auth = _auth(viewer)
    responses = [
        client.get(path, headers=auth),
        client.get(f"{path}/events", headers=auth),
        client.get(f"{path}/events", headers=auth, query_string={"after": 3, "limit": 2}),
        read_stream(client, path, headers=auth, query={"after": 0}),
        client.get(f"{path}/deals/1/diagram.svg", headers=auth),
    ]
    assert responses[4].status_code == 200, "the diagram of the deal is drawn"
    assert responses[4].get_data().count(b"hidden from this view") >= 5
    view = responses[0].get_json()
    version = view["version"]
    if view["phase"] != "over":  # Once it is over, everyone may audit: by design.
        responses.append(client.get(path, headers=auth, query_string={"view": "auditor"}))
    # Actions that never succeed in bruff: their errors carry the viewer's legal actions.
    for action in ({"type": "jink"}, {"type": "bid", "amount": 20}):
        responses.append(client.post(f"{path}/actions", json=action,
                                     headers={**auth, "If-Match": f'"{version}"'}))
    responses.append(client.post(f"{path}/actions", json={"type": "play", "card": "5S"},
                                 headers={**auth, "If-Match": f'"{version - 1}"'}))
    return [
        (response.status_code, [response.headers.get(name) for name in HEADERS],
         response.get_data())
        for response in responses
    ]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    order=st.permutations(PACK),
    viewer=st.sampled_from([0, 1, 2, 3, 4, 5, "spectator"]),
    steps=st.integers(min_value=1, max_value=34),
    rng=st.randoms(use_true_random=False),
)
def test_hidden_cards_do_not_change_a_byte_the_viewer_receives(
    twin_apps: tuple[Flask, Flask], order: list[str], viewer: int | str, steps: int,
    rng: random.Random,
) -> None:
    hands, turn_up, stock = _deal(order)
    if turn_up == "JK":
        turn_up, stock[0] = stock[0], turn_up  # a turned joker exposes the stock's top card
    opening_a = _opening(hands, turn_up, stock)
    actions = _actions(opening_a, steps, rng)
    hands_b, stock_b = _twin(hands, turn_up, stock, viewer, actions, rng)
    assert hands_b[viewer if isinstance(viewer, int) else 0] is not None
    game_id = f"ni-{uuid.uuid4().hex}"
    app_a, app_b = twin_apps
    _record(app_a, game_id, opening_a)
    _record(app_b, game_id, _opening(hands_b, turn_up, stock_b))
    assert _observe(app_a, game_id, viewer) == _observe(app_b, game_id, viewer)
    for seat, action in actions:
        answers = []
        for app in twin_apps:
            client = app.test_client()
            version = client.get(f"/v1/games/{game_id}").get_json()["version"]
            response = client.post(
                f"/v1/games/{game_id}/actions", json=action,
                headers={**_auth(seat), "If-Match": f'"{version}"'},
            )
            assert response.status_code == 201, response.get_json()
            answers.append(response.get_data() if seat == viewer else response.status_code)
        if app_a.test_client().get(f"/v1/games/{game_id}").get_json()["phase"] == "over":
            # Once it is over, nothing is hidden: every answer may carry the head that covers
            # every card, and anyone may audit (by design).
            break
        assert answers[0] == answers[1]
        assert _observe(app_a, game_id, viewer) == _observe(app_b, game_id, viewer)
    # The games did differ, for someone: the auditor sees it. Views list a hand's cards in
    # order of rank, so cards that only traded places within one hand differ for nobody.
    auditor = {"Authorization": f"Bearer {AUDITOR}"}
    views = [app.test_client().get(f"/v1/games/{game_id}", headers=auditor).get_json()
             for app in twin_apps]
    if list(map(sorted, hands_b)) != list(map(sorted, hands)) or stock_b != stock:
        assert views[0]["deal"] != views[1]["deal"] or views[0]["deal"]["number"] > 1
