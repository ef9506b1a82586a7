"""The names of the sides of a table (A, B, C..., as rulings, the notation and ``show`` write
them) and of its seats as people read them (1, 2, 3...)."""

from __future__ import annotations


def side_name(side: int) -> str:
    """Returns the letter of *side*, as rulings, the notation and ``show`` name it: 0 is A,
    1 is B...; 26 and on are AA, AB... .

    >>> side_name(0), side_name(2), side_name(27)
    ('A', 'C', 'AB')
    """
    if side < 26:
        return chr(ord("A") + side)
    return side_name(side // 26 - 1) + chr(ord("A") + side % 26)


def side_number(name: str) -> int:
    """Returns the side whose letter is *name* (the inverse of :func:`side_name`).

    >>> side_number("A"), side_number("AB")
    (0, 27)
    """
    number = 0
    for letter in name:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number - 1


def seat_name(seat: int) -> str:
    """Returns the number a person reads for *seat*: seats are counted from 1 at the table, in
    the ruling texts from version 3, ``show`` and the pictures, while the API, the events and
    the histories' data count them from 0.

    >>> seat_name(0), seat_name(9)
    ('1', '10')
    """
    return str(seat + 1)
