"""The ``fortyfive`` command line: one entry point, one module per command group.

Each module in :data:`COMMAND_MODULES` defines ``register(subparsers)``, which adds its
sub-command and sets ``func`` on the parser to a callable taking the parsed arguments and
returning the exit status. Usage errors exit with status 2 and one line on stderr; an embedded
redis-server that cannot start, with status 1 and its message.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from service.processes.embedded_redis import EmbeddedRedisError

COMMAND_MODULES = (
    "service.cli.rules",
    "service.cli.play",
    "service.cli.bot",
    "service.cli.serve",
    "service.cli.worker",
    "service.cli.history",
    "service.cli.bench",
    "service.cli.keys",
    "service.cli.archive",
    "service.cli.drive",
    "service.cli.log",
)


class UsageError(Exception):
    """Raised by a command for input it cannot use; printed as one line, exit status 2."""


def store_url(given: str | None, command: str) -> str:
    """Returns the store a command acts on: *given* (``--redis-url``), else ``REDIS_URL``.

    :raises UsageError: if there is neither.
    """
    url = given or os.environ.get("REDIS_URL")
    if not url:
        raise UsageError(f"fortyfive {command}: no store given: set REDIS_URL or pass "
                         "--redis-url (fortyfive serve prints its embedded server's address)")
    return url


def open_store(url: str, command: str) -> Any:
    """Returns the event store at *url* with the environment's settings (a Redis Cluster
    with ``REDIS_CLUSTER``; :mod:`service.application.store_settings`).

    :raises UsageError: if a setting is not valid or the store cannot be used.
    """
    from events.errors import StoreUnavailableError
    from service.application.store_settings import store_settings

    try:
        return store_settings().open(url)
    except (ValueError, StoreUnavailableError) as error:
        raise UsageError(f"fortyfive {command}: {error}") from None


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """Returns the parser with every command group registered."""
    parser = _Parser(prog="fortyfive", description="Forty-Five card games as a service.")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line and returns its exit status."""
    try:
        args = build_parser().parse_args(argv)
        status = args.func(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except EmbeddedRedisError as error:
        # The private server could not start: a leftover one, a missing binary; not a bug.
        print(f"fortyfive: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Its reader went away (`| head`): stop quietly, as shell tools do. Python would else
        # report the closed pipe again when it flushes standard output on exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
