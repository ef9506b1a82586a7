"""``fortyfive drive verify FILE``: check a drive's history offline.

FILE is the document ``GET /v1/drives/{id}/history`` serves (``-`` reads standard input).
Exit 0 when the drive's chain, its games and its standings all check out, 1 on any mismatch
(each printed), 2 for a usage error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from replay.verification.drive import verify_drive
from service.cli import UsageError


def register(subparsers: Any) -> None:
    """Adds ``drive verify`` to the command line."""
    parser = subparsers.add_parser("drive", help="verify a drive's history",
                                   description="Work with drive histories.")
    commands = parser.add_subparsers(dest="drive_command", required=True, metavar="{verify}")
    verify = commands.add_parser(
        "verify", help="re-derive a drive's standings from its history and compare",
        description="Checks the drive's hash chain, every listed game's chain and result, "
        "every revealed board, and derives the standings again. Exit 0 when all holds, 1 "
        "otherwise.")
    verify.add_argument("file", help="the drive history (JSON; - for stdin)")
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    verify.set_defaults(func=run_verify)


def run_verify(args: Any) -> int:
    """Runs ``drive verify``; returns 0 if the history verifies, else 1."""
    try:
        raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except OSError as error:
        raise UsageError(f"fortyfive drive verify: cannot read {args.file}: "
                         f"{error.strerror}") from None
    try:
        document = json.loads(raw)
    except json.JSONDecodeError as error:
        print(f"{args.file}: not JSON: {error}", file=sys.stderr)
        return 1
    problems = verify_drive(document)
    if args.json:
        print(json.dumps({"ok": not problems, "problems": problems}))
    elif problems:
        for problem in problems:
            print(f"FAIL {problem}")
    else:
        print(f"OK drive {document.get('drive_id')}: chain, games and standings verify")
    return 1 if problems else 0
