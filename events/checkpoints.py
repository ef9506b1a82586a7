"""Signed checkpoints: the service's Ed25519 signature over ``{game_id, version, head}``.

Whoever keeps a checkpoint can later prove that a history was cut short or rewritten: a
history must reach the checkpoint's version with the same hash there (docs/verification.md
section 8). A checkpoint is a JSON object::

    {"game_id", "version", "head", "signed_at": "YYYY-MM-DDTHH:MM:SSZ", "key_id", "signature"}

The signature (64 bytes, hex) covers ``b"fortyfive/checkpoint/1"`` followed by the canonical
JSON (:func:`events.codec.canonical_json`) of the five other fields. ``key_id`` is
``"ed25519:"`` and the first 16 hex digits of SHA-256 of the raw 32-byte public key.

A drive's checkpoint is the same object naming its drive (``drive_id`` for ``game_id``, see
:data:`SUBJECTS`), signed the same way: the signed message names what it vouches for, so a
drive's checkpoint is never taken for a game's.

>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> key_id(public_bytes(key))
'ed25519:139e3940e64b5491'
>>> signed = sign(key, "g1", 3, "ab" * 32, "2026-01-02T03:04:05Z")
>>> check(signed, {signed["key_id"]: public_bytes(key)})
>>> try:
...     check({**signed, "version": 2}, {signed["key_id"]: public_bytes(key)})
... except CheckpointError as error:
...     print(error)
the signature does not match the checkpoint (made with key ed25519:139e3940e64b5491)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from events.chain import HASH_FORM
from events.codec import canonical_json

PREFIX = b"fortyfive/checkpoint/1"
"""The domain-separation prefix of every signed checkpoint message."""

ALGORITHM = "ed25519"
"""The only signature algorithm checkpoints use."""

SIGNED_FIELDS = ("game_id", "head", "key_id", "signed_at", "version")
"""The fields the signature of a game's checkpoint covers (every field but ``signature``)."""

FIELDS = ("game_id", "version", "head", "signed_at", "key_id", "signature")
"""Every field of a game's checkpoint, in the order the documentation lists them."""

SUBJECTS = ("game_id", "drive_id")
"""The field naming what a checkpoint vouches for: a game's stream, or a drive's."""

_SIGNATURE = re.compile(r"[0-9a-f]{128}")
_PUBLIC_KEY = re.compile(r"[0-9a-f]{64}")
"""An Ed25519 public key: 32 bytes in lowercase hex."""
_SIGNED_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
_KEY_ID = re.compile(r"ed25519:[0-9a-f]{16}")


class CheckpointError(ValueError):
    """A checkpoint, or a published key, that is malformed or does not verify."""


