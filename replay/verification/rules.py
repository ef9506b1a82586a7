"""Verifying the embedded rules and seats of a hand history against its first event.

The rules are rebuilt from the profile and options and must match their digest, list every
option, and agree with what ``game_created`` (event 1) created; the seats must be the table's.
The rebuilt rules are what the later checks (view, fold, results) judge by.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import ProfileError
from engine.profiles import make_ruleset
from engine.sides import seat_name, side_name
from events.errors import StoreError
from events.upcasting import upcast
from replay.formats.diagnostics import pointer
from replay.formats.notation import same
from replay.verification.state import Run

CODES = ("rules", "seats")
"""``rules``: the rules block is not a valid profile, misses an option, differs from event 1, or
its digest does not match; ``seats``: the seats listed differ from event 1's, or a side is
wrong. (Event 1 that is not a readable ``game_created`` is reported as ``data``, the fold's
code for an event that cannot be read.)"""


def check(run: Run) -> None:
    """Rebuilds the rules (kept in ``run.rules`` for the later checks) and checks them and the
    seats against the document and event 1."""
    history = run.history
    block = history.rules
    assert block is not None and block.players is not None
    try:
        rules = make_ruleset(block.profile, block.options, block.players)
    except ProfileError as error:
        run.problem("rules", f"the embedded rules are not valid: {error}", pointer="/rules")
        return
    run.rules = rules
    full = rules.options()
    for name in sorted(set(full) | set(block.options)):
        if name not in block.options:
            run.problem("rules", f"option {name!r} is missing from the embedded rules "
                        "(a history lists every option)", pointer="/rules/options")
        elif not same(block.options[name], full.get(name)):
            run.problem("rules", f"option {name!r} is {block.options[name]!r}, not a value "
                        "the profile keeps as given", pointer=pointer(
                             ["rules", "options", name]))
    if block.digest != rules.digest():
        run.problem("rules", f"the rules digest {str(block.digest)[:16]}... does not match "
                    f"the embedded profile and options ({rules.digest()[:16]}...)",
                    pointer="/rules/digest")
    first = history.events[0]
    if first.type != "game_created" or first.version != 1:
        run.problem("data", "a history starts with event 1, game_created", first.version,
                    "/events/0")
        return
    try:
        created = upcast(first.type, first.schema, first.data)
    except StoreError as error:
        run.problem("data", f"game_created cannot be read: {error}", 1, "/events/0")
        return
    for name, kind in (("profile", str), ("options", Mapping), ("seats", list)):
        if not isinstance(created.get(name), kind):
            run.problem("data", f"game_created has no valid {name}", 1, "/events/0/data")
            return
    if created["profile"] != block.profile:
        run.problem("rules", f"the embedded profile is {block.profile!r} but event 1 "
                    f"(game_created) created a {created['profile']!r} game", 1,
                    "/rules/profile")
    for name in sorted(set(created["options"]) | set(block.options)):
        mine, theirs = block.options.get(name), created["options"].get(name)
        if not same(mine, theirs):
            run.problem("rules", f"option {name!r} is {mine!r} in the embedded rules but "
                        f"{theirs!r} in event 1 (game_created)", 1,
                        pointer(["rules", "options", name]))
    seats = created["seats"]
    if len(seats) != block.players:
        run.problem("rules", f"the rules say {block.players} players but event 1 seats "
                    f"{len(seats)}", 1, "/rules/players")
    if len(history.seats) != len(seats):
        run.problem("seats", f"{len(history.seats)} seats listed for a table of "
                    f"{len(seats)}", None, "/seats")
    for index, seat in enumerate(history.seats):
        where = pointer(["seats", index])
        if seat.seat != index:
            run.problem("seats", f"seat {seat_name(index)} is listed with \"seat\": "
                        f"{seat.seat}, not {index} (the data counts seats from 0)", None, where)
        elif index < len(seats) and seat.type != seats[index]:
            run.problem("seats", f"seat {seat_name(index)} is listed as {seat.type!r} but "
                        f"event 1 seats a {seats[index]!r}", 1, where)
        if seat.side != rules.side_of(index):
            run.problem("seats", f"seat {seat_name(index)} is listed with \"side\": "
                        f"{seat.side}{_side_letter(seat.side)}, but plays for side "
                        f"{side_name(rules.side_of(index))} (\"side\": "
                        f"{rules.side_of(index)})", None, where)


def _side_letter(side: object) -> str:
    """Returns `` (side B)`` for a listed side that is a side's number, else nothing: a
    problem quotes the data's 0-based value and names the side as people read it."""
    return f" (side {side_name(side)})" if isinstance(side, int) and side >= 0 else ""
