"""The files a ``verify`` command checks a history against: ``--checkpoint`` and ``--keys``.

``history verify`` (a game's history) and ``drive verify`` (a drive's) read them alike: the
keys are the answer of ``GET /v1/keys``; the checkpoint is one kept from the service, or a
document that carries one (a game view or a history: ``checkpoint``; a drive view: its
``head.checkpoint``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from events import checkpoints
from replay.formats import jsontext
from service.cli import UsageError


def add_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """Adds ``--checkpoint`` and ``--keys`` to *parser*; *what* names the documents that carry
    a checkpoint (for the help)."""
    parser.add_argument(
        "--checkpoint", metavar="CP.json",
        help=f"a signed checkpoint the history must reach (or {what} carrying one)")
    parser.add_argument(
        "--keys", metavar="KEYS.json",
        help="the service's public keys (the answer of GET /v1/keys)")


def load_json(path: str, what: str, command: str) -> Any:
    """Returns the JSON value in the file at *path*.

    :raises UsageError: if it cannot be read or is not JSON.
    """
    try:
        return jsontext.loads(Path(path).read_bytes())
    except OSError as error:
        raise UsageError(f"{command}: cannot read {what} {path}: {error.strerror}") from None
    except ValueError as error:
        raise UsageError(f"{command}: {what} {path} is not JSON: {error}") from None


def checkpoint_arguments(
    args: argparse.Namespace, command: str,
) -> tuple[dict[str, Any] | None, dict[str, bytes] | None]:
    """Returns the checkpoint and the keys named by ``--checkpoint`` and ``--keys``.

    :raises UsageError: if a file cannot be read, or a checkpoint is given without keys.
    """
    if args.checkpoint is not None and args.keys is None:
        raise UsageError(f"{command}: --checkpoint needs --keys (the answer of "
                         "GET /v1/keys) to check its signature")
    keys = None
    if args.keys is not None:
        try:
            keys = checkpoints.read_keys(load_json(args.keys, "the keys", command))
        except checkpoints.CheckpointError as error:
            raise UsageError(f"{command}: {args.keys}: {error}") from None
    checkpoint = None
    if args.checkpoint is not None:
        value = load_json(args.checkpoint, "the checkpoint", command)
        if isinstance(value, dict) and "signature" not in value:
            head = value.get("head")
            if isinstance(value.get("checkpoint"), dict):
                value = value["checkpoint"]  # A game view, or a history, that carries one.
            elif isinstance(head, dict) and isinstance(head.get("checkpoint"), dict):
                value = head["checkpoint"]  # A drive view.
        if not isinstance(value, dict):
            raise UsageError(f"{command}: {args.checkpoint} holds no checkpoint")
        checkpoint = value
    return checkpoint, keys
