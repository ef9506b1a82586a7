"""Signed tree heads: the service's Ed25519 signature over the transparency log's size and root.

A tree head is a JSON object::

    {"tree_size", "root_hash", "timestamp": "YYYY-MM-DDTHH:MM:SSZ", "key_id", "signature"}

``root_hash`` is the tree's root hash (:func:`events.merkle.root`) in lowercase hex. The
signature (64 bytes, hex) covers ``b"fortyfive/tree-head/1"`` followed by the canonical JSON
(:func:`events.codec.canonical_json`) of the four other fields, with the key that signs
checkpoints (:mod:`events.checkpoints`; ``key_id`` names it as there, and ``GET /v1/keys``
publishes it). Whoever keeps a head can later ask the log to prove that the tree it signs now
extends the one they kept (docs/verification.md, "The log").

>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> head = sign(key, 2, "ab" * 32, "2026-01-02T03:04:05Z")
>>> check(head, {head["key_id"]: public_bytes(key)})
>>> try:
...     check({**head, "tree_size": 3}, {head["key_id"]: public_bytes(key)})
... except TreeHeadError as error:
...     print(error)
the signature does not match the tree head (made with key ed25519:139e3940e64b5491)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
)

from events.checkpoints import check_signature, key_id, public_bytes
from events.codec import canonical_json

PREFIX = b"fortyfive/tree-head/1"
"""The domain-separation prefix of every signed tree head message."""

SIGNED_FIELDS = ("key_id", "root_hash", "timestamp", "tree_size")
"""The fields the signature covers (every field but ``signature``)."""

FIELDS = ("tree_size", "root_hash", "timestamp", "key_id", "signature")
"""Every field of a tree head, in the order the documentation lists them."""

_FORMS = {
    "root_hash": re.compile(r"[0-9a-f]{64}"),
    "timestamp": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z"),
    "key_id": re.compile(r"ed25519:[0-9a-f]{16}"),
    "signature": re.compile(r"[0-9a-f]{128}"),
}


class TreeHeadError(ValueError):
    """A tree head that is malformed or whose signature does not verify."""


def message(head: Mapping[str, Any]) -> bytes:
    """Returns the bytes the signature of *head* covers."""
    return PREFIX + canonical_json({name: head[name] for name in SIGNED_FIELDS})


def sign(key: Ed25519PrivateKey, tree_size: int, root_hash: str, timestamp: str) -> dict[str, Any]:
    """Returns the head of the tree of *tree_size* leaves with root hash *root_hash* (hex),
    stamped *timestamp* and signed by *key*."""
    body: dict[str, Any] = {"tree_size": tree_size, "root_hash": root_hash,
                            "timestamp": timestamp, "key_id": key_id(public_bytes(key))}
    return {**body, "signature": key.sign(message(body)).hex()}


def check_form(head: Any) -> Mapping[str, Any]:
    """Returns *head* if it has exactly the fields of a tree head, each of its form.

    :raises TreeHeadError: naming the first field that is missing or malformed.
    """
    if not isinstance(head, Mapping):
        raise TreeHeadError("a tree head is a JSON object")
    extra = sorted(set(head) - set(FIELDS))
    if extra:
        raise TreeHeadError(f"unexpected tree head fields {extra}")
    size = head.get("tree_size")
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise TreeHeadError(f"tree head tree_size must be a whole number of 0 or more, got "
                            f"{size!r}")
    for name, form in _FORMS.items():
        value = head.get(name)
        if not isinstance(value, str) or not form.fullmatch(value):
            raise TreeHeadError(f"tree head field {name!r} is missing or malformed: {value!r}")
    return head


def check(head: Any, keys: Mapping[str, bytes]) -> None:
    """Checks *head* is well formed and signed by one of *keys* (key id -> raw public key).

    :raises TreeHeadError: if it is malformed, its key is unknown, or the signature does not
        match.
    """
    checked = check_form(head)
    check_signature(checked, message(checked), keys, "tree head", TreeHeadError)
