"""Checking the service's transparency log from outside: what ``fortyfive history verify --log``
and ``fortyfive log monitor`` ask the log and how they check its answers.

Nothing the log says is taken on trust: a tree head counts once its signature holds against
the published keys (or the ones the user gave), an inclusion proof once it leads from the
checkpoint's leaf to that head's root (:func:`events.merkle.verify_inclusion`), and a later head
once a consistency proof leads from the earlier head's root to its root
(:func:`events.merkle.verify_consistency`); the leaves a monitor reads, once they rebuild that
root (:func:`check_entries`). A failing check is a :class:`LogCheckError` that
says what does not hold; a log that cannot be asked is a :class:`LogUnreachableError`.
"""

from __future__ import annotations

import hashlib
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from events import checkpoints, merkle, tree_heads
from events.codec import canonical_json

TIMEOUT_SECONDS = 10.0
"""How long one request to the log may take."""


class LogUnreachableError(Exception):
    """The log cannot be asked: no answer, an error answer, or an answer that is not JSON."""


class LogCheckError(Exception):
    """Something the log showed does not hold: a signature, a proof, a missing leaf."""


class LogClient:
    """Asks the service at *url* (its base, e.g. ``https://host``) about its log."""

    def __init__(self, url: str, timeout: float = TIMEOUT_SECONDS) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout

    def keys(self) -> dict[str, bytes]:
        """Returns the service's published keys (``GET /v1/keys``), each checked against its
        id."""
        try:
            return checkpoints.read_keys(self._ask("/v1/keys"))
        except checkpoints.CheckpointError as error:
            raise LogUnreachableError(f"{self.url}/v1/keys: {error}") from None

    def tree_head(self, *, fresh: bool = False) -> dict[str, Any]:
        """Returns the latest signed tree head (with *fresh*, one covering every leaf logged
        now: ``POST /v1/log/tree-head``), its form checked."""
        head = self._ask("/v1/log/tree-head", body={} if fresh else None)
        try:
            return dict(tree_heads.check_form(head))
        except tree_heads.TreeHeadError as error:
            raise LogCheckError(f"the log's tree head is malformed: {error}") from None

    def inclusion(self, leaf_hash: bytes, tree_size: int) -> tuple[int, list[bytes]]:
        """Returns the index of the leaf hashed *leaf_hash* and its audit path in the tree of
        *tree_size* leaves.

        :raises LogCheckError: if the log says it has no such leaf in that tree.
        """
        query = urllib.parse.urlencode({"leaf_hash": leaf_hash.hex(), "tree_size": tree_size})
        answer = self._ask(f"/v1/log/proof?{query}", missing_ok=True)
        if answer.get("code") == "leaf_not_found":
            raise LogCheckError(f"the log does not include it: {answer.get('detail')}")
        return _int(answer, "leaf_index"), _hashes(answer, "audit_path")

    def consistency(self, first: int, second: int) -> list[bytes]:
        """Returns the consistency proof between the trees of *first* and *second* leaves."""
        query = urllib.parse.urlencode({"first": first, "second": second})
        return _hashes(self._ask(f"/v1/log/consistency?{query}"), "proof")

    def entries(self, start: int, end: int) -> list[bytes]:
        """Returns leaves from *start* on, up to *end* (the log may answer fewer at once)."""
        query = urllib.parse.urlencode({"start": start, "end": end})
        listed = self._ask(f"/v1/log/entries?{query}").get("entries")
        if not isinstance(listed, list) or not listed:
            raise LogCheckError(f"the log answered no entries from {start}")
        leaves = []
        for offset, entry in enumerate(listed):
            if not isinstance(entry, Mapping) or entry.get("leaf_index") != start + offset or (
                    not isinstance(entry.get("leaf"), str)):
                raise LogCheckError(f"the log's entry {start + offset} is malformed")
            leaves.append(entry["leaf"].encode())
        return leaves[:end - start]

    def _ask(self, path: str, *, body: Any = None, missing_ok: bool = False) -> Any:
        """Returns the JSON answer to ``GET`` *path* (``POST`` of *body* when given)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, data=data, method="GET" if data is None else "POST",
            headers={"Accept": "application/json", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            problem = _json_or_none(error.read())
            if missing_ok and error.code == 404 and isinstance(problem, dict):
                return problem
            detail = problem.get("detail") if isinstance(problem, dict) else None
            raise LogUnreachableError(f"{self.url}{path.split('?')[0]} answered {error.code}"
                                      f"{': ' + str(detail) if detail else ''}") from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            raise LogUnreachableError(f"cannot reach {self.url}: {reason}") from None
        answer = _json_or_none(raw)
        if not isinstance(answer, dict):
            raise LogUnreachableError(f"{self.url}{path.split('?')[0]} did not answer a JSON "
                                      "object")
        return answer


def check_head(head: Mapping[str, Any], keys: Mapping[str, bytes], what: str) -> None:
    """Checks *head* (*what* names it in the error) is signed by one of *keys*.

    :raises LogCheckError: if it is malformed or its signature does not hold.
    """
    try:
        tree_heads.check(head, keys)
    except tree_heads.TreeHeadError as error:
        raise LogCheckError(f"{what}: {error}") from None


def check_included(client: LogClient, checkpoint: Mapping[str, Any],
                   head: Mapping[str, Any]) -> int:
    """Checks that *checkpoint* is a leaf of the tree *head* signs (its signature checked
    already); returns the leaf's index.

    :raises LogCheckError: if the log has no such leaf, or its audit path does not hold.
    """
    hashed = merkle.leaf_hash(canonical_json(dict(checkpoint)))
    if head["tree_size"] == 0:
        raise LogCheckError("the log does not include it: the log is empty")
    index, path = client.inclusion(hashed, head["tree_size"])
    try:
        merkle.verify_inclusion(hashed, index, head["tree_size"], path,
                                bytes.fromhex(head["root_hash"]))
    except merkle.ProofError as error:
        raise LogCheckError(f"the log's inclusion proof does not hold: {error}") from None
    return index


def check_consistent(client: LogClient, earlier: Mapping[str, Any],
                     later: Mapping[str, Any]) -> None:
    """Checks that the tree *later* signs extends the tree *earlier* signs (both signatures
    checked already).

    :raises LogCheckError: if it does not: the log shrank, forked, or was rewritten.
    """
    first, second = earlier["tree_size"], later["tree_size"]
    if first > second:
        raise LogCheckError(f"the log now signs a tree of {second} leaves, fewer than the "
                            f"{first} of the earlier head: it was cut short or rewritten")
    proof = client.consistency(first, second) if 0 < first < second else []
    try:
        merkle.verify_consistency(first, second, proof, bytes.fromhex(earlier["root_hash"]),
                                  bytes.fromhex(later["root_hash"]))
    except merkle.ProofError as error:
        raise LogCheckError(f"the log's tree of {second} leaves does not extend the earlier "
                            f"tree of {first}: {error}") from None


NOT_A_POINT = ("head", "signed_at", "signature", "key_id")
"""The fields of a checkpoint that do not name the point it attests (a game or drive, and a
version): two checkpoints of one point with different heads contradict each other."""


@dataclass
class Entries:
    """What a monitor keeps of the leaves it checked: how many, the hashes of the complete
    subtrees of those (enough to extend the tree, :func:`events.merkle.subtrees`), and each
    point attested so far, by digest, with its head's digest and the leaf's index."""

    size: int = 0
    frontier: list[bytes] = field(default_factory=list)
    points: dict[str, list[Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form kept in a monitor's state."""
        return {"size": self.size, "frontier": [value.hex() for value in self.frontier],
                "points": self.points}

    @classmethod
    def from_dict(cls, data: Any) -> Entries:
        """Reads :meth:`to_dict`'s form.

        :raises ValueError: if it is not that form.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("points"), dict):
            raise ValueError("its entries are not a monitor's record")
        size = data.get("size")
        frontier = [bytes.fromhex(value) for value in data.get("frontier", [])]
        if not isinstance(size, int) or size < 0 or len(frontier) != len(
                merkle.subtrees(0, size) if size else []):
            raise ValueError("its entries' size and subtrees do not match")
        return cls(size, frontier, dict(data["points"]))


def check_entries(client: LogClient, kept: Entries, head: Mapping[str, Any]) -> list[Any]:
    """Reads the leaves after *kept* up to *head*'s tree, checks they are that tree's leaves
    (the root rebuilt from *kept*'s subtrees and them is *head*'s), and updates *kept*;
    returns the contradictions found: pairs of checkpoints of one point with different heads.

    :raises LogCheckError: if the leaves do not make the tree *head* signs.
    """
    size = head["tree_size"]
    if size < kept.size:
        raise LogCheckError(f"the log now signs a tree of {size} leaves, fewer than the "
                            f"{kept.size} already checked")
    nodes = dict(zip(merkle.subtrees(0, kept.size) if kept.size else [], kept.frontier,
                     strict=True))
    index, conflicts = kept.size, []
    while index < size:
        for leaf in client.entries(index, size):
            nodes.update(merkle.appended_nodes(index, merkle.leaf_hash(leaf), nodes))
            nodes = {node: nodes[node] for node in merkle.subtrees(0, index + 1)}
            conflict = _note_point(kept.points, leaf, index)
            if conflict is not None:
                conflicts.append(conflict)
            index += 1
    root = merkle.range_hash(0, size, nodes) if size else merkle.root([])
    if root.hex() != head["root_hash"]:
        raise LogCheckError(f"the log's entries are not the leaves of the tree of {size} it "
                            "signs: they hash to another root")
    kept.size, kept.frontier = size, [nodes[node] for node in
                                      (merkle.subtrees(0, size) if size else [])]
    return conflicts


def _note_point(points: dict[str, list[Any]], leaf: bytes, index: int) -> Any:
    """Records the point *leaf* (a checkpoint at *index*) attests; returns the contradiction
    ``(earlier index, index)`` if an earlier leaf attests the same point with another head."""
    try:
        checkpoint = json.loads(leaf)
    except ValueError:
        return None
    if not isinstance(checkpoint, dict) or not isinstance(checkpoint.get("head"), str):
        return None
    point = hashlib.sha256(canonical_json(
        {name: value for name, value in checkpoint.items() if name not in NOT_A_POINT})
    ).hexdigest()[:32]
    head = checkpoint["head"][:32]
    earlier = points.setdefault(point, [head, index])
    return (earlier[1], index) if earlier[0] != head else None


def _json_or_none(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _int(answer: Mapping[str, Any], name: str) -> int:
    value = answer.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise LogCheckError(f"the log's answer has no whole number {name!r}")
    return value


def _hashes(answer: Mapping[str, Any], name: str) -> list[bytes]:
    values = answer.get(name)
    if not isinstance(values, list) or not all(
            isinstance(value, str) and len(value) == 64 for value in values):
        raise LogCheckError(f"the log's answer has no list of hashes {name!r}")
    try:
        return [bytes.fromhex(value) for value in values]
    except ValueError:
        raise LogCheckError(f"the log's answer has no list of hashes {name!r}") from None
