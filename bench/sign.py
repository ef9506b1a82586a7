"""Checkpoints: Ed25519 signatures per second, verifications per second, and cached lookups.

Times, with a fresh key (``cryptography``'s Ed25519):

- ``signed_per_second``: :meth:`service.application.signing.Signer.checkpoint` of a new version each
  time (the canonical JSON of the message and one signature): the cost of a view of a game that
  moved on since its last view, and of each deal's end;
- ``cached_per_second``: the same checkpoint asked again (a repeated view): no signature;
- ``verified_per_second``: :func:`events.checkpoints.check` (form, key lookup and signature), as
  ``fortyfive history verify --checkpoint`` and the viewer do.

Each figure is the best of ``--repeat`` timings of ``--rounds`` calls.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench import best_time, positive_int
from events import checkpoints
from service.application.signing import Signer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--repeat", type=positive_int, default=5,
                        help="timing repeats; the best is kept (default 5)")
    parser.add_argument("--rounds", type=positive_int, default=2000,
                        help="calls per timing (default 2000)")



def run(args: argparse.Namespace) -> dict[str, Any]:
    """Times signing, cached lookups and verification; returns the figures."""
    rounds: int = args.rounds
    repeat: int = args.repeat
    signer = Signer(Ed25519PrivateKey.generate())
    head = "ab" * 32
    keys = {signer.key_id: signer.public}
    versions = iter(range(1, 10**9))

    def sign_new() -> None:
        signer.checkpoint("g-bench", next(versions), head)

    signed = signer.checkpoint("g-bench", 0 + 10**9, head)

    def per_second(work: Callable[[], object]) -> float:
        return rounds / best_time(work, rounds, repeat)

    return {
        "signed_per_second": per_second(sign_new),
        "cached_per_second": per_second(lambda: signer.checkpoint("g-bench", 10**9, head)),
        "verified_per_second": per_second(lambda: checkpoints.check(signed, keys)),
        "signature_bytes": len(bytes.fromhex(signed["signature"])),
    }

