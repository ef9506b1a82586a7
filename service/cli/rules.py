"""``fortyfive rules``: ask the engine which cards may be played, or who wins a trick.

Other tools call this command, so its output is a contract::

    fortyfive rules legal --profile bruff --trump S --trick 7S,5S --hand AH,KD --json
    {"legal": ["AH", "KD"], "ruling": "...", "rule": "play.trump_lead.withhold",
     "trumps": ["AH"], "top_trumps": ["AH"]}

    fortyfive rules winner --profile bruff --trump S --trick 7S,5S,KD --json
    {"winner": 1, "card": "5S", "ruling": "...", "rule": "trick.highest_trump"}

The legal cards keep the order of ``--hand`` (each card once); the winner is a 0-based index
into ``--trick``. Bad input exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.cards import Card, Suit, parse_cards
from engine.errors import FortyFiveError
from engine.profiles import RuleSet, make_ruleset, parse_option_text
from engine.ranking import Ranking, ranking
from engine.shuffle import pack
from engine.tricks import winner_ruling
from service.cli import UsageError
from service.rules_api import legal_answer

HAND_SIZE = 5
"""The most cards a hand holds."""


def register(subparsers: Any) -> None:
    """Adds ``rules legal`` and ``rules winner`` to the command line."""
    parser = subparsers.add_parser(
        "rules", help="which cards may be played, and who wins a trick",
        description="Ask the rules engine about one trick.",
    )
    commands = parser.add_subparsers(
        dest="rules_command", required=True, metavar="{legal,winner}"
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


def _add_table_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", required=True, help="bruff, auction or classic")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="a profile option, e.g. joker=below_ah (repeatable)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats at the table (default: the profile's fewest)")
    parser.add_argument("--trump", required=True, help="the trump suit: S, C, D or H")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run_legal(args: argparse.Namespace) -> int:
    """Prints the legal cards of ``--hand``; returns the exit status.

    :raises UsageError: for any input the engine cannot use.
    """
    rules, order = _table(args)
    trick = _cards("--trick", args.trick)
    hand = _cards("--hand", args.hand)
    if not hand:
        raise UsageError("--hand is empty: give the cards held, e.g. --hand AH,KD")
    if len(hand) > HAND_SIZE:
        raise UsageError(f"--hand has {len(hand)} cards, but a hand holds at most {HAND_SIZE}")
    if len(trick) >= rules.players:
        raise UsageError(
            f"--trick has {len(trick)} cards: with {rules.players} players the trick is "
            "complete and nobody is left to play"
        )
    _check_pack(rules, trick=trick, hand=hand)
    answer = legal_answer(hand, trick, order, rules)
    if args.json:
        print(json.dumps(answer))
    else:
        print(f"legal: {' '.join(answer['legal'])}. {answer['ruling']} [{answer['rule']}]")
    return 0


def run_winner(args: argparse.Namespace) -> int:
    """Prints the winner of ``--trick``; returns the exit status.

    :raises UsageError: for any input the engine cannot use.
    """
    rules, order = _table(args)
    trick = _cards("--trick", args.trick)
    if not trick:
        raise UsageError("--trick is empty: a trick needs at least one card to have a winner")
    if len(trick) > rules.players:
        raise UsageError(
            f"--trick has {len(trick)} cards, but a trick has one card from each of the "
            f"{rules.players} players (see --players)"
        )
    _check_pack(rules, trick=trick)
    index, ruling = winner_ruling(trick, order)
    card = trick[index].code()
    if args.json:
        print(json.dumps(
            {"winner": index, "card": card, "ruling": ruling.text, "rule": ruling.rule_id}
        ))
    else:
        print(f"winner: {index} ({card}). {ruling.text} [{ruling.rule_id}]")
    return 0


def _table(args: argparse.Namespace) -> tuple[RuleSet, Ranking]:
    """Returns the rule set and trump ordering named by the common arguments."""
    options: dict[str, Any] = {}
    for item in args.option:
        name, equals, text = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise UsageError(f"--option expects K=V, e.g. joker=below_ah, got {item!r}")
        if name in options:
            raise UsageError(f"--option {name!r} is given more than once")
        try:
            options[name] = parse_option_text(args.profile, name, text)
        except FortyFiveError as error:
            raise UsageError(_one_line(error)) from None
    try:
        rules = make_ruleset(args.profile, options, args.players)
        trump = Suit.parse(args.trump)
    except FortyFiveError as error:
        raise UsageError(_one_line(error)) from None
    return rules, ranking(trump, rules)


def _cards(flag: str, text: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except FortyFiveError as error:
        raise UsageError(f"{flag}: {_one_line(error)}") from None


def _check_pack(
    rules: RuleSet, *, trick: Sequence[Card], hand: Sequence[Card] = ()
) -> None:
    """Refuses cards that are not in the pack, or more copies than the pack holds."""
    in_pack = Counter(pack(rules))
    for flag, cards in (("--trick", trick), ("--hand", hand)):
        for card in cards:
            if not in_pack[card]:
                raise UsageError(
                    f"{flag}: {card.code()} is not in the pack: {rules.profile} is played "
                    "here without a joker"
                )
    seen = Counter(trick) + Counter(hand)
    for card, count in seen.items():
        if count <= in_pack[card]:
            continue
        game = (
            f"a {_NUMBERS[rules.decks]}-pack game has only {_NUMBERS[in_pack[card]]} "
            f"{card.code()}"
        )
        if card in trick and card in hand:
            raise UsageError(f"{card.code()} is both in --trick and in --hand, but {game}")
        flag = "--trick" if card in trick else "--hand"
        raise UsageError(f"{flag}: {card.code()} appears {count} times, but {game}")


_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())
