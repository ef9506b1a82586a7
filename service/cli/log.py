"""``fortyfive log monitor``: watch a service's transparency log for a fork or a rewrite.

::

    fortyfive log monitor URL --state FILE [--keys KEYS.json] [--entries] [--json]

Fetches the log's latest signed tree head, checks its signature (against ``GET /v1/keys``, or
``--keys``), and checks that its tree extends the last head this monitor accepted, kept in
FILE (a consistency proof, :mod:`service.cli.log_client`). Then it keeps the new head in FILE
and exits 0. A log that shrank, forked or was rewritten since fails the proof: the monitor
prints both heads as evidence (each signed by the service, so anyone can check them), leaves
FILE as it was, and exits 1. The first run, with no FILE yet, accepts the head it finds.
A log it cannot reach, or a FILE it cannot use, is exit status 2. Run it from cron: a log
that shows different trees to different people is caught by whoever keeps a head.

With ``--entries`` it also reads every leaf added since the last run (every leaf, the first
time), checks they are the leaves of the tree the head signs (the root rebuilt from them and
the subtrees kept in FILE), and fails, showing both checkpoints, when two leaves attest one
point (a game's or a drive's version) with different heads: the trace a rewritten game leaves
in a log its operator did not rebuild. FILE then keeps a digest of each point, about 80 bytes
a leaf.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from events import checkpoints, tree_heads
from events.checkpoints import format_signed_at
from service.cli import UsageError, log_client

STATE_FORMAT = "fortyfive-log-monitor/1"
"""The ``format`` of a monitor's state file."""


def register(subparsers: Any) -> None:
    """Adds the ``log`` command group."""
    parser = subparsers.add_parser(
        "log", help="watch a service's transparency log",
        description="Check a service's transparency log of signed checkpoints from outside.")
    actions = parser.add_subparsers(dest="log_command", required=True,
                                    parser_class=type(parser))
    monitor = actions.add_parser(
        "monitor", help="check the log only grew since the last run; report a fork",
        description="Fetches the log's latest signed tree head and checks it extends the last "
        "head accepted (kept in --state). Exit 0 and keep the new head when it does; exit 1 "
        "with both heads as evidence when the log forked, shrank or was rewritten; 2 when the "
        "log cannot be reached or the state file cannot be used.")
    monitor.add_argument("url", help="the service's address, e.g. https://cards.example")
    monitor.add_argument("--state", required=True, metavar="FILE",
                         help="where the last accepted tree head is kept between runs")
    monitor.add_argument("--keys", metavar="KEYS.json",
                         help="the service's public keys (default: fetched from GET /v1/keys)")
    monitor.add_argument("--entries", action="store_true",
                         help="also read every new leaf and report two checkpoints of one "
                         "point with different heads")
    monitor.add_argument("--json", action="store_true", help="print one JSON object")
    monitor.set_defaults(func=run_monitor)


def run_monitor(args: argparse.Namespace) -> int:
    """Runs ``log monitor``; returns 0 when the log extends the last head seen, else 1.

    :raises UsageError: if the log cannot be reached or a file cannot be used.
    """
    state_path = Path(args.state)
    previous, kept = _read_state(state_path)
    client = log_client.LogClient(args.url)
    latest: dict[str, Any] | None = None
    entries = kept if kept is not None else log_client.Entries()
    contradiction: list[dict[str, Any]] | None = None
    try:
        keys = _read_keys(args.keys) if args.keys else client.keys()
        latest = client.tree_head()
        log_client.check_head(latest, keys, "the log's latest tree head")
        if previous is not None:
            log_client.check_consistent(client, previous, latest)
        conflicts = log_client.check_entries(client, entries, latest) if args.entries else []
        if conflicts:
            first, second = conflicts[0]
            contradiction = [{"leaf_index": index,
                              "checkpoint": json.loads(client.entries(index, index + 1)[0])}
                             for index in (first, second)]
            raise log_client.LogCheckError(
                f"leaves {first} and {second} sign one point with different heads: a history "
                f"was rewritten ({len(conflicts)} such pair(s))")
    except log_client.LogUnreachableError as error:
        raise UsageError(f"fortyfive log monitor: {error}") from None
    except log_client.LogCheckError as error:
        evidence: dict[str, Any] = {"previous_tree_head": previous, "latest_tree_head": latest}
        if contradiction is not None:
            evidence["checkpoints"] = contradiction
        _report(args, {"ok": False, "problem": str(error), "evidence": evidence},
                f"FAILED: {error}\nevidence (signed by the service):\n"
                + json.dumps(evidence, indent=2, sort_keys=True))
        return 1
    _write_state(state_path, args.url, latest, entries if args.entries else kept)
    if previous is None:
        line = (f"first run: accepted the tree of {latest['tree_size']} leaves signed at "
                f"{latest['timestamp']}; later runs check the log extends it")
    else:
        line = (f"ok: the tree of {latest['tree_size']} leaves signed at "
                f"{latest['timestamp']} extends the tree of {previous['tree_size']} seen "
                "before")
    _report(args, {"ok": True, "previous_tree_head": previous, "latest_tree_head": latest},
            line)
    return 0


def _report(args: argparse.Namespace, document: dict[str, Any], text: str) -> None:
    print(json.dumps(document, indent=2, sort_keys=True) if args.json else text)


def _read_keys(path: str) -> dict[str, bytes]:
    try:
        return checkpoints.read_keys(json.loads(Path(path).read_bytes()))
    except OSError as error:
        raise UsageError(f"fortyfive log monitor: cannot read the keys {path}: "
                         f"{error.strerror}") from None
    except (ValueError, checkpoints.CheckpointError) as error:
        raise UsageError(f"fortyfive log monitor: {path} is not a key list: {error}") from None


def _read_state(path: Path) -> tuple[dict[str, Any] | None, log_client.Entries | None]:
    """Returns the tree head kept in the state file *path* and the record of the leaves
    checked (``None`` for either if there is none yet).
    The file names the address it was fetched from, for the reader; a log that moved keeps
    its heads, and another log at that address fails the consistency check.

    :raises UsageError: if it cannot be read or is not a monitor's state file.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as error:
        raise UsageError(f"fortyfive log monitor: cannot read the state {path}: "
                         f"{error.strerror}") from None
    try:
        state = json.loads(raw)
        if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
            raise ValueError(f"its format is not {STATE_FORMAT}")
        head = dict(tree_heads.check_form(state.get("tree_head")))
        kept = (log_client.Entries.from_dict(state["entries"]) if state.get("entries")
                is not None else None)
    except (ValueError, tree_heads.TreeHeadError) as error:
        raise UsageError(f"fortyfive log monitor: {path} is not a monitor's state: "
                         f"{error}") from None
    return head, kept


def _write_state(path: Path, url: str, head: dict[str, Any],
                 entries: log_client.Entries | None) -> None:
    """Replaces the state file *path* by one keeping *head* and *entries* (written whole,
    then renamed)."""
    state = {"format": STATE_FORMAT, "url": url.rstrip("/"), "tree_head": head,
             "checked_at": format_signed_at(datetime.now(UTC)),
             "entries": entries.to_dict() if entries is not None else None}
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent or ".", prefix=path.name)
        with os.fdopen(descriptor, "w") as file:
            json.dump(state, file, indent=2, sort_keys=True)
            file.write("\n")
        os.replace(temporary, path)
    except OSError as error:
        raise UsageError(f"fortyfive log monitor: cannot write the state {path}: "
                         f"{error.strerror}") from None
