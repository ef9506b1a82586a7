"""Checking the service's transparency log from outside: what ``fortyfive history verify --log``
and ``fortyfive log monitor`` ask the log and how they check its answers.

Nothing the log says is taken on trust: a tree head counts once its signature holds against
the published keys (or the ones the user gave), an inclusion proof once it leads from the
checkpoint's leaf to that head's root (:func:`events.merkle.verify_inclusion`), and a later head
once a consistency proof leads from the earlier head's root to its root
(:func:`events.merkle.verify_consistency`). A failing check is a :class:`LogCheckError` that
says what does not hold; a log that cannot be asked is a :class:`LogUnreachableError`.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
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
