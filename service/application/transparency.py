"""What the service puts in its transparency log, and the tree heads it signs.

Every checkpoint the service signs, of a game or of a drive, is a leaf of the log
(:mod:`events.transparency_log`): its canonical JSON (:func:`events.codec.canonical_json`), as
the service hands it out. What a checkpoint attests (every field but when it was signed and
the signature) is its subject: a process that signs a point another process signed already
hands out the checkpoint logged first, so a point of a game is one leaf however many processes
viewed it. The hook is :meth:`service.application.signing.Publisher.checkpoint`, the one path
every signature takes.

A tree head (:mod:`events.tree_heads`) is signed with the same key, every
:data:`TREE_HEAD_SECONDS` by the workers (``workers.jobs.sign_tree_head``) and whenever someone
asks for one (``POST /v1/log/tree-head``); the log keeps the latest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from events import checkpoints, tree_heads
from events.codec import canonical_json, parse_json
from events.transparency_log import TransparencyLog

TREE_HEAD_SECONDS = 60
"""How often the workers sign a tree head: the longest a logged checkpoint waits for a signed
head that covers it."""

UNATTESTED = ("signed_at", "signature")
"""The fields of a checkpoint that say when and how it was signed, not what it attests."""


def leaf(checkpoint: Mapping[str, Any]) -> bytes:
    """Returns the leaf of *checkpoint*: its canonical JSON."""
    return canonical_json(dict(checkpoint))


def subject(checkpoint: Mapping[str, Any]) -> bytes:
    """Returns the digest of what *checkpoint* attests (every field but
    :data:`UNATTESTED`)."""
    attested = {name: value for name, value in checkpoint.items() if name not in UNATTESTED}
    return hashlib.sha256(canonical_json(attested)).digest()


def log_checkpoint(log: TransparencyLog, checkpoint: Mapping[str, Any]) -> dict[str, Any]:
    """Appends *checkpoint* to *log*; returns the checkpoint logged for its subject (itself,
    unless another was logged first).

    :raises events.errors.StoreUnavailableError: if the store cannot be reached.
    """
    appended = log.append(leaf(checkpoint), subject(checkpoint))
    return dict(checkpoint) if appended.new else dict(parse_json(appended.leaf))


def sign_tree_head(log: TransparencyLog, signer: Any) -> dict[str, Any]:
    """Signs the head of *log* as it is now with *signer*
    (:class:`service.application.signing.Signer`), keeps it unless a head of a larger tree
    was kept meanwhile, and returns the latest head.

    :raises events.errors.StoreUnavailableError: if the store cannot be reached.
    """
    size = log.size()
    head = tree_heads.sign(signer.key, size, log.root(size).hex(),
                           checkpoints.format_signed_at(signer.clock()))
    return log.keep_head(head)
