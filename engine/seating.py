"""The movements of a drive: who sits at which table, round by round.

Pure functions over tables (tuples of player indices in seat order; seat *s* is on side
``s mod sides``, so partners sit ``sides`` seats apart). :mod:`engine.drives` folds the rounds
these functions seat.

``round_robin`` is an individual movement: every table seats whole partnerships of two (pairs
tables of four, bruff's three partnerships at tables of six), and round *r* pairs the players by
the *r*-th perfect matching of the round-robin "circle" (one fixed player, the others turning),
so nobody partners the same player twice until ``players - 1`` rounds have been played; each
round's partnerships then go to the tables so that few players stay where they just played.

>>> rounds = movement(8, 4, 3)
>>> rounds[0]
((7, 1, 0, 6), (2, 3, 5, 4))
>>> len({frozenset(p) for r in rounds for t in r for p in partner_pairs(t, 2)})
12

``fixed_partners`` keeps each partnership together and moves it as in a Mitchell. In
``winners_move`` the winning side of each table moves on to the next table (the last
table's winners go to table 1) and the losers stay; at every table the two who stayed
together, and the two who moved together, become opponents: each mover partners one who
stayed. It seats each round from the last one's results, as it seats the players still there
after arrivals and withdrawals.

>>> winners_move(((0, 1, 2, 3), (4, 5, 6, 7)), (0, 1), 2)
((1, 3, 5, 7), (4, 6, 0, 2))
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TypeAlias

from engine.errors import DriveError

Table: TypeAlias = tuple[int, ...]
"""The players (indices into the drive's players) of one table, in seat order."""
Round: TypeAlias = tuple[Table, ...]

TABLE_SIZES: dict[str, int] = {"classic": 4, "auction": 4, "bruff": 6}
"""Seats per table of a drive, by profile: two partnerships of two, or bruff's three."""


def table_size(profile: str) -> int:
    """Returns the seats of a drive table for *profile*.

    :raises DriveError: if *profile* has no drive tables.
    """
    try:
        return TABLE_SIZES[profile]
    except KeyError:
        raise DriveError(
            f"profile {profile!r} cannot run a drive (known: {', '.join(TABLE_SIZES)})"
        ) from None


def check_players(count: int, size: int) -> None:
    """Checks that *count* players fill tables of *size*.

    :raises DriveError: if they do not.
    """
    if count < size or count % size:
        fewer = count - count % size
        counts = f"{fewer} or {fewer + size}" if fewer else f"{size}"
        raise DriveError(
            f"{count} players do not fill tables of {size}: use {counts} players, or ask "
            "for bots to fill the last table (fill_with_bots)"
        )


def matching(players: int, number: int) -> tuple[tuple[int, int], ...]:
    """Returns the partner pairs of round *number* (0-based) of the circle method for an even
    count of *players*: every pair of players meets in exactly one of ``players - 1`` rounds.

    >>> matching(4, 0), matching(4, 1)
    (((3, 0), (1, 2)), ((3, 1), (2, 0)))
    """
    assert players % 2 == 0, "a perfect matching needs an even count"
    turning = players - 1
    r = number % turning
    pairs = [(turning, r)]
    for k in range(1, players // 2):
        pairs.append(((r + k) % turning, (r - k) % turning))
    return tuple(pairs)


def movement(players: int, size: int, rounds: int) -> tuple[Round, ...]:
    """Returns the seats of every table of every round: partners sit *sides* seats apart
    (seat s is on side ``s mod sides``), a table holds ``size // 2`` partnerships, and each
    round's partnerships are given to tables so that as few players as possible stay at the
    table they just played at (each in turn takes the free table it knows least)."""
    sides = size // 2
    tables = players // size
    schedule: list[Round] = []
    where: dict[int, int] = {}
    for number in range(rounds):
        pairs = matching(players, number)
        groups = [pairs[t * sides:(t + 1) * sides] for t in range(tables)]
        placed: list[tuple[tuple[int, int], ...] | None] = [None] * tables
        for group in groups:
            free = [t for t in range(tables) if placed[t] is None]
            best = min(free, key=lambda t: sum(where.get(p) == t for pair in group for p in pair))
            placed[best] = group
        schedule.append(tuple(
            tuple(group[seat % sides][seat // sides] for seat in range(size))
            for group in placed if group is not None
        ))
        where = {p: t for t, table in enumerate(schedule[-1]) for p in table}
    return tuple(schedule)


MOVEMENTS = ("round_robin", "fixed_partners", "winners_move")
"""The movements a drive can use (``movement``): docs/api.md says what each gives.
``winners_move`` seats round 1 as ``round_robin`` does and each next round at its start from
the last one's results (:func:`engine.seating.winners_move`)."""

SEATED_AT_START = "winners_move"
"""The movement whose rounds after the first are seated when they start."""

ODD_PLAYERS = ("bots", "sit_out")
"""What seats players that do not fill the tables after arrivals and withdrawals
(``odd_players``): house bots, or sitting out."""

SIT_OUT_RULE = (
    "a player who sits out a round scores the round's average: 50 per cent of the top, as "
    "an abandoned table's side given average does (duplicate: of the matchpoints a side "
    "could make on each board, one per table that finished it; progressive: of the most "
    "points a side made at a table of the round that was not abandoned); those who have sat "
    "out least sit out first, and among them the last to join"
)
"""How sit-outs score and who sits out (published with the standings and in docs/api.md)."""


def fixed_partners(players: int, size: int, rounds: int) -> tuple[Round, ...]:
    """Returns a movement of set partnerships, as a Mitchell moves pairs: players ``2k`` and
    ``2k + 1`` partner each other all evening. At table *t* of round *r* (0-based) side 0 is
    the stationary partnership *t*; side 1 is the partnership that moved up *r* tables; in
    bruff, side 2 is the one that moved down *r* tables. Over as many rounds as tables, each
    stationary pair meets every moving pair once (classic, auction).

    >>> fixed_partners(8, 4, 2)
    (((0, 4, 1, 5), (2, 6, 3, 7)), ((0, 6, 1, 7), (2, 4, 3, 5)))
    """
    sides = size // 2
    tables = players // size
    shift = (0, 1, -1)
    schedule = []
    for number in range(rounds):
        seated = []
        for table in range(tables):
            pairs = [side * tables + (table - shift[side] * number) % tables
                     for side in range(sides)]
            seated.append(tuple(2 * pairs[seat % sides] + seat // sides for seat in range(size)))
        schedule.append(tuple(seated))
    return tuple(schedule)


def schedule_of(movement_name: str, players: int, size: int, rounds: int) -> tuple[Round, ...]:
    """Returns the schedule of the movement named *movement_name*.

    :raises DriveError: for a movement that is none of :data:`MOVEMENTS`.
    """
    if movement_name == "round_robin":
        return movement(players, size, rounds)
    if movement_name == "fixed_partners":
        return fixed_partners(players, size, rounds)
    if movement_name == SEATED_AT_START:
        return movement(players, size, 1)
    raise DriveError(f"movement must be one of {', '.join(MOVEMENTS)}, got {movement_name!r}")


def meetings(schedule: Sequence[Round], sides: int) -> tuple[list[int], list[int]]:
    """Returns, per player, how many different partners and how many different opponents
    they meet over *schedule* (for ``fortyfive bench drive``)."""
    count = 1 + max(p for r in schedule for t in r for p in t)
    partners: list[set[int]] = [set() for _ in range(count)]
    opponents: list[set[int]] = [set() for _ in range(count)]
    for tables in schedule:
        for table in tables:
            for members in partner_pairs(table, sides):
                for player in members:
                    partners[player] |= set(members) - {player}
                    opponents[player] |= set(table) - set(members)
    return [len(p) for p in partners], [len(o) for o in opponents]


def partner_pairs(table: Table, sides: int) -> tuple[tuple[int, ...], ...]:
    """Returns the partnerships of *table* (the players of each side)."""
    return tuple(tuple(table[s] for s in range(side, len(table), sides)) for side in range(sides))



def mover(scores: Sequence[int], winner: int | None) -> int:
    """Returns the side of a table that moves on: its winner; for a game without one (ended
    without a winner, abandoned, or ended as it stood) the side with the most points, and on
    equal points the first of them.

    >>> mover((10, 30), None), mover((30, 30), None), mover((10, 30), 0)
    (1, 0, 0)
    """
    if winner is not None:
        return winner
    return max(range(len(scores)), key=lambda side: (scores[side], -side))


def winners_move(tables: Sequence[Table], movers: Sequence[int], sides: int) -> tuple[Table, ...]:
    """Returns the next round's tables: table *t* keeps its sides other than ``movers[t]``
    and receives the side ``movers[t - 1]`` of the table before it (table 1 the last
    table's). The pair that moved split, each partnering one who stayed: with two sides the
    movers partner the stayers (first with first); with bruff's three, the movers partner
    the first player of each staying side and those sides' second players partner each
    other."""
    assert sides in (2, 3), "tables of two or three partnerships"
    seated = []
    for number, table in enumerate(tables):
        came = _side(tables[number - 1], movers[number - 1], sides)
        stayed = [_side(table, side, sides) for side in range(sides) if side != movers[number]]
        if sides == 2:
            pairs = [(stayed[0][0], came[0]), (stayed[0][1], came[1])]
        else:
            pairs = [(stayed[0][0], came[0]), (stayed[1][0], came[1]),
                     (stayed[0][1], stayed[1][1])]
        seated.append(tuple(pairs[seat % sides][seat // sides] for seat in range(2 * sides)))
    return tuple(seated)


def _side(table: Table, side: int, sides: int) -> tuple[int, ...]:
    return tuple(table[seat] for seat in range(side, len(table), sides))


def seat_present(tables: Sequence[Table], present: Sequence[int],
                 size: int) -> tuple[Table, ...]:
    """Returns *tables* with only the players in *present* (in the order they joined):
    each seat of a player who left goes to the first of the present players not seated
    (arrivals, those who sat out), in order; when nobody is left to take a seat, the last
    table is broken up and its players take the empty seats before it; the players still
    waiting then make new tables of *size* at the end, and any fewer than a table sit out.

    >>> seat_present(((0, 1, 2, 3), (4, 5, 6, 7)), (0, 1, 2, 3, 4, 6, 7, 8), 4)
    ((0, 1, 2, 3), (4, 8, 6, 7))
    >>> seat_present(((0, 1, 2, 3), (4, 5, 6, 7)), (0, 2, 3, 4, 5, 6, 7), 4)
    ((0, 4, 2, 3),)
    """
    here = set(present)
    seats: list[list[int | None]] = [[p if p in here else None for p in t] for t in tables]
    placed = {p for t in seats for p in t if p is not None}
    waiting = [p for p in present if p not in placed]
    while any(p is None for t in seats for p in t):
        if not waiting:
            waiting = [p for p in seats.pop() if p is not None]
            continue
        table, seat = next((t, s) for t in seats for s, p in enumerate(t) if p is None)
        table[seat] = waiting.pop(0)
    while len(waiting) >= size:
        seats.append(list(waiting[:size]))
        waiting = waiting[size:]
    return tuple(tuple(p for p in t if p is not None) for t in seats)


def sitting_out(tables: Sequence[Table], present: Collection[int]) -> tuple[int, ...]:
    """Returns the players in *present* that *tables* do not seat, in order."""
    seated = {p for t in tables for p in t}
    return tuple(p for p in sorted(present) if p not in seated)


def choose_sit_outs(present: Sequence[int], count: int,
                    sat_out: Collection[int] | Sequence[int] = ()) -> tuple[int, ...]:
    """Returns the *count* players of *present* (in the order they joined) who sit out a
    round: those who have sat out least (*sat_out* lists one entry per round a player sat
    out), and among them the last to join.

    >>> choose_sit_outs((0, 1, 2, 3, 4), 1, [4]), choose_sit_outs((0, 1, 2, 3, 4), 2)
    ((3,), (4, 3))
    """
    times = {p: 0 for p in present}
    for player in sat_out:
        if player in times:
            times[player] += 1
    order = sorted(range(len(present)), key=lambda i: (times[present[i]], -i))
    return tuple(present[i] for i in order[:count])