def public_bytes(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    """Returns the raw 32 bytes of *key*'s public key."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


def key_id(public: bytes) -> str:
    """Returns the id of the raw 32-byte public key *public*."""
    return "ed25519:" + hashlib.sha256(public).hexdigest()[:16]


def format_signed_at(moment: datetime) -> str:
    """Returns *moment* as ``YYYY-MM-DDTHH:MM:SSZ`` (UTC, whole seconds)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def fields_of(subject: str) -> tuple[str, ...]:
    """Returns every field of a checkpoint naming its stream by *subject* (one of
    :data:`SUBJECTS`), in the order the documentation lists them."""
    return (subject, *FIELDS[1:])


def subject_of(checkpoint: Mapping[str, Any]) -> str:
    """Returns the field naming what *checkpoint* vouches for: ``drive_id`` when it has one,
    else ``game_id``."""
    return "drive_id" if "drive_id" in checkpoint else "game_id"


def message(checkpoint: Mapping[str, Any]) -> bytes:
    """Returns the bytes the signature of *checkpoint* covers."""
    signed = (subject_of(checkpoint), *SIGNED_FIELDS[1:])
    return PREFIX + canonical_json({name: checkpoint[name] for name in signed})


def sign(key: Ed25519PrivateKey, game_id: str, version: int, head: str,
         signed_at: str, *, subject: str = "game_id") -> dict[str, Any]:
    """Returns the checkpoint of stream *game_id* at *version* with *head*, signed by *key*;
    *subject* names the stream: ``game_id`` (a game), or ``drive_id`` (a drive)."""
    if subject not in SUBJECTS:
        raise ValueError(f"a checkpoint vouches for one of {SUBJECTS}, not {subject!r}")
    body: dict[str, Any] = {subject: game_id, "version": version, "head": head,
                            "signed_at": signed_at, "key_id": key_id(public_bytes(key))}
    return {**body, "signature": key.sign(message(body)).hex()}


def check_form(checkpoint: Any, subject: str = "game_id") -> Mapping[str, Any]:
    """Returns *checkpoint* if it has exactly the fields of a checkpoint of a *subject*
    (``game_id``: a game's; ``drive_id``: a drive's), each of its form.

    :raises CheckpointError: naming the first field that is missing or malformed.
    """
    if not isinstance(checkpoint, Mapping):
        raise CheckpointError("a checkpoint is a JSON object")
    names = fields_of(subject)
    other = next((name for name in SUBJECTS if name != subject and name in checkpoint), None)
    if other is not None:
        raise CheckpointError(f"a checkpoint of a {other.removesuffix('_id')} "
                              f"({other} {checkpoint[other]!r}), not of a "
                              f"{subject.removesuffix('_id')}")
    extra = sorted(set(checkpoint) - set(names))
    if extra:
        raise CheckpointError(f"unexpected checkpoint fields {extra}")
    forms: dict[str, Any] = {"head": HASH_FORM, "signature": _SIGNATURE, "signed_at": _SIGNED_AT,
                             "key_id": _KEY_ID}
    for name in names:
        value = checkpoint.get(name)
        if name == "version":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise CheckpointError(f"checkpoint version must be a whole number of 1 or "
                                      f"more, got {value!r}")
        elif not isinstance(value, str) or (name in forms and not forms[name].fullmatch(value)):
            raise CheckpointError(f"checkpoint field {name!r} is missing or malformed: "
                                  f"{value!r}")
    return checkpoint


def check(checkpoint: Any, keys: Mapping[str, bytes], subject: str = "game_id") -> None:
    """Checks *checkpoint* is a well formed checkpoint of a *subject* (see
    :func:`check_form`) signed by one of *keys* (key id -> raw public key).

    :raises CheckpointError: if it is malformed, its key is unknown, or the signature does not
        match.
    """
    checked = check_form(checkpoint, subject)
    check_signature(checked, message(checked), keys, "checkpoint", CheckpointError)


def check_signature(signed: Mapping[str, Any], signed_bytes: bytes, keys: Mapping[str, bytes],
                    what: str, error: type[ValueError]) -> None:
    """Checks that *signed*'s ``signature`` over *signed_bytes* was made by its ``key_id``, one
    of *keys*: the one check behind checkpoints and tree heads alike (*what* names the document
    in the *error* raised).
    """
    kid = signed["key_id"]
    if kid not in keys:
        raise error(f"the {what} is signed with key {kid}, which is not among the published "
                    f"keys ({', '.join(sorted(keys)) or 'none'})")
    try:
        Ed25519PublicKey.from_public_bytes(keys[kid]).verify(
            bytes.fromhex(signed["signature"]), signed_bytes)
    except InvalidSignature:
        raise error(f"the signature does not match the {what} (made with key {kid})") from None


def read_keys(document: Any) -> dict[str, bytes]:
    """Returns the keys of a ``GET /v1/keys`` answer, by id, each checked against its id.

    :raises CheckpointError: if the document is not such an answer.
    """
    listed = document.get("keys") if isinstance(document, Mapping) else None
    if not isinstance(listed, list):
        raise CheckpointError('a key list is a JSON object {"keys": [...]}')
    keys: dict[str, bytes] = {}
    for index, entry in enumerate(listed):
        if not isinstance(entry, Mapping) or entry.get("algorithm") != ALGORITHM:
            raise CheckpointError(f"key {index} is not an {ALGORITHM} key")
        raw = entry.get("public_key")
        if not isinstance(raw, str) or not _PUBLIC_KEY.fullmatch(raw):
            raise CheckpointError(f"key {index}: public_key must be 64 lowercase hex digits")
        public = bytes.fromhex(raw)
        if entry.get("key_id") != key_id(public):
            raise CheckpointError(f"key {index}: key_id {entry.get('key_id')!r} is not the id "
                                  f"of its public key ({key_id(public)})")
        keys[key_id(public)] = public
    return keys
