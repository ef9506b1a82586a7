"""``fortyfive keys create|list|revoke``: the API keys an operator hands to integrators.

A key is printed once, by ``create``; only its digest is stored (see :mod:`service.http.apikeys`).
The commands act on the store at ``--redis-url`` (default ``REDIS_URL``): the same Redis the
service runs on (``fortyfive serve`` prints its embedded server's address when it starts).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from service.cli import UsageError, open_store, store_url


def register(subparsers: Any) -> None:
    """Adds the ``keys`` command group."""
    parser = subparsers.add_parser(
        "keys", help="create, list and revoke API keys",
        description="Manage the API keys that creating games and drives and keeping histories "
        "need on a server with REQUIRE_API_KEY (the default whenever serve binds off "
        "loopback).")
    actions = parser.add_subparsers(dest="keys_command", required=True,
                                    parser_class=type(parser))
    create = actions.add_parser(
        "create", help="mint a key (printed once)",
        description="Mints a key and prints it once: alone on stdout, its id and a reminder on "
        "stderr (with --json, one JSON object on stdout). The store keeps only its digest.")
    create.add_argument("--name", required=True, help="who the key is for, e.g. club-site")
    listing = actions.add_parser(
        "list", help="every key: id, created, status (active or revoked), name",
        description="Lists every key, a line each: id, created, status (active or revoked), "
        "name.")
    revoke = actions.add_parser(
        "revoke", help="revoke a key for good",
        description="Revokes a key for good: where a key is taken (creating a game or a drive, "
        "keeping a history), a request presenting it is refused (401 api_key_revoked).")
    revoke.add_argument("key_id", help="the id of the key (the part after f45k.)")
    for sub in (create, listing, revoke):
        sub.add_argument("--redis-url", default=None, help="the store (default: REDIS_URL)")
        sub.add_argument("--json", action="store_true", help="print JSON")
    create.set_defaults(func=run_create)
    listing.set_defaults(func=run_list)
    revoke.set_defaults(func=run_revoke)


def _registry(args: argparse.Namespace) -> Any:
    from service.http.apikeys import KeyRegistry

    command = f"keys {args.keys_command}"
    return KeyRegistry(open_store(store_url(args.redis_url, command), command).client)


def _store_call(what: str, call: Any) -> Any:
    from events.store import StoreUnavailableError

    try:
        return call()
    except StoreUnavailableError as error:
        raise UsageError(f"fortyfive keys {what}: {error}") from None


def run_create(args: argparse.Namespace) -> int:
    """Runs ``keys create``: prints the new key (once) and its id."""
    registry = _registry(args)
    try:
        record, key = _store_call("create", lambda: registry.create(args.name))
    except ValueError as error:
        raise UsageError(f"fortyfive keys create: {error}") from None
    if args.json:
        print(json.dumps({**record.to_dict(), "key": key}))
    else:
        print(key)
        # Only the key on stdout, so that KEY=$(fortyfive keys create ...) holds just it.
        print(f"# id {record.id}, name {record.name!r}: keep the key now, it is not shown "
              "again", file=sys.stderr)
    return 0


def run_list(args: argparse.Namespace) -> int:
    """Runs ``keys list``."""
    registry = _registry(args)
    records = _store_call("list", registry.all)
    if args.json:
        print(json.dumps([record.to_dict() for record in records]))
        return 0
    for record in records:
        row = record.to_dict()
        print(f"{row['id']}  {row['created_at']}  {'revoked' if record.revoked else 'active '}"
              f"  {record.name}")
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    """Runs ``keys revoke``."""
    registry = _registry(args)
    try:
        record = _store_call("revoke", lambda: registry.revoke(args.key_id))
    except LookupError as error:
        raise UsageError(f"fortyfive keys revoke: {error.args[0]}") from None
    print(json.dumps(record.to_dict()) if args.json else f"revoked {record.id} ({record.name})")
    return 0
