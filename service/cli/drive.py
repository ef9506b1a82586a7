"""``fortyfive drive verify FILE [--json] [--complete] [--checkpoint CP.json --keys KEYS.json]``:
check a drive's history offline.

FILE is the document ``GET /v1/drives/{id}/history`` serves (``-`` reads standard input).
Exit 0 when the drive's chain, its games and its standings all check out, 1 on any mismatch
(each printed), 2 for a usage error. With ``--checkpoint`` (a drive checkpoint kept from the
service, or a drive view or history carrying one) and ``--keys`` (the answer of
``GET /v1/keys``) it also exits 1 when the checkpoint's signature is bad or the history does
not reach its version with the same hash there (cut short or rewritten since); the
checkpoint the history carries is checked against its chain too, and its signature always:
with the keys given, else with the key the history carries (``checkpoint_key``), and the
report says which. The report says first when the history is not of a finished drive (a
prefix); with ``--complete`` that fails, as do drive events no checked signature vouches for.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from replay.formats import jsontext
from replay.verification.drive import check_drive
from service.cli import UsageError
from service.cli.checkpoint_files import add_arguments, checkpoint_arguments

COMMAND = "fortyfive drive verify"


def register(subparsers: Any) -> None:
    """Adds ``drive verify`` to the command line."""
    parser = subparsers.add_parser("drive", help="verify a drive's history",
                                   description="Work with drive histories.")
    commands = parser.add_subparsers(dest="drive_command", required=True, metavar="{verify}")
    verify = commands.add_parser(
        "verify", help="re-derive a drive's standings from its history and compare",
        description="Checks the drive's hash chain, every listed game's chain and result "
        "against the head its round pinned, every revealed board, derives the standings "
        "again, and checks the history against a signed checkpoint. Exit 0 when all holds, 1 "
        "otherwise.")
    verify.add_argument("file", help="the drive history (JSON; - for stdin)")
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    verify.add_argument("--complete", action="store_true",
                        help="also fail when the history is not of a finished drive, or holds "
                        "events no checked signature vouches for")
    add_arguments(verify, "a drive view or history")
    verify.set_defaults(func=run_verify)


def run_verify(args: Any) -> int:
    """Runs ``drive verify``; returns 0 if the history verifies, else 1.

    :raises UsageError: if a file cannot be read, or a checkpoint is given without keys.
    """
    checkpoint, keys = checkpoint_arguments(args, COMMAND)
    try:
        raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except OSError as error:
        raise UsageError(f"{COMMAND}: cannot read {args.file}: {error.strerror}") from None
    try:
        document = jsontext.loads(raw)
    except ValueError as error:
        print(f"{args.file}: not JSON: {error}", file=sys.stderr)
        return 1
    report = check_drive(document, checkpoint=checkpoint, keys=keys)
    ok = report.ok and (report.complete or not args.complete)
    if args.json:
        print(json.dumps({**report.to_dict(), "ok": ok}))
        return 0 if ok else 1
    if report.prefix is not None:
        print(f"PREFIX: {report.prefix}")
    for problem in report.problems:
        print(f"FAIL {problem}")
    if report.ok:
        print(f"OK drive {report.drive_id}: chain, games and standings verify")
    if report.ok and not ok:
        print("FAILED: --complete, and this history "
              + ("is not of a finished drive" if report.prefix is not None
                 else "holds drive events no checked signature vouches for"))
    for item in report.unchecked if report.ok else ():
        print(f"unchecked: {item}")
    for signature in report.signatures:
        print(f"signature: {signature}")
    for note in report.notes:
        print(f"note: {note}")
    return 0 if ok else 1
