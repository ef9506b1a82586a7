"""The transparency log over HTTP: every checkpoint a view carries is a leaf, its audit path
and the consistency proofs verify against a signed tree head (with nothing but
:mod:`events.merkle` and the published key), and a range, size or leaf the log does not have is
a problem+json 400 or 404. The app shares the session's Redis with other tests, so these
tests reason about the leaves they made, never the log's absolute size."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from http_table import Table

from events import checkpoints, merkle, tree_heads
from events.codec import canonical_json
from service.http.schemas.log import (
    ConsistencySchema,
    EntriesSchema,
    InclusionSchema,
    TreeHeadSchema,
)


def _ok(client: FlaskClient, path: str, method: str = "get") -> Any:
    answer = client.open(path, method=method.upper(),
                         json={} if method == "post" else None)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _head(client: FlaskClient) -> dict[str, Any]:
    head = _ok(client, "/v1/log/tree-head", "post")
    assert TreeHeadSchema().validate(head) == {}
    tree_heads.check(head, checkpoints.read_keys(_ok(client, "/v1/keys")))
    return dict(head)


def test_a_views_checkpoint_is_in_the_log_under_a_signed_head(client: FlaskClient) -> None:
    table = Table.create(client, "bruff")
    checkpoint = table.view().get_json()["checkpoint"]
    head = _head(client)
    hashed = merkle.leaf_hash(canonical_json(checkpoint))
    proof = _ok(client, f"/v1/log/proof?leaf_hash={hashed.hex()}&tree_size={head['tree_size']}")
    assert InclusionSchema().validate(proof) == {}
    merkle.verify_inclusion(hashed, proof["leaf_index"], head["tree_size"],
                            [bytes.fromhex(item) for item in proof["audit_path"]],
                            bytes.fromhex(head["root_hash"]))
    entries = _ok(client, f"/v1/log/entries?start={proof['leaf_index']}"
                          f"&end={proof['leaf_index'] + 1}")
    assert EntriesSchema().validate(entries) == {}
    (entry,) = entries["entries"]
    assert entry == {"leaf_index": proof["leaf_index"], "leaf_hash": hashed.hex(),
                     "leaf": canonical_json(checkpoint).decode()}


def test_a_point_viewed_again_is_one_leaf_and_the_log_only_grows(client: FlaskClient) -> None:
    table = Table.create(client, "bruff")
    before = _head(client)
    checkpoint = table.view().get_json()["checkpoint"]
    assert table.view(2).get_json()["checkpoint"] == checkpoint
    table.step()
    moved_on = table.view().get_json()["checkpoint"]
    after = _head(client)
    assert after["tree_size"] >= before["tree_size"] + 2
    proof = _ok(client, f"/v1/log/consistency?first={before['tree_size']}"
                        f"&second={after['tree_size']}")
    assert ConsistencySchema().validate(proof) == {}
    merkle.verify_consistency(before["tree_size"], after["tree_size"],
                              [bytes.fromhex(item) for item in proof["proof"]],
                              bytes.fromhex(before["root_hash"]),
                              bytes.fromhex(after["root_hash"]))
    logged = _ok(client, f"/v1/log/entries?start={before['tree_size']}"
                         f"&end={after['tree_size']}")["entries"]
    mine = [entry["leaf"] for entry in logged if table.id in entry["leaf"]]
    assert mine == [canonical_json(checkpoint).decode(), canonical_json(moved_on).decode()]


def test_the_latest_head_is_served_and_a_post_without_new_leaves_signs_nothing(
    client: FlaskClient,
) -> None:
    Table.create(client, "bruff").view()
    signed = _head(client)
    assert _ok(client, "/v1/log/tree-head") == signed
    again = _ok(client, "/v1/log/tree-head", "post")
    assert again["tree_size"] >= signed["tree_size"]
    if again["tree_size"] == signed["tree_size"]:
        assert again == signed


@pytest.mark.parametrize(("path", "status", "code", "detail"), [
    ("/v1/log/entries?start=5&end=5", 400, "invalid_log_range", "no leaves [5, 5)"),
    ("/v1/log/entries?start=0&end=9007199254740992", 400, "invalid_log_range",
     "in a log of"),
    ("/v1/log/entries?start=-1&end=2", 422, "invalid_request", None),
    ("/v1/log/consistency?first=3&second=2", 400, "invalid_log_range",
     "no consistency proof from a tree of 3 leaves to one of 2"),
    ("/v1/log/consistency?first=1&second=9007199254740992", 400, "invalid_log_range",
     "no tree of 9007199254740992 leaves"),
    (f"/v1/log/proof?leaf_hash={'ab' * 32}&tree_size=1", 404, "leaf_not_found",
     f"no leaf hashed {'ab' * 32} is in the log"),
    ("/v1/log/proof?leaf_hash=xyz&tree_size=1", 422, "invalid_request", None),
    (f"/v1/log/proof?leaf_hash={'ab' * 32}&tree_size=0", 422, "invalid_request", None),
])
def test_what_the_log_does_not_have_is_a_problem(
    client: FlaskClient, path: str, status: int, code: str, detail: str | None,
) -> None:
    Table.create(client, "bruff").view()
    answer = client.get(path)
    assert answer.status_code == status
    assert answer.mimetype == "application/problem+json"
    body = answer.get_json()
    assert body["code"] == code
    if detail is not None:
        assert detail in body["detail"]


def test_a_leaf_appended_after_the_tree_asked_for_is_not_in_it(client: FlaskClient) -> None:
    table = Table.create(client, "bruff")
    earlier = _head(client)
    table.step()
    checkpoint = table.view().get_json()["checkpoint"]
    hashed = merkle.leaf_hash(canonical_json(checkpoint)).hex()
    answer = client.get(f"/v1/log/proof?leaf_hash={hashed}&tree_size={earlier['tree_size']}")
    assert answer.status_code == 404
    assert answer.get_json()["code"] == "leaf_not_found"
    assert f"not in the tree of {earlier['tree_size']} leaves" in answer.get_json()["detail"]
