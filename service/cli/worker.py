"""``fortyfive worker``: the dispatcher and an RQ worker, standalone (``serve`` runs its own).

Runs bots, turn clocks, deal sealing, projections and chain sweeps for the store at
``--redis-url`` (default ``REDIS_URL``), with the queue at ``--rq-redis-url`` (default
``RQ_REDIS_URL``, else the store's). With ``--redis-cluster`` (or ``REDIS_CLUSTER=true``) the
store is a Redis Cluster reached through its seed nodes (``REDIS_URL`` may name several,
separated by commas), and the queue's own Redis is required.
Several workers share the feeds' partitions (see :mod:`workers.dispatcher`). It rides out
Redis outages by itself; unlike ``serve``'s worker it has no supervisor, so run it under a
process manager that restarts it. See docs/workers.md and docs/deployment.md.
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
        "worker", help="run the dispatcher and job worker (bots, clocks, sealing, sweeps)",
        description="Runs the workers beside a web service of your own (fortyfive serve runs "
        "one itself): the dispatcher, which turns the store's feeds into jobs (bots' moves, "
        "turn clocks, sealing, projections, sweeps), and the RQ worker that runs them. Several "
        "may run on one store and share the work.")
    parser.add_argument(
        "--redis-url", default=None, help="the event store (default: REDIS_URL)"
    )
    parser.add_argument(
        "--rq-redis-url",
        default=None,
        help="the queue's Redis, a single server (default: RQ_REDIS_URL, else the store's)",
    )
    parser.add_argument(
        "--redis-cluster", action="store_true",
        help="the store is a Redis Cluster (REDIS_URL its seed nodes, separated by commas; "
        "needs --rq-redis-url or "
        "RQ_REDIS_URL); default: REDIS_CLUSTER",
    )
    parser.add_argument(
        "--burst", action="store_true", help="do what is due now, then exit"
    )
    parser.add_argument(
        "--signing-key", metavar="PEM", default=None,
        help="the Ed25519 key that signs checkpoints, the web service's (default: "
        "$FORTYFIVE_SIGNING_KEY; one of the two is required)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Runs the workers until stopped; returns the exit status."""
    url = args.redis_url or os.environ.get("REDIS_URL")
    if not url:
        raise UsageError(
            "fortyfive worker: no store given: set REDIS_URL or pass --redis-url (or run "
            "`fortyfive serve`, which starts its own store and worker)"
        )
    from events.redis_clients import check_url
    from service.application.store_settings import CLUSTER_ENV, rq_url, store_settings

    if args.redis_cluster:
        os.environ[CLUSTER_ENV] = "true"
    from engine.bot_levels import DEFAULT_BUDGET_MS
    from service.application.environment import bot_budget_ms

    try:
        bot_budget_ms(DEFAULT_BUDGET_MS)  # Read by every bot job: a bad value stops it here.
        settings = store_settings()
        queue_url = rq_url(url, settings, args.rq_redis_url)
        check_url(url, cluster=settings.cluster)
        check_url(queue_url)
    except ValueError as error:
        raise UsageError(f"fortyfive worker: {error}") from None

    from service.application.signing import KEY_ENV, SigningKeyError, load_key
    from workers.runner import run_worker

    key = args.signing_key or os.environ.get(KEY_ENV)
    if not key:
        # A key of its own would be published and retire the web service's, whose later
        # checkpoints would then be signed by a retired key (docs/operating.md).
        raise UsageError(
            "fortyfive worker: no signing key: a worker signs checkpoints with the web "
            f"service's key; pass --signing-key PEM or set {KEY_ENV} (`fortyfive serve` keeps "
            "it in DATA_DIR/signing-key.pem)"
        )
    try:
        load_key(key)
    except SigningKeyError as error:
        raise UsageError(f"fortyfive worker: {error}") from None
    os.environ[KEY_ENV] = key

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    from events.errors import StoreUnavailableError
    from events.redis_clients import UNAVAILABLE, error_message

    try:
        return run_worker(url, burst=args.burst, rq_url=queue_url, settings=settings)
    except (StoreUnavailableError, *UNAVAILABLE) as error:  # With --burst: it waits else.
        raise UsageError(f"fortyfive worker: store unavailable: {error_message(error)}") from None
