"""A seed commitment is used once: the store refuses a shuffle whose commitment it recorded
for another context or deal, and writes nothing; the same (context, deal) may reuse it (a
duplicate board's one seed at every table of its round). On Redis Cluster too: the record is
one key with a hash tag of its own."""

from __future__ import annotations

import hashlib
import uuid

import pytest

from events.errors import CommitmentReusedError
from events.keys import commitment_key
from events.redis_store import RedisEventStore
from events.types import DeckShuffled, GameCreated


def _opening(seed: str, context: str | None, deal: int = 1) -> list[object]:
    commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    created = GameCreated("classic", {}, ("human", "human"), "00" * 32)
    algorithm = "hmac-sha256-fy/2" if context else "hmac-sha256-fy/1"
    return [created, DeckShuffled(deal, algorithm, commitment, seed, context)]


def test_a_commitment_used_for_another_game_is_refused(contract_store: RedisEventStore) -> None:
    seed = uuid.uuid4().hex * 2
    first, second = f"g-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    contract_store.append(first, 0, _opening(seed, first), actor="server")
    with pytest.raises(CommitmentReusedError, match="already used for"):
        contract_store.append(second, 0, _opening(seed, second), actor="server")
    assert contract_store.version(second) == 0, "nothing written"
    with pytest.raises(CommitmentReusedError):  # Nor for another deal of the same context.
        contract_store.append(second, 0, _opening(seed, first, deal=2), actor="server")


def test_a_commitment_of_a_fy1_deal_is_bound_to_its_game(contract_store: RedisEventStore) -> None:
    seed = uuid.uuid4().hex * 2
    first, second = f"g-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    contract_store.append(first, 0, _opening(seed, None), actor="server")
    with pytest.raises(CommitmentReusedError):
        contract_store.append(second, 0, _opening(seed, None), actor="server")


def test_the_same_board_and_deal_may_reuse_its_seed(contract_store: RedisEventStore) -> None:
    seed = uuid.uuid4().hex * 2
    board = f"board-{uuid.uuid4().hex[:8]}"
    for _table in range(3):
        game = f"g-{uuid.uuid4().hex[:8]}"
        assert contract_store.append(game, 0, _opening(seed, board), actor="server").version == 2


def test_the_record_has_a_hash_tag_of_its_own() -> None:
    key = commitment_key("ab" * 32)
    assert key == "f45:{commit:" + "ab" * 32 + "}"
