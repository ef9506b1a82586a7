"""Generates the deck and dealing-map test vectors of docs/verification.md (sections 4-7).

    python tests/engine/make_vectors.py          # writes docs/vectors/deck-fy*.json, deal-map.json
    python tests/engine/make_vectors.py --check  # exit 1 if a committed file would change

Every input comes from SHA-256 of a label; tests/engine/test_vectors.py checks each vector
against the engine and that this script gives the committed bytes again.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.cards import JOKER  # noqa: E402
from engine.fold import fold  # noqa: E402
from engine.profiles import make_ruleset  # noqa: E402
from engine.shuffle import (  # noqa: E402
    ALGORITHM,
    ALGORITHM_2,
    commitment,
    committed_cut,
    cut,
    deal_key,
    deal_order,
    deck_order,
    first_dealer,
    pack,
)
from events.types import DealContributed, DeckCut, DeckShuffled, GameCreated  # noqa: E402

VECTORS = ROOT / "docs" / "vectors"

PROFILES: list[tuple[str, int, dict[str, Any]]] = [
    ("bruff", 6, {}),
    ("auction", 4, {}),
    ("classic", 2, {}),
    ("classic", 5, {"deal_pattern": "2-3", "joker": "below_ah"}),
    ("classic", 8, {"decks": 2}),
]


def _hex(*parts: object) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def _codes(cards: Any) -> list[str]:
    return [card.code() for card in cards]


def _rules(profile: str, players: int, options: dict[str, Any]) -> Any:
    return make_ruleset(profile, options, players)


def fy1() -> dict[str, Any]:
    """The /1 vectors: seed -> first stream block -> order before the cut -> deck."""
    vectors = []
    for index, (profile, players, options) in enumerate(PROFILES):
        rules = _rules(profile, players, options)
        seed = _hex("vectors", "fy1", index)
        position = 1 + index * 7
        order = deck_order(rules, seed)
        block = hmac.new(bytes.fromhex(seed), b"fortyfive/shuffle/1" + bytes(8),
                         hashlib.sha256).hexdigest()
        vectors.append({
            "profile": profile, "players": players, "options": rules.options(),
            "pack": _codes(pack(rules)), "seed": seed, "commitment": commitment(seed),
            "stream_block_0": block, "order": _codes(order), "cut": position,
            "deck": _codes(cut(order, position)),
        })
    return {"algorithm": ALGORITHM, "vectors": vectors}


def fy2() -> dict[str, Any]:
    """The /2 vectors: seed, context, deal, cut and nonces -> K -> order -> deck."""
    vectors = []
    for index, (profile, players, options) in enumerate(PROFILES):
        rules = _rules(profile, players, options)
        seed = _hex("vectors", "fy2", index)
        context = _hex("vectors", "context", index)[:24]
        deal = 1 + index
        position = 3 + index * 5
        nonces = [(seat, _hex("vectors", "nonce", index, seat)[:32 + 16 * seat])
                  for seat in range(min(index, 3))]
        key = deal_key(seed, context, deal, position, nonces)
        block = hmac.new(key, b"fortyfive/shuffle/2/block" + bytes(8),
                         hashlib.sha256).hexdigest()
        order = deal_order(rules, seed, context, deal, position, nonces)
        vectors.append({
            "profile": profile, "players": players, "options": rules.options(),
            "seed": seed, "commitment": commitment(seed), "context": context, "deal": deal,
            "cut": position, "nonces": [{"seat": s, "nonce": n} for s, n in nonces],
            "deal_key": key.hex(), "stream_block_0": block, "order": _codes(order),
            "deck": _codes(cut(order, position)),
        })
    secret = _hex("vectors", "secret")
    cuts = [{"secret": secret, "commitment": commitment(secret), "context": "g1", "deal": deal,
             "seat": seat, "size": size,
             "cut": committed_cut(secret, "g1", deal, seat, size)}
            for deal, seat, size in ((1, 5, 53), (2, 0, 53), (3, 1, 52), (1, 7, 104))]
    dealers = [{"game_seed": seed, "players": players,
                "first_dealer": first_dealer(seed, players)}
               for seed, players in ((_hex("vectors", "dealer", n), n) for n in (2, 4, 6, 10))]
    return {"algorithm": ALGORITHM_2, "vectors": vectors, "committed_cuts": cuts,
            "first_dealers": dealers}


def deal_map() -> dict[str, Any]:
    """Dealt hands of real folds: a /2 shuffle and cut, per profile (and a turned joker)."""
    vectors = []
    cases = [(*case, None) for case in PROFILES] + [("bruff", 6, {}, "joker")]
    for index, (profile, players, options, wanted) in enumerate(cases):
        rules = _rules(profile, players, options)
        context = f"map-{index}"
        attempt = 0
        while True:
            seed = _hex("vectors", "map", index, attempt)
            game_seed = _hex("vectors", "map-game", index)
            created = GameCreated(profile, rules.options(), ("human",) * players, game_seed,
                                  commitment(_hex("s", index)), _hex("s", index))
            dealer = first_dealer(game_seed, players)
            cutter = (dealer - 1) % players
            nonce = _hex("vectors", "map-nonce", index)[:32]
            position = 1 + (attempt + 11 * index) % (len(pack(rules)) - 1)
            events = [created, DeckShuffled(1, ALGORITHM_2, commitment(seed), seed, context),
                      DealContributed(1, (cutter + 1) % players, nonce),
                      DeckCut(cutter, position)]
            state = fold(events)
            deal = state.deal
            assert deal is not None
            joker = JOKER in deal.hands[dealer] and deal.phase == "joker"
            if wanted is None or joker:
                break
            attempt += 1
        deck = cut(deal.order, position)
        vectors.append({
            "profile": profile, "players": players, "options": rules.options(),
            "game_seed": game_seed, "dealer": dealer, "cutter": cutter, "seed": seed,
            "context": context, "deal": 1, "cut": position,
            "nonces": [{"seat": (cutter + 1) % players, "nonce": nonce}],
            "deck": _codes(deck),
            "hands": [_codes(hand) for hand in deal.hands],
            "turn_up": deal.turn_up.code() if deal.turn_up is not None else None,
            "stock": _codes(deal.stock), "phase": deal.phase,
            "joker_turned": joker,
        })
    return {"vectors": vectors}


def generate() -> dict[str, bytes]:
    """Returns every vector file's name and bytes."""
    files = {"deck-fy1.json": fy1(), "deck-fy2.json": fy2(), "deal-map.json": deal_map()}
    return {name: (json.dumps(body, indent=1) + "\n").encode() for name, body in files.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    changed = []
    for name, data in generate().items():
        path = VECTORS / name
        if path.exists() and path.read_bytes() == data:
            continue
        changed.append(name)
        if not args.check:
            VECTORS.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if changed:
        print(("would change: " if args.check else "wrote: ") + ", ".join(changed))
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
