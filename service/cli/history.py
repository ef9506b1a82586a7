"""``fortyfive history``: show, verify and convert hand histories.

::

    fortyfive history verify game.json [--json] [--complete] [--head HASH]
                             [--checkpoint CP.json --keys KEYS.json]
    fortyfive history show game.txt [--deal 2]
    fortyfive history convert game.json --to text [-o game.txt]

FILE is a history in either encoding (``-`` reads standard input); a hand-written text record
of a real-table deal is imported first. ``verify`` exits 0 when everything the history holds
checks out, 1 otherwise (naming each event that does not), and 2 for a usage error; with
``--complete`` it also exits 1 when the view left anything unchecked. With ``--checkpoint`` (a
checkpoint kept from the service, or a game view that carries one) and ``--keys`` (the answer
of ``GET /v1/keys``) it also exits 1 when the checkpoint's signature is bad or the history does
not reach its version with the same hash there (cut short or rewritten since). ``show`` and
``convert`` exit 1, printing the positioned problems on stderr, when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from events import checkpoints
from events.chain import HASH_FORM
from replay.formats.diagnostics import has_errors
from replay.formats.export import export_text
from replay.formats.importing import ImportResult, not_a_history, read_history
from replay.formats.jsonformat import dumps
from replay.presentation.show import render
from replay.verification.verify import verify
from service.cli import UsageError


def register(subparsers: Any) -> None:
    """Adds ``history show``, ``history verify`` and ``history convert`` to the command line."""
    parser = subparsers.add_parser(
        "history", help="show, verify and convert hand histories",
        description="Work with hand histories in their JSON or text encoding.",
    )
    commands = parser.add_subparsers(dest="history_command", required=True,
                                     metavar="{show,verify,convert}")
    verify_parser = commands.add_parser(
        "verify", help="re-fold a history and check its chain, head, seeds and results",
        description="Checks the hash chain and head, the seed commitments, and re-folds the "
        "events with the engine to compare every derived result. Exit 0 when all holds, 1 "
        "otherwise.",
    )
    verify_parser.add_argument("file", help="the history (JSON or text; - for stdin)")
    verify_parser.add_argument("--json", action="store_true", help="print one JSON object")
    verify_parser.add_argument("--complete", action="store_true",
                               help="also fail when this view leaves anything unchecked")
    verify_parser.add_argument("--head", metavar="HASH", type=_head_hash,
                               help="the head hash the history must end on (from the server)")
    verify_parser.add_argument(
        "--checkpoint", metavar="CP.json",
        help="a signed checkpoint the history must reach (or a game view carrying one)")
    verify_parser.add_argument(
        "--keys", metavar="KEYS.json",
        help="the service's public keys (the answer of GET /v1/keys)")
    verify_parser.set_defaults(func=run_verify)
    show = commands.add_parser(
        "show", help="print a history trick by trick with the rulings",
        description="Prints each deal trick by trick, with the rulings, as its viewer saw it.",
    )
    show.add_argument("file", help="the history (JSON or text; - for stdin)")
    show.add_argument("--deal", type=int, metavar="K", help="only deal K")
    show.set_defaults(func=run_show)
    convert = commands.add_parser(
        "convert", help="convert a history between JSON and the text notation",
        description="Writes the history in the other encoding (losslessly) to stdout or -o.",
    )
    convert.add_argument("file", help="the history (JSON or text; - for stdin)")
    convert.add_argument("--to", required=True, choices=("json", "text"),
                         help="the encoding to write")
    convert.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    convert.set_defaults(func=run_convert)


def _head_hash(text: str) -> str:
    """Parses ``--head``.

    :raises argparse.ArgumentTypeError: if it is not a hash of the chain.
    """
    if not HASH_FORM.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"expected a head hash of 64 lowercase hex digits, got {text!r}")
    return text


def _read(path: str, command: str | None = None) -> ImportResult:
    """Reads FILE (or stdin for ``-``). With *command*, a file that is no hand history at all
    is refused in one line naming the command (its diagnostics would be a line per line of
    the file, all saying the same).

    :raises UsageError: if the file cannot be opened, or (with *command*) is no history.
    """
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise UsageError(f"fortyfive history: cannot read {path}: {error.strerror}") from None
    reason = not_a_history(data) if command else None
    if reason:
        shown = "standard input" if path == "-" else path
        raise UsageError(f"fortyfive history {command}: {shown} is not a hand history: {reason}")
    return read_history(data)


def _print_diagnostics(result: ImportResult) -> None:
    for diagnostic in result.diagnostics:
        print(f"{diagnostic}", file=sys.stderr)


def run_verify(args: argparse.Namespace) -> int:
    """Verifies FILE; returns 0 when everything holds, else 1.

    :raises UsageError: if the file cannot be opened.
    """
    checkpoint, keys = _checkpoint_arguments(args)
    result = _read(args.file)
    report = verify(result.history, expected_head=args.head, checkpoint=checkpoint,
                    keys=keys) if (
        result.history is not None and not has_errors(result.diagnostics)) else None
    ok = report is not None and report.ok and (report.complete or not args.complete)
    if args.json:
        print(json.dumps({
            "ok": ok,
            "diagnostics": [diagnostic.to_dict() for diagnostic in result.diagnostics],
            "verification": report.to_dict() if report is not None else None,
        }, indent=2))
    else:
        _print_diagnostics(result)
        if report is not None:
            print(report.format())
        else:
            print("FAILED: the file could not be read as a history (see above)")
        if report is not None and report.ok and not ok:
            print("FAILED: --complete, and this view leaves events unchecked")
    return 0 if ok else 1


def _load_json(path: str, what: str) -> Any:
    """Returns the JSON value in the file at *path*.

    :raises UsageError: if it cannot be read or is not JSON.
    """
    try:
        return json.loads(Path(path).read_bytes())
    except OSError as error:
        raise UsageError(f"fortyfive history verify: cannot read {what} {path}: "
                         f"{error.strerror}") from None
    except ValueError as error:
        raise UsageError(f"fortyfive history verify: {what} {path} is not JSON: "
                         f"{error}") from None


def _checkpoint_arguments(
    args: argparse.Namespace,
) -> tuple[dict[str, Any] | None, dict[str, bytes] | None]:
    """Returns the checkpoint and the keys named by ``--checkpoint`` and ``--keys``.

    :raises UsageError: if a file cannot be read, or a checkpoint is given without keys.
    """
    if args.checkpoint is not None and args.keys is None:
        raise UsageError("fortyfive history verify: --checkpoint needs --keys (the answer of "
                         "GET /v1/keys) to check its signature")
    keys = None
    if args.keys is not None:
        try:
            keys = checkpoints.read_keys(_load_json(args.keys, "the keys"))
        except checkpoints.CheckpointError as error:
            raise UsageError(f"fortyfive history verify: {args.keys}: {error}") from None
    checkpoint = None
    if args.checkpoint is not None:
        value = _load_json(args.checkpoint, "the checkpoint")
        if isinstance(value, dict) and "signature" not in value and isinstance(
                value.get("checkpoint"), dict):
            value = value["checkpoint"]  # A game view, or a history, that carries one.
        if not isinstance(value, dict):
            raise UsageError(f"fortyfive history verify: {args.checkpoint} holds no checkpoint")
        checkpoint = value
    return checkpoint, keys


def run_show(args: argparse.Namespace) -> int:
    """Prints FILE trick by trick; returns 0, or 1 when it is a history with errors.

    :raises UsageError: if the file cannot be opened, is no history or has no deal ``--deal``.
    """
    result = _read(args.file, "show")
    _print_diagnostics(result)
    if result.history is None or has_errors(result.diagnostics):
        return 1
    if args.deal is not None and args.deal not in {
            section.number for section in result.history.sections()}:
        raise UsageError(f"fortyfive history show: the history has no deal {args.deal}")
    sys.stdout.write(render(result.history, deal=args.deal))
    return 0


def run_convert(args: argparse.Namespace) -> int:
    """Writes FILE in the encoding ``--to``; returns 0, or 1 when it is a history with errors.

    :raises UsageError: if a file cannot be opened or written, or is no history.
    """
    result = _read(args.file, "convert")
    _print_diagnostics(result)
    history = result.history
    if history is None or has_errors(result.diagnostics) or not history.sealed:
        return 1
    text = (dumps(history).decode() + "\n") if args.to == "json" else export_text(history)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"fortyfive history convert: cannot write {args.output}: "
                         f"{error.strerror}") from None
    return 0
