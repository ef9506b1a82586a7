"""``fortyfive history``: show, verify and convert hand histories.

::

    fortyfive history verify game.json [--json] [--complete] [--head HASH]
                             [--checkpoint CP.json --keys KEYS.json]
                             [--log URL [--tree-head HEAD.json]]
    fortyfive history show game.txt [--deal 2]
    fortyfive history convert game.json --to text [-o game.txt]
    fortyfive history diagram game.json --deal 2 [--out deal2.svg]

FILE is a history in either encoding (``-`` reads standard input); a hand-written text record
of a real-table deal is imported first. ``verify`` exits 0 when everything the history holds
checks out, 1 otherwise (naming each event that does not), and 2 for a usage error or a
file that is no hand history at all (empty, another JSON document, binary bytes: one line);
with ``--complete`` it also exits 1 when the view left anything unchecked, when the history
stops before the game's end (or its deal's, for a one-deal history), or when no checked
checkpoint vouches for every event of a finished game (or ended deal) the service dealt: with
``--complete``, signatures vouch for the whole history, or it fails (a table record written by
hand, whose deals no server shuffled, is checked for its integrity alone).
The signature of the checkpoint a history carries is always checked: with ``--keys``
(the answer of ``GET /v1/keys``, a trust root the user gives), else with the key the history
carries, and the report says which, and which events the keys vouch for. With
``--checkpoint`` (a checkpoint kept from the service, or a game view that carries one) and
``--keys`` it also exits 1 when that checkpoint's signature is bad or the history does not
reach its version with the same hash there (cut short or rewritten since).
With ``--log`` (the service's address) it also exits 1 unless the history's checkpoint is
in the service's transparency log under a tree head signed by a published key (or one of
``--keys``), and with ``--tree-head`` (a head kept from earlier) unless the log's tree now
extends that head's (:mod:`service.cli.log_client`); a log it cannot reach is exit status 2.
The report says first when the history stops before the game's end. ``show``, ``convert``
and ``diagram`` (a deal drawn as an SVG hand diagram) exit 1, printing the positioned problems
on stderr, when the file is a history with faults, and 2 in one line, as ``verify`` does, when
it is no history at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from events import tree_heads
from events.chain import HASH_FORM
from replay.formats.diagnostics import has_errors
from replay.formats.export import export_text
from replay.formats.importing import ImportResult, not_a_history, read_history
from replay.formats.jsonformat import dumps
from replay.presentation.diagram import DiagramError, render_svg
from replay.presentation.show import render
from replay.verification.report import Report
from replay.verification.verify import verify
from service.cli import UsageError, log_client
from service.cli.checkpoint_files import add_arguments, checkpoint_arguments, load_json


def register(subparsers: Any) -> None:
    """Adds ``history show``, ``verify``, ``convert`` and ``diagram`` to the command line."""
    parser = subparsers.add_parser(
        "history", help="show, verify and convert hand histories",
        description="Work with hand histories in their JSON or text encoding.",
    )
    commands = parser.add_subparsers(dest="history_command", required=True,
                                     metavar="{show,verify,convert,diagram}")
    verify_parser = commands.add_parser(
        "verify", help="re-fold a history and check its chain, head, seeds and results",
        description="Checks the hash chain and head, the seed commitments, and re-folds the "
        "events with the engine to compare every derived result. Exit 0 when all holds, 1 "
        "otherwise.",
    )
    verify_parser.add_argument("file", help="the history (JSON or text; - for stdin)")
    verify_parser.add_argument("--json", action="store_true", help="print one JSON object")
    verify_parser.add_argument("--complete", action="store_true",
                               help="also fail unless the history is the whole game (or an "
                               "ended deal) and, where the service dealt it, a checked "
                               "checkpoint's signature vouches for every event")
    verify_parser.add_argument("--head", metavar="HASH", type=_head_hash,
                               help="the head hash the history must end on (from the server)")
    add_arguments(verify_parser, "a game view")
    verify_parser.add_argument(
        "--log", metavar="URL",
        help="the service whose transparency log must include the history's checkpoint")
    verify_parser.add_argument(
        "--tree-head", metavar="HEAD.json",
        help="a tree head of that log kept from earlier: the log must extend it")
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


    diagram = commands.add_parser(
        "diagram", help="draw a deal as a hand diagram (SVG)",
        description="Draws deal K as card players draw one: the hands as dealt (as far as the "
        "history's viewer may see them), trumps and the turn-up, the tricks in order with "
        "their winners, the bonus and the scores.")
    diagram.add_argument("file", help="the history (JSON or text; - for stdin)")
    diagram.add_argument("--deal", type=int, required=True, metavar="K", help="the deal to draw")
    diagram.add_argument("--out", metavar="F", help="write the SVG here instead of stdout")
    diagram.set_defaults(func=run_diagram)


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

    :raises UsageError: if the file cannot be opened or is no history at all.
    """
    checkpoint, keys = checkpoint_arguments(args, "fortyfive history verify")
    pinned = _pinned_head(args)
    result = _read(args.file, "verify")
    report = verify(result.history, expected_head=args.head, checkpoint=checkpoint,
                    keys=keys) if (
        result.history is not None and not has_errors(result.diagnostics)) else None
    ok = report is not None and report.ok and (report.complete or not args.complete)
    logged = None
    if args.log is not None and result.history is not None:
        logged = _check_log(args.log, result.history.checkpoint, keys, pinned)
        ok = ok and logged["ok"]
    if args.json:
        print(json.dumps({
            "ok": ok,
            "diagnostics": [diagnostic.to_dict() for diagnostic in result.diagnostics],
            "verification": report.to_dict() if report is not None else None,
            "trust_root": args.keys,
            **({"log": logged} if args.log is not None else {}),
        }, indent=2))
    else:
        _print_diagnostics(result)
        if report is not None:
            print(report.format())
            if args.keys is not None:
                print(f"  trust root: the keys in {args.keys}{_trusted_extent(report)}")
        else:
            print("FAILED: the file could not be read as a history (see above)")
        if report is not None and report.ok and not (report.complete or not args.complete):
            print(f"FAILED: --complete, and {_incomplete(report)}")
        if logged is not None:
            print(logged["summary"])
    return 0 if ok else 1


