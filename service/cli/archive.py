"""``fortyfive archive``: run the retention pass by hand (the worker runs it hourly).

Abandons the games idle for longer than ``--abandon-after`` (default ``ABANDON_AFTER``, else 3
days) and archives those over for longer than ``--older-than`` (default ``ARCHIVE_AFTER``,
else 7 days; ``--older-than 0`` archives every finished game now). ``--report`` measures the
memory of each archived game's keys before and after (``MEMORY USAGE``). See
docs/operating.md and :mod:`workers.retention`.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from service.cli import UsageError, open_store, store_url


def _seconds(text: str) -> int:
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number of seconds, got {text!r}")
    return int(text)


def register(subparsers: Any) -> None:
    """Adds the ``archive`` command."""
    parser = subparsers.add_parser(
        "archive", help="abandon idle games and archive finished ones now",
        description="Run the retention pass: games idle for too long end as abandoned, and "
        "games over for long enough are archived (tombstone and compressed events).")
    parser.add_argument("--redis-url", default=None, help="the store (default: REDIS_URL)")
    parser.add_argument("--older-than", type=_seconds, default=None, metavar="SECONDS",
                        help="archive games over for at least this long (default: "
                        "ARCHIVE_AFTER, else 604800)")
    parser.add_argument("--abandon-after", type=_seconds, default=None, metavar="SECONDS",
                        help="abandon games idle for longer (default: ABANDON_AFTER, else "
                        "259200; 0: abandon none)")
    parser.add_argument("--report", action="store_true",
                        help="measure each archived game's memory before and after")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Runs ``fortyfive archive``."""
    from events.store import StoreUnavailableError
    from service.application.commands import new_cache
    from workers import retention

    url = store_url(args.redis_url, "archive")
    try:
        policy = retention.Policy.from_env()
    except ValueError as error:
        raise UsageError(f"fortyfive archive: {error}") from None
    if args.older_than is not None:
        policy = retention.Policy(policy.abandon_after, args.older_than)
    if args.abandon_after is not None:
        policy = retention.Policy(args.abandon_after or None, policy.archive_after)
    store = open_store(url, "archive")
    try:
        done = retention.run(store, new_cache(store), policy, now=time.time(),
                             measure=args.report)
    except StoreUnavailableError as error:
        raise UsageError(f"fortyfive archive: {error}") from None
    finally:
        store.close()
    summary = done.to_dict()
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"abandoned {len(done.abandoned)} game(s), archived {len(done.archived)}, trimmed "
          f"{done.feed_entries_trimmed} feed entries")
    memory = summary.get("memory")
    if memory:
        print(f"memory per archived game: {memory['per_game_before']} bytes before, "
              f"{memory['per_game_after']} after ({memory['games']} games, "
              f"{memory['before_bytes']} -> {memory['after_bytes']} bytes in all)")
    return 0
