"""Every ``fortyfive`` command's ``--help`` says what the command does, in a whole sentence,
and what each of its options is for."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from service.cli import build_parser


def _commands(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """Yields every command that runs (a parser without subcommands), depth first."""
    groups = [action for action in parser._actions
              if isinstance(action, argparse._SubParsersAction)]
    if not groups:
        yield parser
    for group in groups:
        for command in dict.fromkeys(group.choices.values()):
            yield from _commands(command)


def test_every_command_describes_itself_and_each_option() -> None:
    commands = list(_commands(build_parser()))
    assert len(commands) >= 15
    for command in commands:
        assert command.description, f"{command.prog}: no description"
        assert command.description.rstrip().endswith("."), (
            f"{command.prog}: the description is not a whole sentence: {command.description!r}")
        for action in command._actions:
            if action.help != argparse.SUPPRESS:
                named = action.option_strings[0] if action.option_strings else action.dest
                assert action.help, f"{command.prog} {named}: no help"
