"""``fortyfive rules``: ask the engine which cards may be played, or who wins a trick.

Other tools call this command, so its output is a contract::

    fortyfive rules legal --profile bruff --trump S --trick 7S,5S --hand AH,KD --json
    {"legal": ["AH", "KD"], "ruling": "...", "rule": "play.trump_lead.withhold",
     "trumps": ["AH"], "top_trumps": ["AH"]}

    fortyfive rules winner --profile bruff --trump S --trick 7S,5S,KD --json
    {"winner": 1, "card": "5S", "ruling": "...", "rule": "trick.highest_trump"}

    fortyfive rules vectors --out docs/vectors/rules     # the rules vectors, case by case

The legal cards keep the order of ``--hand`` (each card once); the winner is a 0-based index
into ``--trick``. Bad input exits with status 2 and one line on stderr. The answers and refusals
are :mod:`engine.query`'s, the same as ``POST /v1/rules/legal|winner``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from engine.errors import FortyFiveError
from engine.profiles import parse_option_text
from engine.query import legal_query, winner_query
from service.cli import UsageError


def register(subparsers: Any) -> None:
    """Adds ``rules legal`` and ``rules winner`` to the command line."""
    parser = subparsers.add_parser(
        "rules", help="which cards may be played, and who wins a trick",
        description="Ask the rules engine about one trick.",
    )
    commands = parser.add_subparsers(
        dest="rules_command", required=True, metavar="{legal,winner,doc,vectors}"
    )
    legal = commands.add_parser(
        "legal", help="the cards a hand may play to a trick",
        description="Prints the cards of --hand that may be played to --trick, in hand order, "
        "with the ruling that decided.",
    )
    _add_table_arguments(legal)
    legal.add_argument("--trick", default="",
                       help="cards played so far, in order (empty or omitted: a lead)")
    legal.add_argument("--hand", required=True, help="the cards held, e.g. AH,KD")
    legal.set_defaults(func=run_legal)
    winner = commands.add_parser(
        "winner", help="which card wins a trick",
        description="Prints the 0-based index in --trick of the winning card, and why.",
    )
    _add_table_arguments(winner)
    winner.add_argument("--trick", required=True, help="the cards played, in order")
    winner.set_defaults(func=run_winner)
    doc = commands.add_parser(
        "doc", help="rewrite the generated part of docs/rules.md",
        description="Rewrites the options, rule ids and sentences of docs/rules.md from the "
        "engine's registries.",
    )
    doc.add_argument("path", nargs="?", default=RULES_DOC,
                     help="the rules reference to rewrite (default %(default)s)")
    doc.add_argument("--check", action="store_true",
                     help="write nothing; exit 1 if the file is not current")
    doc.set_defaults(func=run_doc)
    vectors = commands.add_parser(
        "vectors", help="write the rules vectors an outside engine is checked against",
        description="Writes the rules vectors (positions with their legal plays, tricks with "
        "their winner, deals with the bonus, finish and scores, auctions with their "
        "settlement, table records with their irregularities) as JSON, the same bytes on "
        "every run (docs/vectors/rules/README.md).",
    )
    vectors.add_argument("--out", default=RULES_VECTORS, metavar="DIR",
                         help="the directory to write them in (default %(default)s)")
    vectors.add_argument("--check", action="store_true",
                         help="write nothing; exit 1 if a file in DIR is missing or differs")
    vectors.set_defaults(func=run_vectors)


def _add_table_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", required=True, help="bruff, auction or classic")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="a profile option, e.g. joker=below_ah (repeatable)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats at the table (default: the profile's fewest)")
    parser.add_argument("--trump", required=True, help="the trump suit: S, C, D or H")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


RULES_DOC = "docs/rules.md"
"""The rules reference whose generated part ``fortyfive rules doc`` rewrites."""

RULES_VECTORS = "docs/vectors/rules"
"""Where ``fortyfive rules vectors`` writes by default."""

_FLAGS = {"trick": "--trick", "hand": "--hand", "players": "--players"}


def run_legal(args: argparse.Namespace) -> int:
    """Prints the legal cards of ``--hand``; returns the exit status.

    :raises UsageError: for any input the engine cannot use.
    """
    try:
        answer = legal_query(args.profile, _options(args), args.players, args.trump,
                             args.trick, args.hand, names=_FLAGS)
    except FortyFiveError as error:
        raise _refusal(args, _one_line(error)) from None
    if args.json:
        print(json.dumps(answer))
    else:
        print(f"legal: {' '.join(answer['legal'])}. {answer['ruling']} [{answer['rule']}]")
    return 0


def run_winner(args: argparse.Namespace) -> int:
    """Prints the winner of ``--trick``; returns the exit status.

    :raises UsageError: for any input the engine cannot use.
    """
    try:
        answer = winner_query(args.profile, _options(args), args.players, args.trump,
                              args.trick, names=_FLAGS)
    except FortyFiveError as error:
        raise _refusal(args, _one_line(error)) from None
    if args.json:
        print(json.dumps(answer))
    else:
        print(f"winner: {answer['winner']} ({answer['card']}). {answer['ruling']} "
              f"[{answer['rule']}]")
    return 0


def run_doc(args: argparse.Namespace) -> int:
    """Rewrites (or with ``--check`` checks) the generated part of the rules reference.

    :raises UsageError: for a file that cannot be read or lacks the markers.
    """
    from replay.presentation.reference import updated

    path = Path(args.path)
    try:
        text = path.read_text(encoding="utf-8")
        fresh = updated(text)
    except (OSError, ValueError) as error:
        raise _refusal(args, f"{path}: {_one_line(error)}") from None
    if args.check:
        if fresh != text:
            print(f"{path} is not current: run fortyfive rules doc", file=sys.stderr)
            return 1
        return 0
    path.write_text(fresh, encoding="utf-8")
    print(f"wrote {path}")
    return 0


def run_vectors(args: argparse.Namespace) -> int:
    """Writes (or with ``--check`` compares) the rules vectors; returns the exit status.

    Each file is written whole under a temporary name and then renamed, so a file is never
    left half-written.

    :raises UsageError: for a directory that cannot be made or written.
    """
    from replay.verification.rules_vectors import generate

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise _refusal(args, f"--out {out} is not a directory")
    if not args.check:  # Before drawing the vectors: a folder that cannot be made fails at once.
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise _refusal(args, f"--out {out}: {_one_line(error)}") from None
    files = generate()
    if args.check:
        stale = [name for name, data in files.items()
                 if not (out / name).is_file() or (out / name).read_bytes() != data]
        if stale:
            print(f"{out}: {', '.join(stale)} not current: run fortyfive rules vectors",
                  file=sys.stderr)
            return 1
        return 0
    for name, data in files.items():
        partial = out / f".{name}.partial"
        try:
            partial.write_bytes(data)
            partial.replace(out / name)
        except OSError as error:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
            raise _refusal(args, f"--out {out}: {_one_line(error)}") from None
    total = sum(len(data) for data in files.values())
    print(f"wrote {len(files)} files ({total} bytes) to {out}")
    return 0


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """Returns the ``--option K=V`` values, each read as the profile's option reads it."""
    options: dict[str, Any] = {}
    for item in args.option:
        name, equals, text = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise _refusal(args, f"--option expects K=V, e.g. joker=below_ah, got {item!r}")
        if name in options:
            raise _refusal(args, f"--option {name!r} is given more than once")
        try:
            options[name] = parse_option_text(args.profile, name, text)
        except FortyFiveError as error:
            raise _refusal(args, _one_line(error)) from None
    return options


def _refusal(args: argparse.Namespace, message: str) -> UsageError:
    """Returns the usage error of *message*, named by the command as every command's is."""
    return UsageError(f"fortyfive rules {args.rules_command}: {message}")


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())
