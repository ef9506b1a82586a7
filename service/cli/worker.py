"""``fortyfive worker``: the dispatcher and an RQ worker, standalone (``serve`` runs its own).

Runs bots, turn clocks, deal sealing, projections and chain sweeps for the store at
``--redis-url`` (default ``REDIS_URL``), with the queue at ``--rq-redis-url`` (default
``RQ_REDIS_URL``, else the store's). It rides out Redis outages by itself; unlike ``serve``'s
worker it has no supervisor, so run it under a process manager that restarts it. See
docs/workers.md.
"""

from __future__ import annotations

import argparse
import logging
import os
from typing import Any

from service.cli import UsageError


def register(subparsers: Any) -> None:
    """Adds the ``worker`` command."""
    parser = subparsers.add_parser(
        "worker", help="run the dispatcher and job worker (bots, clocks, sealing, sweeps)"
    )
    parser.add_argument(
        "--redis-url", default=None, help="the event store (default: REDIS_URL)"
    )
    parser.add_argument(
        "--rq-redis-url",
        default=None,
        help="the queue's Redis, a single server (default: RQ_REDIS_URL, else the store's)",
    )
    parser.add_argument(
        "--burst", action="store_true", help="do what is due now, then exit"
    )
    parser.add_argument(
        "--signing-key", metavar="PEM", default=None,
        help="the Ed25519 key that signs checkpoints, the web service's (default: "
        "$FORTYFIVE_SIGNING_KEY)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Runs the workers until stopped; returns the exit status."""
    url = args.redis_url or os.environ.get("REDIS_URL")
    if not url:
        raise UsageError(
            "fortyfive worker: no store given: set REDIS_URL or pass --redis-url (or run "
            "`fortyfive serve`, which starts its own store and worker)"
        )
    from service.signing import KEY_ENV, SigningKeyError, load_key
    from workers.runner import run_worker

    if args.signing_key:
        try:
            load_key(args.signing_key)
        except SigningKeyError as error:
            raise UsageError(f"fortyfive worker: {error}") from None
        os.environ[KEY_ENV] = args.signing_key

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    return run_worker(url, burst=args.burst, rq_url=args.rq_redis_url)
