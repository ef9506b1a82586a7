"""The test vectors of docs/verification.md (docs/vectors/): the engine gives every one, an
implementation written from the document alone (below, with nothing of the engine's) gives
every one, and tests/engine/make_vectors.py gives the committed bytes again."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import make_vectors
import pytest

from engine.fold import fold
from engine.profiles import make_ruleset
from engine.shuffle import (
    commitment,
    committed_cut,
    cut,
    deal_key,
    deal_order,
    deck_order,
    first_dealer,
    pack,
)
from events.types import DealContributed, DeckCut, DeckShuffled, GameCreated

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "vectors"


def _load(name: str) -> dict[str, Any]:
    return json.loads((VECTORS / name).read_text())


# An implementation from docs/verification.md sections 4-6 alone ------------------------------


def spec_pack(joker: bool, decks: int) -> list[str]:
    one = [rank + suit for suit in "SCDH" for rank in "23456789TJQKA"] + (["JK"] if joker else [])
    return one * decks


def spec_stream(key: bytes, label: bytes) -> Any:
    block = 0
    while True:
        yield from hmac.new(key, label + block.to_bytes(8, "big"), hashlib.sha256).digest()
        block += 1


def spec_below(bound: int, stream: Any) -> int:
    width = 1
    while 256 ** width < bound:
        width += 1
    limit = 256 ** width - 256 ** width % bound
    while True:
        value = int.from_bytes(bytes(next(stream) for _ in range(width)), "big")
        if value < limit:
            return value % bound


def spec_shuffle(cards: list[str], stream: Any) -> list[str]:
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = spec_below(i + 1, stream)
        order[i], order[j] = order[j], order[i]
    return order


def spec_jcs(value: Any) -> bytes:
    # Enough of RFC 8785 for these inputs: ASCII strings, whole numbers, sorted keys.
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def spec_fy2_key(v: dict[str, Any]) -> bytes:
    body = {"context": v["context"], "cut": v["cut"], "deal": v["deal"], "nonces": v["nonces"]}
    return hmac.new(bytes.fromhex(v["seed"]), b"fortyfive/shuffle/2" + spec_jcs(body),
                    hashlib.sha256).digest()


def _spec_pack_of(v: dict[str, Any]) -> list[str]:
    options = v["options"]
    joker = v["profile"] == "bruff" or options.get("joker", "none") != "none"
    return spec_pack(joker, options.get("decks", 1))


# The vectors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("v", _load("deck-fy1.json")["vectors"], ids=lambda v: v["profile"])
def test_fy1_vectors(v: dict[str, Any]) -> None:
    rules = make_ruleset(v["profile"], v["options"], v["players"])
    assert [c.code() for c in pack(rules)] == v["pack"] == _spec_pack_of(v)
    assert commitment(v["seed"]) == v["commitment"] == hashlib.sha256(
        bytes.fromhex(v["seed"])).hexdigest()
    order = deck_order(rules, v["seed"])
    assert [c.code() for c in order] == v["order"]
    assert [c.code() for c in cut(order, v["cut"])] == v["deck"]
    stream = spec_stream(bytes.fromhex(v["seed"]), b"fortyfive/shuffle/1")
    assert bytes(next(stream) for _ in range(32)).hex() == v["stream_block_0"]
    spec = spec_shuffle(v["pack"], spec_stream(bytes.fromhex(v["seed"]), b"fortyfive/shuffle/1"))
    assert spec == v["order"] and spec[v["cut"]:] + spec[:v["cut"]] == v["deck"]


@pytest.mark.parametrize("v", _load("deck-fy2.json")["vectors"], ids=lambda v: v["profile"])
def test_fy2_vectors(v: dict[str, Any]) -> None:
    rules = make_ruleset(v["profile"], v["options"], v["players"])
    nonces = [(n["seat"], n["nonce"]) for n in v["nonces"]]
    key = deal_key(v["seed"], v["context"], v["deal"], v["cut"], nonces)
    assert key.hex() == v["deal_key"] == spec_fy2_key(v).hex()
    order = deal_order(rules, v["seed"], v["context"], v["deal"], v["cut"], nonces)
    assert [c.code() for c in order] == v["order"]
    assert [c.code() for c in cut(order, v["cut"])] == v["deck"]
    stream = spec_stream(key, b"fortyfive/shuffle/2/block")
    assert bytes(next(stream) for _ in range(32)).hex() == v["stream_block_0"]
    spec = spec_shuffle(_spec_pack_of(v), spec_stream(key, b"fortyfive/shuffle/2/block"))
    assert spec == v["order"] and spec[v["cut"]:] + spec[:v["cut"]] == v["deck"]


@pytest.mark.parametrize("v", _load("deck-fy2.json")["committed_cuts"], ids=str)
def test_committed_cut_vectors(v: dict[str, Any]) -> None:
    assert committed_cut(v["secret"], v["context"], v["deal"], v["seat"], v["size"]) == v["cut"]
    assert commitment(v["secret"]) == v["commitment"]
    body = {"context": v["context"], "deal": v["deal"], "seat": v["seat"]}
    key = hmac.new(bytes.fromhex(v["secret"]), b"fortyfive/contribution/1" + spec_jcs(body),
                   hashlib.sha256).digest()
    stream = spec_stream(key, b"fortyfive/contribution/1/block")
    assert 1 + spec_below(v["size"] - 1, stream) == v["cut"]


@pytest.mark.parametrize("v", _load("deck-fy2.json")["first_dealers"], ids=str)
def test_first_dealer_vectors(v: dict[str, Any]) -> None:
    assert first_dealer(v["game_seed"], v["players"]) == v["first_dealer"]
    key = hashlib.sha256(b"fortyfive/dealer/1" + bytes.fromhex(v["game_seed"])).digest()
    assert spec_below(v["players"], spec_stream(key, b"fortyfive/shuffle/1")) == v["first_dealer"]


def spec_deal(v: dict[str, Any]) -> tuple[list[list[str]], str | None, list[str], bool]:
    """The dealing map of section 7, from the dealt deck."""
    deck, players, dealer = v["deck"], v["players"], v["dealer"]
    pattern = [int(n) for n in v["options"].get("deal_pattern", "3-2").split("-")]
    hands: list[list[str]] = [[] for _ in range(players)]
    top = 0
    for batch in pattern:
        for step in range(1, players + 1):
            hands[(dealer + step) % players] += deck[top:top + batch]
            top += batch
    if v["profile"] == "auction":
        return hands, None, deck[top:], False
    if deck[top] == "JK":
        hands[dealer].append("JK")
        return hands, None, deck[top + 1:], True
    return hands, deck[top], deck[top + 1:], False


@pytest.mark.parametrize("v", _load("deal-map.json")["vectors"], ids=lambda v: v["profile"])
def test_deal_map_vectors(v: dict[str, Any]) -> None:
    rules = make_ruleset(v["profile"], v["options"], v["players"])
    assert first_dealer(v["game_seed"], v["players"]) == v["dealer"]
    assert v["cutter"] == (v["dealer"] - 1) % v["players"]
    nonce = v["nonces"][0]
    state = fold([
        GameCreated(v["profile"], rules.options(), ("human",) * v["players"], v["game_seed"]),
        DeckShuffled(1, "hmac-sha256-fy/2", commitment(v["seed"]), v["seed"], v["context"]),
        DealContributed(1, nonce["seat"], nonce["nonce"]), DeckCut(v["cutter"], v["cut"])])
    deal = state.deal
    assert deal is not None
    assert [c.code() for c in cut(deal.order, v["cut"])] == v["deck"]
    assert [[c.code() for c in hand] for hand in deal.hands] == v["hands"]
    assert (deal.turn_up.code() if deal.turn_up else None) == v["turn_up"]
    assert [c.code() for c in deal.stock] == v["stock"] and deal.phase == v["phase"]
    assert spec_deal(v) == (v["hands"], v["turn_up"], v["stock"], v["joker_turned"])


def test_the_profiles_and_options_are_all_covered() -> None:
    maps = _load("deal-map.json")["vectors"]
    assert {v["profile"] for v in maps} == {"bruff", "auction", "classic"}
    assert any(v["joker_turned"] for v in maps)
    assert {v["options"].get("deal_pattern") for v in maps} >= {"3-2", "2-3"}
    assert any(v["options"].get("decks") == 2 for v in maps)


def test_regenerating_gives_the_committed_bytes() -> None:
    for name, data in make_vectors.generate().items():
        assert (VECTORS / name).read_bytes() == data, name