def _trusted_extent(report: Report) -> str:
    """Says how much of the history the trust root vouches for, where not all of it."""
    unsigned = report.unsigned
    if unsigned is None:
        return ""
    first, last = unsigned
    if first == 1:
        return f", which vouch for no event of this history (events 1-{last} are unsigned)"
    return (f", which vouch for events 1-{first - 1} only (events {first}-{last} are signed "
            "by no checkpoint)")


def _incomplete(report: Report) -> str:
    """Says why a report that holds is not complete."""
    if report.prefix is not None:
        return "this history stops before the game's end"
    if report.unsigned is not None and len(report.unchecked) == 1:
        if report.unsigned[0] == 1:
            return ("no signature vouches for any of its events (the service dealt it: give "
                    "the checkpoint it carries as served, or the one you kept)")
        return "no signature vouches for the events after the latest checkpoint"
    return "this view leaves events unchecked"


def _pinned_head(args: argparse.Namespace) -> dict[str, Any] | None:
    """Returns the tree head of ``--tree-head``, its form checked.

    :raises UsageError: if it is given without ``--log``, cannot be read, or is no tree head.
    """
    if args.tree_head is None:
        return None
    if args.log is None:
        raise UsageError("fortyfive history verify: --tree-head needs --log (the service whose "
                         "log it is a head of)")
    try:
        head = load_json(args.tree_head, "the tree head", "fortyfive history verify")
        return dict(tree_heads.check_form(head))
    except tree_heads.TreeHeadError as error:
        raise UsageError(f"fortyfive history verify: {args.tree_head}: {error}") from None


def _check_log(url: str, checkpoint: Mapping[str, Any] | None, keys: dict[str, bytes] | None,
               pinned: dict[str, Any] | None) -> dict[str, Any]:
    """Checks that *checkpoint* is in the log of the service at *url* (and that its tree
    extends *pinned*); returns ``{ok, summary, ...}`` for the report.

    :raises UsageError: if the log cannot be reached.
    """
    client = log_client.LogClient(url)
    head: dict[str, Any] | None = None
    try:
        if checkpoint is None:
            raise log_client.LogCheckError("the history carries no checkpoint to look up")
        keys = keys if keys is not None else client.keys()
        head = client.tree_head(fresh=True)
        log_client.check_head(head, keys, "the log's tree head")
        if pinned is not None:
            log_client.check_head(pinned, keys, "the tree head you kept")
            log_client.check_consistent(client, pinned, head)
        index = log_client.check_included(client, checkpoint, head)
    except log_client.LogUnreachableError as error:
        raise UsageError(f"fortyfive history verify: {error}") from None
    except log_client.LogCheckError as error:
        return {"ok": False, "tree_head": head, "pinned_tree_head": pinned,
                "summary": f"FAILED: log: {error}"}
    kept = (f"; it extends the tree of {pinned['tree_size']} leaves you kept"
            if pinned is not None else "")
    return {"ok": True, "leaf_index": index, "tree_head": head, "pinned_tree_head": pinned,
            "summary": f"log: the checkpoint at version {checkpoint['version']} is leaf "
                       f"{index} of the log's tree of {head['tree_size']} leaves, signed at "
                       f"{head['timestamp']} by {head['key_id']}{kept}"}


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
    _write(text, args.output, "convert")
    return 0


def run_diagram(args: argparse.Namespace) -> int:
    """Writes deal ``--deal`` of FILE as an SVG hand diagram; returns 0, or 1 when FILE
    cannot be read.

    :raises UsageError: if a file cannot be opened or written, is no history, or the history
        has no such deal.
    """
    result = _read(args.file, "diagram")
    _print_diagnostics(result)
    if result.history is None or has_errors(result.diagnostics):
        return 1
    try:
        svg = render_svg(result.history, args.deal)
    except DiagramError as error:
        raise UsageError(f"fortyfive history diagram: {error}") from None
    _write(svg, args.out, "diagram")
    return 0


def _write(text: str, path: str | None, command: str) -> None:
    """Writes *text* to the file *path*, or to standard output when there is none.

    :raises UsageError: naming ``fortyfive history`` *command* if the file cannot be written.
    """
    if path is None:
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"fortyfive history {command}: cannot write {path}: "
                         f"{error.strerror}") from None
