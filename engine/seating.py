"""Seating a round from the last one: the ``winners_move`` movement, and seating the players
still there after arrivals and withdrawals.

Pure functions over tables (tuples of player indices in seat order; seat *s* is on side
``s mod sides``, so partners sit ``sides`` seats apart). :mod:`engine.drives` names the
movements and folds the rounds these functions seat.

In ``winners_move`` the winning side of each table moves on to the next table (the last
table's winners go to table 1) and the losers stay; at every table the two who stayed
together, and the two who moved together, become opponents: each mover partners one who
stayed.

>>> winners_move(((0, 1, 2, 3), (4, 5, 6, 7)), (0, 1), 2)
((1, 3, 5, 7), (4, 6, 0, 2))
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

Table = tuple[int, ...]


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
